//go:build unix

package githooks

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestHooksBehindALinkToAFIFO: a hook that is a link to a FIFO (a hooks
// directory the repository commits can hold one) is read without waiting:
// doctor's status, install and uninstall all return.
func TestHooksBehindALinkToAFIFO(t *testing.T) {
	dir := repo(t)
	hooks := filepath.Join(dir, ".git", "hooks")
	os.MkdirAll(hooks, 0o755)
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	if err := os.Symlink(fifo, filepath.Join(hooks, "pre-commit")); err != nil {
		t.Fatal(err)
	}
	for name, run := range map[string]func() error{
		"status":    func() error { _, err := Status(context.Background(), dir); return err },
		"uninstall": func() error { _, err := Uninstall(context.Background(), dir); return err },
		"install":   func() error { _, err := Install(context.Background(), InstallOptions{Dir: dir, Bin: "/x"}); return err },
	} {
		done := make(chan error, 1)
		go func() { done <- run() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s waited on a FIFO behind a hook's link", name)
		}
	}
}
