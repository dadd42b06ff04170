package guard

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// MaxInput is the largest hook event the guard reads; a bigger one is denied.
const MaxInput = 1 << 20

// Deadline bounds one decision; past it the answer is no.
const Deadline = 250 * time.Millisecond

// denial is a decision that refuses for a reason of the guard's own.
func denial(id, reason string) *Decision {
	d := &Decision{}
	d.add(Finding{RuleID: id, Verdict: Deny, Reason: "sentinel guard [" + id + "]: " + reason})
	return d
}

// Decide reads an agent's pre-tool event in its dialect and decides,
// failing closed: input it cannot read, a panic, or a decision that takes
// past the deadline is a denial. newEnv builds the environment from the
// event's cwd.
func Decide(ctx context.Context, input []byte, dialect Dialect, newEnv func(cwd string) *Env, p *Policy, policyErr error) (d *Decision) {
	if len(input) > MaxInput {
		return denial("input.too-large", fmt.Sprintf("the hook event is larger than %d bytes; instead: split the command", MaxInput))
	}
	if policyErr != nil {
		return denial("config", policyErr.Error()+"; the guard denies everything until the configuration parses")
	}
	ctx, cancel := context.WithTimeout(ctx, Deadline)
	defer cancel()
	done := make(chan *Decision, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- denial("internal", fmt.Sprintf("the guard failed (%v); it denies when it cannot decide", r))
			}
		}()
		done <- decide(input, dialect, newEnv, p)
	}()
	select {
	case d = <-done:
		return d
	case <-ctx.Done():
		return denial("deadline", fmt.Sprintf("no decision within %v; instead: a simpler command", Deadline))
	}
}

func decide(input []byte, dialect Dialect, newEnv func(cwd string) *Env, p *Policy) *Decision {
	call, err := dialect.Parse(input)
	if err != nil {
		return denial("input.malformed", "the hook event is not a "+dialect.Name()+" pre-tool event the guard can read; it denies what it cannot read")
	}
	e := newEnv(call.Cwd)
	if p != nil && p.Strict {
		e.Strict = true
	}
	var d *Decision
	switch call.Kind {
	case "bash":
		d = EvaluateCommand(call.Command, e, p)
	case "write", "edit":
		d = &Decision{}
		for _, w := range call.Writes {
			for _, f := range EvaluateWrite(call.Kind, w, e, p).Findings {
				d.add(f)
			}
		}
	default:
		d = &Decision{}
	}
	d.Call = call
	return d
}

// ClaudeResponse is what Claude Code acts on: nothing for an allow (the
// host's own permissions go on; the guard never grants), else a
// PreToolUse decision. A MEDIUM warning becomes the host's ask.
func ClaudeResponse(d *Decision) []byte {
	decision := ""
	switch d.Verdict {
	case Deny:
		decision = "deny"
	case Ask, Warn:
		decision = "ask"
	default:
		return nil
	}
	out := map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName":            "PreToolUse",
		"permissionDecision":       decision,
		"permissionDecisionReason": d.Reason(),
	}}
	b, _ := json.Marshal(out)
	return append(b, '\n')
}
