package guard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitsentinel/sentinel/internal/atomicfile"
	"github.com/gitsentinel/sentinel/internal/textpos"
)

// HookTimeoutSeconds is the timeout written into every agent's settings:
// short, because the hosts' defaults are long and they fail open.
const HookTimeoutSeconds = 5

// Target is where one agent keeps its hooks, and how sentinel's entry looks.
type Target struct {
	// Agent is the dialect's name.
	Agent string
	// Project and User are the settings files, relative to the project
	// root and to the home directory.
	Project, User string
	// entries returns the event lists and entries to add, for a command.
	entries func(command string) map[string][]any
	// top are keys the file must hold (Cursor and Copilot's "version").
	top map[string]any
	// fail is how the command refuses when sentinel cannot answer.
	fail failure
}

func claudeStyle(event, matcher string, timeout int) func(string) map[string][]any {
	return func(cmd string) map[string][]any {
		return map[string][]any{event: {map[string]any{
			"matcher": matcher,
			"hooks":   []any{map[string]any{"type": "command", "command": cmd, "timeout": timeout}},
		}}}
	}
}

// Targets are the agents `sentinel guard install` knows.
var Targets = map[string]*Target{
	"claude": {Agent: "claude", Project: ".claude/settings.json", User: ".claude/settings.json",
		entries: claudeStyle("PreToolUse", "Bash|Write|Edit|MultiEdit|NotebookEdit", HookTimeoutSeconds)},
	"codex": {Agent: "codex", Project: ".codex/hooks.json", User: ".codex/hooks.json",
		entries: claudeStyle("PreToolUse", "Bash|apply_patch|shell", HookTimeoutSeconds)},
	"gemini": {Agent: "gemini", Project: ".gemini/settings.json", User: ".gemini/settings.json",
		// Gemini CLI counts hook timeouts in milliseconds.
		entries: claudeStyle("BeforeTool", "run_shell_command|write_file|replace", HookTimeoutSeconds*1000)},
	"cursor": {Agent: "cursor", Project: ".cursor/hooks.json", User: ".cursor/hooks.json",
		top: map[string]any{"version": 1}, fail: failCursor,
		entries: func(cmd string) map[string][]any {
			e := map[string]any{"command": cmd, "timeout": HookTimeoutSeconds, "failClosed": true}
			return map[string][]any{"beforeShellExecution": {e}, "preToolUse": {e}}
		}},
	"copilot": {Agent: "copilot", Project: ".github/hooks/sentinel.json", User: ".copilot/hooks/sentinel.json",
		top: map[string]any{"version": 1}, fail: failCopilot,
		entries: func(cmd string) map[string][]any {
			return map[string][]any{"preToolUse": {map[string]any{"type": "command", "bash": cmd, "timeoutSec": HookTimeoutSeconds}}}
		}},
}

// SettingsError is a settings file that is not valid JSON; it is left as
// it is.
type SettingsError struct {
	Path      string
	Line, Col int
	Msg       string
}

func (e *SettingsError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s; fix the file (sentinel leaves it as it is), then run the install again", e.Path, e.Line, e.Col, e.Msg)
}

// readSettings reads a JSON object, or an empty one for a missing file.
func readSettings(path string) (map[string]any, []byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]any{}, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		line, col := textpos.JSON(data, err)
		return nil, data, &SettingsError{path, line, col, strings.TrimPrefix(err.Error(), "json: ")}
	}
	if len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {
		line, col := textpos.Position(data, dec.InputOffset())
		return nil, data, &SettingsError{path, line, col, "data after the JSON object"}
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, data, nil
}

// isOurs reports an entry that runs sentinel's guard, in any form an
// install ever wrote: the bare `sentinel guard --agent NAME`, an absolute
// path, or the sh -c script that fails closed.
func isOurs(entry any) bool {
	_, _, ok := guardEntry(entry)
	return ok
}

// withoutOurs drops sentinel's entries from an event's list. A group of
// hooks behind a matcher loses only sentinel's hooks, and goes when it
// holds nothing else.
func withoutOurs(list []any) []any {
	var kept []any
	for _, e := range list {
		group, ok := e.(map[string]any)
		inner, isGroup := group["hooks"].([]any)
		if !ok || !isGroup {
			if !isOurs(e) {
				kept = append(kept, e)
			}
			continue
		}
		var rest []any
		for _, h := range inner {
			if !isOurs(h) {
				rest = append(rest, h)
			}
		}
		if len(rest) == 0 {
			continue
		}
		copied := map[string]any{}
		for k, v := range group {
			copied[k] = v
		}
		copied["hooks"] = rest
		kept = append(kept, copied)
	}
	return kept
}

// InstallResult says what an install or uninstall did.
type InstallResult struct {
	Path    string
	Changed bool
	Backup  string
}

// Install writes sentinel's guard into an agent's settings at path, merged
// with what is there: no key is dropped, other hooks stay, a second install
// changes nothing. The original is kept once as <path>.sentinel-backup and
// the file is replaced atomically. A file that is not JSON is refused and
// left untouched. command is the hook command, as HookCommand writes it; an
// entry any sentinel wrote before, in whatever form, is replaced.
func Install(t *Target, path, command string) (*InstallResult, error) {
	m, orig, err := readSettings(path)
	if err != nil {
		return nil, err
	}
	// A file that already runs the guard is not the user's original.
	keep := orig != nil && len(guardHooks(m)) == 0
	for k, v := range t.top {
		if _, ok := m[k]; !ok {
			m[k] = v
		}
	}
	hooks, _ := m["hooks"].(map[string]any)
	if hooks == nil {
		if m["hooks"] != nil {
			return nil, &SettingsError{path, 1, 1, `"hooks" is not an object`}
		}
		hooks = map[string]any{}
	}
	for event, add := range t.entries(command) {
		list, _ := hooks[event].([]any)
		if hooks[event] != nil && list == nil {
			return nil, &SettingsError{path, 1, 1, fmt.Sprintf("hooks.%s is not a list", event)}
		}
		hooks[event] = append(withoutOurs(list), add...)
	}
	m["hooks"] = hooks
	return write(path, m, orig, keep)
}

// Uninstall removes sentinel's entries from an agent's settings, and the
// lists and objects that only held them. A file without them is left as it
// is, byte for byte.
func Uninstall(t *Target, path string) (*InstallResult, error) {
	m, orig, err := readSettings(path)
	if err != nil {
		return nil, err
	}
	if orig == nil || len(guardHooks(m)) == 0 {
		return &InstallResult{Path: path}, nil
	}
	hooks, _ := m["hooks"].(map[string]any)
	for event := range t.entries("") {
		list, _ := hooks[event].([]any)
		kept := withoutOurs(list)
		if len(kept) == 0 {
			delete(hooks, event)
		} else {
			hooks[event] = kept
		}
	}
	if hooks != nil && len(hooks) == 0 {
		delete(m, "hooks")
	}
	return write(path, m, orig, false)
}

// Installed reports whether an agent's settings run sentinel's guard.
func Installed(path string) (bool, error) {
	hooks, err := InstalledHooks(path)
	return len(hooks) > 0, err
}

// write replaces the settings file with m, unless that changes nothing;
// with keep, the original is first copied to its backup, once.
func write(path string, m map[string]any, orig []byte, keep bool) (*InstallResult, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	res := &InstallResult{Path: path}
	if bytes.Equal(buf.Bytes(), orig) {
		return res, nil
	}
	if keep {
		backup := path + BackupSuffix
		if _, err := os.Stat(backup); errors.Is(err, fs.ErrNotExist) {
			if err := atomicfile.WriteFile(backup, orig, 0o644); err != nil {
				return nil, err
			}
			res.Backup = backup
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	if err := atomicfile.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return nil, err
	}
	res.Changed = true
	return res, nil
}
