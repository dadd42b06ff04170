package guard

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/guard/internal/guardtest"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/policy"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

// BenchmarkRun is the guard's own work for a typical Bash event, in
// process: reading the event and the configuration, decomposing, deciding.
func BenchmarkRun(b *testing.B) {
	root := b.TempDir()
	os.Mkdir(root+"/.git", 0o755)
	ev := []byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -la && git status"},"cwd":"` + root + `"}`)
	getenv := func(k string) string {
		if k == "HOME" {
			return root
		}
		return ""
	}
	for i := 0; i < b.N; i++ {
		d, _, _ := Run(context.Background(), Request{
			Input:  func() ([]byte, error) { return ev, nil },
			NewEnv: func(cwd string) *pathguard.Env { return pathguard.NewEnv(cwd, getenv) },
			Policy: func() (*policy.Policy, error) { return policy.LoadPolicy(pathguard.UserConfigPath(getenv), root) },
		})
		if d.Verdict != verdict.Allow {
			b.Fatal(d.Reason())
		}
	}
}

// BenchmarkManyRules loads a project configuration of 5,000 rules and
// decides a command against them: the whole must fit the guard's 250 ms
// deadline with room to spare (docs/benchmarks.md).
func BenchmarkManyRules(b *testing.B) {
	root := manyRules(b, 5000)
	for b.Loop() {
		p, err := policy.LoadPolicy("", root)
		if err != nil {
			b.Fatal(err)
		}
		if d := EvaluateCommand("ls -la && go test ./...", guardtest.CorpusEnv(), p); d.Verdict != verdict.Allow {
			b.Fatal(d.Verdict)
		}
	}
}

// manyRules is a project whose configuration holds n deny rules for bash,
// none of which matches an everyday command.
func manyRules(t testing.TB, n int) string {
	t.Helper()
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".sentinel"), 0o755)
	var cfg strings.Builder
	cfg.WriteString("[guard]\n")
	for i := 0; i < n; i++ {
		cfg.WriteString("[[guard.rules]]\ntool = \"bash\"\npattern = \"tool-" + strings.Repeat("x", i%7) + "-*\"\nverdict = \"deny\"\n")
	}
	if err := os.WriteFile(filepath.Join(root, ".sentinel", "config.toml"), []byte(cfg.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}
