package guard

import (
	"encoding/json"
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
	// Reads are the paths a file tool reads or searches.
	Reads []string
	// Kind is "bash", "write", "edit", "read", or "" for tools the guard
	// lets be.
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

func (claude) Answer(d *Decision) Answer {
	return Answer{Stdout: ClaudeResponse(d)}
}

// --- Codex CLI ---

type codex struct{}

func (codex) Name() string { return "codex" }

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

func (copilot) Answer(d *Decision) Answer {
	if d.Verdict == Allow || d.Verdict == Warn {
		return Answer{} // MEDIUM is allowed where the host cannot ask
	}
	b, _ := json.Marshal(map[string]string{"permissionDecision": "deny", "permissionDecisionReason": askAsDeny(d)})
	return Answer{Stdout: append(b, '\n')}
}
