package guard

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/guard/hosts"
	"github.com/gitsentinel/sentinel/guard/internal/guardtest"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/policy"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

// hostMalformed are the events of the hosts added after the first five
// that the guard cannot fully read; TestMalformedEventsDeny denies each,
// in its dialect and recognised.
var hostMalformed = map[string][]string{
	"claude": {
		`{"tool_name":"PowerShell","tool_input":{}}`,
		`{"tool_name":"PowerShell","tool_input":{"command":["Remove-Item","x"]}}`,
	},
	"copilot": {
		`{"toolName":"bash","toolArgs":42}`,
		`{"toolName":"bash","toolArgs":["rm","-rf","/"]}`,
		`{"toolName":"bash","toolArgs":{"command":7}}`,
		`{"toolName":"bash","toolArgs":{}}`,
		`{"toolName":"bash","toolArgs":"rm -rf ~"}`,
		`{"toolName":"bash","toolArgs":"{\"command\":\"ls\"} trailing"}`,
		`{"toolName":"apply_patch","toolArgs":"no patch here"}`,
		`{"toolName":"apply_patch","toolArgs":null}`,
		`{"toolName":"powershell","toolArgs":{"command":null}}`,
		`{"toolName":"grep","toolArgs":{"path":5,"pattern":"x"}}`,
		`{"toolName":"view","toolArgs":{}}`,
	},
	"cursor": {
		`{"hook_event_name":"beforeReadFile","conversation_id":"c"}`,
		`{"hook_event_name":"beforeReadFile","conversation_id":"c","file_path":7}`,
		`{"hook_event_name":"beforeMCPExecution","conversation_id":"c"}`,
		`{"hook_event_name":"beforeMCPExecution","conversation_id":"c","tool_name":"q","tool_input":"not json"}`,
		`{"hook_event_name":"beforeMCPExecution","conversation_id":"c","tool_name":"q","tool_input":5}`,
		`{"hook_event_name":"preToolUse","conversation_id":"c","tool_name":"Read","tool_input":{}}`,
		`{"hook_event_name":"preToolUse","conversation_id":"c","tool_name":"Write","tool_input":{"file_path":""}}`,
		`{"hook_event_name":"preToolUse","conversation_id":"c","tool_name":"Delete","tool_input":{"target_file":null}}`,
	},
	"gemini": {
		`{"hook_event_name":"BeforeTool","tool_name":"grep_search","tool_input":{"pattern":"x","dir_path":7}}`,
		`{"hook_event_name":"BeforeTool","tool_name":"glob","tool_input":{}}`,
		`{"hook_event_name":"BeforeTool","tool_name":"list_directory","tool_input":{"dir_path":[]}}`,
	},
	"windsurf": {
		`{"agent_action_name":"pre_run_command"}`,
		`{"agent_action_name":"pre_run_command","tool_info":{}}`,
		`{"agent_action_name":"pre_run_command","tool_info":{"command_line":["rm","-rf","/"]}}`,
		`{"agent_action_name":"pre_run_command","tool_info":{"command_line":"ls","cwd":5}}`,
		`{"agent_action_name":"pre_write_code","tool_info":{"file_path":""}}`,
		`{"agent_action_name":"pre_write_code","tool_info":{"file_path":"a","edits":"x"}}`,
		`{"agent_action_name":"pre_read_code","tool_info":{"file_path":null}}`,
		`{"agent_action_name":"pre_run_command","tool_info":{"command_line":"rm -rf ~","Command_Line":"ls"}}`,
		`{"agent_action_name":"pre_run_command","tool_info":{"command_line":"ls"},"tool_name":"Bash"}`,
	},
	"kiro": {
		`{"hook_event_name":"preToolUse","tool_name":"execute_bash"}`,
		`{"hook_event_name":"preToolUse","tool_name":"execute_bash","tool_input":{"command":5}}`,
		`{"hook_event_name":"preToolUse","tool_name":"fs_write","tool_input":{"command":"create"}}`,
		`{"hook_event_name":"preToolUse","tool_name":"fs_read","tool_input":{"operations":"x"}}`,
		`{"hook_event_name":"preToolUse","tool_name":"fs_read","tool_input":{"operations":[]}}`,
		`{"hook_event_name":"preToolUse","tool_name":"fs_read","tool_input":{"operations":[{"mode":"Line","path":3}]}}`,
		`{"hook_event_name":"preToolUse","tool_name":"fs_read","tool_input":{"operations":[{"mode":"Image","image_paths":"a"}]}}`,
		`{"hook_event_name":"postToolUse","tool_name":"execute_bash","tool_input":{"command":"ls"}}`,
		`{"hook_event_name":"preToolUse","tool_name":"execute_cmd","tool_input":{}}`,
	},
	"cline": {
		`{"clineVersion":"3","hookName":"PreToolUse"}`,
		`{"clineVersion":"3","hookName":"PreToolUse","preToolUse":{"toolName":"execute_command"}}`,
		`{"clineVersion":"3","hookName":"PreToolUse","preToolUse":{"toolName":"execute_command","parameters":{"command":""}}}`,
		`{"clineVersion":"3","hookName":"PreToolUse","preToolUse":{"toolName":"write_to_file","parameters":{"content":"x"}}}`,
		`{"clineVersion":"3","hookName":"PreToolUse","preToolUse":{"toolName":"apply_patch","parameters":{"input":"nothing"}}}`,
		`{"clineVersion":"3","hookName":"PostToolUse","preToolUse":{"toolName":"execute_command","parameters":{"command":"ls"}}}`,
		`{"clineVersion":"3","hookName":"PreToolUse","workspaceRoots":"/p","preToolUse":{"toolName":"read_file","parameters":{"path":"a"}}}`,
	},
	"goose": {
		`{"event":"PreToolUse","tool_name":"developer__shell"}`,
		`{"event":"PreToolUse","tool_name":"developer__shell","tool_input":{"command":{"x":1}}}`,
		`{"event":"PreToolUse","tool_name":"developer__write","tool_input":{"content":"x"}}`,
		`{"event":"PreToolUse","tool_name":"developer__text_editor","tool_input":{"path":"a"}}`,
		`{"event":"PostToolUse","tool_name":"developer__shell","tool_input":{"command":"ls"}}`,
		`{"event":"PreToolUse","tool_name":"developer__shell","tool_input":{"command":"ls"},"working_dir":7}`,
		`{"event":"PreToolUse","hook_event_name":"PreToolUse","tool_name":"developer__shell","tool_input":{"command":"ls"}}`,
	},
	"factory": {
		`{"hook_event_name":"PreToolUse","tool_name":"Execute"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"command":""}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Create","tool_input":{"content":"x"}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"ApplyPatch","tool_input":{"input":"no files"}}`,
		`{"hookEventName":"PreToolUse","tool_name":"Execute","tool_input":{"command":null}}`,
	},
	"qwen": {
		`{"hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_call_id":"c"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{"command":5}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"write_file","tool_input":{"file_path":""}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"edit","tool_input":{}}`,
	},
	"augment": {
		`{"hook_event_name":"PreToolUse","tool_name":"launch-process"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"launch-process","tool_input":{"command":["rm"]}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"save-file","tool_input":{}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"remove-files","tool_input":{"file_paths":[]}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"remove-files","tool_input":{}}`,
	},
	"opencode": {
		`{"hook_event_name":"tool.execute.before","tool":"bash"}`,
		`{"hook_event_name":"tool.execute.before","tool":"bash","args":{}}`,
		`{"hook_event_name":"tool.execute.before","tool":"bash","args":{"command":"ls","workdir":3}}`,
		`{"hook_event_name":"tool.execute.before","tool":"write","args":{"content":"x"}}`,
		`{"hook_event_name":"tool.execute.before","tool":"apply_patch","args":{"patchText":"*** Begin Patch\n*** End Patch"}}`,
		`{"hook_event_name":"tool.execute.before","args":{"command":"rm -rf ~"}}`,
		`{"hook_event_name":"tool.execute.before","tool":"bash","args":{"command":"rm -rf ~","Command":"ls"}}`,
	},
}

// runWithEnv decides on one event as the named dialect with a hook
// environment.
func runWithEnv(t *testing.T, dialect, event string, env map[string]string) (*Decision, hosts.Dialect) {
	t.Helper()
	var d hosts.Dialect
	if dialect != "" {
		d = hosts.Dialects[dialect]
	}
	dec, dl, _ := Run(context.Background(), Request{
		Input:   func() ([]byte, error) { return []byte(event), nil },
		Dialect: d,
		NewEnv:  func(cwd string) *pathguard.Env { e := guardtest.CorpusEnv(); e.Cwd = cwd; return e },
		Policy:  func() (*policy.Policy, error) { return &policy.Policy{}, nil },
		Getenv:  func(k string) string { return env[k] },
	})
	return dec, dl
}

// TestAmpReadsToolFromEnvironment: Amp's stdin is the tool's arguments
// alone; without the tool's name, or with arguments that do not fit it,
// the call is refused.
func TestAmpReadsToolFromEnvironment(t *testing.T) {
	for _, tc := range []struct {
		tool, args string
		want       verdict.Verdict
	}{
		{"Bash", `{"cmd":"ls -la"}`, verdict.Allow},
		{"Bash", `{"cmd":"rm -rf ~"}`, verdict.Deny},
		{"Bash", `{"cmd":"git status","cwd":"/home/agent-test/src/project"}`, verdict.Allow},
		{"Bash", `{"command":"ls"}`, verdict.Deny},
		{"Bash", `{"cmd":7}`, verdict.Deny},
		{"Bash", `{"cmd":"ls","CMD":"rm -rf ~"}`, verdict.Deny},
		{"Bash", `["ls"]`, verdict.Deny},
		{"", `{"cmd":"ls"}`, verdict.Deny},
		{"create_file", `{"path":"/home/agent-test/src/project/.git/hooks/pre-commit","content":"exit 0"}`, verdict.Deny},
		{"create_file", `{"content":"x"}`, verdict.Deny},
		{"edit_file", `{"path":"/home/agent-test/src/project/main.go","old_str":"a","new_str":"b"}`, verdict.Allow},
		{"Read", `{"path":"/home/agent-test/.ssh/id_ed25519"}`, verdict.Deny},
		{"Grep", `{"pattern":"x","path":"/home/agent-test/src/project"}`, verdict.Allow},
		// The shell tools Amp maps a Bash rule to, with their own keys,
		// and its patch tool.
		{"shell_command", `{"command":"git commit --no-verify -m x","workdir":"/home/agent-test/src/project"}`, verdict.Deny},
		{"shell_command", `{"command":"go test ./..."}`, verdict.Allow},
		{"shell_command", `{"cmd":"ls"}`, verdict.Deny},
		{"async_shell_command", `{"command":"rm -rf ~"}`, verdict.Deny},
		{"apply_patch", `{"patchText":"*** Begin Patch\n*** Add File: /home/agent-test/src/project/.git/hooks/pre-commit\n+exit 0\n*** End Patch\n"}`, verdict.Deny},
		{"apply_patch", `{"patchText":"*** Begin Patch\n*** Update File: /home/agent-test/src/project/main.go\n@@\n-a\n+b\n*** End Patch\n"}`, verdict.Allow},
		{"apply_patch", `{"patch":"*** Begin Patch\n*** Add File: x\n+x\n*** End Patch\n"}`, verdict.Deny},
		// A tool Amp delegates that the guard does not read is refused:
		// only install's rules and Amp's mapping of them send one.
		{"mermaid", `{"code":"graph TD"}`, verdict.Deny},
	} {
		env := map[string]string{"AGENT": "amp", "AGENT_TOOL_NAME": tc.tool}
		for _, dialect := range []string{"amp", ""} {
			d, dl := runWithEnv(t, dialect, tc.args, env)
			if d.Verdict != tc.want {
				t.Errorf("%s %s (as %q): %s, want %s (%s)", tc.tool, tc.args, dialect, d.Verdict, tc.want, d.Reason())
			}
			if dl.Name() != "amp" {
				t.Errorf("%s: answered as %s", tc.args, dl.Name())
			}
		}
	}
}

// TestHostEventsAllow: the events the hosts send for harmless calls pass,
// in their dialect and recognised, including the forms the first five
// were missing.
func TestHostEventsAllow(t *testing.T) {
	for _, tc := range []struct{ dialect, event string }{
		{"claude", `{"hook_event_name":"PreToolUse","tool_name":"PowerShell","tool_input":{"command":"git status"}}`},
		{"claude", `{"hook_event_name":"PreToolUse","tool_name":"PowerShell","tool_input":{"command":"go test ./..."}}`},
		{"copilot", `{"toolName":"bash","toolArgs":{"command":"git status","description":"status"},"cwd":"/home/agent-test/src/project"}`},
		{"copilot", `{"toolName":"edit","toolArgs":{"path":"/home/agent-test/src/project/main.go","old_str":"a","new_str":"b"}}`},
		{"copilot", `{"toolName":"apply_patch","toolArgs":"*** Begin Patch\n*** Update File: main.go\n@@\n-a\n+b\n*** End Patch","cwd":"/home/agent-test/src/project"}`},
		{"copilot", `{"toolName":"apply_patch","toolArgs":{"input":"*** Begin Patch\n*** Add File: docs/x.md\n+x\n*** End Patch"},"cwd":"/home/agent-test/src/project"}`},
		{"copilot", `{"toolName":"grep","toolArgs":{"pattern":"TODO"}}`},
		{"copilot", `{"toolName":"glob","toolArgs":{"pattern":"**/*.go"}}`},
		{"cursor", `{"conversation_id":"c","hook_event_name":"beforeReadFile","file_path":"/home/agent-test/src/project/main.go","content":"package main","attachments":[]}`},
		{"cursor", `{"conversation_id":"c","hook_event_name":"beforeMCPExecution","tool_name":"query","tool_input":"{\"sql\":\"select 1\"}","url":"http://localhost:1"}`},
		{"cursor", `{"conversation_id":"c","hook_event_name":"beforeMCPExecution","tool_name":"query","tool_input":{"sql":"select 1"},"command":"npx db-mcp"}`},
		{"cursor", `{"conversation_id":"c","hook_event_name":"preToolUse","tool_name":"Read","tool_input":{"file_path":"/home/agent-test/src/project/.claude/settings.json"}}`},
		{"cursor", `{"conversation_id":"c","hook_event_name":"preToolUse","tool_name":"Grep","tool_input":{"pattern":"x","path":"/home/agent-test/src/project"}}`},
		{"gemini", `{"hook_event_name":"BeforeTool","tool_name":"grep_search","tool_input":{"pattern":"TODO","dir_path":"/home/agent-test/src/project","include_pattern":"*.go"}}`},
		{"gemini", `{"hook_event_name":"BeforeTool","tool_name":"glob","tool_input":{"pattern":"**/*.go","dir_path":"src"}}`},
		{"gemini", `{"hook_event_name":"BeforeTool","tool_name":"list_directory","tool_input":{"dir_path":"/home/agent-test/src/project","ignore":["node_modules"]}}`},
		{"windsurf", `{"agent_action_name":"pre_read_code","trajectory_id":"t","tool_info":{"file_path":"/home/agent-test/src/project/main.go"}}`},
		{"windsurf", `{"agent_action_name":"pre_mcp_tool_use","trajectory_id":"t","tool_info":{"mcp_server_name":"github","mcp_tool_name":"create_issue","mcp_tool_arguments":{"title":"x"}}}`},
		{"kiro", `{"hook_event_name":"preToolUse","cwd":"/home/agent-test/src/project","tool_name":"execute_bash","tool_input":{"command":"cargo test"}}`},
		{"kiro", `{"hook_event_name":"preToolUse","cwd":"/home/agent-test/src/project","tool_name":"@git/status","tool_input":{}}`},
		{"kiro", `{"hook_event_name":"preToolUse","cwd":"/home/agent-test/src/project","tool_name":"fs_read","tool_input":{"operations":[{"mode":"Image","image_paths":["/home/agent-test/src/project/a.png"]}]}}`},
		{"cline", `{"clineVersion":"3.36.0","hookName":"PreToolUse","workspaceRoots":["/home/agent-test/src/project"],"preToolUse":{"toolName":"search_files","parameters":{"path":"src","regex":"TODO","file_pattern":"*.go"}}}`},
		{"cline", `{"clineVersion":"3.36.0","hookName":"PreToolUse","workspaceRoots":["/home/agent-test/src/project"],"preToolUse":{"toolName":"use_mcp_tool","parameters":{"server_name":"x"}}}`},
		{"goose", `{"event":"PreToolUse","session_id":"s","tool_name":"developer__text_editor","tool_input":{"command":"view","path":"/home/agent-test/src/project/main.go"},"working_dir":"/home/agent-test/src/project"}`},
		{"goose", `{"event":"PreToolUse","session_id":"s","tool_name":"developer__tree","tool_input":{"path":"."},"working_dir":"/home/agent-test/src/project"}`},
		{"factory", `{"hook_event_name":"PreToolUse","cwd":"/home/agent-test/src/project","tool_name":"Edit","tool_input":{"file_path":"/home/agent-test/src/project/main.go","old_str":"a","new_str":"b"}}`},
		{"factory", `{"hookEventName":"PreToolUse","sessionId":"s","cwd":"/home/agent-test/src/project","tool_name":"Execute","tool_input":{"command":"npm test"}}`},
		{"qwen", `{"hook_event_name":"PreToolUse","cwd":"/home/agent-test/src/project","tool_name":"edit","tool_input":{"file_path":"/home/agent-test/src/project/main.go","old_string":"a","new_string":"b"},"tool_call_id":"c"}`},
		{"augment", `{"hook_event_name":"PreToolUse","cwd":"/home/agent-test/src/project","tool_name":"str-replace-editor","tool_input":{"path":"main.go","command":"str_replace"}}`},
		{"opencode", `{"hook_event_name":"tool.execute.before","tool":"edit","cwd":"/home/agent-test/src/project","args":{"filePath":"/home/agent-test/src/project/main.go","oldString":"a","newString":"b"}}`},
		{"opencode", `{"hook_event_name":"tool.execute.before","tool":"grep","cwd":"/home/agent-test/src/project","args":{"pattern":"x","include":"*.go"}}`},
		{"opencode", `{"hook_event_name":"tool.execute.before","tool":"todowrite","cwd":"/home/agent-test/src/project","args":{"todos":[]}}`},
		{"kilo", `{"hook_event_name":"tool.execute.before","host":"kilo","tool":"bash","cwd":"/home/agent-test/src/project","args":{"command":"go test ./...","description":"test"}}`},
		{"pi", `{"hook_event_name":"tool_call","tool":"bash","tool_call_id":"c1","cwd":"/home/agent-test/src/project","args":{"command":"go test ./...","timeout":60}}`},
		{"pi", `{"hook_event_name":"tool_call","tool":"edit","tool_call_id":"c1","cwd":"/home/agent-test/src/project","args":{"path":"main.go","edits":[{"oldText":"a","newText":"b"}]}}`},
		{"pi", `{"hook_event_name":"tool_call","tool":"grep","tool_call_id":"c1","cwd":"/home/agent-test/src/project","args":{"pattern":"TODO","glob":"*.go"}}`},
		{"pi", `{"hook_event_name":"tool_call","tool":"find","tool_call_id":"c1","cwd":"/home/agent-test/src/project","args":{"pattern":"*.env"}}`},
		{"kilo", `{"hook_event_name":"tool.execute.before","host":"kilo","tool":"background_process","cwd":"/home/agent-test/src/project","args":{"action":"start","command":"npm run dev","description":"dev server"}}`},
		{"kilo", `{"hook_event_name":"tool.execute.before","host":"kilo","tool":"background_process","cwd":"/home/agent-test/src/project","args":{"action":"logs","id":"bp_1"}}`},
		{"kilo", `{"hook_event_name":"tool.execute.before","host":"kilo","tool":"cron_create","cwd":"/home/agent-test/src/project","args":{"prompt":"check the build","delay":"5m"}}`},
	} {
		if d := decideAs(t, tc.dialect, tc.event); d.Verdict != verdict.Allow {
			t.Errorf("%s: %s: %s (%s)", tc.dialect, tc.event, d.Verdict, d.Reason())
		}
		if d := decideAs(t, "", tc.event); d.Verdict != verdict.Allow {
			t.Errorf("recognised %s: %s: %s (%s)", tc.dialect, tc.event, d.Verdict, d.Reason())
		}
	}
}

// TestHostEventsRefuse: the calls each new host carries are read for
// what they do, not let through for their shape.
func TestHostEventsRefuse(t *testing.T) {
	for _, tc := range []struct {
		dialect, event string
		want           verdict.Verdict
	}{
		// Copilot CLI's apply_patch as raw text, and its object toolArgs.
		{"copilot", `{"toolName":"apply_patch","toolArgs":"*** Begin Patch\n*** Update File: .git/hooks/pre-commit\n@@\n-a\n+b\n*** End Patch","cwd":"/home/agent-test/src/project"}`, verdict.Deny},
		{"copilot", `{"toolName":"bash","toolArgs":{"command":"git push --force"}}`, verdict.Deny},
		{"copilot", `{"toolName":"view","toolArgs":{"path":"/home/agent-test/src/project/.env"}}`, verdict.Deny},
		{"copilot", `{"toolName":"grep","toolArgs":{"pattern":"KEY","path":"/home/agent-test/src/project","glob":".env"}}`, verdict.Deny},
		{"copilot", `{"toolName":"powershell","toolArgs":{"command":"Remove-Item -Recurse -Force C:\\Users"}}`, verdict.Ask},
		// Cursor's reads are reads, not writes.
		{"cursor", `{"conversation_id":"c","hook_event_name":"beforeReadFile","file_path":"/home/agent-test/.aws/credentials"}`, verdict.Deny},
		{"cursor", `{"conversation_id":"c","hook_event_name":"preToolUse","tool_name":"Read","tool_input":{"file_path":"/home/agent-test/src/project/.env"}}`, verdict.Deny},
		{"cursor", `{"conversation_id":"c","hook_event_name":"preToolUse","tool_name":"Delete","tool_input":{"target_file":"/home/agent-test/src/project/.sentinel/config.toml"}}`, verdict.Deny},
		// PowerShell: a plain call is read; anything else is asked.
		{"claude", `{"tool_name":"PowerShell","tool_input":{"command":"git push --force origin main"}}`, verdict.Deny},
		{"claude", `{"tool_name":"PowerShell","tool_input":{"command":"Remove-Item -Recurse -Force .git"}}`, verdict.Ask},
		{"claude", `{"tool_name":"PowerShell","tool_input":{"command":"rm -rf ~"}}`, verdict.Ask},
		{"claude", `{"tool_name":"PowerShell","tool_input":{"command":"git status; Remove-Item x"}}`, verdict.Ask},
		{"claude", `{"tool_name":"PowerShell","tool_input":{"command":"git log --format=a,b"}}`, verdict.Ask},
		{"gemini", `{"hook_event_name":"BeforeTool","tool_name":"grep_search","tool_input":{"pattern":"KEY","dir_path":"/home/agent-test/src/project","include_pattern":".env"}}`, verdict.Deny},
		{"windsurf", `{"agent_action_name":"pre_read_code","tool_info":{"file_path":"/home/agent-test/.ssh/id_ed25519"}}`, verdict.Deny},
		{"windsurf", `{"agent_action_name":"pre_run_command","tool_info":{"command_line":"git commit --no-verify -m x","cwd":"/home/agent-test/src/project"}}`, verdict.Deny},
		{"kiro", `{"hook_event_name":"preToolUse","cwd":"/home/agent-test/src/project","tool_name":"fs_read","tool_input":{"operations":[{"mode":"Line","path":"/home/agent-test/src/project/README.md"},{"mode":"Line","path":"/home/agent-test/src/project/.env"}]}}`, verdict.Deny},
		{"kiro", `{"hook_event_name":"PreToolUse","cwd":"/home/agent-test/src/project","tool_name":"shell","tool_input":{"command":"rm -rf ~"}}`, verdict.Deny},
		{"kiro", `{"hook_event_name":"preToolUse","cwd":"/home/agent-test/src/project","tool_name":"execute_cmd","tool_input":{"command":"rd /s /q C:\\"}}`, verdict.Ask},
		{"cline", `{"clineVersion":"3","hookName":"PreToolUse","workspaceRoots":["/home/agent-test/src/project"],"preToolUse":{"toolName":"replace_in_file","parameters":{"path":".git/config","diff":"x"}}}`, verdict.Deny},
		{"cline", `{"clineVersion":"3","hookName":"PreToolUse","workspaceRoots":["/home/agent-test/src/project"],"preToolUse":{"toolName":"read_file","parameters":{"path":".env"}}}`, verdict.Deny},
		{"goose", `{"event":"PreToolUse","tool_name":"developer__edit","tool_input":{"path":"/home/agent-test/src/project/.claude/settings.json","before":"a","after":"b"},"working_dir":"/home/agent-test/src/project"}`, verdict.Deny},
		{"factory", `{"hook_event_name":"PreToolUse","cwd":"/home/agent-test/src/project","tool_name":"ApplyPatch","tool_input":{"input":"*** Begin Patch\n*** Delete File: .sentinel/baseline.json\n*** End Patch"}}`, verdict.Deny},
		{"factory", `{"hook_event_name":"PreToolUse","cwd":"/home/agent-test/src/project","tool_name":"Read","tool_input":{"file_path":"/home/agent-test/.aws/credentials"}}`, verdict.Deny},
		{"qwen", `{"hook_event_name":"PreToolUse","cwd":"/home/agent-test/src/project","tool_name":"read_many_files","tool_input":{"include":["src/**","/home/agent-test/.ssh/id_rsa"]},"tool_call_id":"c"}`, verdict.Deny},
		{"augment", `{"hook_event_name":"PreToolUse","cwd":"/home/agent-test/src/project","tool_name":"remove-files","tool_input":{"file_paths":["/home/agent-test/src/project/.git/hooks/pre-push"]}}`, verdict.Deny},
		{"augment", `{"hook_event_name":"PreToolUse","cwd":"/home/agent-test/src/project","tool_name":"save-file","tool_input":{"path":".augment/settings.json","file_content":"{}"}}`, verdict.Deny},
		{"opencode", `{"hook_event_name":"tool.execute.before","tool":"read","cwd":"/home/agent-test/src/project","args":{"filePath":"/home/agent-test/src/project/.env"}}`, verdict.Deny},
		{"opencode", `{"hook_event_name":"tool.execute.before","tool":"write","cwd":"/home/agent-test/src/project","args":{"filePath":"/home/agent-test/src/project/.opencode/plugins/sentinel-guard.js","content":"//"}}`, verdict.Deny},
		// Kilo Code: OpenCode's tools, and background_process, which
		// starts a command; its own plugin and settings are protected.
		{"kilo", `{"hook_event_name":"tool.execute.before","host":"kilo","tool":"bash","cwd":"/home/agent-test/src/project","args":{"command":"git commit --no-verify -m x"}}`, verdict.Deny},
		{"kilo", `{"hook_event_name":"tool.execute.before","host":"kilo","tool":"background_process","cwd":"/home/agent-test/src/project","args":{"action":"start","command":"git push --force","workdir":"/home/agent-test/src/project"}}`, verdict.Deny},
		{"kilo", `{"hook_event_name":"tool.execute.before","host":"kilo","tool":"background_process","cwd":"/home/agent-test/src/project","args":{"action":"monitor","command":"rm -rf ~"}}`, verdict.Deny},
		{"kilo", `{"hook_event_name":"tool.execute.before","host":"kilo","tool":"background_process","cwd":"/home/agent-test/src/project","args":{"action":"start"}}`, verdict.Deny},
		{"kilo", `{"hook_event_name":"tool.execute.before","host":"kilo","tool":"background_process","cwd":"/home/agent-test/src/project","args":{"action":"spawn","command":"ls"}}`, verdict.Deny},
		{"kilo", `{"hook_event_name":"tool.execute.before","host":"kilo","tool":"write","cwd":"/home/agent-test/src/project","args":{"filePath":"/home/agent-test/src/project/.kilo/plugins/sentinel-guard.js","content":"//"}}`, verdict.Deny},
		{"kilo", `{"hook_event_name":"tool.execute.before","host":"kilo","tool":"edit","cwd":"/home/agent-test/src/project","args":{"filePath":"/home/agent-test/src/project/.kilo/kilo.json","oldString":"a","newString":"b"}}`, verdict.Deny},
		{"kilo", `{"hook_event_name":"tool.execute.before","host":"kilo","tool":"read","cwd":"/home/agent-test/src/project","args":{"filePath":"/home/agent-test/src/project/.env"}}`, verdict.Deny},
		// Pi: its tools' own keys, relative paths from the session's
		// directory, and its extensions protected.
		{"pi", `{"hook_event_name":"tool_call","tool":"bash","tool_call_id":"c1","cwd":"/home/agent-test/src/project","args":{"command":"git push --force"}}`, verdict.Deny},
		{"pi", `{"hook_event_name":"tool_call","tool":"write","tool_call_id":"c1","cwd":"/home/agent-test/src/project","args":{"path":".git/hooks/pre-commit","content":"exit 0"}}`, verdict.Deny},
		{"pi", `{"hook_event_name":"tool_call","tool":"edit","tool_call_id":"c1","cwd":"/home/agent-test/src/project","args":{"path":".pi/extensions/sentinel-guard.js","edits":[{"oldText":"a","newText":"b"}]}}`, verdict.Deny},
		{"pi", `{"hook_event_name":"tool_call","tool":"read","tool_call_id":"c1","cwd":"/home/agent-test/src/project","args":{"path":".env"}}`, verdict.Deny},
		{"pi", `{"hook_event_name":"tool_call","tool":"grep","tool_call_id":"c1","cwd":"/home/agent-test/src/project","args":{"pattern":"KEY","path":"/home/agent-test/src/project","glob":".env"}}`, verdict.Deny},
		{"pi", `{"hook_event_name":"tool_call","tool":"bash","tool_call_id":"c1","cwd":"/home/agent-test/src/project","args":{}}`, verdict.Deny},
	} {
		for _, as := range []string{tc.dialect, ""} {
			if d := decideAs(t, as, tc.event); d.Verdict != tc.want {
				t.Errorf("%s (as %q): %s: %s, want %s (%s)", tc.dialect, as, tc.event, d.Verdict, tc.want, d.Reason())
			}
		}
	}
}

// TestHostAnswers checks the exact terms each new host acts on.
func TestHostAnswers(t *testing.T) {
	deny := &Decision{}
	deny.Add(verdict.Finding{RuleID: "x", Verdict: verdict.Deny, Reason: "sentinel guard [x]: no"})
	ask := &Decision{}
	ask.Add(verdict.Finding{RuleID: "y", Verdict: verdict.Ask, Reason: "sentinel guard [y]: maybe"})
	warn := &Decision{}
	warn.Add(verdict.Finding{RuleID: "z", Verdict: verdict.Warn, Reason: "sentinel guard [z]: careful"})
	allow := &Decision{}
	for _, tc := range []struct {
		dialect string
		d       *Decision
		exit    int
		stdout  string
	}{
		{"windsurf", deny, 2, ""}, {"windsurf", ask, 2, ""}, {"windsurf", warn, 0, ""}, {"windsurf", allow, 0, ""},
		{"kiro", deny, 2, ""}, {"kiro", ask, 2, ""}, {"kiro", allow, 0, ""},
		{"goose", deny, 2, ""}, {"goose", ask, 2, ""}, {"goose", warn, 0, ""}, {"goose", allow, 0, ""},
		{"augment", deny, 2, ""}, {"augment", allow, 0, ""},
		{"amp", deny, 2, ""}, {"amp", ask, 1, ""}, {"amp", warn, 1, ""}, {"amp", allow, 0, ""},
		{"factory", deny, 2, ""}, {"factory", allow, 0, ""},
		// Droid's "ask" asks no one: an ask is a refusal.
		{"factory", ask, 2, ""},
		{"factory", warn, 0, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sentinel guard [z]: careful"}}` + "\n"},
		{"qwen", deny, 2, ""}, {"qwen", allow, 0, ""},
		{"cline", allow, 0, `{"cancel":false}` + "\n"},
		{"cline", deny, 0, `{"cancel":true,"errorMessage":"sentinel guard [x]: no"}` + "\n"},
		{"cline", warn, 0, `{"cancel":false,"contextModification":"sentinel guard [z]: careful"}` + "\n"},
		{"opencode", allow, 0, `{"decision":"allow"}` + "\n"},
		{"opencode", deny, 2, `{"decision":"deny","reason":"sentinel guard [x]: no"}` + "\n"},
		{"opencode", warn, 0, `{"decision":"allow","warning":"sentinel guard [z]: careful"}` + "\n"},
		{"kilo", allow, 0, `{"decision":"allow"}` + "\n"},
		{"kilo", deny, 2, `{"decision":"deny","reason":"sentinel guard [x]: no"}` + "\n"},
		{"pi", allow, 0, `{"decision":"allow"}` + "\n"},
		{"pi", deny, 2, `{"decision":"deny","reason":"sentinel guard [x]: no"}` + "\n"},
	} {
		a := hosts.Dialects[tc.dialect].Answer(tc.d.Outcome, tc.d.Call)
		if a.Exit != tc.exit || string(a.Stdout) != tc.stdout {
			t.Errorf("%s %s: exit %d stdout %q, want %d %q", tc.dialect, tc.d.Verdict, a.Exit, a.Stdout, tc.exit, tc.stdout)
		}
		if a.Exit != 0 && tc.dialect != "cline" && tc.dialect != "opencode" && tc.dialect != "kilo" && tc.dialect != "pi" && !strings.Contains(a.Stderr, "sentinel guard [") {
			t.Errorf("%s %s: a refusal without its reason on stderr: %q", tc.dialect, tc.d.Verdict, a.Stderr)
		}
	}
	// Cursor's beforeReadFile takes allow or deny and a user_message only.
	for _, tc := range []struct {
		d    *Decision
		want string
	}{
		{allow, `{"permission":"allow"}`},
		{warn, `{"permission":"allow"}`},
		{ask, `{"permission":"deny","user_message":"sentinel guard [y]: maybe (this agent cannot ask; a person may allow it with a [[guard.rules]] allow in ~/.config/sentinel/config.toml)"}`},
		{deny, `{"permission":"deny","user_message":"sentinel guard [x]: no"}`},
	} {
		d := *tc.d
		d.Call = &hosts.Call{Tool: "beforeReadFile"}
		if a := (hosts.Cursor{}).Answer(d.Outcome, d.Call); string(a.Stdout) != tc.want+"\n" || a.Exit != 0 {
			t.Errorf("beforeReadFile %s: %q", tc.d.Verdict, a.Stdout)
		}
	}
	var m map[string]string
	if err := json.Unmarshal((hosts.Cursor{}).Answer(ask.Outcome, ask.Call).Stdout, &m); err != nil || m["permission"] != "ask" {
		t.Errorf("cursor's other events still ask: %v %v", m, err)
	}
}

func TestPlainCommand(t *testing.T) {
	for src, want := range map[string]bool{
		"git status":                  true,
		"go test ./...":               true,
		"npm run build -- --watch":    true,
		"Remove-Item -Recurse x":      false,
		"rm -rf x":                    false,
		"git log --format=a,b":        false,
		"git commit -m 'x'":           false,
		"git status; rm x":            false,
		"git status | Out-Null":       false,
		"git checkout $(whoami)":      false,
		"git add C:\\x":               false,
		"git add *.go":                false,
		"git add ~/x":                 false,
		"git push @args":              false,
		"":                            false,
		"git status\nRemove-Item x":   false,
		"python3 -m pytest tests/ -x": true,
	} {
		if got := plainCommand(src); got != want {
			t.Errorf("%q: %v, want %v", src, got, want)
		}
	}
}
