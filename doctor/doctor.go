// Package doctor checks what protects a repository and its user: sentinel
// itself, the project's and the user's configuration, the git hooks
// (sentinel's own, run through a hook manager, or chained behind one), the
// baseline, the allowed signers, and the guard in each coding agent's
// settings. Each check is a Finding, ok, missing, broken or advice, with the
// exact command or edit that fixes it; a Report is data, which WriteText
// and WriteJSON render.
//
// A report is healthy when nothing is missing or broken: advice (an agent's
// settings directory without the guard, a hook chain that runs sentinel
// twice) never makes it unhealthy. A guard is missing only where it was
// installed and is gone (guard install's record, or the committed copy of
// the project's settings, says it was there), or where [guard] expect
// names the agent.
package doctor

import (
	"context"
	"fmt"
	"os/exec"
	"slices"

	"github.com/gitsentinel/sentinel/internal/quote"
)

// Status is how a finding stands.
type Status string

const (
	// OK is a protection in place.
	OK Status = "ok"
	// Missing is a protection that is not there and should be.
	Missing Status = "missing"
	// Broken is one that is there and does not work: a file that does not
	// read, an entry that does nothing.
	Broken Status = "broken"
	// Advice is worth knowing, and no gap.
	Advice Status = "advice"
)

// Finding is one thing doctor found.
type Finding struct {
	// Status is ok, missing, broken or advice.
	Status Status `json:"status"`
	// Subject is what the finding is about: sentinel, config,
	// user-config, signers, ssh-keygen, repository, hook/NAME, baseline,
	// containment, or guard/AGENT.
	Subject string `json:"subject"`
	// Message says what was found, with paths and names as they are.
	Message string `json:"message"`
	// Fix is the command or edit that fixes it; "" when there is
	// nothing to do.
	Fix string `json:"fix"`
	// text and fixText are Message and Fix for people, every value from
	// the repository or the file system quoted.
	text, fixText string
}

// Text is the finding's message for people: each path and name quoted
// as the text output quotes them.
func (f Finding) Text() string {
	if f.text == "" {
		return quote.Text(f.Message)
	}
	return f.text
}

// FixText is the fix for people, quoted as Text is.
func (f Finding) FixText() string {
	if f.fixText == "" {
		return quote.Text(f.Fix)
	}
	return f.fixText
}

// Gap reports a finding that is missing or broken.
func (f Finding) Gap() bool { return f.Status == Missing || f.Status == Broken }

// Report is what Check found, in the order it checked.
type Report struct {
	Findings []Finding
}

// Healthy reports a report without a gap: every finding ok or advice.
func (r *Report) Healthy() bool {
	return !slices.ContainsFunc(r.Findings, Finding.Gap)
}

// Fixes lists the fixes of the gaps, each once, in order.
func (r *Report) Fixes() []string {
	var out []string
	for _, f := range r.Findings {
		if f.Gap() && f.Fix != "" && !slices.Contains(out, f.Fix) {
			out = append(out, f.Fix)
		}
	}
	return out
}

// Options say where doctor looks.
type Options struct {
	// Dir is the directory it runs in: the repository is the one that
	// holds it, if any.
	Dir string
	// Getenv reads the environment: HOME, XDG_CONFIG_HOME and
	// XDG_STATE_HOME say where the user's files are.
	Getenv func(string) string
	// LookPath finds a program on PATH; exec.LookPath when nil.
	LookPath func(string) (string, error)
}

// Check runs every check. An error is a check that could not run at all
// (git failing on the repository): the report would not tell the truth.
func Check(ctx context.Context, o Options) (*Report, error) {
	if o.LookPath == nil {
		o.LookPath = exec.LookPath
	}
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	c := &checker{ctx: ctx, o: o}
	if err := c.run(); err != nil {
		return nil, err
	}
	return &Report{Findings: c.findings}, nil
}

// checker collects findings.
type checker struct {
	ctx      context.Context
	o        Options
	findings []Finding
}

// add records a finding; fix may be the zero msg.
func (c *checker) add(st Status, subject string, fix, m msg) {
	c.findings = append(c.findings, Finding{Status: st, Subject: subject, Message: m.raw, Fix: fix.raw, text: m.text, fixText: fix.text})
}

// msg is a message twice over: for people, each value from outside
// quoted, and as it is, for JSON.
type msg struct{ text, raw string }

// path and text mark the arguments of say that come from outside: a path
// is quoted as quote.Path quotes it, text as quote.Text does.
type (
	path string
	text string
)

// say formats a message for people and for JSON at once.
func say(format string, args ...any) msg {
	t := make([]any, len(args))
	r := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case path:
			t[i], r[i] = quote.Path(string(v)), string(v)
		case text:
			t[i], r[i] = quote.Text(string(v)), string(v)
		default:
			t[i], r[i] = v, v
		}
	}
	return msg{fmt.Sprintf(format, t...), fmt.Sprintf(format, r...)}
}

// plain is a message that holds nothing from outside.
func plain(s string) msg { return msg{s, s} }

// upgradeSentinel is the fix for a sentinel that is missing or too old.
// There is no release to `go install …@latest` yet: the way in is the
// source and its Makefile, which installs the front and the engine.
const upgradeSentinel = "make install   # in a clone of sentinel's source"
