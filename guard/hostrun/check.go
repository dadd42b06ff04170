package hostrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// The calls a check makes, and what shows that each ran.
const (
	// CheckRefused is the call the guard must refuse: the commit it makes
	// skips git's hooks.
	CheckRefused = "git commit --no-verify -m sentinel-live-check"
	// CheckAllowed is an everyday call the guard lets run.
	CheckAllowed = "touch sentinel-live-check.txt"
	// refusedRule is the rule that refuses CheckRefused.
	refusedRule = "git.no-verify"
)

// CheckResult is what a live check of one host found.
type CheckResult struct {
	// Agent is sentinel's name for the host; Program the host's CLI that
	// ran, by its path.
	Agent   string `json:"agent"`
	Program string `json:"program"`
	// Refused reports that the refused call had no effect and sentinel's
	// reason reached the model; Reason is the tool result the model got.
	Refused bool   `json:"refused"`
	Reason  string `json:"reason"`
	// Allowed reports that the everyday call ran.
	Allowed bool `json:"allowed"`
	// Problem says what went wrong, when either did not hold or the host
	// could not be run.
	Problem string `json:"problem,omitempty"`
	// Elapsed is the check's wall time in milliseconds.
	Elapsed int64 `json:"elapsed_ms"`
}

// Holds reports that the host enforced the guard and let the everyday
// call run.
func (r *CheckResult) Holds() bool { return r.Refused && r.Allowed && r.Problem == "" }

// Check runs the host's CLI at program for two scripted turns in a
// throwaway repository and home under scratch: one call the guard must
// refuse and an everyday one. The guard is installed into the repository
// with sentinel (the front binary at the path given), whose directory
// comes first on the host's PATH; path is the rest of it (the user's).
// It shows that this host, at the version installed here, honours
// sentinel's answers; the user's own settings are checked apart, without
// a model.
func (h *Host) Check(ctx context.Context, program, sentinel, scratch string, path []string) *CheckResult {
	start := time.Now()
	r := &CheckResult{Agent: h.Agent, Program: program}
	defer func() { r.Elapsed = time.Since(start).Milliseconds() }()
	fail := func(format string, args ...any) *CheckResult {
		r.Problem = fmt.Sprintf(format, args...)
		return r
	}
	path = append([]string{filepath.Dir(sentinel)}, path...)
	turn := func(name, command string) (*Session, *Outcome, error) {
		s, err := h.prepare(ctx, filepath.Join(scratch, name), sentinel, path)
		if err != nil {
			return nil, nil, err
		}
		calls, err := h.Scripted(Shell, Args{Command: command})
		if err != nil {
			return nil, nil, err
		}
		o, err := h.Turn(ctx, program, s, path, calls)
		if err != nil {
			return nil, nil, err
		}
		if o.TimedOut {
			return nil, nil, fmt.Errorf("%s did not finish in time", h.Bin)
		}
		if !o.Made {
			return nil, nil, fmt.Errorf("%s never offered its shell tool (%s) to the model", h.Bin, strings.Join(Names(calls), ", "))
		}
		return s, o, nil
	}
	s, o, err := turn("refused", CheckRefused)
	if err != nil {
		return fail("%v", err)
	}
	r.Reason = o.Result
	committed := exec.CommandContext(ctx, "git", "-C", s.Repo, "rev-parse", "-q", "--verify", "HEAD").Run() == nil
	switch {
	case committed:
		return fail("%s ran %q with the guard installed: it does not enforce sentinel's answer", h.Bin, CheckRefused)
	case !o.Returned || !strings.Contains(o.Result, refusedRule):
		r.Refused = true
		return fail("%s refused the call, but sentinel's reason (%s) did not reach the model", h.Bin, refusedRule)
	}
	r.Refused = true
	s, _, err = turn("allowed", CheckAllowed)
	if err != nil {
		return fail("%v", err)
	}
	if _, err := os.Lstat(filepath.Join(s.Repo, "sentinel-live-check.txt")); err != nil {
		return fail("%s did not run the everyday call %q with the guard installed", h.Bin, CheckAllowed)
	}
	r.Allowed = true
	return r
}

// prepare makes a session's repository (one staged file, no commit) and
// home under dir, and installs the guard into the repository's settings.
func (h *Host) prepare(ctx context.Context, dir, sentinel string, path []string) (*Session, error) {
	s := &Session{Home: filepath.Join(dir, "home"), Repo: filepath.Join(dir, "repo"), Tmp: filepath.Join(dir, "tmp"), Guarded: true}
	for _, d := range []string{s.Home, s.Repo, s.Tmp, filepath.Join(s.Home, ".config")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	if err := os.WriteFile(filepath.Join(s.Repo, "README.md"), []byte("sentinel live check\n"), 0o644); err != nil {
		return nil, err
	}
	env := s.Env(path, nil)
	for _, args := range [][]string{
		{"git", "init", "-q"},
		{"git", "config", "user.name", "sentinel live check"},
		{"git", "config", "user.email", "live-check@localhost"},
		{"git", "add", "README.md"},
		{sentinel, "guard", "install", "--agent", h.Agent, "--project"},
	} {
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		cmd := exec.CommandContext(ctx, args[0], args[1:]...)
		cmd.Dir, cmd.Env = s.Repo, env
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			return nil, fmt.Errorf("%s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
		}
	}
	if h.AfterInstall != nil {
		if err := h.AfterInstall(s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// ErrNoHost is returned by Find for a host whose CLI is not on PATH.
var ErrNoHost = errors.New("not on PATH")

// Find returns the host's CLI on PATH, as the user would start it.
func (h *Host) Find(lookPath func(string) (string, error)) (string, error) {
	p, err := lookPath(h.Bin)
	if err != nil {
		return "", fmt.Errorf("%s: %w", h.Bin, ErrNoHost)
	}
	return p, nil
}
