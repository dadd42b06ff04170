package hosts

import (
	"encoding/json"
	"sort"
	"strings"
)

// Every Parse below reads the event with exact keys and refuses what it
// cannot fully read: a shell call without a string command, a file call
// without its path, a member of the wrong type. A call the guard cannot
// read is a denial, never an allow.

// signature names the dialects whose distinguishing marks an event
// carries. Copilot CLI writes camelCase keys, Windsurf a tool_info object,
// Cline its own envelope, Goose an "event" key; the Claude-shaped rest are
// told apart by the event name, Cursor's ids, Codex's turn id and, for the
// hosts that copied Claude Code's envelope (Factory Droid, Qwen Code,
// Augment, Kiro), the names of their own tools.
func signature(o object) map[string]bool {
	sig := map[string]bool{}
	event, _ := o.optional("hook_event_name")
	tool, _ := o.optional("tool_name")
	if o.has("toolName") || o.has("toolArgs") {
		sig["copilot"] = true
	}
	if o.has("agent_action_name") || o.has("tool_info") || o.has("trajectory_id") || o.has("execution_id") {
		sig["windsurf"] = true
	}
	if o.has("clineVersion") || o.has("hookName") || o.has("preToolUse") {
		sig["cline"] = true
	}
	if o.has("hookEventName") || o.has("transcriptPath") || o.has("permissionMode") {
		sig["factory"] = true // Droid's camelCase envelope
	}
	if o.has("event") || o.has("matcher_context") || o.has("working_dir") {
		sig["goose"] = true
		if !o.has("hook_event_name") {
			return sig // Goose's tool_name and tool_input are its own
		}
	}
	if o.has("tool_name") || o.has("tool_input") || o.has("hook_event_name") {
		switch event {
		case "BeforeTool":
			sig["gemini"] = true
		case "beforeShellExecution", "beforeReadFile", "beforeMCPExecution", "beforeSubmitPrompt":
			sig["cursor"] = true
		case "preToolUse":
			// Cursor's generic event and Kiro's share the name. Cursor's
			// carries its conversation's ids, Kiro's its own tool names;
			// with neither, the event is one of the two, and only a
			// dialect named on the command line reads it.
			switch {
			case cursorMarks(o):
				sig["cursor"] = true
			case kiroTools[tool] || strings.HasPrefix(tool, "@"):
				sig["kiro"] = true
			default:
				sig["cursor or kiro"] = true
			}
		case "tool_call":
			// sentinel's extension in Pi writes the event.
			sig["pi"] = true
		case "tool.execute.before":
			// sentinel's plugin writes the event; in a fork of OpenCode
			// it names the host.
			switch host, _ := o.optional("host"); host {
			case "":
				sig["opencode"] = true
			case "kilo":
				sig["kilo"] = true
			default:
				sig["unknown"] = true
			}
		case "PreToolUse", "":
			switch {
			case augmentMarks(o):
				// Auggie's envelope first: it carries ids named like
				// Cursor's, and has an apply_patch of its own.
				sig["augment"] = true
			case o.has("turn_id") || tool == "apply_patch":
				sig["codex"] = true
			case augmentTools[tool]:
				// Augment's own tool names: no Cursor tool has them.
				sig["augment"] = true
			case cursorMarks(o):
				sig["cursor"] = true
			case kiroTools[tool] || strings.HasPrefix(tool, "@"):
				sig["kiro"] = true
			case geminiTools[tool] || o.has("tool_call_id"):
				sig["qwen"] = true
			case factoryTools[tool] || factoryMarks(o):
				sig["factory"] = true
			case augmentTools[tool] || strings.HasPrefix(tool, "mcp:"):
				sig["augment"] = true
			default:
				sig["claude"] = true
			}
		default:
			sig["unknown"] = true
		}
	}
	if (o.has("working_directory") || o.has("conversation_id")) && !sig["augment"] {
		sig["cursor"] = true
	}
	return sig
}

// factoryMarks reports what Factory Droid's snake_case envelope carries
// and Claude Code's does not, for the tools the two share (Read, Edit,
// Grep): Droid's own permission modes, or a transcript in Droid's
// sessions directory (0.225.2).
func factoryMarks(o object) bool {
	mode, _ := o.optional("permission_mode")
	transcript, _ := o.optional("transcript_path")
	return factoryModes[mode] || strings.Contains(transcript, "/.factory/sessions/")
}

// augmentMarks reports Auggie's envelope (recorded from Auggie 0.36.0): a
// PreToolUse event with is_mcp_tool, or with a conversation id and
// workspace roots but none of the ids Cursor adds (Cursor names its
// pre-tool event preToolUse, and Codex sends a turn id).
func augmentMarks(o object) bool {
	event, _ := o.optional("hook_event_name")
	if event != "PreToolUse" || o.has("turn_id") || o.has("generation_id") || o.has("cursor_version") {
		return false
	}
	return o.has("is_mcp_tool") || o.has("conversation_id") && o.has("workspace_roots")
}

// cursorMarks reports the ids Cursor puts on every hook event.
func cursorMarks(o object) bool {
	return o.has("conversation_id") || o.has("generation_id") || o.has("cursor_version") || o.has("workspace_roots")
}

// The tool names only one host uses, which tell its Claude-shaped events
// from Claude Code's. Names two hosts share (grep, glob, Read) are left
// out: such an event reads as Claude Code's, which each of them accepts.
var (
	kiroTools = setOf("execute_bash", "execute_cmd", "fs_read", "fs_write", "use_aws", "shell", "read", "write",
		"introspect", "knowledge", "thinking", "todo_list", "use_subagent", "delegate", "report_issue")
	geminiTools = setOf("run_shell_command", "write_file", "replace", "edit", "read_file", "read_many_files",
		"grep_search", "search_file_content", "list_directory", "save_memory", "web_fetch", "google_web_search")
	factoryTools = setOf("Execute", "Create", "ApplyPatch")
	// factoryModes are the permission modes Droid names in its events.
	factoryModes = setOf("off", "spec", "auto-low", "auto-medium", "auto-high")
	augmentTools = setOf("launch-process", "save-file", "str-replace-editor", "view", "remove-files", "read-process", "write-process", "kill-process", "list-processes",
		"view-range-untruncated", "search-untruncated", "view-session", "codebase-retrieval", "web-fetch", "view_tasklist", "reorganize_tasklist", "update_tasks", "add_tasks")
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// alsoReads lists, for each dialect, the other shapes it reads as its own:
// a host that copied Claude Code's envelope sends events that look like
// Claude Code's whenever the tool is one they share (an MCP tool, Read).
var alsoReads = map[string][]string{
	"codex":   {"claude"},
	"factory": {"claude"},
	"qwen":    {"claude"},
	"augment": {"claude"},
	"kiro":    {"claude", "cursor or kiro"},
	"cursor":  {"cursor or kiro"},
}

// Detect recognises the agent from the event's shape. Claude Code's shape
// is the default; an event that carries the marks of two agents is
// ambiguous, and Parse of the dialect returned refuses it.
func Detect(input []byte) Dialect {
	return DetectIn(input, nil)
}

// detect is Detect with the hook's environment, which names Amp's
// delegate calls: Amp pipes only the tool's arguments, and exports
// AGENT=amp and the tool's name in AGENT_TOOL_NAME. Without the name the
// amp dialect refuses the call, in Amp's terms.
func DetectIn(input []byte, getenv func(string) string) Dialect {
	if getenv != nil && getenv("AGENT") == "amp" {
		return amp{}
	}
	o, err := parseObject(input)
	if err != nil {
		return Claude{}
	}
	sig := signature(o)
	if len(sig) != 1 {
		return ambiguous{}
	}
	for name := range sig {
		if d := Dialects[name]; d != nil {
			return d
		}
	}
	return ambiguous{}
}

// readEvent parses an event for the named dialect and refuses one that
// carries another agent's marks: adding toolName and toolArgs to a Claude
// event must not make it read as something else.
func readEvent(input []byte, dialect string) (object, error) {
	o, err := parseObject(input)
	if err != nil {
		return nil, err
	}
	sig := signature(o)
	if len(sig) > 1 || len(sig) == 1 && !sig[dialect] && !reads(dialect, sig) {
		return nil, unreadable("the event has the shape of another agent's (%s)", strings.Join(keys(sig), ", "))
	}
	return o, nil
}

// reads reports a one-dialect signature the named dialect also reads.
func reads(dialect string, sig map[string]bool) bool {
	for _, other := range alsoReads[dialect] {
		if sig[other] {
			return true
		}
	}
	return false
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ambiguous is the dialect of an event whose shape names no one agent: it
// refuses every event, in Claude Code's terms (the default host).
type ambiguous struct{ Claude }

func (ambiguous) Parse(input []byte) (*Call, error) {
	return nil, unreadable("the event has the shape of more than one agent's, or of none")
}

// fileCall builds a file tool's call from a required path member.
func fileCall(c *Call, kind string, in object, key string) (*Call, error) {
	p, err := in.need(key)
	if err != nil {
		return nil, err
	}
	c.Kind = kind
	if kind == "read" {
		c.Reads = []string{p}
	} else {
		c.Writes = []string{p}
	}
	return c, nil
}

// Parse reads a PreToolUse event.
func (Claude) Parse(input []byte) (*Call, error) {
	o, err := readEvent(input, "claude")
	if err != nil {
		return nil, err
	}
	return parseToolUse(o)
}

// parseToolUse reads Claude Code's tool_name/tool_input shape, which Codex
// and Cursor's preToolUse share.
func parseToolUse(o object) (*Call, error) {
	c, err := o.call("tool_name")
	if err != nil {
		return nil, err
	}
	tool := c.Tool
	switch tool {
	case "Bash", "PowerShell", "Write", "Edit", "MultiEdit", "NotebookEdit", "Read", "Grep":
	default:
		return c, nil // a tool the guard lets be (Glob lists names, not contents)
	}
	in, err := o.obj("tool_input")
	if err != nil {
		return nil, err
	}
	switch tool {
	case "Bash":
		c.Kind = "bash"
		c.Command, err = in.need("command")
		return c, err
	case "PowerShell":
		// The same fields as Bash, run by PowerShell, whose quoting and
		// aliases are not the POSIX shell's.
		c.Kind, c.Shell = "nonposix", "powershell"
		c.Command, err = in.need("command")
		return c, err
	case "Write":
		return fileCall(c, "write", in, "file_path")
	case "Edit", "MultiEdit":
		return fileCall(c, "edit", in, "file_path")
	case "NotebookEdit":
		return fileCall(c, "edit", in, "notebook_path")
	case "Read":
		return fileCall(c, "read", in, "file_path")
	case "Grep":
		return searchCall(c, in, "path", "glob")
	}
	return c, nil
}

// searchCall reads a content search: the path searched (the cwd when
// absent) and a glob that narrows it. A search that names a secret reads
// it.
func searchCall(c *Call, in object, pathKey, globKey string) (*Call, error) {
	c.Kind = "read"
	p, err := in.optional(pathKey)
	if err != nil {
		return nil, err
	}
	if p != "" {
		c.Reads = append(c.Reads, p)
	}
	if globKey != "" {
		g, err := in.optional(globKey)
		if err != nil {
			return nil, err
		}
		if g != "" {
			dir := p
			if dir == "" {
				dir = "."
			}
			c.Reads = append(c.Reads, dir+"/"+g)
		}
	}
	return c, nil
}

func (codex) Parse(input []byte) (*Call, error) {
	o, err := readEvent(input, "codex")
	if err != nil {
		return nil, err
	}
	c, err := o.call("tool_name")
	if err != nil {
		return nil, err
	}
	tool := c.Tool
	switch tool {
	case "Bash", "shell", "exec_command", "local_shell", "container.exec", "unified_exec":
		c.Kind = "bash"
		in, err := o.obj("tool_input")
		if err != nil {
			return nil, err
		}
		c.Command, err = codexCommand(in)
		return c, err
	case "apply_patch":
		var patch string
		if raw, ok := o["tool_input"]; ok && len(raw) > 0 && raw[0] == '"' {
			// apply_patch may carry the patch as a bare string.
			json.Unmarshal(raw, &patch)
		} else {
			in, err := o.obj("tool_input")
			if err != nil {
				return nil, err
			}
			for _, k := range []string{"patch", "input"} {
				if patch, err = in.optional(k); err != nil || patch != "" {
					break
				}
			}
			if err != nil {
				return nil, err
			}
			if patch == "" && in.has("command") {
				if patch, err = codexCommand(in); err != nil {
					return nil, err
				}
			}
		}
		c.Kind, c.Writes = "edit", PatchPaths(patch)
		if len(c.Writes) == 0 {
			return nil, unreadable("apply_patch names no file")
		}
	}
	return c, nil
}

// codexCommand reads a command given as a string or an argv list of
// strings; anything else (a number, an object, a bool, null) is unreadable.
func codexCommand(in object) (string, error) {
	raw, ok := in["command"]
	if !ok {
		return "", unreadable("command is missing")
	}
	if len(raw) > 0 && raw[0] == '"' {
		return in.need("command")
	}
	argv, err := in.strings("command")
	if err != nil || len(argv) == 0 {
		return "", unreadable("command is neither a string nor a list of strings")
	}
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = shellQuoteArg(a)
	}
	return strings.Join(quoted, " "), nil
}

func (gemini) Parse(input []byte) (*Call, error) {
	o, err := readEvent(input, "gemini")
	if err != nil {
		return nil, err
	}
	return parseGeminiTool(o)
}

// parseGeminiTool reads Gemini CLI's tools, which Qwen Code keeps under a
// Claude-shaped envelope: tool_name, tool_input and cwd.
func parseGeminiTool(o object) (*Call, error) {
	c, err := o.call("tool_name")
	if err != nil {
		return nil, err
	}
	tool := c.Tool
	switch tool {
	case "run_shell_command", "write_file", "replace", "edit", "read_file", "read_many_files",
		"search_file_content", "grep", "grep_search", "glob", "list_directory":
	default:
		return c, nil
	}
	in, err := o.obj("tool_input")
	if err != nil {
		return nil, err
	}
	switch tool {
	case "run_shell_command":
		c.Kind = "bash"
		c.Command, err = in.need("command")
		return c, err
	case "write_file", "replace", "edit":
		key := "file_path"
		if !in.has(key) && in.has("absolute_path") {
			key = "absolute_path"
		}
		kind := "edit"
		if tool == "write_file" {
			kind = "write"
		}
		return fileCall(c, kind, in, key)
	case "read_file":
		key := "absolute_path"
		if !in.has(key) {
			key = "file_path"
		}
		return fileCall(c, "read", in, key)
	case "read_many_files":
		paths, err := in.strings("paths")
		if err != nil {
			return nil, err
		}
		include, err := in.strings("include")
		if err != nil {
			return nil, err
		}
		c.Kind, c.Reads = "read", append(paths, include...)
		if len(c.Reads) == 0 {
			return nil, unreadable("read_many_files names no path")
		}
		return c, nil
	case "glob", "list_directory":
		// They list names, not contents: read for their types, then let
		// be, like Claude Code's Glob.
		for _, k := range []string{"pattern", "dir_path", "path"} {
			if _, err := in.optional(k); err != nil {
				return nil, err
			}
		}
		if _, err := in.strings("ignore"); err != nil && in.first("ignore") == '[' {
			return nil, err
		}
		if tool == "glob" {
			if _, err := in.need("pattern"); err != nil {
				return nil, err
			}
		}
		return c, nil
	default: // grep_search, its older name search_file_content, grep
		dir, include := "path", "include"
		if in.has("dir_path") {
			dir = "dir_path"
		}
		if in.has("include_pattern") {
			include = "include_pattern"
		}
		return searchCall(c, in, dir, include)
	}
}

// Parse reads one of Cursor's hook events.
func (Cursor) Parse(input []byte) (*Call, error) {
	o, err := readEvent(input, "cursor")
	if err != nil {
		return nil, err
	}
	event, err := o.need("hook_event_name")
	if err != nil {
		return nil, err
	}
	cwd, err := o.optional("cwd")
	if err != nil {
		return nil, err
	}
	if wd, err := o.optional("working_directory"); err != nil {
		return nil, err
	} else if wd != "" {
		cwd = wd
	}
	if cwd == "" {
		if roots, err := o.strings("workspace_roots"); err == nil && len(roots) > 0 {
			cwd = roots[0]
		}
	}
	switch event {
	case "beforeShellExecution":
		c := &Call{Tool: "shell", Cwd: cwd, Kind: "bash"}
		c.Command, err = o.need("command")
		return c, err
	case "beforeReadFile":
		// The answer to this event differs (allow or deny only), so the
		// call keeps the event's name.
		return fileCall(&Call{Tool: event, Cwd: cwd}, "read", o, "file_path")
	case "beforeMCPExecution":
		// An MCP tool's arguments mean what its server makes of them: the
		// guard reads the event whole, then lets the call be, as it does
		// every host's MCP tools.
		if _, err := o.need("tool_name"); err != nil {
			return nil, err
		}
		if o.has("tool_input") {
			if _, text, err := o.objOrText("tool_input"); err != nil {
				return nil, err
			} else if text != "" {
				return nil, unreadable("tool_input is a string that is not a JSON object")
			}
		}
		for _, k := range []string{"url", "command"} {
			if _, err := o.optional(k); err != nil {
				return nil, err
			}
		}
		return &Call{Tool: event, Cwd: cwd}, nil
	case "preToolUse":
		tool, err := o.need("tool_name")
		if err != nil {
			return nil, err
		}
		c := &Call{Tool: tool, Cwd: cwd}
		in, err := o.obj("tool_input")
		if err != nil {
			return nil, err
		}
		if wd, err := in.optional("working_directory"); err != nil {
			return nil, err
		} else if wd != "" {
			c.Cwd = wd
		}
		path := func() (string, error) { return pathOf(in, "file_path", "path", "target_file") }
		switch strings.ToLower(tool) {
		case "shell", "terminal", "run_terminal_cmd":
			c.Kind = "bash"
			c.Command, err = in.need("command")
			return c, err
		case "read", "read_file", "tabread":
			p, err := path()
			if err != nil {
				return nil, err
			}
			c.Kind, c.Reads = "read", []string{p}
			return c, nil
		case "grep":
			return searchCall(c, in, "path", "glob")
		case "glob", "ls", "list_dir", "task", "websearch", "web_search", "todowrite":
			return c, nil
		case "write", "edit", "strreplace", "multiedit", "delete", "search_replace", "edit_file", "delete_file", "tabwrite":
			p, err := path()
			if err != nil {
				return nil, err
			}
			c.Kind, c.Writes = "edit", []string{p}
			return c, nil
		}
		if strings.HasPrefix(tool, "MCP:") || strings.HasPrefix(tool, "mcp_") {
			return c, nil
		}
		// A tool not known by name is read by what it carries: a command
		// is run, a path is written.
		switch {
		case in.has("command"):
			c.Kind, c.Tool = "bash", "shell"
			c.Command, err = in.need("command")
			return c, err
		case in.has("file_path") || in.has("path") || in.has("target_file"):
			p, err := path()
			if err != nil {
				return nil, err
			}
			c.Kind, c.Writes = "edit", []string{p}
		}
		return c, nil
	}
	return &Call{Tool: event, Cwd: cwd}, nil
}

func (copilot) Parse(input []byte) (*Call, error) {
	o, err := readEvent(input, "copilot")
	if err != nil {
		return nil, err
	}
	c, err := o.call("toolName")
	if err != nil {
		return nil, err
	}
	tool := c.Tool
	t := strings.ToLower(tool)
	powershell := t == "powershell" || t == "pwsh"
	shell := !powershell && (t == "bash" || t == "shell" || strings.Contains(t, "shell"))
	patch := t == "apply_patch"
	write := t == "write" || t == "create" || t == "edit" || strings.Contains(t, "str_replace")
	read := t == "view" || t == "read" || t == "grep" || t == "rg" || t == "search"
	if !powershell && !shell && !patch && !write && !read {
		return c, nil
	}
	// toolArgs is an object, or one JSON-encoded in a string (older CLIs,
	// and the docs' examples), or for apply_patch the raw patch text.
	args, text, err := o.objOrText("toolArgs")
	if err != nil {
		return nil, err
	}
	if args == nil && !(patch && strings.TrimSpace(text) != "") {
		return nil, unreadable("toolArgs is not a JSON object")
	}
	pathKeys := []string{"path", "file_path", "filePath"}
	path := func() (string, error) { return pathOf(args, pathKeys...) }
	switch {
	case powershell:
		c.Kind, c.Shell = "nonposix", "powershell"
		c.Command, err = args.need("command")
		return c, err
	case shell:
		c.Kind = "bash"
		c.Command, err = args.need("command")
		return c, err
	case patch:
		if args != nil {
			for _, k := range []string{"input", "patch", "patchText"} {
				if text, err = args.optional(k); err != nil || text != "" {
					break
				}
			}
			if err != nil {
				return nil, err
			}
		}
		c.Kind, c.Writes = "edit", PatchPaths(text)
		if len(c.Writes) == 0 {
			return nil, unreadable("apply_patch names no file")
		}
	case write:
		p, err := path()
		if err != nil {
			return nil, err
		}
		c.Kind, c.Writes = "edit", []string{p}
	case read:
		c.Kind = "read"
		p, err := path()
		switch {
		case err == nil:
			c.Reads = []string{p}
		case t == "view" || t == "read" || args.has("path") || args.has("file_path") || args.has("filePath"):
			// A search may leave out its path; a view may not, and a
			// path that is there must be read.
			return nil, err
		}
		if g, err := args.optional("glob"); err != nil {
			return nil, err
		} else if g != "" {
			dir := "."
			if len(c.Reads) > 0 {
				dir = c.Reads[0]
			}
			c.Reads = append(c.Reads, dir+"/"+g)
		}
	}
	return c, nil
}
