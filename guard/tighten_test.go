package guard

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gitsentinel/sentinel/guard/internal/guardtest"
	"github.com/gitsentinel/sentinel/guard/policy"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

// TestProjectOnlyTightens gives every combination of a project's rule, a
// user's rule and the built-in verdict, for every kind of call, and wants
// the result to be exactly the stricter of what the built-in rules and the
// user decide and what the project says: a committed `pattern = "*"` ask
// never turns a denial into a question, and a committed allow is ignored.
func TestProjectOnlyTightens(t *testing.T) {
	type call struct {
		kind, subject string
	}
	calls := []call{
		{"bash", "git push --force origin main"},   // HIGH deny
		{"bash", "rm -rf /"},                       // CRITICAL deny
		{"bash", "git -c core.sshCommand=x fetch"}, // HIGH ask
		{"bash", "ls -la"},                         // allow
		{"nonposix", "Remove-Item -Recurse x"},     // what the guard cannot read: ask
		{"nonposix", "git status"},                 // allow
		{"write", ".git/hooks/pre-commit"},         // the path guard: deny
		{"write", "/etc/passwd"},                   // a system path: CRITICAL
		{"write", "src/main.go"},                   // allow
		{"read", "~/.ssh/id_rsa"},                  // a secret: deny
		{"read", "README.md"},                      // allow
	}
	verdicts := []string{"", "allow", "ask", "deny"}
	parse := map[string]verdict.Verdict{"allow": verdict.Allow, "ask": verdict.Ask, "deny": verdict.Deny}
	decide := func(t *testing.T, c call, user, project string) verdict.Verdict {
		t.Helper()
		home := t.TempDir()
		root := filepath.Join(home, "src", "project")
		os.MkdirAll(filepath.Join(root, ".sentinel"), 0o755)
		os.MkdirAll(filepath.Join(home, ".config", "sentinel"), 0o755)
		rule := func(v string) string {
			if v == "" {
				return ""
			}
			return fmt.Sprintf("[[guard.rules]]\ntool = \"*\"\npattern = \"*\"\nverdict = %q\n", v)
		}
		os.WriteFile(filepath.Join(root, ".sentinel", "config.toml"), []byte("[guard]\n"+rule(project)), 0o644)
		userPath := filepath.Join(home, ".config", "sentinel", "config.toml")
		os.WriteFile(userPath, []byte("[guard]\n"+rule(user)), 0o644)
		p, err := policy.LoadPolicy(userPath, root)
		if err != nil {
			t.Fatal(err)
		}
		e := guardtest.CorpusEnv()
		p.Configure(e)
		var d *Decision
		switch c.kind {
		case "bash":
			d = EvaluateCommand(c.subject, e, p)
		case "nonposix":
			d = EvaluateNonPOSIX("powershell", c.subject, e, p)
		case "write":
			d = EvaluateWrite("write", c.subject, e, p)
		case "read":
			d = EvaluateRead("read", c.subject, e, p)
		}
		return d.Verdict
	}
	for _, c := range calls {
		builtin := decide(t, c, "", "")
		// A CRITICAL denial is absolute: the user's own allow does not open it.
		critical := decide(t, c, "allow", "") == verdict.Deny
		if critical && builtin != verdict.Deny {
			t.Fatalf("%s %q: critical but %s", c.kind, c.subject, builtin)
		}
		for _, user := range verdicts {
			for _, project := range verdicts {
				base := builtin
				if user != "" && !critical {
					base = parse[user]
				}
				want := base
				if project != "" && project != "allow" && parse[project] > want {
					want = parse[project]
				}
				if got := decide(t, c, user, project); got != want {
					t.Errorf("%s %q, built-in %s, user %q, project %q: %s, want %s", c.kind, c.subject, builtin, user, project, got, want)
				}
			}
		}
	}
}
