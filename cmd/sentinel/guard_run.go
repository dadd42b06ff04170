package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gitsentinel/sentinel/guard/audit"

	"github.com/gitsentinel/sentinel/guard/hosts"
	"github.com/gitsentinel/sentinel/guard/policy"

	"github.com/gitsentinel/sentinel/guard/pathguard"

	"github.com/gitsentinel/sentinel/guard/verdict"

	"github.com/gitsentinel/sentinel/guard"
	"github.com/gitsentinel/sentinel/internal/quote"
)

// guardOptions are the flags of `sentinel guard`.
type guardOptions struct {
	agent string
}

// runGuard answers one event in the agent's format. The answer is the
// verdict: a crash would let the call through on most hosts.
func runGuard(ctx context.Context, e *env, o guardOptions) error {
	d, dialect, policy := guard.Run(ctx, guard.Request{
		Input:   func() ([]byte, error) { return io.ReadAll(io.LimitReader(e.stdin, guard.MaxInput+1)) },
		Dialect: hosts.Dialects[o.agent],
		NewEnv:  func(cwd string) *pathguard.Env { return pathguard.NewEnv(cwd, e.getenv) },
		Policy:  func() (*policy.Policy, error) { return loadGuardPolicy(e) },
		Getenv:  e.getenv,
	})
	if d.NeedsEngine {
		// Code in the command needs a grammar this binary does not link:
		// the engine decides the event. Only when it cannot run does the
		// front's own answer, a denial, stand.
		err := delegateEvent(e, []byte(d.Raw))
		var he *hostExit
		if err == nil || errors.As(err, &he) {
			return err
		}
		fmt.Fprintf(e.stderr, "sentinel: %s\n", quote.Text(err.Error()))
	}
	if d.Verdict != verdict.Deny && policy != nil && policy.Checker != nil && d.Call != nil && d.Call.Kind != "" {
		checked, why := policy.Checker.Review(ctx, checkerInput(dialect, d))
		if checked.Verdict == verdict.Deny {
			// The refusal is of this call, for the audit trail.
			d = &guard.Decision{Outcome: checked, Call: d.Call}
			// The checker's words are for the person; Codex reads stderr
			// as the agent's reason, so they stay out of it there.
			if dialect.Name() != "codex" {
				fmt.Fprintln(e.stderr, why)
			}
		}
	}
	a := dialect.Answer(d.Outcome, d.Call)
	if _, err := e.stdout.Write(a.Stdout); err != nil {
		return err
	}
	if a.Stderr != "" {
		io.WriteString(e.stderr, a.Stderr)
	}
	auditGuard(e, dialect, policy, d)
	if a.Exit != 0 {
		return &hostExit{code: a.Exit}
	}
	return nil
}

func checkerInput(dialect hosts.Dialect, d *guard.Decision) policy.CheckerInput {
	in := policy.CheckerInput{Kind: "tool", Agent: dialect.Name(), Tool: d.Call.Tool, Paths: append(d.Call.Writes, d.Call.Reads...), Raw: d.Raw, Cwd: d.Call.Cwd}
	for _, c := range d.Commands {
		in.Commands = append(in.Commands, strings.Join(c.Argv, " "))
	}
	return in
}

func loadGuardPolicy(e *env) (*policy.Policy, error) {
	root := pathguard.NewEnv(e.dir, e.getenv).Project
	return policy.LoadPolicy(pathguard.UserConfigPath(e.getenv), root)
}

// auditGuard writes the guard's final decision to the audit trail. It can
// never change the verdict: a failure is one line on stderr, and the
// answer stands.
func auditGuard(e *env, dialect hosts.Dialect, policy *policy.Policy, d *guard.Decision) {
	err := audit.Audit(pathguard.LogPath(e.getenv), policy.LogMode(), dialect.Name(), d.Outcome, d.Call, e.dir, time.Now())
	if err != nil {
		fmt.Fprintf(e.stderr, "sentinel guard: the audit trail was not written: %s\n", strings.Join(strings.Fields(err.Error()), " "))
	}
}
