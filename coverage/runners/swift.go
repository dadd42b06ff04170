package runners

import (
	"context"
	"path"
	"regexp"
	"strings"

	"github.com/gitsentinel/sentinel/languages"
)

// swiftKind reads Swift packages: swift test builds the sources of a
// package's test targets, and no other file of the package, whatever its
// name (a FooTests.swift in Sources/ is library code).
var swiftKind = runnerKind{
	config:    func(base string) bool { return base == "Package.swift" },
	languages: []*languages.Language{languages.Swift},
	build:     buildSwiftSelection,
}

// swiftSelection holds the snapshot's Swift packages by directory ("" for
// the root).
type swiftSelection struct {
	pkgs map[string]*swiftPackage
}

// swiftPackage is one Package.swift: the test targets it declares, or
// dynamic when it builds them in a way sentinel does not read.
type swiftPackage struct {
	dynamic bool
	targets []swiftTestTarget
}

// swiftTestTarget is one .testTarget: its directory relative to the
// package, and its sources and excludes relative to that directory.
type swiftTestTarget struct {
	name    string
	dir     string
	sources []string
	exclude []string
}

// buildSwiftSelection reads every Package.swift of the snapshot.
func buildSwiftSelection(ctx context.Context, pf *projectFiles) runnerSelection {
	sel := &swiftSelection{pkgs: map[string]*swiftPackage{}}
	for _, p := range pf.paths(func(base string) bool { return base == "Package.swift" }) {
		dir := path.Dir(p)
		if dir == "." {
			dir = ""
		}
		b := pf.read(ctx, p)
		if b == nil {
			sel.pkgs[dir] = &swiftPackage{dynamic: true}
			continue
		}
		pkg := parseSwiftManifest(b)
		for i := range pkg.targets {
			pkg.targets[i].dir = swiftTargetDir(pf, dir, pkg.targets[i])
		}
		sel.pkgs[dir] = pkg
	}
	if len(sel.pkgs) == 0 {
		return nil
	}
	return sel
}

// swiftTestDirs are where SwiftPM looks for a test target without a path,
// in its order of preference (PackageBuilder's predefinedTestDirectories).
var swiftTestDirs = []string{"Tests", "Sources", "Source", "src", "srcs"}

// swiftTargetDir returns the directory of a test target relative to its
// package: its path, else the first of swiftTestDirs holding a directory
// of its name.
func swiftTargetDir(pf *projectFiles, pkgDir string, t swiftTestTarget) string {
	if t.dir != "" {
		return t.dir
	}
	for _, d := range swiftTestDirs {
		if pf.isDir(path.Join(pkgDir, d, t.name)) {
			return d + "/" + t.name
		}
	}
	return "Tests/" + t.name
}

// decide answers for .swift files under a package: a file is a test file
// when one of the package's test targets builds it. A package whose test
// targets are not written as literals leaves its files to the name globs.
func (sel *swiftSelection) decide(p string) (*languages.Language, bool) {
	if path.Ext(p) != ".swift" {
		return nil, false
	}
	dir, pkg := nearestProject(p, sel.pkgs)
	if pkg == nil || pkg.dynamic {
		return nil, false
	}
	if path.Base(p) == "Package.swift" && path.Dir(p) == orDot(dir) {
		return nil, true
	}
	rel := strings.TrimPrefix(p, dir)
	rel = strings.TrimPrefix(rel, "/")
	for _, t := range pkg.targets {
		if t.builds(rel) {
			return languages.Swift, true
		}
	}
	return nil, true
}

// builds reports whether the target compiles the file at rel, a path
// relative to its package.
func (t *swiftTestTarget) builds(rel string) bool {
	in, ok := under(rel, t.dir)
	if !ok {
		return false
	}
	for _, x := range t.exclude {
		if _, ok := under(in, x); ok {
			return false
		}
	}
	if t.sources == nil {
		return true
	}
	for _, s := range t.sources {
		if _, ok := under(in, s); ok {
			return true
		}
	}
	return false
}

// under returns p relative to dir when p is dir itself or below it; dir ""
// or "." holds everything.
func under(p, dir string) (string, bool) {
	dir = strings.Trim(path.Clean("/"+dir), "/")
	switch {
	case dir == "":
		return p, true
	case p == dir:
		return "", true
	case strings.HasPrefix(p, dir+"/"):
		return p[len(dir)+1:], true
	}
	return "", false
}

// nearestProject returns the project whose directory is the nearest above
// the file at p, and that directory ("" for the root).
func nearestProject[T any](p string, projects map[string]*T) (string, *T) {
	for dir := path.Dir(p); ; dir = path.Dir(dir) {
		key := dir
		if dir == "." {
			key = ""
		}
		if pr := projects[key]; pr != nil {
			return key, pr
		}
		if dir == "." || dir == "/" {
			return "", nil
		}
	}
}

// orDot returns a project directory as path.Dir writes it: "." for the root.
func orDot(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}

// swiftTestTargetCall finds a .testTarget( call; swiftOtherTarget a test
// target declared another way.
var (
	swiftTestTargetCall = regexp.MustCompile(`\btestTarget\s*\(`)
	swiftOtherTarget    = regexp.MustCompile(`\btype\s*:\s*\.test\b`)
)

// parseSwiftManifest reads the literal arguments of each .testTarget( in
// a Package.swift, comments taken out first so that a target commented
// out is gone. A name, path, sources or exclude that is not a literal
// makes the package dynamic: sentinel cannot know what it builds.
func parseSwiftManifest(b []byte) *swiftPackage {
	src := stripSwiftComments(string(b))
	if swiftOtherTarget.MatchString(src) {
		// Target(name:, type: .test) and the like: a test target written
		// in a form sentinel does not read.
		return &swiftPackage{dynamic: true}
	}
	pkg := &swiftPackage{}
	for _, loc := range swiftTestTargetCall.FindAllStringIndex(src, -1) {
		args, ok := balancedArgs(src[loc[1]:])
		if !ok {
			return &swiftPackage{dynamic: true}
		}
		var t swiftTestTarget
		name := ""
		for _, arg := range args {
			label, value, found := strings.Cut(arg, ":")
			if !found {
				continue
			}
			var okv bool
			switch strings.TrimSpace(label) {
			case "name":
				name, okv = swiftString(value)
			case "path":
				t.dir, okv = swiftString(value)
			case "sources":
				t.sources, okv = swiftStrings(value)
				if t.sources == nil {
					t.sources = []string{}
				}
			case "exclude":
				t.exclude, okv = swiftStrings(value)
			default:
				okv = true
			}
			if !okv {
				return &swiftPackage{dynamic: true}
			}
		}
		if name == "" {
			return &swiftPackage{dynamic: true}
		}
		t.name = name
		pkg.targets = append(pkg.targets, t)
	}
	return pkg
}

// stripSwiftComments blanks // and /* */ comments outside string literals
// (Swift's block comments nest).
func stripSwiftComments(s string) string {
	var out strings.Builder
	depth := 0
	inString := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case depth > 0:
			switch {
			case strings.HasPrefix(s[i:], "/*"):
				depth++
				i++
			case strings.HasPrefix(s[i:], "*/"):
				depth--
				i++
			case c == '\n':
				out.WriteByte('\n')
			}
			continue
		case inString:
			out.WriteByte(c)
			if c == '\\' && i+1 < len(s) {
				i++
				out.WriteByte(s[i])
			} else if c == '"' || c == '\n' {
				inString = false
			}
			continue
		case strings.HasPrefix(s[i:], "//"):
			for i < len(s) && s[i] != '\n' {
				i++
			}
			out.WriteByte('\n')
			continue
		case strings.HasPrefix(s[i:], "/*"):
			depth = 1
			i++
			continue
		case c == '"':
			inString = true
		}
		out.WriteByte(c)
	}
	return out.String()
}

// balancedArgs splits the arguments of a call whose "(" has just been
// read, at top-level commas, strings and brackets respected. It reports
// false when the call does not close.
func balancedArgs(s string) ([]string, bool) {
	var args []string
	depth, start := 0, 0
	inString := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inString {
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				if a := strings.TrimSpace(s[start:i]); a != "" {
					args = append(args, a)
				}
				return args, true
			}
			depth--
		case ',':
			if depth == 0 {
				args = append(args, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return nil, false
}

// swiftLiteral matches one plain string literal, escapes included.
var swiftLiteral = regexp.MustCompile(`^"((?:[^"\\]|\\.)*)"$`)

// swiftString reads a value that is one plain string literal, without an
// interpolation.
func swiftString(v string) (string, bool) {
	m := swiftLiteral.FindStringSubmatch(strings.TrimSpace(v))
	if m == nil || strings.Contains(m[1], `\(`) {
		return "", false
	}
	return m[1], true
}

// swiftStrings reads a value that is an array of plain string literals.
func swiftStrings(v string) ([]string, bool) {
	v = strings.TrimSpace(v)
	if !strings.HasPrefix(v, "[") {
		return nil, false
	}
	items, ok := balancedArgs(v[1:])
	if !ok {
		return nil, false
	}
	var out []string
	for _, it := range items {
		if it == "" {
			continue // a trailing comma
		}
		s, ok := swiftString(it)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}
