// Package hostrun drives a real agent host's CLI for one scripted turn
// against a fake model on loopback: the host offers its tools, the model
// calls one, the host runs it through its own hook machinery and sends the
// result back. The live tests use it for every host that installs, and
// `sentinel guard test --live` for the hosts on a user's PATH, to show that
// the host really honours the guard's answers.
//
// Each host's entry says how to point its CLI at the fake model (its
// settings in a fresh home, its environment, its command line) and how it
// names its shell, write and read tools. Nothing here leaves the machine:
// the model listens on 127.0.0.1 and refuses other peers.
package hostrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/gitsentinel/sentinel/internal/fakemodel"
)

// Kind is a kind of tool call the model makes.
type Kind string

// The kinds of call.
const (
	// Shell runs a command line.
	Shell Kind = "shell"
	// Write creates a file.
	Write Kind = "write"
	// Read reads a file.
	Read Kind = "read"
)

// Args are what a scripted call acts on.
type Args struct {
	Command string // Shell: the command line
	Path    string // Write, Read: the absolute path
	Content string // Write: the text
}

// Host is one agent host's CLI, as a turn runs it.
type Host struct {
	// Agent is sentinel's name for it (--agent).
	Agent string
	// Package is the npm package that ships it; Bin is its program's name
	// on PATH and under node_modules/.bin.
	Package, Bin string
	// Exe, when set, is the program's path under node_modules instead (a
	// platform package that declares no bin).
	Exe string
	// Kinds are the kinds of call the host has tools for.
	Kinds []Kind
	// Call returns the tool calls of a kind in the host's own terms: the
	// first whose tool a request offers is made (a host offers one of
	// several shell tools, by model).
	Call func(k Kind, a Args) []fakemodel.Call
	// Start writes what the host needs to talk to the model (its settings
	// in s.Home or s.Repo) and returns its command line and the
	// environment to add.
	Start func(s *Session) (argv, env []string, err error)
	// AfterInstall does what a person must do once the guard is installed
	// (trusting it), when the host needs it.
	AfterInstall func(s *Session) error
	// WriteTo is the file the write call creates, relative to the
	// repository, when the host itself refuses writes into .git.
	WriteTo string
	// Timeout bounds one run (90 s when zero).
	Timeout time.Duration
	// Refusal, when set, returns the reason of a refusal the host sends
	// the model no result for (a hook's cancel that ends the task), from
	// where the host keeps it in the session's home.
	Refusal func(s *Session) (string, bool)
	// ReadShows is what in a read call's result shows that the read ran:
	// the secret itself when empty; the text around it for a host that
	// masks secrets in what its read tool returns.
	ReadShows string
	// HangRuns records that the host runs a call when its hook outlives
	// the timeout install writes; AskRuns that, run headless, it runs a
	// call the guard answers with ask. Both verified live.
	HangRuns, AskRuns bool
	// HangSkip, when set, says why the live tests do not hang the guard
	// for this host (a timeout too long for the suite), and what is known.
	HangSkip string
}

// Session is one run of a host: its directories and the model's address.
type Session struct {
	// Home is the host's HOME, fresh for the run; Repo the repository it
	// works in; Tmp its TMPDIR.
	Home, Repo, Tmp string
	// URL is the fake model's base URL.
	URL string
	// Guarded reports that the guard is installed in Repo.
	Guarded bool
	// Program and Path are the host's program and PATH for this run, set
	// by Turn, for a host whose settings its own CLI writes.
	Program string
	Path    []string
	// Wrap, when set, is a command line the host's runs under: the host
	// is started as Wrap followed by its own (`sentinel run --`).
	Wrap []string
}

// WriteHome writes a file under the session's home.
func (s *Session) WriteHome(rel, text string) error {
	path := filepath.Join(s.Home, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

// Env is a host's whole environment for a session: nothing of the caller's
// own but PATH, the session's home and directories, and extra.
func (s *Session) Env(path []string, extra []string) []string {
	env := []string{
		"PATH=" + strings.Join(path, ":"),
		"HOME=" + s.Home,
		"USER=live", "LOGNAME=live", "SHELL=/bin/bash",
		"XDG_CONFIG_HOME=" + filepath.Join(s.Home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(s.Home, ".cache"),
		"XDG_STATE_HOME=" + filepath.Join(s.Home, ".local", "state"),
		"XDG_DATA_HOME=" + filepath.Join(s.Home, ".local", "share"),
		"TMPDIR=" + s.Tmp,
		"TERM=dumb", "NO_COLOR=1", "LANG=C.UTF-8",
		"GIT_CONFIG_NOSYSTEM=1",
	}
	return append(env, extra...)
}

// Outcome is what one turn did.
type Outcome struct {
	// Output is what the host printed.
	Output string
	// Called is the call the model made; Made reports that it made one.
	Called fakemodel.Call
	Made   bool
	// Result is the tool result the host sent back, or the reason of a
	// refusal it sent none for (Host.Refusal); Returned reports that there
	// is one.
	Result   string
	Returned bool
	// Elapsed is the run's wall time; TimedOut reports that it was cut
	// short.
	Elapsed  time.Duration
	TimedOut bool
	// Summary is the model's log, a line a request.
	Summary string
}

// Turn runs the host at exe for one scripted turn in the session: the
// model makes the first of calls whose tool a request offers, then ends.
// path is the host's PATH. An error is a turn that could not be run (the
// model, the host's settings, the program); what the host did is in the
// Outcome.
func (h *Host) Turn(ctx context.Context, exe string, s *Session, path []string, calls []fakemodel.Call) (*Outcome, error) {
	srv, err := fakemodel.Start(fakemodel.Script{Pick: func(tools []fakemodel.Tool) (fakemodel.Call, bool) {
		for _, c := range calls {
			for _, t := range tools {
				if t.Name == c.Name {
					return c, true
				}
			}
		}
		return fakemodel.Call{}, false
	}, Final: "Finished."})
	if err != nil {
		return nil, fmt.Errorf("start the model: %w", err)
	}
	defer srv.Close()
	s.URL, s.Program, s.Path = srv.URL, exe, path
	argv, extra, err := h.Start(s)
	if err != nil {
		return nil, fmt.Errorf("%s's settings: %w", h.Bin, err)
	}
	timeout := h.Timeout
	if timeout == 0 {
		timeout = 90 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	line := append(append(append([]string{}, s.Wrap...), exe), argv[1:]...)
	cmd := exec.CommandContext(ctx, line[0], line[1:]...)
	cmd.Dir, cmd.Env = s.Repo, s.Env(path, extra)
	cmd.Stdin = nil
	// The host and all it starts are one process group, killed together:
	// what it leaves running (a server, a hook) goes with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err = cmd.Run()
	o := &Outcome{Elapsed: time.Since(start), TimedOut: ctx.Err() != nil}
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) && !o.TimedOut {
		return nil, fmt.Errorf("run %s: %w", line[0], err)
	}
	o.Output = out.String()
	o.Called, o.Made = srv.Called()
	o.Result, o.Returned = srv.Result()
	if !o.Returned && h.Refusal != nil {
		o.Result, o.Returned = h.Refusal(s)
	}
	o.Summary = srv.Summary()
	return o, nil
}

// Scripted returns the host's calls of kind k with a's arguments.
func (h *Host) Scripted(k Kind, a Args) ([]fakemodel.Call, error) {
	c := h.Call(k, a)
	if len(c) == 0 {
		return nil, fmt.Errorf("%s has no %s tool", h.Bin, k)
	}
	return c, nil
}

// Names are the tool names of calls.
func Names(calls []fakemodel.Call) []string {
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i] = c.Name
	}
	return out
}

// Hosts are the hosts a turn can run, by sentinel's agent name.
var Hosts = map[string]*Host{}

func register(hs ...*Host) {
	for _, h := range hs {
		Hosts[h.Agent] = h
	}
}
