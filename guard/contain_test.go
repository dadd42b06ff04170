package guard

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/guard/hosts"
	"github.com/gitsentinel/sentinel/guard/internal/guardtest"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/policy"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

// containHandle answers one sample event of the host named dialect under
// pol, with self as the sentinel a contained call runs under (or err).
func containHandle(t *testing.T, dialect, command string, pol *policy.Policy, self string, err error) Reply {
	t.Helper()
	ev, ok := hosts.SampleRewrite(dialect, command, "/home/agent-test/src/project")
	if !ok {
		ev, _, _ = hosts.SampleEvent(dialect, command, "/home/agent-test/src/project")
	}
	return Handle(context.Background(), Event{
		Request: Request{
			Input:   eventOf(string(ev)),
			Dialect: hosts.Dialects[dialect],
			NewEnv:  func(cwd string) *pathguard.Env { e := guardtest.CorpusEnv(); e.Cwd = cwd; return e },
			Policy:  func() (*policy.Policy, error) { return pol, nil },
		},
		AuditPath: filepath.Join(t.TempDir(), "guard.jsonl"),
		Cwd:       "/home/agent-test/src/project",
		Contain:   func() (string, error) { return self, err },
	})
}

// TestContainDecision: under [guard] contain an allowed shell call comes
// back rewritten to run under sentinel run --call, exactly; a denial, an
// ask and every call with contain off come back as they were; where no
// sandbox applies, the allowed call is refused with the fix.
func TestContainDecision(t *testing.T) {
	on, off := &policy.Policy{Contain: true}, &policy.Policy{}
	const self = "/opt/sentinel's bin/sentinel"
	hostile := "echo 'a' \"$(id -u)\" `date` > /tmp/o\nprintf '%s\\n' \"$HOME\""
	for _, dialect := range hosts.ContainingHosts() {
		r := containHandle(t, dialect, hostile, on, self, nil)
		if r.Decision.Verdict != verdict.Allow {
			t.Fatalf("%s: %s", dialect, r.Decision.Reason())
		}
		want := ContainedCommand(self, dialect, containShell(), hostile)
		var m map[string]any
		if err := json.Unmarshal(r.Stdout, &m); err != nil {
			t.Fatalf("%s: %v: %s", dialect, err, r.Stdout)
		}
		if got := findCommand(m); got != want {
			t.Errorf("%s: rewritten to\n%q\nwant\n%q", dialect, got, want)
		}
		if strings.Contains(string(r.Stdout), `"allow"`) {
			t.Errorf("%s: the rewrite grants: %s", dialect, r.Stdout)
		}
		// Off, the same call is answered as the host's own allow.
		plain := containHandle(t, dialect, hostile, off, self, nil)
		if strings.Contains(string(plain.Stdout), "sentinel' run") || strings.Contains(string(plain.Stdout), "run --call") {
			t.Errorf("%s: contain off rewrote: %s", dialect, plain.Stdout)
		}
		// A denial stays a denial, in the host's terms, with no rewrite.
		deny := containHandle(t, dialect, "git push --force origin main", on, self, nil)
		if deny.Decision.Verdict != verdict.Deny || strings.Contains(string(deny.Stdout), "--call") {
			t.Errorf("%s: a denial under contain: %+v", dialect, deny.Answer)
		}
		// No sandbox here: refused with the fix, never run unconfined.
		no := containHandle(t, dialect, "ls", on, "", errors.New("no sandbox applies: bubblewrap is not installed; install it: run `sudo apt-get install bubblewrap`"))
		if no.Decision.Verdict != verdict.Deny || !strings.Contains(no.Decision.Reason(), "apt-get install bubblewrap") {
			t.Errorf("%s: without a sandbox: %s", dialect, no.Decision.Reason())
		}
		if no.Exit == 0 && !strings.Contains(string(no.Stdout), "deny") && !strings.Contains(string(no.Stdout), `"cancel":true`) {
			t.Errorf("%s: a refusal the host cannot see: %+v", dialect, no.Answer)
		}
	}
	// An ask stays an ask, not rewritten.
	for _, dialect := range hosts.ContainingHosts() {
		ask := containHandle(t, dialect, "npm publish", on, self, nil)
		if ask.Decision.Verdict != verdict.Ask || strings.Contains(string(ask.Stdout), "--call") {
			t.Errorf("%s: an ask under contain: %s %s", dialect, ask.Decision.Verdict, ask.Stdout)
		}
	}
	// A relative path is never run.
	rel := containHandle(t, "claude", "ls", on, "sentinel", nil)
	if rel.Decision.Verdict != verdict.Deny {
		t.Errorf("a relative sentinel: %s", rel.Stdout)
	}
	// A host that cannot rewrite is answered as without contain.
	for _, dialect := range []string{"factory", "codex", "qwen"} {
		a, b := containHandle(t, dialect, "ls", on, self, nil), containHandle(t, dialect, "ls", off, self, nil)
		if string(a.Stdout) != string(b.Stdout) || a.Exit != b.Exit {
			t.Errorf("%s: contain changed the answer: %s", dialect, a.Stdout)
		}
	}
}

// findCommand is the first string under a "command" key, or the single
// item of a "commands" list, anywhere in v.
func findCommand(v any) string {
	if m, ok := v.(map[string]any); ok {
		if s, ok := m["command"].(string); ok {
			return s
		}
		if l, ok := m["commands"].([]any); ok && len(l) == 1 {
			s, _ := l[0].(string)
			return s
		}
		for _, e := range m {
			if s := findCommand(e); s != "" {
				return s
			}
		}
	}
	return ""
}

// TestContainedCommandQuoting: the contained command, read by sh, hands
// the original to the inner shell byte for byte, whatever it holds.
func TestContainedCommandQuoting(t *testing.T) {
	for _, s := range []string{
		"ls", "echo 'single' \"double\"", "a\nb\n", "$(id) `id` ${HOME} $((1+1))", `back\slash\`, "'", "''", `'\''`,
		"tab\there", "!bang", "* ? [x]", "emoji ✓", "end with space ",
	} {
		line := ContainedCommand("/p a'th/sentinel", "claude", "/bin/sh", s)
		// sh reads the line as a command with its arguments; print them.
		out, err := exec.Command("/bin/sh", "-c", `set -- `+line+`; for a; do printf '%s\0' "$a"; done`).Output()
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		args := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		want := []string{"/p a'th/sentinel", "run", "--call", "--agent", "claude", "--", "/bin/sh", "-c", s}
		if strings.Join(args, "\x01") != strings.Join(want, "\x01") {
			t.Errorf("%q reads back as %q", s, args)
		}
	}
}
