package guard

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/gitsentinel/sentinel/guard/internal/guardtest"
	"github.com/gitsentinel/sentinel/guard/verdict"
	"github.com/gitsentinel/sentinel/internal/gittest"
)

// TestAbortReadsTheTreeWithoutGit: deciding `git merge --abort` reads
// whether the work tree holds changes in-process, and runs no git at all:
// a repository whose core.fsmonitor names a program does not get it run
// by the guard, nor does the git first on PATH run. The verdict still
// follows the tree: an abort of a clean tree is let through, one that
// would throw an edit away is not.
func TestAbortReadsTheTreeWithoutGit(t *testing.T) {
	gittest.Isolate(t)
	e := guardtest.Env(t)
	dir := e.Project
	git := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "a.txt")
	git("commit", "-qm", "a")
	mark := filepath.Join(t.TempDir(), "ran")
	monitor := filepath.Join(t.TempDir(), "monitor")
	if err := os.WriteFile(monitor, []byte("#!/bin/sh\necho ran >> "+mark+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	git("config", "core.fsmonitor", monitor)
	// Age the file and let git record it, so that the index is newer.
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(dir, "a.txt"), old, old)
	git("-c", "core.fsmonitor=", "update-index", "--refresh")
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	ranGit := filepath.Join(t.TempDir(), "ran-git")
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\necho \"$*\" >> "+ranGit+"\nexec "+real+" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))

	for _, tc := range []struct {
		edit string
		want verdict.Verdict
	}{
		{"", verdict.Allow},
		{"a\nedited\n", verdict.Deny},
	} {
		if tc.edit != "" {
			os.WriteFile(filepath.Join(dir, "a.txt"), []byte(tc.edit), 0o644)
		}
		for _, cmd := range []string{"git merge --abort", "git rebase --abort"} {
			if d := EvaluateCommand(cmd, e, nil); d.Verdict != tc.want {
				t.Errorf("%q with the tree edited %v: %s, want %s (%s)", cmd, tc.edit != "", d.Verdict, tc.want, d.Reason())
			}
		}
	}
	if b, err := os.ReadFile(mark); err == nil {
		t.Errorf("deciding the abort ran the repository's core.fsmonitor:\n%s", b)
	}
	if b, err := os.ReadFile(ranGit); err == nil {
		t.Errorf("deciding the abort ran git:\n%s", b)
	}
	// The control: git itself, as the repository configures it, runs it.
	exec.Command("git", "-C", dir, "status").Run()
	if _, err := os.Stat(mark); err != nil {
		t.Skipf("this git does not run core.fsmonitor, so the check proves nothing here: %v", err)
	}
}
