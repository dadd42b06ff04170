package guard

import (
	"encoding/json"
	"strings"
)

// Every Parse below reads the event with exact keys and refuses what it
// cannot fully read: a shell call without a string command, a file call
// without its path, a member of the wrong type. A call the guard cannot
// read is a denial, never an allow.

// signature names the dialects whose distinguishing marks an event
// carries. Copilot writes camelCase keys; the others snake_case, told
// apart by the event name, Cursor's ids and Codex's turn id.
func signature(o object) map[string]bool {
	sig := map[string]bool{}
	event, _ := o.optional("hook_event_name")
	if o.has("toolName") || o.has("toolArgs") {
		sig["copilot"] = true
	}
	if o.has("tool_name") || o.has("tool_input") || o.has("hook_event_name") {
		switch event {
		case "BeforeTool":
			sig["gemini"] = true
		case "beforeShellExecution", "beforeReadFile", "beforeMCPExecution", "preToolUse", "beforeSubmitPrompt":
			sig["cursor"] = true
		case "PreToolUse", "":
			switch {
			case o.has("turn_id") || string(o["tool_name"]) == `"apply_patch"`:
				sig["codex"] = true
			case o.has("conversation_id") || o.has("generation_id"):
				sig["cursor"] = true
			default:
				sig["claude"] = true
			}
		default:
			sig["unknown"] = true
		}
	}
	if o.has("working_directory") || o.has("conversation_id") {
		sig["cursor"] = true
	}
	return sig
}

// Detect recognises the agent from the event's shape. Claude Code's shape
// is the default; an event that carries the marks of two agents is
// ambiguous, and Parse of the dialect returned refuses it.
func Detect(input []byte) Dialect {
	o, err := parseObject(input)
	if err != nil {
		return claude{}
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
	if len(sig) > 1 || len(sig) == 1 && !sig[dialect] && !(dialect == "codex" && sig["claude"]) {
		return nil, unreadable("the event has the shape of another agent's (%s)", strings.Join(keys(sig), ", "))
	}
	return o, nil
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// ambiguous is the dialect of an event whose shape names no one agent: it
// refuses every event, in Claude Code's terms (the default host).
type ambiguous struct{ claude }

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

func (claude) Parse(input []byte) (*Call, error) {
	o, err := readEvent(input, "claude")
	if err != nil {
		return nil, err
	}
	return parseToolUse(o)
}

// parseToolUse reads Claude Code's tool_name/tool_input shape, which Codex
// and Cursor's preToolUse share.
func parseToolUse(o object) (*Call, error) {
	tool, err := o.need("tool_name")
	if err != nil {
		return nil, err
	}
	cwd, err := o.optional("cwd")
	if err != nil {
		return nil, err
	}
	c := &Call{Tool: tool, Cwd: cwd}
	switch tool {
	case "Bash", "Write", "Edit", "MultiEdit", "NotebookEdit", "Read", "Grep":
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
	tool, err := o.need("tool_name")
	if err != nil {
		return nil, err
	}
	cwd, err := o.optional("cwd")
	if err != nil {
		return nil, err
	}
	c := &Call{Tool: tool, Cwd: cwd}
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
	tool, err := o.need("tool_name")
	if err != nil {
		return nil, err
	}
	cwd, err := o.optional("cwd")
	if err != nil {
		return nil, err
	}
	c := &Call{Tool: tool, Cwd: cwd}
	switch tool {
	case "run_shell_command", "write_file", "replace", "read_file", "read_many_files", "search_file_content", "grep", "grep_search":
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
	case "write_file", "replace":
		key := "file_path"
		if !in.has(key) && in.has("absolute_path") {
			key = "absolute_path"
		}
		return fileCall(c, map[string]string{"write_file": "write", "replace": "edit"}[tool], in, key)
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
	default: // search_file_content, grep
		return searchCall(c, in, "path", "include")
	}
}

func (cursor) Parse(input []byte) (*Call, error) {
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
		return fileCall(&Call{Tool: "read", Cwd: cwd}, "read", o, "file_path")
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
		switch {
		case in.has("command"):
			c.Kind, c.Tool = "bash", "shell"
			c.Command, err = in.need("command")
			return c, err
		case strings.EqualFold(tool, "read") || strings.EqualFold(tool, "read_file"):
			key := "file_path"
			if !in.has(key) {
				key = "path"
			}
			return fileCall(c, "read", in, key)
		case in.has("file_path"):
			return fileCall(c, "edit", in, "file_path")
		case in.has("path"):
			return fileCall(c, "edit", in, "path")
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
	tool, err := o.need("toolName")
	if err != nil {
		return nil, err
	}
	cwd, err := o.optional("cwd")
	if err != nil {
		return nil, err
	}
	c := &Call{Tool: tool, Cwd: cwd}
	t := strings.ToLower(tool)
	shell := t == "bash" || t == "shell" || t == "powershell" || strings.Contains(t, "shell")
	write := t == "write" || t == "create" || t == "edit" || strings.Contains(t, "str_replace")
	read := t == "view" || t == "read" || t == "grep" || t == "rg" || t == "search"
	if !shell && !write && !read {
		return c, nil
	}
	// toolArgs is a JSON object inside a string.
	argsText, err := o.need("toolArgs")
	if err != nil {
		return nil, err
	}
	args, err := parseObject([]byte(argsText))
	if err != nil {
		return nil, unreadable("toolArgs is not a JSON object")
	}
	path := func() (string, error) {
		for _, k := range []string{"path", "file_path", "filePath"} {
			if args.has(k) {
				return args.need(k)
			}
		}
		return "", unreadable("toolArgs names no path")
	}
	switch {
	case shell:
		c.Kind = "bash"
		c.Command, err = args.need("command")
		return c, err
	case write:
		p, err := path()
		if err != nil {
			return nil, err
		}
		c.Kind, c.Writes = "edit", []string{p}
	case read:
		c.Kind = "read"
		if p, err := path(); err == nil {
			c.Reads = []string{p}
		} else if t == "view" || t == "read" {
			return nil, err
		}
	}
	return c, nil
}
