package languages

import (
	"path"
	"strings"
)

// A Rust test's name is its path in its crate, as cargo test prints it:
// the module path the file's place gives (src/simd/avx2.rs is simd::avx2,
// src/a/mod.rs is a), then the modules inside the file. A crate's root
// file (src/lib.rs, src/main.rs, src/bin/x.rs or src/bin/x/main.rs, and
// each tests/, benches/ and examples/ file or x/main.rs) adds nothing: an
// integration test is a crate of its own. A module of tests/ shared by
// its crates (tests/common/mod.rs) is named from tests/. The place is read
// from the path, below the last src directory, or else the first tests,
// benches or examples one; #[path] attributes are not followed.

// rustModulePath returns the module path a file's place gives.
func rustModulePath(p string) []string {
	segs := strings.Split(strings.TrimSuffix(p, ".rs"), "/")
	// The last src directory is a crate's (examples/demo/src/main.rs is
	// a crate of its own); else the first tests, benches or examples.
	root := -1
	for i, s := range segs[:len(segs)-1] {
		switch {
		case s == "src":
			root = i
		case root < 0 && (s == "tests" || s == "benches" || s == "examples"):
			root = i
		}
	}
	if root < 0 {
		return nil
	}
	rest := segs[root+1:]
	if segs[root] == "src" {
		switch {
		case len(rest) == 1 && (rest[0] == "lib" || rest[0] == "main"):
			return nil
		case rest[0] == "bin" && len(rest) >= 2:
			rest = rest[2:] // src/bin/x.rs, or src/bin/x/…: the crate x
		}
	} else if len(rest) == 1 || (len(rest) == 2 && rest[1] == "main") {
		return nil // tests/x.rs, tests/x/main.rs: a crate
	}
	if n := len(rest); n > 0 && rest[n-1] == "mod" {
		rest = rest[:n-1]
	}
	if len(rest) == 1 && rest[0] == "main" {
		return nil
	}
	return rest
}

// settleRust prefixes each test's name with the module path of its file.
func settleRust(r *Result, p Place) *Result {
	mods := rustModulePath(path.Clean(p.Path))
	if len(mods) == 0 || len(r.Tests) == 0 {
		return r
	}
	prefix := strings.Join(mods, "::") + "::"
	c := withTests(r)
	for i := range c.Tests {
		c.Tests[i].Name = prefix + c.Tests[i].Name
	}
	return c
}
