//go:build unix

package install

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestReadRefusesAFIFOBehindALink: doctor reads a project's settings by
// plain paths, following links; a committed .claude/settings.json linked
// to a FIFO on the machine is refused at once, not waited on forever.
func TestReadRefusesAFIFOBehindALink(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	settings := filepath.Join(dir, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	if err := os.Symlink(fifo, settings); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := below("").read(settings)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a FIFO read as settings")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the read of a FIFO behind a link did not return")
	}
	// A regular file behind a link still reads.
	real := filepath.Join(dir, "real.json")
	os.WriteFile(real, []byte(`{"hooks":{}}`), 0o644)
	other := filepath.Join(dir, "other.json")
	os.Symlink(real, other)
	if b, err := below("").read(other); err != nil || string(b) != `{"hooks":{}}` {
		t.Errorf("a regular file behind a link: %q, %v", b, err)
	}
}
