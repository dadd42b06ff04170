package guard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Call is a tool call, whatever agent made it.
type Call struct {
	// Tool is the host's tool name.
	Tool string
	// Command is the shell command of a shell tool.
	Command string
	// Writes are the paths a file tool writes.
	Writes []string
	// Kind is "bash", "write", "edit", or "" for tools the guard lets be.
	Kind string
	// Cwd is the call's working directory.
	Cwd string
}

// Answer is what a host acts on.
type Answer struct {
	Stdout []byte
	Stderr string
	Exit   int
}

// Dialect reads one agent's pre-tool events and answers in its format.
type Dialect interface {
	// Name is the agent's name (claude, codex, gemini, cursor, copilot).
	Name() string
	// Parse reads an event.
	Parse(input []byte) (*Call, error)
	// Answer renders a decision.
	Answer(d *Decision) Answer
}

// Dialects are the agents sentinel speaks to, by name.
var Dialects = map[string]Dialect{
	"claude":  claude{},
	"codex":   codex{},
	"gemini":  gemini{},
	"cursor":  cursor{},
	"copilot": copilot{},
}

// errUnreadable is an event the guard cannot read.
var errUnreadable = errors.New("the hook event is not one the guard can read")

// decodeStrict reads one JSON object and nothing after it.
func decodeStrict(input []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(input))
	if err := dec.Decode(v); err != nil {
		return errUnreadable
	}
	if len(bytes.TrimSpace(input[dec.InputOffset():])) > 0 {
		return errUnreadable
	}
	return nil
}

// Detect recognises the agent from the event's shape; Claude Code's shape
// is the default.
func Detect(input []byte) Dialect {
	var probe map[string]json.RawMessage
	if json.Unmarshal(input, &probe) != nil {
		return claude{}
	}
	str := func(k string) string {
		var s string
		_ = json.Unmarshal(probe[k], &s)
		return s
	}
	switch {
	case probe["toolName"] != nil && probe["toolArgs"] != nil:
		return copilot{}
	case str("hook_event_name") == "beforeShellExecution", probe["working_directory"] != nil, str("hook_event_name") == "preToolUse":
		return cursor{}
	case str("hook_event_name") == "BeforeTool":
		return gemini{}
	case str("tool_name") == "apply_patch", probe["turn_id"] != nil:
		return codex{}
	}
	return claude{}
}

// answerReason is a refusal's one line for the agent.
func answerReason(d *Decision) string {
	r := d.Reason()
	if r == "" {
		r = "sentinel guard: refused"
	}
	return r
}

// askAsDeny turns an ask into a deny for hosts that ignore ask, saying how a
// person allows the call.
func askAsDeny(d *Decision) string {
	r := answerReason(d)
	if d.Verdict == Ask {
		r = oneLine(r + " (this agent cannot ask; a person may allow it with a [[guard.rules]] allow in ~/.config/sentinel/config.toml)")
	}
	return r
}

// --- Claude Code ---

type claude struct{}

func (claude) Name() string { return "claude" }

func (claude) Parse(input []byte) (*Call, error) {
	var ev struct {
		ToolName  string `json:"tool_name"`
		ToolInput struct {
			Command      string `json:"command"`
			FilePath     string `json:"file_path"`
			NotebookPath string `json:"notebook_path"`
		} `json:"tool_input"`
		Cwd string `json:"cwd"`
	}
	if err := decodeStrict(input, &ev); err != nil || ev.ToolName == "" {
		return nil, errUnreadable
	}
	c := &Call{Tool: ev.ToolName, Cwd: ev.Cwd}
	switch ev.ToolName {
	case "Bash":
		c.Kind, c.Command = "bash", ev.ToolInput.Command
	case "Write":
		c.Kind, c.Writes = "write", []string{ev.ToolInput.FilePath}
	case "Edit", "MultiEdit":
		c.Kind, c.Writes = "edit", []string{ev.ToolInput.FilePath}
	case "NotebookEdit":
		c.Kind, c.Writes = "edit", []string{ev.ToolInput.NotebookPath}
	}
	return c, nil
}

func (claude) Answer(d *Decision) Answer {
	return Answer{Stdout: ClaudeResponse(d)}
}

// --- Codex CLI ---

type codex struct{}

func (codex) Name() string { return "codex" }

func (codex) Parse(input []byte) (*Call, error) {
	var ev struct {
		ToolName  string          `json:"tool_name"`
		ToolInput json.RawMessage `json:"tool_input"`
		Cwd       string          `json:"cwd"`
	}
	if err := decodeStrict(input, &ev); err != nil || ev.ToolName == "" {
		return nil, errUnreadable
	}
	var in struct {
		Command json.RawMessage `json:"command"`
		Patch   string          `json:"patch"`
		Input   string          `json:"input"`
	}
	if len(ev.ToolInput) > 0 {
		if err := json.Unmarshal(ev.ToolInput, &in); err != nil {
			// apply_patch may carry the patch as a bare string.
			var s string
			if json.Unmarshal(ev.ToolInput, &s) != nil {
				return nil, errUnreadable
			}
			in.Patch = s
		}
	}
	c := &Call{Tool: ev.ToolName, Cwd: ev.Cwd}
	switch ev.ToolName {
	case "Bash", "shell", "exec_command", "local_shell":
		c.Kind = "bash"
		c.Command = codexCommand(in.Command)
	case "apply_patch":
		patch := in.Patch
		if patch == "" {
			patch = in.Input
		}
		if patch == "" {
			patch = codexCommand(in.Command)
		}
		c.Kind, c.Writes = "edit", PatchPaths(patch)
	}
	return c, nil
}

// codexCommand reads a command given as a string or an argv array; an argv
// ["bash","-lc","…"] is the script.
func codexCommand(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var argv []string
	if json.Unmarshal(raw, &argv) == nil {
		quoted := make([]string, len(argv))
		for i, a := range argv {
			quoted[i] = shellQuoteArg(a)
		}
		return strings.Join(quoted, " ")
	}
	return ""
}

func shellQuoteArg(a string) string {
	if a != "" && strings.IndexFunc(a, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r == '/' || r == '=' || r == ':' || r == ',' || r == '+' ||
			r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) < 0 {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}

// PatchPaths lists the files an apply_patch patch writes.
func PatchPaths(patch string) []string {
	var out []string
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimRight(line, "\r")
		for _, p := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if strings.HasPrefix(line, p) {
				out = append(out, strings.TrimSpace(line[len(p):]))
			}
		}
	}
	return out
}

func (codex) Answer(d *Decision) Answer {
	switch d.Verdict {
	case Allow:
		return Answer{}
	case Warn:
		// MEDIUM is allowed with a warning where the host cannot ask.
		return Answer{Stderr: answerReason(d) + "\n"}
	}
	// Codex ignores ask: everything that is not an allow is a deny, and a
	// deny needs a non-empty reason on stderr with exit status 2.
	return Answer{Stderr: askAsDeny(d) + "\n", Exit: 2}
}

// --- Gemini CLI ---

type gemini struct{}

func (gemini) Name() string { return "gemini" }

func (gemini) Parse(input []byte) (*Call, error) {
	var ev struct {
		ToolName  string `json:"tool_name"`
		ToolInput struct {
			Command  string `json:"command"`
			FilePath string `json:"file_path"`
			Path     string `json:"path"`
		} `json:"tool_input"`
		Cwd string `json:"cwd"`
	}
	if err := decodeStrict(input, &ev); err != nil || ev.ToolName == "" {
		return nil, errUnreadable
	}
	c := &Call{Tool: ev.ToolName, Cwd: ev.Cwd}
	path := ev.ToolInput.FilePath
	if path == "" {
		path = ev.ToolInput.Path
	}
	switch ev.ToolName {
	case "run_shell_command":
		c.Kind, c.Command = "bash", ev.ToolInput.Command
	case "write_file":
		c.Kind, c.Writes = "write", []string{path}
	case "replace":
		c.Kind, c.Writes = "edit", []string{path}
	}
	return c, nil
}

func (gemini) Answer(d *Decision) Answer {
	if d.Verdict == Allow || d.Verdict == Warn {
		return Answer{} // MEDIUM is allowed where the host cannot ask
	}
	b, _ := json.Marshal(map[string]string{"decision": "deny", "reason": askAsDeny(d)})
	return Answer{Stdout: append(b, '\n')}
}

// --- Cursor ---

type cursor struct{}

func (cursor) Name() string { return "cursor" }

func (cursor) Parse(input []byte) (*Call, error) {
	var ev struct {
		HookEventName    string `json:"hook_event_name"`
		Command          string `json:"command"`
		Cwd              string `json:"cwd"`
		WorkingDirectory string `json:"working_directory"`
		ToolName         string `json:"tool_name"`
		ToolInput        struct {
			Command  string `json:"command"`
			FilePath string `json:"file_path"`
			Path     string `json:"path"`
		} `json:"tool_input"`
	}
	if err := decodeStrict(input, &ev); err != nil || (ev.HookEventName == "" && ev.ToolName == "") {
		return nil, errUnreadable
	}
	c := &Call{Tool: ev.ToolName, Cwd: ev.WorkingDirectory}
	if c.Cwd == "" {
		c.Cwd = ev.Cwd
	}
	cmd := ev.ToolInput.Command
	if cmd == "" {
		cmd = ev.Command
	}
	path := ev.ToolInput.FilePath
	if path == "" {
		path = ev.ToolInput.Path
	}
	switch {
	case ev.HookEventName == "beforeShellExecution" || cmd != "":
		c.Kind, c.Command, c.Tool = "bash", cmd, "shell"
	case path != "":
		c.Kind, c.Writes = "edit", []string{path}
	}
	return c, nil
}

func (cursor) Answer(d *Decision) Answer {
	perm := map[Verdict]string{Allow: "allow", Warn: "ask", Ask: "ask", Deny: "deny"}[d.Verdict]
	out := map[string]string{"permission": perm}
	if d.Verdict != Allow {
		r := answerReason(d)
		out["user_message"] = r
		out["agent_message"] = r
	}
	b, _ := json.Marshal(out)
	return Answer{Stdout: append(b, '\n')}
}

// --- Copilot CLI ---

type copilot struct{}

func (copilot) Name() string { return "copilot" }

func (copilot) Parse(input []byte) (*Call, error) {
	var ev struct {
		ToolName string `json:"toolName"`
		ToolArgs string `json:"toolArgs"`
		Cwd      string `json:"cwd"`
	}
	if err := decodeStrict(input, &ev); err != nil || ev.ToolName == "" {
		return nil, errUnreadable
	}
	// toolArgs is a JSON object inside a string.
	var args struct {
		Command  string `json:"command"`
		Path     string `json:"path"`
		FilePath string `json:"file_path"`
	}
	if ev.ToolArgs != "" {
		if err := json.Unmarshal([]byte(ev.ToolArgs), &args); err != nil {
			return nil, fmt.Errorf("%w: toolArgs is not JSON", errUnreadable)
		}
	}
	c := &Call{Tool: ev.ToolName, Cwd: ev.Cwd}
	path := args.Path
	if path == "" {
		path = args.FilePath
	}
	switch t := strings.ToLower(ev.ToolName); {
	case t == "bash" || t == "shell" || strings.Contains(t, "shell"):
		c.Kind, c.Command = "bash", args.Command
	case t == "write" || t == "create" || t == "edit" || strings.Contains(t, "str_replace"):
		c.Kind, c.Writes = "edit", []string{path}
	}
	return c, nil
}

func (copilot) Answer(d *Decision) Answer {
	if d.Verdict == Allow || d.Verdict == Warn {
		return Answer{} // MEDIUM is allowed where the host cannot ask
	}
	b, _ := json.Marshal(map[string]string{"permissionDecision": "deny", "permissionDecisionReason": askAsDeny(d)})
	return Answer{Stdout: append(b, '\n')}
}
