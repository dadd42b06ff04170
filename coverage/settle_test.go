package coverage

import (
	"context"
	"reflect"
	"sort"
	"testing"

	"github.com/gitsentinel/sentinel/languages"
)

// testStatuses returns "path name status" for each test, with the
// platforms when there are some, sorted.
func testStatuses(c *Counts) []string {
	var out []string
	for _, f := range c.Files {
		for _, t := range f.Tests {
			s := f.Path + " " + t.Name + " " + string(t.Status)
			for _, p := range t.Platforms {
				s += " " + p
			}
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// TestGoReleaseFromGoMod checks that release tags are read against the go
// line of the nearest go.mod of the same snapshot, that a file for another
// platform stays active with its platforms named, and that the directories
// go test ./... leaves out are not counted.
func TestGoReleaseFromGoMod(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "go.mod", "module example.com/a\n\ngo 1.25.0\n")
	write(t, dir, "new_test.go", "//go:build go1.27\n\npackage a\nfunc TestNew(t *testing.T) {}\n")
	write(t, dir, "old_test.go", "//go:build !(go1.27 && !legacy)\n\npackage a\nfunc TestOld(t *testing.T) {}\n")
	write(t, dir, "win_windows_test.go", "package a\nfunc TestWin(t *testing.T) {}\n")
	write(t, dir, "sub/go.mod", "module example.com/a/sub\n\ngo 1.27\n")
	write(t, dir, "sub/new_test.go", "//go:build go1.27\n\npackage sub\nfunc TestNew(t *testing.T) {}\n")
	write(t, dir, "_old/a_test.go", twoTests)
	write(t, dir, ".hidden/a_test.go", twoTests)
	run(t, dir, nil, "add", "-A")
	run(t, dir, nil, "commit", "-q", "-m", "go.mod")
	want := []string{
		"a_test.go TestA active", "a_test.go TestB active",
		"new_test.go TestNew skipped", "old_test.go TestOld active",
		"sub/new_test.go TestNew active", "win_windows_test.go TestWin active windows",
	}
	for _, mode := range []Mode{WorkTree, Index, Rev} {
		c := count(t, Options{Dir: dir, Mode: mode, Rev: "HEAD", Excludes: []string{"**/*.py"}})
		if got := testStatuses(c); !reflect.DeepEqual(got, want) {
			t.Errorf("mode %d: %q, want %q", mode, got, want)
		}
	}
	// A second count reads the results from the cache, and settles them
	// all the same.
	c := count(t, Options{Dir: dir, Mode: WorkTree, Excludes: []string{"**/*.py"}})
	if c.Parsed != 0 {
		t.Errorf("parsed %d files on a warm cache", c.Parsed)
	}
	if got := testStatuses(c); !reflect.DeepEqual(got, want) {
		t.Errorf("warm: %q, want %q", got, want)
	}
}

// TestGoReleaseInLosses checks that the files a commit changes are read
// against the go.mod of their own tree, which the comparison does not list:
// a test that runs under the module's release and is removed is a loss.
func TestGoReleaseInLosses(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "go.mod", "module example.com/a\n\ngo 1.25.0\n")
	write(t, dir, "old_test.go", "//go:build !go1.27\n\npackage a\nfunc TestOld(t *testing.T) {}\nfunc TestKept(t *testing.T) {}\n")
	run(t, dir, nil, "add", "-A")
	run(t, dir, nil, "commit", "-q", "-m", "old")
	write(t, dir, "old_test.go", "//go:build !go1.27\n\npackage a\nfunc TestKept(t *testing.T) {}\n")
	run(t, dir, nil, "commit", "-q", "-am", "drop TestOld")
	ls, err := CommitLosses(context.Background(), Options{Dir: dir}, "HEAD", "HEAD~1", &Baseline{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != 1 || ls[0].Name != "TestOld" || ls[0].Cause != LostMissing {
		t.Errorf("losses %+v, want TestOld missing", ls)
	}
}

// TestRustMacroTestsInLosses checks that the tests a macro of the file
// writes are tests like any other: one removed from the macro's call is a
// loss under its name and module path, one renamed in the call is not.
func TestRustMacroTestsInLosses(t *testing.T) {
	dir := newRepo(t)
	const macro = "#[cfg(test)]\nmod tests {\n    macro_rules! t {\n        ($($name:ident($v:expr))*) => {\n" +
		"            $( #[test] fn $name() { assert_eq!(f($v), $v); } )*\n        };\n    }\n"
	write(t, dir, "src/num/mod.rs", macro+"    t! {\n        zero(0)\n        one(1)\n        two(2)\n    }\n}\n")
	run(t, dir, nil, "add", "-A")
	run(t, dir, nil, "commit", "-q", "-m", "macro tests")
	c := count(t, Options{Dir: dir, Mode: Rev, Rev: "HEAD", Paths: []string{"src"}})
	want := []string{"src/num/mod.rs num::tests::one active", "src/num/mod.rs num::tests::two active", "src/num/mod.rs num::tests::zero active"}
	if got := testStatuses(c); !reflect.DeepEqual(got, want) {
		t.Errorf("%q, want %q", got, want)
	}
	write(t, dir, "src/num/mod.rs", macro+"    t! {\n        zero(0)\n        three(2)\n    }\n}\n")
	run(t, dir, nil, "commit", "-q", "-am", "drop one, rename two")
	ls, err := CommitLosses(context.Background(), Options{Dir: dir}, "HEAD", "HEAD~1", &Baseline{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != 1 || ls[0].Name != "num::tests::one" || ls[0].Cause != LostMissing || ls[0].Assertions != 1 {
		t.Errorf("losses %+v, want num::tests::one missing, with its assertion", ls)
	}
}

// TestGoReleaseAbovePlainFiles checks that plain files, counted outside any
// repository, read the go.mod above the directory counted.
func TestGoReleaseAbovePlainFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "go.mod", "module example.com/a\n\ngo 1.25\n")
	write(t, dir, "sub/new_test.go", "//go:build go1.27\n\npackage sub\nfunc TestNew(t *testing.T) {}\n")
	write(t, dir, "sub/old_test.go", "//go:build !(go1.27 && !legacy)\n\npackage sub\nfunc TestOld(t *testing.T) {}\n")
	for _, target := range []string{"sub", "sub/new_test.go"} {
		c, err := CountTargets(context.Background(), dir, []string{target}, Options{Mode: WorkTree})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Files) == 0 {
			t.Errorf("%s: nothing counted", target)
		}
		for _, f := range c.Files {
			for _, tt := range f.Tests {
				if want := map[string]languages.Status{"TestNew": languages.Skipped, "TestOld": languages.Active}[tt.Name]; tt.Status != want {
					t.Errorf("%s: %s is %s, want %s", target, tt.Name, tt.Status, want)
				}
			}
		}
	}
}
