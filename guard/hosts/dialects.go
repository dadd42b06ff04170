// Package hosts holds the host dialects as a table: how each coding agent's
// pre-tool event reads (event to Call), and how a verdict is said back to it
// (Outcome to the bytes, stderr and exit status it acts on). A dialect knows
// nothing of the rules: it only translates.
package hosts

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/gitsentinel/sentinel/guard/verdict"
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
	// Kind is "bash", "nonposix" (a command for Shell), "write", "edit",
	// "read", or "" for tools the guard lets be.
	Kind string
	// Shell runs a nonposix Command: "powershell" or "cmd".
	Shell string
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
	// Name is the agent's name, as --agent takes it.
	Name() string
	// Parse reads an event.
	Parse(input []byte) (*Call, error)
	// Answer renders a decision.
	Answer(d verdict.Outcome, call *Call) Answer
}

// Dialects are the agents sentinel speaks to, by name.
var Dialects = map[string]Dialect{
	"claude":   Claude{},
	"codex":    codex{},
	"gemini":   gemini{},
	"cursor":   Cursor{},
	"copilot":  copilot{},
	"windsurf": windsurf{},
	"kiro":     kiro,
	"cline":    cline,
	"goose":    goose,
	"factory":  factory,
	"qwen":     qwen{},
	"augment":  augment,
	"amp":      amp{},
	"opencode": opencode,
	"kilo":     kilo,
	"pi":       pi,
}

// DialectNames lists the names of Dialects, sorted.
func DialectNames() []string {
	names := make([]string, 0, len(Dialects))
	for n := range Dialects {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// EnvDialect is a dialect that reads part of its event from the hook's
// environment: Amp names the tool there.
type EnvDialect interface {
	// WithEnv is the dialect with the hook's environment to read.
	WithEnv(getenv func(string) string) Dialect
}

// answerReason is a refusal's one line for the agent.
func answerReason(d verdict.Outcome) string {
	r := d.Reason()
	if r == "" {
		r = "sentinel guard: refused"
	}
	return r
}

// askAsDeny turns an ask into a deny for hosts that ignore ask, saying how a
// person allows the call.
func askAsDeny(d verdict.Outcome) string {
	r := answerReason(d)
	if d.Verdict == verdict.Ask {
		r = verdict.OneLine(r + " (this agent cannot ask; a person may allow it with a [[guard.rules]] allow in ~/.config/sentinel/config.toml)")
	}
	return r
}

// --- Claude Code ---

// Claude is Claude Code's dialect: PreToolUse events, and a
// permissionDecision answer.
type Claude struct{}

// Name is "claude".
func (Claude) Name() string { return "claude" }

// Answer is ClaudeResponse on stdout.
func (Claude) Answer(d verdict.Outcome, call *Call) Answer {
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

func (codex) Answer(d verdict.Outcome, call *Call) Answer {
	switch d.Verdict {
	case verdict.Allow:
		return Answer{}
	case verdict.Warn:
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

func (gemini) Answer(d verdict.Outcome, call *Call) Answer {
	if d.Verdict == verdict.Allow || d.Verdict == verdict.Warn {
		return Answer{} // MEDIUM is allowed where the host cannot ask
	}
	b, _ := json.Marshal(map[string]string{"decision": "deny", "reason": askAsDeny(d)})
	return Answer{Stdout: append(b, '\n')}
}

// --- Cursor ---

// Cursor is Cursor's dialect: its hook events, told apart by their
// conversation id, and a permission answer.
type Cursor struct{}

// Name is "cursor".
func (Cursor) Name() string { return "cursor" }

// Answer is Cursor's permission JSON; beforeReadFile cannot ask.
func (Cursor) Answer(d verdict.Outcome, call *Call) Answer {
	if call != nil && call.Tool == "beforeReadFile" {
		// beforeReadFile takes allow or deny and a user_message, no ask:
		// a MEDIUM warning reads, an ask is refused.
		out := map[string]string{"permission": "allow"}
		if d.Verdict >= verdict.Ask {
			out = map[string]string{"permission": "deny", "user_message": askAsDeny(d)}
		}
		b, _ := json.Marshal(out)
		return Answer{Stdout: append(b, '\n')}
	}
	perm := map[verdict.Verdict]string{verdict.Allow: "allow", verdict.Warn: "ask", verdict.Ask: "ask", verdict.Deny: "deny"}[d.Verdict]
	out := map[string]string{"permission": perm}
	if d.Verdict != verdict.Allow {
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

func (copilot) Answer(d verdict.Outcome, call *Call) Answer {
	if d.Verdict == verdict.Allow || d.Verdict == verdict.Warn {
		return Answer{} // MEDIUM is allowed where the host cannot ask
	}
	b, _ := json.Marshal(map[string]string{"permissionDecision": "deny", "permissionDecisionReason": askAsDeny(d)})
	return Answer{Stdout: append(b, '\n')}
}

// ClaudeResponse is what Claude Code acts on: nothing for an allow (the
// host's own permissions go on; the guard never grants), else a
// PreToolUse decision. A MEDIUM warning becomes the host's ask.
func ClaudeResponse(d verdict.Outcome) []byte {
	decision := ""
	switch d.Verdict {
	case verdict.Deny:
		decision = "deny"
	case verdict.Ask, verdict.Warn:
		decision = "ask"
	default:
		return nil
	}
	out := map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName":            "PreToolUse",
		"permissionDecision":       decision,
		"permissionDecisionReason": d.Reason(),
	}}
	b, _ := json.Marshal(out)
	return append(b, '\n')
}
