package guard

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gitsentinel/sentinel/guard/hosts"
	"github.com/gitsentinel/sentinel/guard/internal/guardtest"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/rules"
	"github.com/gitsentinel/sentinel/guard/shell"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

// FuzzEvaluate: decomposition never panics, and a command that does not
// parse is never allowed.
func FuzzEvaluate(f *testing.F) {
	for _, r := range rules.Catalogue() {
		for _, s := range append(append([]string(nil), r.Deny...), r.Allow...) {
			f.Add(s)
		}
	}
	f.Add("bash -c 'sh -c \"eval rm -rf /\"'")
	f.Add("$($($($(echo))))")
	e := guardtest.CorpusEnv()
	f.Fuzz(func(t *testing.T, src string) {
		_, err := shell.Decompose(src)
		d := EvaluateCommand(src, e, nil)
		if err != nil && d.Verdict != verdict.Deny {
			t.Fatalf("%q does not parse (%v) but got %s", src, err, d.Verdict)
		}
	})
}

// FuzzDecide: any bytes as a hook event; what cannot be read is denied.
func FuzzDecide(f *testing.F) {
	f.Add([]byte(`{"tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/tmp"}`))
	f.Add([]byte(`{"tool_name":"Write","tool_input":{"file_path":".env"}}`))
	f.Add([]byte(`{"tool_name":"Bash","tool_input":"rm -rf /"}`))
	f.Add([]byte(`{`))
	newEnv := func(string) *pathguard.Env { return guardtest.CorpusEnv() }
	f.Fuzz(func(t *testing.T, input []byte) {
		d := Decide(context.Background(), input, hosts.Detect(input), newEnv, nil, nil)
		var ev struct {
			ToolName        string `json:"tool_name"`
			ToolNameCopilot string `json:"toolName"`
			Hook            string `json:"hook_event_name"`
		}
		if json.Unmarshal(input, &ev) != nil || ev.ToolName == "" && ev.ToolNameCopilot == "" && ev.Hook == "" {
			if d.Verdict != verdict.Deny {
				t.Fatalf("unreadable event %q got %s", input, d.Verdict)
			}
		}
	})
}
