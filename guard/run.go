package guard

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gitsentinel/sentinel/guard/hosts"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/policy"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

// MaxInput is the largest hook event the guard reads; a bigger one is denied.
const MaxInput = 1 << 20

// Deadline bounds one decision; past it the answer is no.
const Deadline = 250 * time.Millisecond

// denial is a decision that refuses for a reason of the guard's own.
func Denial(id, reason string) *Decision {
	d := &Decision{}
	d.Add(verdict.Finding{RuleID: id, Verdict: verdict.Deny, Reason: verdict.Reason(id, reason, "")})
	return d
}

// Request is what one guard run reads, all of it inside the deadline: the
// event, the configuration, and the files the decision looks at.
type Request struct {
	// Input reads the event (the hook's stdin), at most MaxInput+1 bytes.
	Input func() ([]byte, error)
	// Dialect is the agent's; nil recognises it from the event.
	Dialect hosts.Dialect
	// NewEnv builds the environment from the event's absolute cwd.
	NewEnv func(cwd string) *pathguard.Env
	// Policy loads the configuration.
	Policy func() (*policy.Policy, error)
	// Getenv reads the hook's environment, where Amp names the tool; nil
	// is an empty environment.
	Getenv func(string) string
}

// Run decides on one event, failing closed: an event it cannot read, a
// configuration it cannot read, a panic, or anything that takes past the
// deadline (a stalled stdin, a configuration on a device that never ends)
// is a denial. It returns the dialect to answer in and the policy, when
// one was read.
func Run(ctx context.Context, r Request) (*Decision, hosts.Dialect, *policy.Policy) {
	ctx, cancel := context.WithTimeout(ctx, Deadline)
	defer cancel()
	type result struct {
		d       *Decision
		dialect hosts.Dialect
		policy  *policy.Policy
	}
	done := make(chan result, 1)
	go func() {
		res := result{dialect: r.Dialect}
		defer func() {
			if p := recover(); p != nil {
				res.d = Denial("internal", fmt.Sprintf("the guard failed (%v); it denies when it cannot decide", p))
			}
			done <- res
		}()
		input, err := r.Input()
		getenv := r.Getenv
		if getenv == nil {
			getenv = func(string) string { return "" }
		}
		if res.dialect == nil {
			res.dialect = hosts.DetectIn(input, getenv)
		}
		if ed, ok := res.dialect.(hosts.EnvDialect); ok {
			res.dialect = ed.WithEnv(getenv)
		}
		if err != nil {
			res.d = Denial("input.malformed", "cannot read the event: "+err.Error())
			return
		}
		policy, perr := r.Policy()
		res.policy = policy
		res.d = decideInput(input, res.dialect, r.NewEnv, policy, perr)
	}()
	select {
	case res := <-done:
		if res.dialect == nil {
			res.dialect = hosts.Claude{}
		}
		return res.d, res.dialect, res.policy
	case <-ctx.Done():
		dialect := r.Dialect
		if dialect == nil {
			dialect = hosts.Claude{}
		}
		return Denial("deadline", fmt.Sprintf("no decision within %v; instead: a simpler command", Deadline)), dialect, nil
	}
}

// Decide reads an agent's pre-tool event in its dialect and decides,
// failing closed, within the deadline.
func Decide(ctx context.Context, input []byte, dialect hosts.Dialect, newEnv func(cwd string) *pathguard.Env, p *policy.Policy, policyErr error) *Decision {
	d, _, _ := Run(ctx, Request{
		Input:   func() ([]byte, error) { return input, nil },
		Dialect: dialect,
		NewEnv:  newEnv,
		Policy:  func() (*policy.Policy, error) { return p, policyErr },
	})
	return d
}

func decideInput(input []byte, dialect hosts.Dialect, newEnv func(cwd string) *pathguard.Env, p *policy.Policy, policyErr error) *Decision {
	if len(input) > MaxInput {
		return Denial("input.too-large", fmt.Sprintf("the hook event is larger than %d bytes; instead: split the command", MaxInput))
	}
	if policyErr != nil {
		return Denial("config", policyErr.Error()+"; the guard denies everything until the configuration parses")
	}
	call, err := dialect.Parse(input)
	if err != nil {
		return Denial("input.malformed", "the hook event is not a "+dialect.Name()+" pre-tool event the guard can read ("+
			strings.TrimPrefix(err.Error(), hosts.ErrUnreadable.Error()+": ")+"); it denies what it cannot read")
	}
	// A relative cwd (".", "./") resolves against the hook's own working
	// directory, which the host sets to the session's; unresolvable, no.
	if call.Cwd != "" && !filepath.IsAbs(call.Cwd) {
		abs, err := filepath.Abs(call.Cwd)
		if err != nil {
			return Denial("input.cwd", "the event's cwd "+strconv.Quote(call.Cwd)+" cannot be resolved")
		}
		call.Cwd = abs
	}
	e := newEnv(call.Cwd)
	p.Configure(e)
	var d *Decision
	switch call.Kind {
	case "bash":
		d = EvaluateCommand(call.Command, e, p)
	case "nonposix":
		d = EvaluateNonPOSIX(call.Shell, call.Command, e, p)
	case "write", "edit":
		d = &Decision{}
		for _, w := range call.Writes {
			for _, f := range EvaluateWrite(call.Kind, w, e, p).Findings {
				d.Add(f)
			}
		}
	case "read":
		d = &Decision{}
		for _, r := range call.Reads {
			for _, f := range EvaluateRead(call.Tool, r, e, p).Findings {
				d.Add(f)
			}
		}
	default:
		d = &Decision{}
	}
	d.Call = call
	d.Raw = string(input)
	return d
}
