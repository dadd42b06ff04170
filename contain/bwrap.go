package contain

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gitsentinel/sentinel/internal/agentmark"
)

// BwrapPaths are where bubblewrap is looked for, by absolute path only: a
// bwrap found on the agent's PATH could be the agent's own.
var BwrapPaths = []string{"/usr/bin/bwrap", "/bin/bwrap"}

// findBwrap returns the first of BwrapPaths that is an executable file.
func findBwrap() string {
	for _, p := range BwrapPaths {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// The descriptors bwrap is handed, past stdin, stdout and stderr.
const (
	markFD    = 3 // the mark's bytes, for --ro-bind-data
	readyFD   = 4 // the sandbox writes here once every mount is applied
	seccompFD = 5 // the TIOCSTI filter, when a terminal passes through
)

// runEntry is one entry of the host's /run, bound back into the sandbox's
// own /run.
type runEntry struct {
	name string
	// link is a symbolic link's target, or "".
	link string
}

// hostRun lists the host's /run.
func hostRun() []runEntry {
	ents, err := os.ReadDir("/run")
	if err != nil {
		return nil
	}
	var out []runEntry
	for _, e := range ents {
		if e.Name() == "sentinel" {
			continue
		}
		re := runEntry{name: e.Name()}
		if e.Type()&os.ModeSymlink != 0 {
			re.link, _ = os.Readlink(filepath.Join("/run", e.Name()))
		}
		out = append(out, re)
	}
	return out
}

// bwrapSpec is what the arguments depend on besides the policy.
type bwrapSpec struct {
	// run is the host's /run.
	run []runEntry
	// socket is the broker's socket outside, or "" for none.
	socket string
	// terminal reports that a terminal passes through: no new session
	// (a TUI needs its controlling terminal for job control and window
	// sizes), and the seccomp filter against TIOCSTI instead.
	terminal bool
	// isDir tells a hidden directory from a hidden file.
	isDir func(string) bool
	// empty is an empty read-only file outside, bound over each hidden
	// file so that it reads as empty; "" binds /dev/null, which a
	// bind's nodev makes unreadable instead.
	empty string
}

// bwrapArgs builds bubblewrap's command line for the policy. bwrap
// applies its mounts in order, so the order is the policy's: the whole
// system read-only; fresh /dev, /proc, /tmp; the sandbox's own /run with
// the mark; then the writable binds, parents first; the approval
// machinery read-only on top of them; the secrets last.
func bwrapArgs(p *Policy, s bwrapSpec) []string {
	a := []string{
		// The sandbox dies with sentinel run, and sentinel run with it.
		"--die-with-parent",
		// Its own user namespace, and no further one inside: a nested
		// namespace could mount over the mark.
		"--unshare-user", "--disable-userns",
		// Its own process tree: no process outside is visible, so none
		// can be reached through /proc/PID/root or signalled.
		"--unshare-pid", "--unshare-ipc", "--unshare-cgroup-try",
		"--ro-bind", "/", "/",
		"--dev", "/dev",
		"--proc", "/proc",
	}
	for _, f := range p.Fresh {
		a = append(a, "--tmpfs", f)
	}
	// /run is a tmpfs of the sandbox's own, so that /run/sentinel can be
	// made in it; the host's entries come back read-only beside it.
	a = append(a, "--tmpfs", "/run")
	for _, e := range s.run {
		dst := "/run/" + e.name
		if e.link != "" {
			a = append(a, "--symlink", e.link, dst)
		} else {
			a = append(a, "--ro-bind", dst, dst)
		}
	}
	a = append(a, "--dir", agentmark.Dir, "--ro-bind-data", strconv.Itoa(markFD), agentmark.Path)
	if s.socket != "" {
		a = append(a, "--bind", s.socket, agentmark.Socket)
	}
	a = append(a, "--remount-ro", "/run")
	for _, v := range p.Visible {
		a = append(a, "--ro-bind", v, v)
	}
	for _, w := range p.Writable {
		a = append(a, "--bind", w, w)
	}
	for _, d := range p.Pinned {
		a = append(a, "--bind", d, d)
	}
	for _, r := range p.ReadOnly {
		a = append(a, "--ro-bind", r, r)
	}
	for _, h := range p.Hidden {
		if s.isDir(h) {
			a = append(a, "--tmpfs", h, "--remount-ro", h)
		} else {
			src := s.empty
			if src == "" {
				src = "/dev/null"
			}
			a = append(a, "--ro-bind", src, h)
		}
	}
	for _, kv := range p.Env {
		k, v, _ := strings.Cut(kv, "=")
		a = append(a, "--setenv", k, v)
	}
	if s.terminal {
		a = append(a, "--seccomp", strconv.Itoa(seccompFD))
	} else {
		a = append(a, "--new-session")
	}
	// bwrap reports a mount it cannot apply the way the command reports
	// a failure (exit status 1), so the command is started by a shell
	// that first says every mount is in place; without that word,
	// sentinel run knows the command never ran. The shell closes the
	// descriptor before the command starts.
	a = append(a, "--chdir", p.Dir, "--", "/bin/sh", "-c", readyScript, "sentinel-run")
	return append(a, p.Command...)
}

// readyScript says the sandbox is up on readyFD, then runs the command.
const readyScript = `printf ok >&4 && exec 4>&- && exec "$@"`

// isDir reports whether p is a directory.
func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
