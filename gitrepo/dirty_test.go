package gitrepo

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTrackedChanges checks the in-process answer to "would an abort
// throw work away" against the states a work tree can be in, and against
// git status where git's answer is the same question.
func TestTrackedChanges(t *testing.T) {
	dir := indexRepo(t)
	ctx := context.Background()
	check := func(what string, want bool) {
		t.Helper()
		got, err := TrackedChanges(dir, 1<<20)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got != want {
			t.Errorf("%s: changes %v, want %v", what, got, want)
		}
	}
	// git status agrees where nothing is staged: a refresh, then the
	// work tree against the index.
	status := func() bool {
		t.Helper()
		out, err := (Exec{}).Run(ctx, dir, nil, ArgvStatusTracked...)
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out)) != ""
	}
	restore := func() {
		t.Helper()
		gitT(t, dir, "checkout", "-q", "--", ".")
		ageFiles(t, dir)
	}
	check("a clean tree", false)
	if status() {
		t.Fatal("git status: the fresh tree is not clean")
	}

	// Touched, not changed: the stat data differs and the content does not.
	now := time.Now()
	if err := os.Chtimes(filepath.Join(dir, "a_test.go"), now, now); err != nil {
		t.Fatal(err)
	}
	check("a touched file", false)

	writeFile(t, dir, "a_test.go", "package a // edited\n")
	check("an edited file", true)
	if !status() {
		t.Fatal("git status: the edit is not seen")
	}
	restore()
	check("the edit undone", false)

	// Same size, times put back: the change time tells, the hash decides.
	p := filepath.Join(dir, "same/size_test.go")
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "same/size_test.go", "package s // 2\n")
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	check("an edit of the same size", true)
	// git itself may not see this edit (it compares whole seconds), so
	// its checkout would leave it: the content is put back by hand.
	writeFile(t, dir, "same/size_test.go", "package s // 1\n")
	restore()
	check("the same-size edit undone", false)

	os.Remove(filepath.Join(dir, "gone_test.go"))
	check("a deleted file", true)
	restore()

	os.Chmod(filepath.Join(dir, "exec.sh"), 0o644)
	check("an executable bit dropped", true)
	restore()

	os.Remove(filepath.Join(dir, "link_test.go"))
	os.Symlink("dir/b_test.go", filepath.Join(dir, "link_test.go"))
	check("a link pointed elsewhere", true)
	restore()

	writeFile(t, dir, "new_test.go", "package n\n")
	gitT(t, dir, "add", "-N", "new_test.go")
	check("a file intended to be added", true)
	gitT(t, dir, "rm", "-q", "--cached", "new_test.go")
	os.Remove(filepath.Join(dir, "new_test.go"))
	ageFiles(t, dir)
	check("the intent dropped", false)

	// More to hash than the bound: not known.
	now = time.Now()
	os.Chtimes(filepath.Join(dir, "deep/a/b/c/d/e/f.txt"), now, now)
	if _, err := TrackedChanges(dir, 10); !errors.Is(err, ErrDirtyUnknown) {
		t.Errorf("a file past the bound: %v, want ErrDirtyUnknown", err)
	}
	ageFiles(t, dir)

	// A conflict, then its resolution staged: both are work an abort
	// throws away. A merge stopped before its commit, with nothing of the
	// person's in it, is not.
	gitT(t, dir, "checkout", "-q", "-b", "side")
	writeFile(t, dir, "a_test.go", "package a // side\n")
	writeFile(t, dir, "dir/b_test.go", "package b // side\n")
	gitT(t, dir, "commit", "-qam", "side")
	gitT(t, dir, "checkout", "-q", "main")
	writeFile(t, dir, "a_test.go", "package a // main\n")
	gitT(t, dir, "commit", "-qam", "main")
	ageFiles(t, dir)
	if _, err := (Exec{}).Run(ctx, dir, nil, "merge", "-q", "side"); err == nil {
		t.Fatal("the merge did not conflict")
	}
	check("a conflict", true)
	writeFile(t, dir, "a_test.go", "package a // both\n")
	gitT(t, dir, "add", "a_test.go")
	ageFiles(t, dir)
	check("a conflict resolved and staged", true)
	gitT(t, dir, "merge", "--abort")
	ageFiles(t, dir)
	check("the merge aborted", false)
	gitT(t, dir, "checkout", "-q", "-b", "side2", "side")
	writeFile(t, dir, "dir/sub/c.py", "def test_c(): return\n")
	gitT(t, dir, "commit", "-qam", "side2")
	gitT(t, dir, "checkout", "-q", "main")
	gitT(t, dir, "merge", "-q", "--no-commit", "--no-ff", "side2", "-X", "ours")
	ageFiles(t, dir)
	check("a merge stopped before its commit", false)
}

// TestTrackedChangesUnknown: where the repository is not one the reader
// knows for certain, the answer is unknown, never a guess.
func TestTrackedChangesUnknown(t *testing.T) {
	dir := indexRepo(t)
	t.Setenv("GIT_DIR", filepath.Join(dir, ".git"))
	if _, err := TrackedChanges(dir, 1<<20); !errors.Is(err, ErrDirtyUnknown) {
		t.Errorf("GIT_DIR set: %v, want ErrDirtyUnknown", err)
	}
	os.Unsetenv("GIT_DIR")
	if _, err := TrackedChanges(t.TempDir(), 1<<20); !errors.Is(err, ErrDirtyUnknown) {
		t.Errorf("outside a repository: %v, want ErrDirtyUnknown", err)
	}
}
