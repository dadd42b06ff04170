//go:build !unix

package chaos

import (
	"os"
	"os/exec"
	"syscall"
	"time"
)

// supported reports whether the probes can run here: they need process
// groups and POSIX signals, which this system lacks.
const supported = false

func ownGroup(*exec.Cmd) {}

func sendSignal(int, syscall.Signal, bool) {}

func waitGroupGone(int, time.Duration) bool { return true }

func exitOf(ps *os.ProcessState) (int, syscall.Signal) { return ps.ExitCode(), 0 }
