//go:build unix

package audit

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO planted where the trail goes would block a plain open for writing
// until someone reads it, and with it the agent's tool call.
func TestAppendLogRefusesAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "guard.jsonl")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() { done <- AppendLog(path, []byte("{}\n")) }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("AppendLog to a FIFO: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("AppendLog blocked on a FIFO")
	}
}
