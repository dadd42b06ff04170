package gitrepo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gitsentinel/sentinel/internal/gittest"
)

// TestGitRunsNoProgramTheRepositoryNames plants, in a repository's own
// .git/config, every setting that makes git run a program the commands
// sentinel runs would reach (the file-system monitor, an external diff, a
// pager), each a script that leaves a mark; the git commands sentinel runs
// run none.
func TestGitRunsNoProgramTheRepositoryNames(t *testing.T) {
	gittest.Isolate(t)
	dir := gittest.Repo(t)
	mark := filepath.Join(t.TempDir(), "ran")
	script := filepath.Join(t.TempDir(), "evil")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho \"$0 $*\" >> "+mark+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644)
	for _, argv := range [][]string{{"add", "a.txt"}, {"-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "a"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, argv...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", argv, err, out)
		}
	}
	for _, kv := range [][2]string{{"core.fsmonitor", script}, {"diff.external", script}, {"core.pager", script}} {
		if out, err := exec.Command("git", "-C", dir, "config", kv[0], kv[1]).CombinedOutput(); err != nil {
			t.Fatalf("git config: %v\n%s", err, out)
		}
	}
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("b\n"), 0o644)
	ctx := context.Background()
	for _, argv := range [][]string{ArgvStatusTracked, ArgvDiffFiles, ArgvChangesWorkTree, {"log", "-1"}} {
		if _, err := (Exec{}).Run(ctx, dir, nil, argv...); err != nil {
			t.Fatalf("git %v: %v", argv, err)
		}
	}
	if _, err := (&Git{Dir: dir}).Toplevel(ctx); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(mark); err == nil {
		t.Errorf("git ran the repository's program:\n%s", b)
	}
	// The control: git as the repository configures it runs the monitor.
	exec.Command("git", "-C", dir, "status").Run()
	if _, err := os.ReadFile(mark); err != nil {
		t.Skipf("this git does not run core.fsmonitor, so the check proves nothing here: %v", err)
	}
}
