package guard

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gitsentinel/sentinel/guard/hosts"
	"github.com/gitsentinel/sentinel/guard/internal/guardtest"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/policy"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

// handleEvent is a Claude Code event for a command, in the corpus's project.
func handleEvent(command string) string {
	return `{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"/home/agent-test/src/project","tool_input":{"command":` + jsonString(command) + `}}`
}

func jsonString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// TestHandleFailsClosed runs every branch of an event's one sequence, from
// one table: each way an event can go wrong ends in a denial in the host's
// own terms, and what only concerns the person (an engine that cannot
// answer, the checker's words, an audit trail that cannot be written) is a
// line on stderr that never changes the verdict.
func TestHandleFailsClosed(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	refuse := &policy.Policy{Checker: &policy.Checker{Argv: []string{script("refuse", `cat >/dev/null; echo '{"allowed": false, "reason": "deploys need a ticket"}'`)}, Timeout: 2 * time.Second}}
	approve := &policy.Policy{Checker: &policy.Checker{Argv: []string{script("approve", `cat >/dev/null; echo '{"allowed": true}'`)}, Timeout: 2 * time.Second}}
	unwritable := filepath.Join(script("file", ""), "guard.jsonl") // below a file: never a directory
	for _, tc := range []struct {
		name    string
		dialect string
		input   func() ([]byte, error)
		policy  func() (*policy.Policy, error)
		newEnv  func(string) *pathguard.Env
		audit   string
		want    verdict.Verdict
		rule    string // the rule of the denial, in the reason
		stderr  string // a line the person reads
		noStdrr string // what stderr must not hold
	}{
		{name: "allowed", input: eventOf(handleEvent("git status")), want: verdict.Allow},
		{name: "destructive", input: eventOf(handleEvent("git push --force origin main")), want: verdict.Deny, rule: "git.force-push"},
		{name: "unreadable event", input: eventOf(`{"tool_name":`), want: verdict.Deny, rule: "input.malformed"},
		{name: "unreadable stdin", input: func() ([]byte, error) { return nil, errors.New("broken pipe") }, dialect: "claude", want: verdict.Deny, rule: "input.malformed"},
		{name: "stdin that never ends", input: func() ([]byte, error) { time.Sleep(2 * Deadline); return nil, nil }, dialect: "claude", want: verdict.Deny, rule: "deadline"},
		{name: "too large", input: eventOf(handleEvent(strings.Repeat("x", MaxInput))), want: verdict.Deny, rule: "input.too-large"},
		{name: "configuration that does not parse", input: eventOf(handleEvent("ls")), policy: func() (*policy.Policy, error) { return nil, errors.New(".sentinel/config.toml:3:1: bad") }, want: verdict.Deny, rule: "config"},
		{name: "a panic", input: eventOf(handleEvent("ls")), newEnv: func(string) *pathguard.Env { panic("boom") }, want: verdict.Deny, rule: "internal"},
		{name: "checker refuses", input: eventOf(handleEvent("make deploy")), policy: func() (*policy.Policy, error) { return refuse, nil }, want: verdict.Deny, rule: "checker", stderr: "deploys need a ticket"},
		{name: "checker's words stay out of Codex's reason", dialect: "codex", input: eventOf(`{"hook_event_name":"PreToolUse","session_id":"s","turn_id":"t","tool_name":"Bash","cwd":"/home/agent-test/src/project","tool_input":{"command":"make deploy"}}`), policy: func() (*policy.Policy, error) { return refuse, nil }, want: verdict.Deny, rule: "checker", noStdrr: "ticket"},
		{name: "checker approves", input: eventOf(handleEvent("make deploy")), policy: func() (*policy.Policy, error) { return approve, nil }, want: verdict.Allow},
		{name: "checker is not asked about a denial", input: eventOf(handleEvent("git push --force origin main")), policy: func() (*policy.Policy, error) { return approve, nil }, want: verdict.Deny, rule: "git.force-push"},
		{name: "audit trail unwritable", input: eventOf(handleEvent("git push --force origin main")), audit: unwritable, want: verdict.Deny, rule: "git.force-push", stderr: "the audit trail was not written"},
		{name: "no place for the audit trail", input: eventOf(handleEvent("git push --force origin main")), audit: "-", want: verdict.Deny, rule: "git.force-push", stderr: "export XDG_STATE_HOME"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := Event{
				Request: Request{
					Input:  tc.input,
					NewEnv: func(cwd string) *pathguard.Env { e := guardtest.CorpusEnv(); e.Cwd = cwd; return e },
					Policy: func() (*policy.Policy, error) { return &policy.Policy{}, nil },
				},
				AuditPath: filepath.Join(t.TempDir(), "guard.jsonl"),
				Cwd:       "/home/agent-test/src/project",
			}
			if tc.dialect != "" {
				ev.Dialect = hosts.Dialects[tc.dialect]
			}
			if tc.policy != nil {
				ev.Policy = tc.policy
			}
			if tc.newEnv != nil {
				ev.NewEnv = tc.newEnv
			}
			switch tc.audit {
			case "":
			case "-":
				ev.AuditPath = ""
			default:
				ev.AuditPath = tc.audit
			}
			r := Handle(context.Background(), ev)
			if r.Decision == nil || r.Decision.Verdict != tc.want {
				t.Fatalf("decision %+v, want %s", r.Decision, tc.want)
			}
			if tc.rule != "" && !strings.Contains(r.Decision.Reason(), "["+tc.rule) {
				t.Errorf("reason %q, want rule %s", r.Decision.Reason(), tc.rule)
			}
			if tc.want == verdict.Deny && len(r.Stdout) == 0 && r.Exit == 0 {
				t.Errorf("a denial the host cannot see: %+v", r.Answer)
			}
			if tc.want == verdict.Allow && (r.Exit != 0 || strings.Contains(string(r.Stdout), "deny")) {
				t.Errorf("an allow answered as %+v", r.Answer)
			}
			if tc.stderr != "" && !strings.Contains(r.Stderr, tc.stderr) {
				t.Errorf("stderr %q, want %q", r.Stderr, tc.stderr)
			}
			if tc.noStdrr != "" && strings.Contains(r.Stderr, tc.noStdrr) {
				t.Errorf("stderr %q holds %q", r.Stderr, tc.noStdrr)
			}
		})
	}
}

func eventOf(s string) func() ([]byte, error) {
	return func() ([]byte, error) { return []byte(s), nil }
}
