//go:build unix

package chaos

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// supported reports whether the probes can run here: they need process
// groups and POSIX signals.
const supported = true

// ownGroup starts the command in a process group of its own. A terminal's
// Ctrl-C reaches every process of the foreground group, sentinel and the
// git it runs alike, and the probe needs the group to do the same and to
// know when the last of them has exited.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// sendSignal sends sig to the process pid, or with group to its whole group.
func sendSignal(pid int, sig syscall.Signal, group bool) {
	if group {
		pid = -pid
	}
	_ = syscall.Kill(pid, sig)
}

// waitGroupGone waits until no process of the group pgid is left, reaping
// the ones that were orphaned to the probe, and reports whether that
// happened within timeout. A git that sentinel started keeps running after
// sentinel is killed alone, and the checks must not race with it.
func waitGroupGone(pgid int, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for {
		for {
			var ws syscall.WaitStatus
			pid, err := syscall.Wait4(-pgid, &ws, syscall.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
		}
		if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(time.Millisecond)
	}
}

// exitOf returns a finished process's exit status, or -1 and the signal
// that ended it.
func exitOf(ps *os.ProcessState) (int, syscall.Signal) {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -1, ws.Signal()
	}
	return ps.ExitCode(), 0
}
