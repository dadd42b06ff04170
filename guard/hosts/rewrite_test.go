package hosts

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/guard/verdict"
)

// rewriteOrig is a shell call with what a rewrite must carry through
// untouched: quotes of both kinds, a newline, $( ), && and >.
const rewriteOrig = "echo 'it''s' \"$(id -u)\" && printf '%s\\n' x > out.txt\nls"

// rewriteNew stands for the contained command the guard builds.
const rewriteNew = `'/opt/s/sentinel' run --call --agent X -- '/bin/bash' -c 'echo '\''it'\'''\''s'\'' "$(id -u)"'`

// TestRewriteAnswers: each host that can rewrite answers its sample event
// with exactly these bytes: the new command in place of the old, the rest
// of the tool's input kept, and no grant.
func TestRewriteAnswers(t *testing.T) {
	allow := verdict.Outcome{Verdict: verdict.Allow}
	want := map[string]string{
		"claude":  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"contained","updatedInput":{"command":"'/opt/s/sentinel' run --call --agent X -- '/bin/bash' -c 'echo '\\''it'\\'''\\''s'\\'' \"$(id -u)\"'","description":"run it"}}}` + "\n",
		"copilot": `{"modifiedArgs":{"command":"'/opt/s/sentinel' run --call --agent X -- '/bin/bash' -c 'echo '\\''it'\\'''\\''s'\\'' \"$(id -u)\"'","description":"run it","initial_wait":30,"mode":"sync"}}` + "\n",
		"gemini":  `{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"'/opt/s/sentinel' run --call --agent X -- '/bin/bash' -c 'echo '\\''it'\\'''\\''s'\\'' \"$(id -u)\"'","description":"run it"}}}` + "\n",
		"cline":   `{"cancel":false,"overrideInput":{"commands":["'/opt/s/sentinel' run --call --agent X -- '/bin/bash' -c 'echo '\\''it'\\'''\\''s'\\'' \"$(id -u)\"'"]}}` + "\n",
	}
	if got := ContainingHosts(); strings.Join(got, " ") != "claude cline copilot gemini" {
		t.Fatalf("ContainingHosts = %q", got)
	}
	for _, name := range ContainingHosts() {
		ev, ok := SampleRewrite(name, rewriteOrig, "/home/u/src/p")
		if !ok {
			t.Fatalf("%s: no sample", name)
		}
		call, err := Dialects[name].Parse(ev)
		if err != nil {
			t.Fatalf("%s: the sample does not parse: %v", name, err)
		}
		if call.Command != rewriteOrig {
			t.Errorf("%s: the sample's command reads %q", name, call.Command)
		}
		if !CanRewrite(name, call) {
			t.Fatalf("%s: CanRewrite is false for its own sample", name)
		}
		a, err := Rewrite(name, allow, call, ev, rewriteNew, "contained")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if string(a.Stdout) != want[name] || a.Exit != 0 || a.Stderr != "" {
			t.Errorf("%s: answer\n%s\nwant\n%s(exit %d, stderr %q)", name, a.Stdout, want[name], a.Exit, a.Stderr)
		}
		// The new command reads back, byte for byte, as the host will
		// read it.
		var m map[string]any
		if err := json.Unmarshal(a.Stdout, &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if strings.Contains(string(a.Stdout), `"allow"`) {
			t.Errorf("%s: a rewrite must not grant: %s", name, a.Stdout)
		}
		if got := findCommand(m); got != rewriteNew {
			t.Errorf("%s: the new command reads back as %q", name, got)
		}
	}
}

// TestRewriteWarning: a MEDIUM warning is rewritten with its reason where
// the host shows one; an ask or a deny never is.
func TestRewriteWarning(t *testing.T) {
	warn := verdict.Outcome{Findings: []verdict.Finding{{RuleID: "r", Verdict: verdict.Warn, Reason: "careful"}}}
	warn.Verdict = verdict.Warn
	ev, _ := SampleRewrite("cline", "ls", "/p")
	call, _ := Dialects["cline"].Parse(ev)
	a, err := Rewrite("cline", warn, call, ev, "NEW", "contained")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(a.Stdout), `{"cancel":false,"contextModification":"careful","overrideInput":{"commands":["NEW"]}}`+"\n"; got != want {
		t.Errorf("cline warning:\n%s\nwant\n%s", got, want)
	}
	ev, _ = SampleRewrite("claude", "ls", "/p")
	call, _ = Dialects["claude"].Parse(ev)
	a, _ = Rewrite("claude", warn, call, ev, "NEW", "contained")
	if !strings.Contains(string(a.Stdout), `"permissionDecisionReason":"careful; contained"`) {
		t.Errorf("claude warning: %s", a.Stdout)
	}
	for _, v := range []verdict.Verdict{verdict.Ask, verdict.Deny} {
		if _, err := Rewrite("claude", verdict.Outcome{Verdict: v}, call, ev, "NEW", "x"); err == nil {
			t.Errorf("a %s was rewritten", v)
		}
	}
}

// TestRewriteCapability: the hosts that cannot rewrite without a grant, or
// at all, say why, and a tool that is not the host's shell is not
// rewritten.
func TestRewriteCapability(t *testing.T) {
	for _, name := range DialectNames() {
		how, ok := Containment(name)
		if how == "" || ok != (rewrites[name].answer != "") {
			t.Errorf("%s: Containment = %q, %v", name, how, ok)
		}
	}
	for _, name := range []string{"factory", "codex", "qwen", "opencode", "cursor", "amp"} {
		ev, _, _ := SampleEvent(name, "ls", "/p")
		call, err := DetectIn(ev, func(string) string { return "" }).Parse(ev)
		if err == nil && CanRewrite(name, call) {
			t.Errorf("%s: rewritten", name)
		}
	}
	// The older Cline's execute_command takes no overrideInput.
	ev, _, _ := SampleEvent("cline", "ls", "/p")
	call, err := Dialects["cline"].Parse(ev)
	if err != nil || CanRewrite("cline", call) {
		t.Errorf("execute_command: %v, rewritable %v", err, CanRewrite("cline", call))
	}
	write := &Call{Tool: "Write", Kind: "write", Writes: []string{"a"}}
	if CanRewrite("claude", write) {
		t.Error("a write tool was rewritten")
	}
}

// findCommand is the first string under a "command" key, or the first
// item of a "commands" list, anywhere in v.
func findCommand(v any) string {
	switch x := v.(type) {
	case map[string]any:
		if s, ok := x["command"].(string); ok {
			return s
		}
		if l, ok := x["commands"].([]any); ok && len(l) == 1 {
			s, _ := l[0].(string)
			return s
		}
		for _, e := range x {
			if s := findCommand(e); s != "" {
				return s
			}
		}
	}
	return ""
}
