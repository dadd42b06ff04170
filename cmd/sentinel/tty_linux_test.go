//go:build !sentinel_front

package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY returns the two ends of a new pseudo-terminal, or skips.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("ptsname: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open the terminal: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return m, s
}

// TestTrailersRefuseATerminal: with no FILE and a terminal on standard
// input, the trailers commands say what they read instead of waiting in
// silence.
func TestTrailersRefuseATerminal(t *testing.T) {
	_, tty := openPTY(t)
	for _, cmd := range []string{"check", "parse", "add"} {
		var stdout, stderr bytes.Buffer
		err := run([]string{"sentinel", "trailers", cmd}, tty, &stdout, &stderr, func(string) string { return "" })
		if err == nil || !strings.Contains(err.Error(), "standard input is a terminal: name a FILE, or pipe a message in, such as `git log -1 --format=%B | sentinel trailers "+cmd+" -`") {
			t.Errorf("trailers %s on a terminal: %v", cmd, err)
		}
	}
}
