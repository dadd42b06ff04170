package hosts

// The hosts whose events follow the common pattern, each a row. Each reads
// its own event as its documentation gives it, with the same exact-key
// reading, and answers in the terms its host acts on. What each host does
// when the hook fails is in HookCommand's failure tails and in the README's
// host list.
var (
	// Kiro (and the Amazon Q Developer CLI before it): a preToolUse event
	// with hook_event_name, cwd, tool_name and the model's tool_input as it
	// is (aws/amazon-q-developer-cli docs/hooks.md,
	// crates/chat-cli/src/cli/chat/cli/hooks.rs). Kiro CLI 3 names the
	// trigger PreToolUse and its tools read, write and shell; use_aws and
	// MCP tools (@server/tool) pass.
	kiro = &hostSpec{name: "kiro", eventKey: "hook_event_name", events: []string{"preToolUse", "PreToolUse"},
		toolKey: "tool_name", inputKey: "tool_input", answer: exit2Answer,
		tools: tools(
			row(bash("command"), "execute_bash", "shell"),
			row(toolSpec{kind: "cmd", keys: []string{"command"}}, "execute_cmd"),
			row(file("edit", "path"), "fs_write", "write"),
			row(toolSpec{read: kiroReads}, "fs_read", "read"),
		)}

	// Cline: the common fields and a preToolUse object with toolName and
	// parameters, whose values are strings (cline/cline
	// docs/features/hooks/hook-reference.mdx, src/core/hooks). Its paths
	// are relative to the first workspace root. Cline cannot ask.
	//
	// The Cline CLI 3 (3.0.65, @cline/core) names the event tool_call and
	// has tools of its own: run_commands with a list of commands,
	// read_files with a list of files, editor and apply_patch. Its
	// parameters hold each list as JSON text in a string; the same call
	// is under tool_call with the real values (as recorded live). Its
	// cancel ends the whole task rather than the one call, and a sub-agent's
	// calls (parent_agent_id set) come through the same hook.
	cline = &hostSpec{name: "cline", eventKey: "hookName", events: []string{"PreToolUse", "tool_call"},
		envelope: clineEnvelope, inputKey: "parameters", answer: clineAnswer,
		tools: tools(
			row(bash("command"), "execute_command"),
			row(file("edit", "path"), "write_to_file", "replace_in_file", "new_rule", "editor"),
			row(file("read", "path"), "read_file"),
			row(file("patch", "input"), "apply_patch"),
			row(search("path", "file_pattern"), "search_files"),
			row(toolSpec{read: clineCommands}, "run_commands"),
			row(toolSpec{read: clineReads}, "read_files"),
		)}

	// Goose: a PreToolUse payload with event, tool_name, tool_input and
	// working_dir (block/goose documentation/docs/guides/
	// context-engineering/hooks.md); the developer extension's tools are
	// the ones read. Stdout stays empty, since anything on it that is not
	// a decision reads as no decision.
	goose = &hostSpec{name: "goose", eventKey: "event", events: []string{"PreToolUse"},
		toolKey: "tool_name", cwdKey: "working_dir", strings: []string{"matcher_context"}, inputKey: "tool_input", answer: exit2Answer,
		tools: tools(
			row(bash("command"), "developer__shell"),
			row(file("write", "path"), "developer__write"),
			row(file("edit", "path"), "developer__edit"),
			row(toolSpec{read: gooseTextEditor}, "developer__text_editor"),
		)}

	// Factory Droid: Claude Code's envelope with Droid's own tool names
	// (docs.factory.ai hooks reference; some versions write the
	// envelope's keys in camelCase). Droid 0.225.2 sends the snake_case
	// envelope, Execute with summary, riskLevel and riskLevelReason
	// beside the command, and Create, Edit and Read with file_path; it
	// offers ApplyPatch in place of Create and Edit to the models that
	// take patches.
	factory = &hostSpec{name: "factory", toolKey: "tool_name", inputKey: "tool_input", answer: factoryAnswer,
		tools: tools(
			row(bash("command"), "Execute", "Bash"),
			row(file("patch", "input", "patch"), "ApplyPatch"),
			row(search("path", "glob_pattern"), "Grep"),
			row(file("read", "file_path", "path"), "Read"),
			row(file("write", "file_path", "path"), "Create", "Write"),
			row(file("edit", "file_path", "path"), "Edit", "MultiEdit"),
		)}

	// Augment (Auggie CLI and the IDE extensions): a PreToolUse event with
	// conversation_id, workspace_roots, tool_name, tool_input, tool_output,
	// tool_error and is_mcp_tool, and no cwd (recorded from Auggie 0.36.0;
	// docs.augmentcode.com/cli/hooks gives a cwd). The call runs in the
	// first workspace root; launch-process's cwd may be relative to it.
	// Augment blocks a call on exit status 2 only: any other status, a
	// timeout or a hook that cannot start lets the call run.
	augment = &hostSpec{name: "augment", eventKey: "hook_event_name", events: []string{"PreToolUse"},
		toolKey: "tool_name", envelope: augmentEnvelope, inputKey: "tool_input", answer: exit2Answer,
		tools: tools(
			row(toolSpec{read: augmentLaunch}, "launch-process"),
			// Text typed into a running process, a shell as often as not:
			// it is checked as a command line.
			row(bash("input_text"), "write-process"),
			row(file("write", "path"), "save-file"),
			row(file("edit", "path"), "str-replace-editor"),
			row(file("patch", "input"), "apply_patch"),
			row(file("read", "path"), "view"),
			row(toolSpec{read: augmentRemoves}, "remove-files"),
		)}

	// OpenCode: the event sentinel's plugin builds from
	// tool.execute.before: the tool's id, its args as OpenCode hands them
	// to the tool, and the session's directory.
	opencode = &hostSpec{name: "opencode", toolKey: "tool", inputKey: "args", answer: opencodeAnswer,
		tools: tools(opencodeTools...)}

	// Kilo Code: the event of the same plugin in Kilo Code's CLI, a fork
	// of OpenCode, which names the host ("host": "kilo"); OpenCode's
	// tools, and Kilo's background_process, which starts a command.
	kilo = &hostSpec{name: "kilo", toolKey: "tool", inputKey: "args", answer: opencodeAnswer, strings: []string{"host"},
		tools: tools(append(opencodeTools, row(toolSpec{read: kiloBackground}, "background_process"))...)}

	// Pi: the event sentinel's extension builds from tool_call: the
	// tool's name, its input as Pi hands it to the tool, and the
	// session's directory. find and ls list names and let be.
	pi = &hostSpec{name: "pi", toolKey: "tool", inputKey: "args", answer: opencodeAnswer, strings: []string{"tool_call_id"},
		tools: tools(
			row(bash("command"), "bash"),
			row(file("write", "path"), "write"),
			row(file("edit", "path"), "edit"),
			row(file("read", "path"), "read"),
			row(search("path", "glob"), "grep"),
		)}
)

// opencodeTools are the tools of OpenCode the guard reads, which Kilo
// Code kept.
var opencodeTools = []toolRow{
	row(bashIn("command", "workdir"), "bash"),
	row(file("write", "filePath"), "write"),
	row(file("edit", "filePath"), "edit", "multiedit"),
	row(file("patch", "patchText"), "apply_patch", "patch"),
	row(file("read", "filePath"), "read"),
	row(search("path", "include"), "grep"),
}

// kiloBackground reads Kilo Code's background_process: its start and
// monitor actions run a command (in workdir, when set), as bash does;
// list, status, logs, stop and restart act on a process already started,
// whose command was read then.
func kiloBackground(c *Call, in object) (*Call, error) {
	action, err := in.need("action")
	if err != nil {
		return nil, err
	}
	switch action {
	case "start", "monitor":
		return bashIn("command", "workdir").call(c, in)
	case "list", "status", "logs", "stop", "restart":
		return c, nil
	}
	return nil, unreadable("background_process's action %q is not one the guard knows", action)
}
