//go:build unix

package gitrepo

import (
	"os/exec"
	"syscall"
)

// ownGroup runs git in a process group of its own. A Ctrl-C at the
// terminal goes to the foreground group: sentinel stops, and a git that is
// writing the index finishes and removes its index.lock, rather than
// dying between taking the lock and setting up the handler that would
// remove it, which leaves a lock that blocks every later git command.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
