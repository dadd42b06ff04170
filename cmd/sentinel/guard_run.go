package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/gitsentinel/sentinel/contain"
	"github.com/gitsentinel/sentinel/internal/agentmark"

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
	var raw []byte
	var brokered func(string) error
	if e.mark != nil {
		brokered = func(dialect string) error { return brokeredAudit(ctx, dialect, raw) }
	}
	r := guard.Handle(ctx, guard.Event{
		Request: guard.Request{
			Input: func() ([]byte, error) {
				b, err := io.ReadAll(io.LimitReader(e.stdin, guard.MaxInput+1))
				raw = b
				return b, err
			},
			Dialect: hosts.Dialects[o.agent],
			NewEnv:  func(cwd string) *pathguard.Env { return pathguard.NewEnv(cwd, e.getenv) },
			Policy:  func() (*policy.Policy, error) { return loadGuardPolicy(e) },
			Getenv:  e.getenv,
		},
		Engine:    delegateEvent(e),
		Contain:   containSelf,
		AuditPath: pathguard.LogPath(e.getenv),
		Audit:     brokered,
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

// auditTimeout bounds the broker's audit of one event, well inside the
// hosts' hook timeout.
const auditTimeout = 2 * time.Second

// brokeredAudit has sentinel run's broker, outside the sandbox, decide the
// event again and append its own record to the audit trail, which is
// read-only inside. The broker is told the event, never the verdict.
func brokeredAudit(ctx context.Context, dialect string, raw []byte) error {
	ctx, cancel := context.WithTimeout(ctx, auditTimeout)
	defer cancel()
	resp, err := contain.Ask(ctx, agentmark.Socket, contain.Request{Op: contain.OpGuard, Agent: dialect, Event: string(raw)})
	if err != nil {
		return err
	}
	if resp.Code != 0 {
		return errors.New(strings.TrimSpace(resp.Stderr))
	}
	return nil
}

// containSelf is the sentinel a contained call runs under: this binary,
// by the absolute path the hook command ran it by (startedAs); an error
// where this platform has no sandbox.
func containSelf() (string, error) {
	if err := contain.Ready(); err != nil {
		return "", err
	}
	self := startedAs()
	if !filepath.IsAbs(self) {
		return "", fmt.Errorf("sentinel's own binary has no absolute path (%q)", self)
	}
	return self, nil
}

func loadGuardPolicy(e *env) (*policy.Policy, error) {
	root := pathguard.NewEnv(e.dir, e.getenv).Project
	return policy.LoadPolicy(pathguard.UserConfigPath(e.getenv), root)
}
