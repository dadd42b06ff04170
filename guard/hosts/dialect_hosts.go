package hosts

import (
	"encoding/json"
	"strings"

	"github.com/gitsentinel/sentinel/guard/verdict"
)

// The hosts below came after the first five. Each reads its own event as
// its documentation gives it, with the same exact-key reading, and
// answers in the terms its host acts on. What each host does when the
// hook fails is in HookCommand's failure tails and in README's host list.

// exit2Answer is the answer of hosts that read a refusal from exit status
// 2 with the reason on stderr and have no way to ask (Windsurf, Kiro,
// Goose, Augment): an ask is a refusal that says how a person allows the
// call, and a MEDIUM warning lets the call run with its reason on stderr,
// which these hosts show the person or ignore.
func exit2Answer(d verdict.Outcome) Answer {
	switch d.Verdict {
	case verdict.Allow:
		return Answer{}
	case verdict.Warn:
		return Answer{Stderr: answerReason(d) + "\n"}
	}
	return Answer{Stderr: askAsDeny(d) + "\n", Exit: 2}
}

// cloneAnswer is the answer of hosts that copied Claude Code's hook output
// (Factory Droid, Qwen Code): an ask is hookSpecificOutput's "ask", and a
// refusal is exit status 2 with the reason on stderr, the form their
// documentation gives first and which blocks whatever the JSON says.
func cloneAnswer(d verdict.Outcome) Answer {
	switch d.Verdict {
	case verdict.Allow:
		return Answer{}
	case verdict.Warn, verdict.Ask:
		return Answer{Stdout: ClaudeResponse(d)}
	}
	return Answer{Stderr: answerReason(d) + "\n", Exit: 2}
}

// pathOf returns the first of keys the object holds, as a required
// string: a path that is there but empty or not a string is unreadable.
func pathOf(in object, keys ...string) (string, error) {
	for _, k := range keys {
		if in.has(k) {
			return in.need(k)
		}
	}
	return "", unreadable("%s is missing", strings.Join(keys, " or "))
}

// patchCall reads an apply_patch style call: the files the patch text
// names are written; a patch that names none is unreadable.
func patchCall(c *Call, patch string) (*Call, error) {
	c.Kind, c.Writes = "edit", PatchPaths(patch)
	if len(c.Writes) == 0 {
		return nil, unreadable("%s names no file", c.Tool)
	}
	return c, nil
}

// --- Windsurf (Cascade hooks) ---

type windsurf struct{}

func (windsurf) Name() string { return "windsurf" }

// Parse reads a Cascade pre-hook: the event names the tool class and
// tool_info holds the call (docs.windsurf.com/windsurf/cascade/hooks).
func (windsurf) Parse(input []byte) (*Call, error) {
	o, err := readEvent(input, "windsurf")
	if err != nil {
		return nil, err
	}
	action, err := o.need("agent_action_name")
	if err != nil {
		return nil, err
	}
	info, err := o.obj("tool_info")
	if err != nil {
		return nil, err
	}
	c := &Call{Tool: action}
	switch action {
	case "pre_run_command":
		if c.Cwd, err = info.optional("cwd"); err != nil {
			return nil, err
		}
		c.Kind = "bash"
		c.Command, err = info.need("command_line")
		return c, err
	case "pre_write_code":
		if _, err := info.objects("edits"); err != nil {
			return nil, err
		}
		return fileCall(c, "edit", info, "file_path")
	case "pre_read_code":
		// The path may be a directory Cascade reads recursively; the
		// secrets rules read it as a path like any other.
		return fileCall(c, "read", info, "file_path")
	case "pre_mcp_tool_use":
		for _, k := range []string{"mcp_server_name", "mcp_tool_name"} {
			if _, err := info.optional(k); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}

func (windsurf) Answer(d verdict.Outcome, call *Call) Answer { return exit2Answer(d) }

// --- Kiro (and the Amazon Q Developer CLI before it) ---

type kiro struct{}

func (kiro) Name() string { return "kiro" }

// Parse reads a preToolUse event: hook_event_name, cwd, tool_name and the
// model's tool_input as it is (aws/amazon-q-developer-cli docs/hooks.md,
// crates/chat-cli/src/cli/chat/cli/hooks.rs). Kiro CLI 3 names the
// trigger PreToolUse and its tools read, write and shell.
func (kiro) Parse(input []byte) (*Call, error) {
	o, err := readEvent(input, "kiro")
	if err != nil {
		return nil, err
	}
	if event, err := o.need("hook_event_name"); err != nil {
		return nil, err
	} else if event != "preToolUse" && event != "PreToolUse" {
		return nil, unreadable("hook_event_name %q is not a pre-tool event", event)
	}
	c, err := o.call("tool_name")
	if err != nil {
		return nil, err
	}
	tool := c.Tool
	switch tool {
	case "execute_bash", "shell", "execute_cmd", "fs_write", "write", "fs_read", "read":
	default:
		return c, nil // use_aws, MCP tools (@server/tool) and the rest
	}
	in, err := o.obj("tool_input")
	if err != nil {
		return nil, err
	}
	switch tool {
	case "execute_bash", "shell":
		c.Kind = "bash"
		c.Command, err = in.need("command")
		return c, err
	case "execute_cmd":
		// Windows runs it with cmd.exe, whose syntax is not POSIX.
		c.Kind, c.Shell = "nonposix", "cmd"
		c.Command, err = in.need("command")
		return c, err
	case "fs_write", "write":
		return fileCall(c, "edit", in, "path")
	}
	// fs_read: a list of operations, each on a path or on images.
	ops, err := in.objects("operations")
	if err != nil {
		return nil, err
	}
	c.Kind = "read"
	for _, op := range ops {
		p, err := op.optional("path")
		if err != nil {
			return nil, err
		}
		images, err := op.strings("image_paths")
		if err != nil {
			return nil, err
		}
		if p != "" {
			c.Reads = append(c.Reads, p)
		}
		c.Reads = append(c.Reads, images...)
	}
	if len(c.Reads) == 0 {
		return nil, unreadable("%s names no path", tool)
	}
	return c, nil
}

func (kiro) Answer(d verdict.Outcome, call *Call) Answer { return exit2Answer(d) }

// --- Cline ---

type cline struct{}

func (cline) Name() string { return "cline" }

// Parse reads Cline's PreToolUse input: the common fields and a preToolUse
// object with toolName and parameters, whose values are strings
// (cline/cline docs/features/hooks/hook-reference.mdx, src/core/hooks).
func (cline) Parse(input []byte) (*Call, error) {
	o, err := readEvent(input, "cline")
	if err != nil {
		return nil, err
	}
	if name, err := o.need("hookName"); err != nil {
		return nil, err
	} else if name != "PreToolUse" {
		return nil, unreadable("hookName %q is not PreToolUse", name)
	}
	roots, err := o.strings("workspaceRoots")
	if err != nil {
		return nil, err
	}
	pre, err := o.obj("preToolUse")
	if err != nil {
		return nil, err
	}
	tool, err := pre.need("toolName")
	if err != nil {
		return nil, err
	}
	c := &Call{Tool: tool}
	if len(roots) > 0 {
		// Cline's paths are relative to the workspace root.
		c.Cwd = roots[0]
	}
	switch tool {
	case "execute_command", "write_to_file", "replace_in_file", "new_rule", "read_file", "search_files", "apply_patch":
	default:
		return c, nil
	}
	params, err := pre.obj("parameters")
	if err != nil {
		return nil, err
	}
	switch tool {
	case "execute_command":
		c.Kind = "bash"
		c.Command, err = params.need("command")
		return c, err
	case "write_to_file", "replace_in_file", "new_rule":
		return fileCall(c, "edit", params, "path")
	case "read_file":
		return fileCall(c, "read", params, "path")
	case "apply_patch":
		patch, err := params.need("input")
		if err != nil {
			return nil, err
		}
		return patchCall(c, patch)
	}
	return searchCall(c, params, "path", "file_pattern")
}

// Answer is the JSON Cline reads from the hook's stdout: cancel blocks
// the call and errorMessage says why. Cline cannot ask.
func (cline) Answer(d verdict.Outcome, call *Call) Answer {
	out := map[string]any{"cancel": false}
	switch d.Verdict {
	case verdict.Warn:
		out["contextModification"] = answerReason(d)
	case verdict.Ask, verdict.Deny:
		out["cancel"], out["errorMessage"] = true, askAsDeny(d)
	}
	b, _ := json.Marshal(out)
	return Answer{Stdout: append(b, '\n')}
}

// --- Goose ---

type goose struct{}

func (goose) Name() string { return "goose" }

// Parse reads a Goose PreToolUse payload: event, tool_name, tool_input and
// working_dir (block/goose documentation/docs/guides/context-engineering/
// hooks.md). The developer extension's tools are the ones read.
func (goose) Parse(input []byte) (*Call, error) {
	o, err := readEvent(input, "goose")
	if err != nil {
		return nil, err
	}
	if event, err := o.need("event"); err != nil {
		return nil, err
	} else if event != "PreToolUse" {
		return nil, unreadable("event %q is not PreToolUse", event)
	}
	tool, err := o.need("tool_name")
	if err != nil {
		return nil, err
	}
	cwd, err := o.optional("working_dir")
	if err != nil {
		return nil, err
	}
	if _, err := o.optional("matcher_context"); err != nil {
		return nil, err
	}
	c := &Call{Tool: tool, Cwd: cwd}
	switch tool {
	case "developer__shell", "developer__write", "developer__edit", "developer__text_editor":
	default:
		return c, nil
	}
	in, err := o.obj("tool_input")
	if err != nil {
		return nil, err
	}
	switch tool {
	case "developer__shell":
		c.Kind = "bash"
		c.Command, err = in.need("command")
		return c, err
	case "developer__write":
		return fileCall(c, "write", in, "path")
	case "developer__edit":
		return fileCall(c, "edit", in, "path")
	}
	// The older text_editor tool: view reads, every other command writes.
	cmd, err := in.need("command")
	if err != nil {
		return nil, err
	}
	if cmd == "view" {
		return fileCall(c, "read", in, "path")
	}
	return fileCall(c, "edit", in, "path")
}

// Answer uses exit status 2 with the reason on stderr; stdout stays empty,
// since anything on it that is not a decision reads as no decision.
func (goose) Answer(d verdict.Outcome, call *Call) Answer { return exit2Answer(d) }

// --- Factory Droid ---

type factory struct{}

func (factory) Name() string { return "factory" }

// Parse reads Droid's PreToolUse event, Claude Code's envelope with
// Droid's own tool names: Execute runs a command, Create and Edit write,
// Read and Grep read (docs.factory.ai hooks reference; some versions
// write the envelope's keys in camelCase).
func (factory) Parse(input []byte) (*Call, error) {
	o, err := readEvent(input, "factory")
	if err != nil {
		return nil, err
	}
	c, err := o.call("tool_name")
	if err != nil {
		return nil, err
	}
	tool := c.Tool
	switch tool {
	case "Execute", "Bash", "Create", "Write", "Edit", "MultiEdit", "ApplyPatch", "Read", "Grep":
	default:
		return c, nil
	}
	in, err := o.obj("tool_input")
	if err != nil {
		return nil, err
	}
	switch tool {
	case "Execute", "Bash":
		c.Kind = "bash"
		c.Command, err = in.need("command")
		return c, err
	case "ApplyPatch":
		patch, err := pathOf(in, "input", "patch")
		if err != nil {
			return nil, err
		}
		return patchCall(c, patch)
	case "Grep":
		return searchCall(c, in, "path", "glob_pattern")
	}
	p, err := pathOf(in, "file_path", "path")
	if err != nil {
		return nil, err
	}
	switch tool {
	case "Read":
		c.Kind, c.Reads = "read", []string{p}
	case "Create", "Write":
		c.Kind, c.Writes = "write", []string{p}
	default:
		c.Kind, c.Writes = "edit", []string{p}
	}
	return c, nil
}

func (factory) Answer(d verdict.Outcome, call *Call) Answer { return cloneAnswer(d) }

// --- Qwen Code ---

type qwen struct{}

func (qwen) Name() string { return "qwen" }

// Parse reads Qwen Code's PreToolUse event: Claude Code's envelope around
// the runtime ids of Gemini CLI's tools (QwenLM/qwen-code
// docs/users/features/hooks.md).
func (qwen) Parse(input []byte) (*Call, error) {
	o, err := readEvent(input, "qwen")
	if err != nil {
		return nil, err
	}
	return parseGeminiTool(o)
}

func (qwen) Answer(d verdict.Outcome, call *Call) Answer { return cloneAnswer(d) }

// --- Augment (Auggie CLI and the IDE extensions) ---

type augment struct{}

func (augment) Name() string { return "augment" }

// Parse reads Augment's PreToolUse event: tool_name and tool_input, with
// Augment's tool names (docs.augmentcode.com/cli/hooks): launch-process
// runs a command, save-file and str-replace-editor write, view reads.
func (augment) Parse(input []byte) (*Call, error) {
	o, err := readEvent(input, "augment")
	if err != nil {
		return nil, err
	}
	c, err := o.call("tool_name")
	if err != nil {
		return nil, err
	}
	tool := c.Tool
	switch tool {
	case "launch-process", "save-file", "str-replace-editor", "view", "remove-files":
	default:
		return c, nil
	}
	in, err := o.obj("tool_input")
	if err != nil {
		return nil, err
	}
	switch tool {
	case "launch-process":
		if cwd, err := in.optional("cwd"); err != nil {
			return nil, err
		} else if cwd != "" {
			c.Cwd = cwd
		}
		c.Kind = "bash"
		c.Command, err = in.need("command")
		return c, err
	case "save-file":
		return fileCall(c, "write", in, "path")
	case "str-replace-editor":
		return fileCall(c, "edit", in, "path")
	case "view":
		return fileCall(c, "read", in, "path")
	}
	// remove-files deletes each of its paths.
	paths, err := in.strings("file_paths")
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, unreadable("remove-files names no file_paths")
	}
	c.Kind, c.Writes = "edit", paths
	return c, nil
}

func (augment) Answer(d verdict.Outcome, call *Call) Answer { return exit2Answer(d) }

// --- Amp ---

// amp reads Amp's permission delegate: the tool's arguments on stdin, its
// name in AGENT_TOOL_NAME (ampcode.com/manual/appendix, Permissions).
type amp struct{ tool string }

func (amp) Name() string { return "amp" }

// WithEnv takes the tool's name from the delegate's environment.
func (amp) WithEnv(getenv func(string) string) Dialect {
	return amp{tool: getenv("AGENT_TOOL_NAME")}
}

// Parse reads the arguments of the tool Amp named. The arguments are the
// model's own, so no key in them can name another agent: the tool's name
// comes from the environment alone.
func (a amp) Parse(input []byte) (*Call, error) {
	if strings.TrimSpace(a.tool) == "" {
		return nil, unreadable("AGENT_TOOL_NAME is not set, so the tool is not known")
	}
	in, err := parseObject(input)
	if err != nil {
		return nil, err
	}
	c := &Call{Tool: a.tool}
	switch a.tool {
	case "Bash":
		if c.Cwd, err = in.optional("cwd"); err != nil {
			return nil, err
		}
		c.Kind = "bash"
		c.Command, err = in.need("cmd")
		return c, err
	case "create_file":
		return fileCall(c, "write", in, "path")
	case "edit_file", "undo_edit":
		return fileCall(c, "edit", in, "path")
	case "Read":
		return fileCall(c, "read", in, "path")
	case "Grep":
		return searchCall(c, in, "path", "glob")
	}
	return c, nil
}

// Answer is an exit status: 0 runs the call, 1 asks the operator, 2 and
// above reject it with stderr shown to the model.
func (amp) Answer(d verdict.Outcome, call *Call) Answer {
	switch d.Verdict {
	case verdict.Allow:
		return Answer{}
	case verdict.Warn, verdict.Ask:
		return Answer{Stderr: answerReason(d) + "\n", Exit: 1}
	}
	return Answer{Stderr: answerReason(d) + "\n", Exit: 2}
}

// --- OpenCode ---

type opencode struct{}

func (opencode) Name() string { return "opencode" }

// Parse reads the event sentinel's OpenCode plugin builds from
// tool.execute.before: the tool's id, its args as OpenCode hands them to
// the tool, and the session's directory.
func (opencode) Parse(input []byte) (*Call, error) {
	o, err := readEvent(input, "opencode")
	if err != nil {
		return nil, err
	}
	c, err := o.call("tool")
	if err != nil {
		return nil, err
	}
	tool := c.Tool
	switch tool {
	case "bash", "write", "edit", "multiedit", "apply_patch", "patch", "read", "grep":
	default:
		return c, nil
	}
	args, err := o.obj("args")
	if err != nil {
		return nil, err
	}
	switch tool {
	case "bash":
		if wd, err := args.optional("workdir"); err != nil {
			return nil, err
		} else if wd != "" {
			c.Cwd = wd
		}
		c.Kind = "bash"
		c.Command, err = args.need("command")
		return c, err
	case "write":
		return fileCall(c, "write", args, "filePath")
	case "edit", "multiedit":
		return fileCall(c, "edit", args, "filePath")
	case "apply_patch", "patch":
		patch, err := args.need("patchText")
		if err != nil {
			return nil, err
		}
		return patchCall(c, patch)
	case "read":
		return fileCall(c, "read", args, "filePath")
	}
	return searchCall(c, args, "path", "include")
}

// Answer is the JSON the plugin reads: only {"decision":"allow"} lets the
// call run; anything else, and any other exit status, makes it throw. A
// refusal also exits 2, so that a plugin that stopped reading stdout
// still blocks.
func (opencode) Answer(d verdict.Outcome, call *Call) Answer {
	out := map[string]string{"decision": "allow"}
	exit := 0
	switch d.Verdict {
	case verdict.Warn:
		out["warning"] = answerReason(d)
	case verdict.Ask, verdict.Deny:
		out = map[string]string{"decision": "deny", "reason": askAsDeny(d)}
		exit = 2
	}
	b, _ := json.Marshal(out)
	return Answer{Stdout: append(b, '\n'), Exit: exit}
}
