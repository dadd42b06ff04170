package live_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLiveGuardTest runs `sentinel guard test --live` as a user would, with
// the pinned Claude Code and Qwen Code on PATH: each host's live turn in a
// throwaway repository refuses the call sentinel refuses and runs the
// everyday one.
func TestLiveGuardTest(t *testing.T) {
	modules, bins := need(t)
	for _, bin := range []string{"claude", "qwen"} {
		if _, err := os.Stat(filepath.Join(modules, ".bin", bin)); err != nil {
			t.Skipf("%s is not installed: %v", bin, err)
		}
	}
	home := t.TempDir()
	repo := filepath.Join(home, "repo")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	path := strings.Join([]string{bins, filepath.Join(modules, ".bin"), os.Getenv("PATH")}, ":")
	env := []string{"PATH=" + path, "HOME=" + home, "TMPDIR=" + t.TempDir(), "GIT_CONFIG_NOSYSTEM=1"}
	if out, err := run(repo, env, 30*time.Second, "git", "init", "-q"); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	sentinel := filepath.Join(bins, "sentinel")
	for _, a := range []string{"claude", "qwen"} {
		if out, err := run(repo, env, time.Minute, sentinel, "guard", "install", "--agent", a, "--project"); err != nil {
			t.Fatalf("guard install --agent %s: %v\n%s", a, err, out)
		}
	}
	out, err := run(repo, env, 6*time.Minute, sentinel, "guard", "test", "--live")
	if err != nil {
		t.Fatalf("sentinel guard test --live: %v\n%s", err, out)
	}
	for _, a := range []string{"claude", "qwen"} {
		if !strings.Contains(out, a+strings.Repeat(" ", 8-len(a))+" enforces, live") {
			t.Errorf("%s: no live turn that enforces:\n%s", a, out)
		}
	}
	if !strings.Contains(out, "[git.no-verify") || !strings.Contains(out, "ran touch sentinel-live-check.txt") {
		t.Errorf("the report does not show the refusal and the everyday call:\n%s", out)
	}
	t.Logf("%s", out)
}
