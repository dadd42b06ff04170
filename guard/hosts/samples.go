package hosts

import (
	"encoding/json"
	"strings"
)

// sampleEvents are, per host, a pre-tool event of a shell call in the
// host's own shape, with {{command}} and {{cwd}} where the call's command
// and working directory go: what `sentinel guard test` feeds the installed
// hook, as the host would. Each is the shape of a recorded event of
// fixtures/guard/events; env is what the host sets beside it (Amp names
// its tool in the environment).
var sampleEvents = map[string]struct {
	event string
	env   []string
}{
	"amp":      {event: `{"cmd":{{command}},"cwd":{{cwd}}}`, env: []string{"AGENT=amp", "AGENT_TOOL_NAME=Bash", "AMP_THREAD_ID=T-sentinel-test"}},
	"augment":  {event: `{"hook_event_name":"PreToolUse","conversation_id":"sentinel-test","workspace_roots":[{{cwd}}],"tool_name":"launch-process","tool_input":{"command":{{command}},"wait":true,"max_wait_seconds":60,"cwd":"."},"tool_output":"[undefined]","tool_error":null,"is_mcp_tool":false}`, env: []string{"AUGMENT_HOOK_EVENT=PreToolUse", "AUGMENT_TOOL_NAME=launch-process", "AUGMENT_CONVERSATION_ID=sentinel-test"}},
	"claude":   {event: `{"session_id":"sentinel-test","transcript_path":"/dev/null","cwd":{{cwd}},"permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":{{command}}}}`},
	"cline":    {event: `{"clineVersion":"3.36.0","hookName":"PreToolUse","timestamp":"1764424805000","taskId":"sentinel-test","workspaceRoots":[{{cwd}}],"userId":"sentinel-test","preToolUse":{"toolName":"execute_command","parameters":{"command":{{command}},"requires_approval":"false"}}}`},
	"codex":    {event: `{"session_id":"sentinel-test","turn_id":"t1","cwd":{{cwd}},"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":{{command}}}}`},
	"copilot":  {event: `{"sessionId":"sentinel-test","timestamp":1764400000000,"cwd":{{cwd}},"toolName":"bash","toolArgs":{"command":{{command}},"description":"sentinel guard test","mode":"sync"}}`},
	"cursor":   {event: `{"conversation_id":"sentinel-test","generation_id":"g1","hook_event_name":"beforeShellExecution","command":{{command}},"cwd":{{cwd}},"workspace_roots":[{{cwd}}]}`},
	"factory":  {event: `{"session_id":"sentinel-test","transcript_path":"/dev/null","cwd":{{cwd}},"permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"command":{{command}}},"tool_use_id":"toolu_1"}`},
	"gemini":   {event: `{"session_id":"sentinel-test","cwd":{{cwd}},"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":{{command}}}}`},
	"goose":    {event: `{"event":"PreToolUse","session_id":"sentinel-test","matcher_context":"developer__shell","tool_name":"developer__shell","tool_input":{"command":{{command}}},"working_dir":{{cwd}},"tool_call_id":"call-1"}`},
	"kiro":     {event: `{"hook_event_name":"preToolUse","cwd":{{cwd}},"tool_name":"execute_bash","tool_input":{"command":{{command}},"summary":"sentinel guard test"}}`},
	"opencode": {event: `{"hook_event_name":"tool.execute.before","tool":"bash","session_id":"sentinel-test","call_id":"call_1","cwd":{{cwd}},"args":{"command":{{command}},"description":"sentinel guard test"}}`},
	"kilo":     {event: `{"hook_event_name":"tool.execute.before","host":"kilo","tool":"bash","session_id":"sentinel-test","call_id":"call_1","cwd":{{cwd}},"args":{"command":{{command}},"description":"sentinel guard test"}}`},
	"pi":       {event: `{"hook_event_name":"tool_call","tool":"bash","tool_call_id":"call_1","cwd":{{cwd}},"args":{"command":{{command}}}}`},
	"qwen":     {event: `{"session_id":"sentinel-test","transcript_path":"/dev/null","cwd":{{cwd}},"hook_event_name":"PreToolUse","timestamp":"2026-12-01T00:00:00.000Z","permission_mode":"default","tool_name":"run_shell_command","tool_input":{"command":{{command}},"description":"sentinel guard test"},"tool_use_id":"toolu_1","tool_call_id":"call_1"}`},
	"windsurf": {event: `{"agent_action_name":"pre_run_command","trajectory_id":"sentinel-test","execution_id":"exec-1","timestamp":"2026-12-01T00:00:00Z","tool_info":{"command_line":{{command}},"cwd":{{cwd}}}}`},
}

// SampleEvent returns a pre-tool event of the host named dialect for a
// shell call of command in cwd, in the host's shape, with the environment
// the host sets beside it; false for a host without a sample.
func SampleEvent(dialect, command, cwd string) (event []byte, env []string, ok bool) {
	s, ok := sampleEvents[dialect]
	if !ok {
		return nil, nil, false
	}
	quote := func(v string) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	r := strings.NewReplacer("{{command}}", quote(command), "{{cwd}}", quote(cwd))
	return []byte(r.Replace(s.event)), s.env, true
}
