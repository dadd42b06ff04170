package guard

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/guard/install"
)

// TestSelfTestReadsTheHooksAnswers: the self-test runs each installed
// command as the host does and reads its answer as the host would: a deny
// in the host's terms enforces; no answer fails open; the installed
// command's own refusal, with sentinel missing, enforces but answers no
// call; and output the host cannot read is no decision.
func TestSelfTestReadsTheHooksAnswers(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	missing, err := install.Targets["claude"].HookCommand("/nonexistent/sentinel", false)
	if err != nil {
		t.Fatal(err)
	}
	// A stand-in for sentinel: it denies a force push in Claude Code's
	// terms, and lets the rest through.
	denyJSON := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`
	fake := `if grep -q 'push --force'; then echo '` + denyJSON + `'; fi`
	for _, tc := range []struct {
		name                string
		command             string
		refused, allowed    string
		enforcing, answered bool
	}{
		{"a guard", fake + "; exit 0; sentinel guard --agent claude", "deny", "allow", true, true},
		{"an entry that lets all through", "exit 0; sentinel guard --agent claude", "allow", "allow", false, true},
		{"output the host cannot read", "echo hello; exit 0; sentinel guard --agent claude", "no decision: exit 0, stdout hello", "no decision: exit 0, stdout hello", false, true},
		{"sentinel missing", missing, failClosed, failClosed, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			settings := map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{
				"matcher": "Bash", "hooks": []any{map[string]any{"type": "command", "command": tc.command}},
			}}}}
			b, _ := json.Marshal(settings)
			p := filepath.Join(root, ".claude", "settings.json")
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := SelfTest(context.Background(), SelfTestOptions{Root: root, Agents: []string{"claude"}, Env: []string{"PATH=/usr/bin:/bin"}})
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != 1 {
				t.Fatalf("%d results, want the one entry: %+v", len(res), res)
			}
			r := res[0]
			if r.Refused != tc.refused || r.Allowed != tc.allowed || r.Enforcing != tc.enforcing || r.Answered != tc.answered {
				t.Errorf("refused %q, allowed %q, enforcing %v, answered %v; want %q, %q, %v, %v",
					r.Refused, r.Allowed, r.Enforcing, r.Answered, tc.refused, tc.allowed, tc.enforcing, tc.answered)
			}
			if !tc.answered && !strings.Contains(r.Note, "exit status 127") {
				t.Errorf("the note does not carry the hook's own reason: %q", r.Note)
			}
		})
	}
}
