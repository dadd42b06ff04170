package hosts

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/gitsentinel/sentinel/guard/verdict"
)

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
// (Qwen Code): an ask is hookSpecificOutput's "ask", and a
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

// factoryAnswer is Factory Droid's: Claude Code's hook output, but Droid
// takes a permissionDecision of "ask" for a note in its log and runs the
// call as its own autonomy level allows, which droid exec and a
// high-autonomy session do without asking anyone (0.225.2). An ask is
// therefore a refusal that says how a person allows the call, as for the
// hosts that cannot ask; a MEDIUM warning stays Claude Code's "ask", the
// call running as Droid would run it.
func factoryAnswer(d verdict.Outcome) Answer {
	switch d.Verdict {
	case verdict.Allow:
		return Answer{}
	case verdict.Warn:
		return Answer{Stdout: ClaudeResponse(d)}
	}
	return Answer{Stderr: askAsDeny(d) + "\n", Exit: 2}
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

// --- Amp ---

// amp reads Amp's permission delegate: the tool's arguments on stdin, its
// name in AGENT_TOOL_NAME (ampcode.com/manual/appendix, Permissions). Amp
// applies a rule for Bash to its other shell tools, shell_command and
// async_shell_command, as well (verified with Amp's own `amp permissions
// test`), and those are the shell tools its current modes offer, beside
// apply_patch for writes.
type amp struct{ tool string }

func (amp) Name() string { return "amp" }

// WithEnv takes the tool's name from the delegate's environment.
func (amp) WithEnv(getenv func(string) string) Dialect {
	return amp{tool: getenv("AGENT_TOOL_NAME")}
}

// Parse reads the arguments of the tool Amp named. The arguments are the
// model's own, so no key in them can name another agent: the tool's name
// comes from the environment alone. Amp hands the delegate only the tools
// install's rules name and the shell tools it maps them to, so a tool it
// does not know is one of those under a new name: it is refused, not let
// through unread.
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
	case "shell_command", "async_shell_command":
		if c.Cwd, err = in.optional("workdir"); err != nil {
			return nil, err
		}
		c.Kind = "bash"
		c.Command, err = in.need("command")
		return c, err
	case "apply_patch":
		patch, err := in.need("patchText")
		if err != nil {
			return nil, err
		}
		return patchCall(c, patch)
	case "create_file":
		return fileCall(c, "write", in, "path")
	case "edit_file", "undo_edit":
		return fileCall(c, "edit", in, "path")
	case "Read":
		return fileCall(c, "read", in, "path")
	case "Grep":
		return searchCall(c, in, "path", "glob")
	}
	return nil, unreadable("Amp's tool %q is not one the guard reads", a.tool)
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

// --- what the table's hosts read or answer by hand ---

// kiroReads reads fs_read: a list of operations, each on a path or on
// images.
func kiroReads(c *Call, in object) (*Call, error) {
	tool := c.Tool
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

// clineEnvelope reads Cline's envelope: the tool is under preToolUse,
// beside its parameters, and paths are relative to the first workspace
// root.
func clineEnvelope(o object) (*Call, object, error) {
	roots, err := o.strings("workspaceRoots")
	if err != nil {
		return nil, nil, err
	}
	pre, err := o.obj("preToolUse")
	if err != nil {
		return nil, nil, err
	}
	tool, err := pre.need("toolName")
	if err != nil {
		return nil, nil, err
	}
	c := &Call{Tool: tool}
	if len(roots) > 0 {
		c.Cwd = roots[0]
	}
	return c, pre, nil
}

// clineList reads a Cline CLI 3 parameter that is a list: JSON text in a
// string (the hook's parameters), a list itself, or one item as a plain
// string. The items stay raw, for the caller to read.
func clineList(in object, key string) ([]json.RawMessage, error) {
	raw := in[key]
	if in.first(key) == '"' {
		s, _, err := in.str(key)
		if err != nil {
			return nil, err
		}
		if !strings.HasPrefix(strings.TrimSpace(s), "[") {
			b, _ := json.Marshal(s)
			return []json.RawMessage{b}, nil
		}
		raw = json.RawMessage(s)
	}
	var list []json.RawMessage
	if len(raw) == 0 || strings.TrimSpace(string(raw))[0] != '[' || json.Unmarshal(raw, &list) != nil {
		return nil, unreadable("%s is not a list", key)
	}
	if len(list) == 0 {
		return nil, unreadable("%s is empty", key)
	}
	return list, nil
}

// clineItem reads one item of a Cline CLI 3 list: a string, or an object
// whose first present key of keys holds the string; args, when the object
// has them, are appended as shell words.
func clineItem(item json.RawMessage, list string, keys ...string) (string, []string, error) {
	var s string
	if len(item) > 0 && item[0] == '"' && json.Unmarshal(item, &s) == nil {
		if strings.TrimSpace(s) == "" {
			return "", nil, unreadable("%s holds an empty item", list)
		}
		return s, nil, nil
	}
	o, err := parseObject(item)
	if err != nil {
		return "", nil, unreadable("%s holds an item that is neither a string nor an object", list)
	}
	v, err := pathOf(o, keys...)
	if err != nil {
		return "", nil, err
	}
	args, err := o.strings("args")
	return v, args, err
}

// clineCommands reads run_commands: each command runs in the shell, one
// after the other, as the lines of one script.
func clineCommands(c *Call, in object) (*Call, error) {
	items, err := clineList(in, "commands")
	if err != nil {
		return nil, err
	}
	lines := make([]string, 0, len(items))
	for _, item := range items {
		cmd, args, err := clineItem(item, "commands", "command")
		if err != nil {
			return nil, err
		}
		for _, a := range args {
			cmd += " '" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		lines = append(lines, cmd)
	}
	c.Kind, c.Command = "bash", strings.Join(lines, "\n")
	return c, nil
}

// clineReads reads read_files: every file it names is read.
func clineReads(c *Call, in object) (*Call, error) {
	items, err := clineList(in, "files")
	if err != nil {
		return nil, err
	}
	c.Kind = "read"
	for _, item := range items {
		p, _, err := clineItem(item, "files", "path", "file_path", "filePath")
		if err != nil {
			return nil, err
		}
		c.Reads = append(c.Reads, p)
	}
	return c, nil
}

// clineAnswer is the JSON Cline reads from the hook's stdout: cancel blocks
// the call and errorMessage says why. Cline cannot ask.
func clineAnswer(d verdict.Outcome) Answer {
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

// gooseTextEditor reads Goose's older text_editor tool: view reads, every
// other command writes.
func gooseTextEditor(c *Call, in object) (*Call, error) {
	cmd, err := in.need("command")
	if err != nil {
		return nil, err
	}
	if cmd == "view" {
		return fileCall(c, "read", in, "path")
	}
	return fileCall(c, "edit", in, "path")
}

// augmentEnvelope reads Augment's envelope: the tool's name, and the cwd,
// which the event gives as its first workspace root (an older shape gave a
// cwd). conversation_id is a string and is_mcp_tool a boolean, when
// present.
func augmentEnvelope(o object) (*Call, object, error) {
	c, err := o.call("tool_name")
	if err != nil {
		return nil, nil, err
	}
	roots, err := o.strings("workspace_roots")
	if err != nil {
		return nil, nil, err
	}
	if c.Cwd == "" && len(roots) > 0 {
		c.Cwd = roots[0]
	}
	if _, err := o.optional("conversation_id"); err != nil {
		return nil, nil, err
	}
	if b := o.first("is_mcp_tool"); b != 0 && b != 't' && b != 'f' {
		return nil, nil, unreadable("is_mcp_tool is not a boolean")
	}
	return c, o, nil
}

// augmentLaunch reads launch-process: its command, run in its cwd, which
// a relative path places under the event's cwd.
func augmentLaunch(c *Call, in object) (*Call, error) {
	cwd, err := in.optional("cwd")
	if err != nil {
		return nil, err
	}
	switch {
	case cwd == "":
	case filepath.IsAbs(cwd) || c.Cwd == "":
		c.Cwd = cwd
	default:
		c.Cwd = filepath.Join(c.Cwd, cwd)
	}
	c.Kind = "bash"
	c.Command, err = in.need("command")
	return c, err
}

// augmentRemoves reads remove-files, which deletes each of its paths.
func augmentRemoves(c *Call, in object) (*Call, error) {
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

// opencodeAnswer is the JSON the plugin reads: only {"decision":"allow"} lets the
// call run; anything else, and any other exit status, makes it throw. A
// refusal also exits 2, so that a plugin that stopped reading stdout
// still blocks.
func opencodeAnswer(d verdict.Outcome) Answer {
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
