package main

import (
	"context"
	"io"

	"github.com/gitsentinel/sentinel/guard"
	"github.com/gitsentinel/sentinel/guard/hosts"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/policy"
)

// guardOptions are the flags of `sentinel guard`.
type guardOptions struct {
	agent string
}

// runGuard answers one event in the agent's format. The answer is the
// verdict: a crash would let the call through on most hosts. guard.Handle
// owns the event's whole sequence; this only wires the process to it.
func runGuard(ctx context.Context, e *env, o guardOptions) error {
	r := guard.Handle(ctx, guard.Event{
		Request: guard.Request{
			Input:   func() ([]byte, error) { return io.ReadAll(io.LimitReader(e.stdin, guard.MaxInput+1)) },
			Dialect: hosts.Dialects[o.agent],
			NewEnv:  func(cwd string) *pathguard.Env { return pathguard.NewEnv(cwd, e.getenv) },
			Policy:  func() (*policy.Policy, error) { return loadGuardPolicy(e) },
			Getenv:  e.getenv,
		},
		Engine:    delegateEvent(e),
		AuditPath: pathguard.LogPath(e.getenv),
		Cwd:       e.dir,
	})
	reportVerdict(e, r)
	if _, err := e.stdout.Write(r.Stdout); err != nil {
		return err
	}
	if r.Stderr != "" {
		io.WriteString(e.stderr, r.Stderr)
	}
	if r.Exit != 0 {
		return &hostExit{code: r.Exit}
	}
	return nil
}

func loadGuardPolicy(e *env) (*policy.Policy, error) {
	root := pathguard.NewEnv(e.dir, e.getenv).Project
	return policy.LoadPolicy(pathguard.UserConfigPath(e.getenv), root)
}
