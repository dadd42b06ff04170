package contain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"syscall"

	"golang.org/x/term"
)

// ErrUnavailable is wrapped by every refusal to run because no sandbox
// applies; its message names the fix.
var ErrUnavailable = errors.New("no sandbox applies")

// unavailable wraps ErrUnavailable with what is wrong and its fix.
func unavailable(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrUnavailable}, args...)...)
}

// Stdio is what the contained command reads and writes: normally the
// process's own, terminal included.
type Stdio struct {
	Stdin          *os.File
	Stdout, Stderr *os.File
}

// Run runs the policy's command in its sandbox and returns the command's
// exit status. It refuses, with ErrUnavailable, when no engine applies on
// this platform or the engine cannot build the sandbox; the command then
// never runs. The broker serves the sandbox's hooks for as long as it runs.
func Run(ctx context.Context, p *Policy, io Stdio, getenv func(string) string) (int, error) {
	switch runtime.GOOS {
	case "linux":
		return runBwrap(ctx, p, io, getenv)
	case "darwin":
		return runSeatbelt(ctx, p, io)
	}
	return 0, unavailable("sentinel run has no sandbox on %s (bubblewrap on Linux, sandbox-exec on macOS); run the agent on one of those", runtime.GOOS)
}

// Available reports whether sentinel run can contain a command here, by
// starting the engine once; the error says why not and names the fix.
func Available(ctx context.Context) error {
	switch runtime.GOOS {
	case "linux":
		bw := findBwrap()
		if bw == "" {
			return unavailable("bubblewrap is not installed (looked for %s); install it: run `sudo apt-get install bubblewrap`", strings.Join(BwrapPaths, ", "))
		}
		out, err := exec.CommandContext(ctx, bw, "--unshare-user", "--disable-userns", "--unshare-pid", "--ro-bind", "/", "/", "--proc", "/proc", "true").CombinedOutput()
		if err != nil {
			return namespaceError(strings.TrimSpace(string(out)), err)
		}
		return nil
	case "darwin":
		if _, err := os.Stat(sandboxExec); err != nil {
			return unavailable("%s is missing: sentinel run needs macOS's sandbox", sandboxExec)
		}
		return nil
	}
	return unavailable("sentinel run has no sandbox on %s (bubblewrap on Linux, sandbox-exec on macOS)", runtime.GOOS)
}

// Ready reports whether this platform has the engine sentinel run uses,
// without starting it: what the guard checks, within its deadline, before
// it rewrites a call to run under sentinel run --call. A sandbox the
// engine then cannot build still refuses the command, at its start.
func Ready() error {
	switch runtime.GOOS {
	case "linux":
		if findBwrap() == "" {
			return unavailable("bubblewrap is not installed (looked for %s); install it: run `sudo apt-get install bubblewrap`", strings.Join(BwrapPaths, ", "))
		}
		return nil
	case "darwin":
		if _, err := os.Stat(sandboxExec); err != nil {
			return unavailable("%s is missing: sentinel run needs macOS's sandbox", sandboxExec)
		}
		return nil
	}
	return unavailable("sentinel run has no sandbox on %s (bubblewrap on Linux, sandbox-exec on macOS)", runtime.GOOS)
}

// namespaceError explains a bwrap that cannot build a sandbox: nearly
// always unprivileged user namespaces switched off.
func namespaceError(out string, err error) error {
	fix := "allow unprivileged user namespaces: run `sudo sysctl -w kernel.unprivileged_userns_clone=1`"
	if v, rerr := os.ReadFile("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"); rerr == nil && strings.TrimSpace(string(v)) == "1" {
		fix = "AppArmor restricts unprivileged user namespaces (Ubuntu 24.04): allow them with `sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`, or give bwrap an AppArmor profile that permits userns"
	}
	if out == "" {
		out = err.Error()
	}
	return unavailable("bubblewrap cannot create a sandbox here (%s); %s", out, fix)
}

// runBwrap runs the command under bubblewrap, with the broker on a socket
// bound into the sandbox.
func runBwrap(ctx context.Context, p *Policy, stdio Stdio, getenv func(string) string) (int, error) {
	bw := findBwrap()
	if bw == "" {
		return 0, unavailable("bubblewrap is not installed (looked for %s); install it: run `sudo apt-get install bubblewrap`", strings.Join(BwrapPaths, ", "))
	}
	terminal := isTerminal(stdio.Stdin) || isTerminal(stdio.Stdout) || isTerminal(stdio.Stderr)
	var filter []byte
	if terminal {
		if filter = tiocstiFilter(); filter == nil {
			return 0, unavailable("sentinel run cannot keep a contained process from typing into the terminal on %s; run it without a terminal (COMMAND </dev/null)", runtime.GOARCH)
		}
	}
	br, err := startBroker(ctx, p, getenv)
	if err != nil {
		return 0, err
	}
	defer br.Close()

	args := bwrapArgs(p, bwrapSpec{run: hostRun(), socket: br.socket, empty: br.empty, terminal: terminal, isDir: isDir})
	cmd := exec.Command(bw, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdio.Stdin, stdio.Stdout, stdio.Stderr
	markR, err := dataPipe(p.Mark.Format())
	if err != nil {
		return 0, err
	}
	infoR, infoW, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	files := []*os.File{markR, infoW}
	if terminal {
		f, err := dataPipe(filter)
		if err != nil {
			return 0, err
		}
		files = append(files, f)
	}
	cmd.ExtraFiles = files
	// Signals a terminal sends go to its whole foreground group, the
	// sandbox included; the ones aimed at sentinel run alone are passed
	// on to bwrap, which dies of them, and --die-with-parent takes the
	// sandbox with it.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		return 0, unavailable("start %s: %v", bw, err)
	}
	for _, f := range files {
		f.Close()
	}
	info := make(chan bool, 1)
	go func() {
		b, _ := io.ReadAll(io.LimitReader(infoR, 4096))
		infoR.Close()
		info <- len(b) > 0
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var werr error
wait:
	for {
		select {
		case s := <-sigs:
			if s != syscall.SIGINT && s != syscall.SIGQUIT {
				_ = cmd.Process.Signal(s)
			}
		case werr = <-done:
			break wait
		}
	}
	if !<-info {
		// The sandbox never said it was up: bwrap could not build it,
		// and the command did not run. bwrap said why on stderr.
		return 0, unavailable("bubblewrap could not build the sandbox (%v; its message is above), so the command did not run; `sentinel doctor` says what is missing", werr)
	}
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal()), nil
		}
		return ee.ExitCode(), nil
	}
	if werr != nil {
		return 0, werr
	}
	return 0, nil
}

// dataPipe returns the read end of a pipe that holds data and is closed
// for writing, for bwrap to read from a descriptor.
func dataPipe(data []byte) (*os.File, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	if len(data) > 60000 {
		// A pipe holds 64 KiB before a write blocks; the data here is
		// a mark and a filter, far below.
		return nil, errors.New("pipe data too large")
	}
	_, err = w.Write(data)
	w.Close()
	if err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// isTerminal reports whether f is a terminal.
func isTerminal(f *os.File) bool {
	return f != nil && term.IsTerminal(int(f.Fd()))
}
