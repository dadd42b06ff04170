package guard

import (
	"context"
	"os"
	"testing"

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
