package hosts

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gitsentinel/sentinel/guard/verdict"
)

// rewriteSpec is how a host takes a new input for a shell call back from
// its pre-tool hook, as a row of data: where the input sits in the event,
// which key holds the command, and the answer that carries it. A host is
// in rewrites only where that answer grants nothing the host would
// otherwise ask: it carries no allow, or only an ask.
type rewriteSpec struct {
	// tools are the shell tools whose input the host takes back.
	tools []string
	// input is the path of keys to the tool's input in the event, which
	// the new input copies with key replaced; nil builds an input that
	// holds key alone.
	input []string
	// key holds the command in the input.
	key string
	// list holds the command as a list of one (Cline's commands).
	list bool
	// answer is the host's answer, with {{input}} where the new input
	// goes and {{reason}} where a reason for the person does.
	answer string
	// note is a top-level key of the answer that takes a MEDIUM
	// warning's reason, as the host's own answer to a warning would.
	note string
	// how says how the host applies it, for doctor and the docs.
	how string
	// sample is a shell call's event that the host rewrites, in the shape
	// of a recorded one (fixtures/guard/events/live), with {{command}}
	// and {{cwd}} as in sampleEvents.
	sample string
}

// rewrites are the hosts whose pre-tool hook can rewrite a shell call
// without granting it, by the dialect's name. Each answer is the shape its
// host's own source or recorded run reads.
var rewrites = map[string]rewriteSpec{
	// Claude Code takes hookSpecificOutput.updatedInput with
	// permissionDecision "allow" (which approves) or "ask" (which shows
	// the person the new input to approve): "ask".
	"claude": {tools: []string{"Bash"}, input: []string{"tool_input"}, key: "command",
		answer: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":{{reason}},"updatedInput":{{input}}}}`,
		how:    `updatedInput with permissionDecision "ask": Claude Code asks the person to approve every contained shell call`,
		sample: `{"session_id":"sentinel-test","transcript_path":"/dev/null","cwd":{{cwd}},"permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":{{command}},"description":"run it"},"tool_use_id":"call_1"}`},
	// Copilot CLI replaces the tool's arguments with modifiedArgs, with or
	// without a permission decision; without one its own permission
	// check goes on (1.0.102).
	"copilot": {tools: []string{"bash"}, input: []string{"toolArgs"}, key: "command",
		answer: `{"modifiedArgs":{{input}}}`,
		how:    "modifiedArgs without a permission decision: Copilot CLI's own permission check decides on the contained call",
		sample: `{"sessionId":"sentinel-test","timestamp":1764400000000,"cwd":{{cwd}},"toolName":"bash","toolArgs":{"command":{{command}},"description":"run it","initial_wait":30,"mode":"sync"}}`},
	// Gemini CLI merges hookSpecificOutput.tool_input into the call's
	// arguments before its policy check, which then decides on the new
	// call as on any other (0.61.0, scheduler's _processToolCall).
	"gemini": {tools: []string{"run_shell_command"}, input: []string{"tool_input"}, key: "command",
		answer: `{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{{input}}}}`,
		how:    "hookSpecificOutput.tool_input without a decision: Gemini CLI's own policy check decides on the contained call",
		sample: `{"session_id":"sentinel-test","transcript_path":"/dev/null","cwd":{{cwd}},"hook_event_name":"BeforeTool","timestamp":"2026-12-01T00:00:00.000Z","tool_name":"run_shell_command","tool_input":{"command":{{command}},"description":"run it"}}`},
	// The Cline CLI 3 takes overrideInput as the tool's input, then
	// applies its tool policy and asks for approval on the new input as
	// on any other (3.0.65, @cline/agents prepareToolExecution). Its
	// run_commands runs a list of commands; the guard reads them as one
	// script, and that script runs contained as one command. The older
	// Cline's execute_command takes no new input.
	"cline": {tools: []string{"run_commands"}, key: "commands", list: true,
		answer: `{"cancel":false,"overrideInput":{{input}}}`, note: "contextModification",
		how:    "overrideInput: the Cline CLI 3 applies its own approval to the contained run_commands (the older Cline's execute_command cannot be rewritten)",
		sample: `{"clineVersion":"","timestamp":"2026-12-01T00:00:00.000Z","taskId":"sentinel-test","workspaceRoots":[{{cwd}}],"userId":"unknown","hookName":"tool_call","iteration":1,"tool_call":{"id":"call_1","name":"run_commands","input":{"commands":[{{command}}]}},"preToolUse":{"toolName":"run_commands","parameters":{"commands":{{commandList}}}}}`},
}

// noRewrite says, for each host not in rewrites, why [guard] contain has
// no effect there.
var noRewrite = map[string]string{
	"factory":  `Droid takes a new input only with permissionDecision "allow", which approves the call whatever its autonomy level would ask; sentinel does not grant, so it does not offer it`,
	"codex":    `Codex takes updatedInput only with permissionDecision "allow", which approves the call; sentinel does not grant, so it does not offer it`,
	"qwen":     "Qwen Code reads no new input from a PreToolUse hook",
	"opencode": "sentinel's OpenCode plugin does not pass a new input back yet",
	"cursor":   "Cursor's hooks take no new input",
	"windsurf": "Cascade's hooks take no new input",
	"kiro":     "Kiro's hooks take no new input",
	"goose":    "Goose's hooks take no new input",
	"augment":  "Augment's hooks take no new input",
	"amp":      "Amp's permission delegate takes no new input",
}

// SampleRewrite returns a shell call's event of command in cwd that the
// host named dialect rewrites under [guard] contain; false for a host that
// rewrites none.
func SampleRewrite(dialect, command, cwd string) ([]byte, bool) {
	r, ok := rewrites[dialect]
	if !ok {
		return nil, false
	}
	list := plainJSON([]string{command})
	return []byte(strings.NewReplacer("{{command}}", string(plainJSON(command)), "{{cwd}}", string(plainJSON(cwd)),
		"{{commandList}}", string(plainJSON(string(list)))).Replace(r.sample)), true
}

// Containment says whether [guard] contain has an effect on the host named
// dialect, and how, or why not.
func Containment(dialect string) (string, bool) {
	if r, ok := rewrites[dialect]; ok {
		return r.how, true
	}
	if why, ok := noRewrite[dialect]; ok {
		return why, false
	}
	return "sentinel knows no rewrite for this host", false
}

// ContainingHosts lists the dialects [guard] contain has an effect on,
// sorted.
func ContainingHosts() []string {
	var out []string
	for n := range rewrites {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// CanRewrite reports whether the host named dialect can run call, a shell
// call, as another command without the hook granting it.
func CanRewrite(dialect string, call *Call) bool {
	r, ok := rewrites[dialect]
	return ok && call != nil && call.Kind == "bash" && slices.Contains(r.tools, call.Tool)
}

// Rewrite is the host's answer that runs command in place of the shell
// call raw asked for, keeping the rest of the call's input: for a verdict
// that lets the call run (an allow, or a MEDIUM warning) on a host where
// CanRewrite. reason is what the person is shown where the host shows one.
// An event whose input cannot be found again is an error.
func Rewrite(dialect string, d verdict.Outcome, call *Call, raw []byte, command, reason string) (Answer, error) {
	r, ok := rewrites[dialect]
	if !ok || !CanRewrite(dialect, call) {
		return Answer{}, fmt.Errorf("%s cannot rewrite this call", dialect)
	}
	if d.Verdict > verdict.Warn {
		return Answer{}, fmt.Errorf("a %s call is not rewritten", d.Verdict)
	}
	in := object{}
	if r.input != nil {
		o, err := parseObject(raw)
		if err != nil {
			return Answer{}, err
		}
		for i, k := range r.input {
			next, _, err := o.objOrText(k)
			if err != nil {
				return Answer{}, err
			}
			if next == nil {
				return Answer{}, unreadable("%s is not an object", strings.Join(r.input[:i+1], "."))
			}
			o = next
		}
		in = o
	}
	var v any = command
	if r.list {
		v = []string{command}
	}
	in[r.key] = plainJSON(v)
	input := plainJSON(map[string]json.RawMessage(in))
	if d.Verdict == verdict.Warn && d.Reason() != "" {
		reason = d.Reason() + "; " + reason
	}
	out := strings.NewReplacer("{{input}}", string(input), "{{reason}}", string(plainJSON(reason))).Replace(r.answer)
	if r.note != "" && d.Verdict == verdict.Warn {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			return Answer{}, err
		}
		m[r.note] = plainJSON(answerReason(d))
		out = string(plainJSON(m))
	}
	return Answer{Stdout: []byte(out + "\n")}, nil
}

// plainJSON is v as JSON without HTML escapes, so that a command's && and
// > read as they are; v is a string, a list of strings or a map of raw
// JSON, which always encode.
func plainJSON(v any) json.RawMessage {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return json.RawMessage(strings.TrimSuffix(b.String(), "\n"))
}
