// Package install writes sentinel's guard into each agent host's settings
// and takes it out again, keeping the user's own entries and formatting, and
// builds the hook command the host runs: one that fails closed when sentinel
// is missing or cannot answer. It knows every file the install writes, which
// the path guard protects.
package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

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
	// Local is a settings file, relative to the project root, that the
	// host also reads and that stays out of version control (Claude
	// Code's settings.local.json). guard install does not write it, but a
	// guard a person put there is installed all the same. Empty when the
	// host has none.
	Local string
	// Note is what a person must know once the guard is installed there:
	// a host that must be told to trust or enable it, or the version it
	// needs. Empty when there is nothing to say.
	Note string
	// entries returns the event lists and entries to add, for a command.
	entries func(command string) map[string][]any
	// top are keys the file must hold (Cursor and Copilot's "version").
	top map[string]any
	// fail is how the command refuses when sentinel cannot answer.
	fail failure
	// form is how the file holds the hook.
	form form
	// script, when set, is the name of an executable written beside the
	// settings file that runs the hook command, for hosts that run a
	// program and not a command line (Augment, Amp); the settings name it
	// by its absolute path.
	script string
	// manifest is a file the host needs beside the hooks (Goose's
	// plugin.json), relative to the settings file's directory, and what
	// it holds.
	manifest, manifestText string
	// twins are hook files beside the settings file, keyed by event at
	// their top level, that the host reads as well (Factory Droid's
	// hooks.json, and the hooks/hooks.json it read before): it reads the
	// first of them that exists, and an event that one lists runs its
	// list in place of the settings file's. The entries go into that
	// twin too, then, and only then.
	twins []string
	// projectDir and userDir are the directories, relative to the root
	// and the home directory, whose presence shows the agent is in use
	// there, when it is not the settings file's first component.
	projectDir, userDir string
}

// form is how a settings file holds sentinel's hook.
type form int

const (
	// formHooks is a JSON object whose "hooks" object lists entries by
	// event (most hosts).
	formHooks form = iota
	// formKiro is a Kiro hook file: a "hooks" list of named hooks.
	formKiro
	// formScript is an executable file that is the hook (Cline).
	formScript
	// formAmp is Amp's settings: "amp.permissions" rules that delegate
	// the decision to a program.
	formAmp
	// formPlugin is a JavaScript plugin file (OpenCode, Kilo Code, Pi).
	formPlugin
)

func claudeStyle(event, matcher string, timeout int, extra ...string) func(string) map[string][]any {
	return func(cmd string) map[string][]any {
		h := map[string]any{"type": "command", "command": cmd, "timeout": timeout}
		for i := 0; i+1 < len(extra); i += 2 {
			h[extra[i]] = extra[i+1]
		}
		return map[string][]any{event: {map[string]any{"matcher": matcher, "hooks": []any{h}}}}
	}
}

// claudeOnFailure is Claude Code's setting (2.1.x, verified live with
// 2.1.332) that makes a command hook that times out or fails block the
// call: without it, a guard killed by its timeout is a non-blocking error
// and the call runs. A version that does not know the key ignores it.
const claudeOnFailure = "onFailure"

// Targets are the agents `sentinel guard install` knows.
var Targets = map[string]*Target{
	"claude": {Agent: "claude", Project: ".claude/settings.json", User: ".claude/settings.json", Local: ".claude/settings.local.json",
		entries: claudeStyle("PreToolUse", "Bash|PowerShell|Write|Edit|MultiEdit|NotebookEdit|Read|Grep", HookTimeoutSeconds, claudeOnFailure, "block")},
	"codex": {Agent: "codex", Project: ".codex/hooks.json", User: ".codex/hooks.json",
		Note:    "Codex skips a project's hooks, silently, until you trust both: the project (accept Codex's prompt, or set trust_level = \"trusted\" under [projects.\"THIS PATH\"] in ~/.codex/config.toml) and this entry (open /hooks in Codex and trust it; a changed entry must be trusted again).",
		entries: claudeStyle("PreToolUse", "Bash|apply_patch|shell", HookTimeoutSeconds)},
	"gemini": {Agent: "gemini", Project: ".gemini/settings.json", User: ".gemini/settings.json",
		// Gemini CLI counts hook timeouts in milliseconds.
		entries: claudeStyle("BeforeTool", "run_shell_command|write_file|replace|read_file|read_many_files|grep_search|search_file_content", HookTimeoutSeconds*1000)},
	"cursor": {Agent: "cursor", Project: ".cursor/hooks.json", User: ".cursor/hooks.json",
		top: map[string]any{"version": 1}, fail: failCursor,
		entries: func(cmd string) map[string][]any {
			e := map[string]any{"command": cmd, "timeout": HookTimeoutSeconds, "failClosed": true}
			return map[string][]any{"beforeShellExecution": {e}, "preToolUse": {e}, "beforeReadFile": {e}}
		}},
	"copilot": {Agent: "copilot", Project: ".github/hooks/sentinel.json", User: ".copilot/hooks/sentinel.json",
		Note: "Copilot CLI skips a project's hooks, silently, in a folder it does not trust, --allow-all or not: trust this one (answer Copilot's prompt with \"Yes, and remember this folder\", or add its path to \"trustedFolders\" in ~/.copilot/config.json); your own hooks (--user) run in every folder.",
		// .github is every GitHub project's: its hooks directory, which
		// Copilot CLI reads, is the sign of Copilot CLI.
		projectDir: ".github/hooks",
		top:        map[string]any{"version": 1}, fail: failCopilot,
		entries: func(cmd string) map[string][]any {
			return map[string][]any{"preToolUse": {map[string]any{"type": "command", "bash": cmd, "timeoutSec": HookTimeoutSeconds}}}
		}},
	"windsurf": {Agent: "windsurf", Project: ".windsurf/hooks.json", User: ".codeium/windsurf/hooks.json",
		// No timeout setting is documented; show_output puts a refusal in
		// front of the person as well as the agent.
		entries: func(cmd string) map[string][]any {
			e := map[string]any{"command": cmd, "show_output": true}
			return map[string][]any{"pre_run_command": {e}, "pre_write_code": {e}, "pre_read_code": {e}}
		}},
	"kiro": {Agent: "kiro", Project: ".kiro/hooks/sentinel.json", User: ".kiro/hooks/sentinel.json", form: formKiro,
		Note: "Kiro CLI 3 reads .kiro/hooks/ for every agent; on Kiro CLI 2, add the same command under hooks.preToolUse of each agent you use (kiro-cli agent migrate converts either way)."},
	"cline": {Agent: "cline", Project: ".clinerules/hooks/PreToolUse", User: "Documents/Cline/Hooks/PreToolUse",
		form: formScript, fail: failCline, userDir: "Documents/Cline",
		Note: "Cline CLI 3 runs hooks as it finds them (a regular file, not a link); a refusal ends its task, and the reason is in ~/.cline/data/logs/cline.log. The VS Code extension runs them only once Hooks are switched on in its settings."},
	"goose": {Agent: "goose", Project: ".agents/plugins/sentinel/hooks/hooks.json", User: ".agents/plugins/sentinel/hooks/hooks.json",
		projectDir: ".goosehints", userDir: ".config/goose",
		manifest: "../plugin.json", manifestText: "{\n  \"name\": \"sentinel\",\n  \"version\": \"1.0.0\",\n  \"description\": \"sentinel guard: refuses destructive commands and writes to protected files before they run\"\n}\n",
		// on_failure makes Goose deny a call when the hook returns no
		// decision (a crash, a timeout, garbage), which it otherwise
		// ignores.
		entries: func(cmd string) map[string][]any {
			return map[string][]any{"PreToolUse": {map[string]any{
				"matcher": "^developer__(shell|write|edit|text_editor)$",
				"hooks":   []any{map[string]any{"type": "command", "command": cmd, "timeout": HookTimeoutSeconds, "on_failure": "block"}},
			}}}
		}},
	"factory": {Agent: "factory", Project: ".factory/settings.json", User: ".factory/settings.json", twins: []string{"hooks.json", "hooks/hooks.json"},
		entries: claudeStyle("PreToolUse", "Execute|Bash|Create|Write|Edit|MultiEdit|ApplyPatch|Read|Grep", HookTimeoutSeconds)},
	"qwen": {Agent: "qwen", Project: ".qwen/settings.json", User: ".qwen/settings.json",
		// Qwen Code counts command hook timeouts in milliseconds.
		entries: claudeStyle("PreToolUse", "run_shell_command|write_file|edit|replace|read_file|read_many_files|grep_search|search_file_content", HookTimeoutSeconds*1000)},
	"augment": {Agent: "augment", Project: ".augment/settings.json", User: ".augment/settings.json", script: "sentinel-guard.sh",
		// Augment runs a .sh file, not a command line, and counts its
		// timeout in milliseconds. Its matcher is a regular expression
		// found anywhere in the tool's name: anchored, "view" is not
		// also view-session or view_tasklist.
		entries: claudeStyle("PreToolUse", "^(launch-process|write-process|save-file|str-replace-editor|apply_patch|remove-files|view)$", HookTimeoutSeconds*1000)},
	"amp": {Agent: "amp", Project: ".amp/settings.json", User: ".config/amp/settings.json", script: "sentinel-guard.sh",
		form: formAmp, fail: failAmp, userDir: ".config/amp",
		Note: "Amp's delegate decides in place of Amp's own rules for the tools it covers: a call the guard allows runs without Amp's prompt, one it asks about is put to you. Amp skips every permission rule, the guard's with them, under --dangerously-allow-all, \"amp.dangerouslyAllowAll\": true, or an approval answered with Allow All."},
	"opencode": {Agent: "opencode", Project: ".opencode/plugins/sentinel-guard.js", User: ".config/opencode/plugins/sentinel-guard.js",
		form: formPlugin, userDir: ".config/opencode"},
	// Kilo Code's CLI, a fork of OpenCode, loads the same plugins from its
	// own directories (.kilo or .kilocode, ~/.config/kilo), not .opencode.
	"kilo": {Agent: "kilo", Project: ".kilo/plugins/sentinel-guard.js", User: ".config/kilo/plugins/sentinel-guard.js",
		form: formPlugin, userDir: ".config/kilo",
		Note: "Kilo Code loads no plugin, the guard's with them, under --pure or KILO_PURE, and none of the project's under KILO_DISABLE_PROJECT_CONFIG."},
	// Pi loads the extensions of .pi/extensions in the directory it starts
	// in, and of ~/.pi/agent/extensions (PI_CODING_AGENT_DIR moves it).
	"pi": {Agent: "pi", Project: ".pi/extensions/sentinel-guard.js", User: ".pi/agent/extensions/sentinel-guard.js",
		form: formPlugin, userDir: ".pi/agent",
		Note: "Pi loads a project's extensions from .pi/extensions in the directory it starts in, not from the repository's root: started in a subdirectory, it runs without the guard, unless you install it with --user. --no-extensions loads none."},
}

// TargetNames lists the names of Targets, sorted.
func TargetNames() []string {
	names := make([]string, 0, len(Targets))
	for n := range Targets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// InUse returns the directories, relative to a project's root and to the
// home directory, whose presence shows the agent is used there.
func (t *Target) InUse() (project, user string) {
	project, user = t.projectDir, t.userDir
	if project == "" {
		project = strings.Split(t.Project, "/")[0]
	}
	if user == "" {
		user = strings.Split(t.User, "/")[0]
	}
	return project, user
}

// Written lists every file an install may write, relative to the project
// root or to the home directory, with the local settings files the hosts
// also read: the path guard protects each of them.
func Written() []string {
	var out []string
	for _, n := range TargetNames() {
		t := Targets[n]
		for _, rel := range []string{t.Project, t.User, t.Local} {
			if rel != "" {
				out = append(out, rel)
				out = append(out, t.extraFiles(rel)...)
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// extraFiles are the files an install writes besides the settings file,
// relative to the same base: the script, the manifest and the twins.
func (t *Target) extraFiles(rel string) []string {
	var out []string
	dir := path.Dir(rel)
	for _, name := range slices.Concat([]string{t.script, t.manifest}, t.twins) {
		if name != "" {
			out = append(out, path.Clean(path.Join(dir, name)))
		}
	}
	return out
}

// SettingsError is a settings file that is not valid JSON; it is left as
// it is.
type SettingsError struct {
	Path      string
	Line, Col int
	Msg       string
}

// Error names the file, line and column, and the fix.
func (e *SettingsError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s; fix the file (sentinel leaves it as it is), then run the install again", e.Path, e.Line, e.Col, e.Msg)
}

// readSettings reads a JSON object, or an empty one for a missing file.
func readSettings(b below, path string) (map[string]any, []byte, error) {
	data, err := b.read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]any{}, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	m, err := decodeSettings(path, data)
	return m, data, err
}

// decodeSettings decodes a settings file's content, one JSON object.
func decodeSettings(path string, data []byte) (map[string]any, error) {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		line, col := textpos.JSON(data, err)
		return nil, &SettingsError{path, line, col, strings.TrimPrefix(err.Error(), "json: ")}
	}
	if len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {
		line, col := textpos.Position(data, dec.InputOffset())
		return nil, &SettingsError{path, line, col, "data after the JSON object"}
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

// isOurs reports an entry that runs sentinel's guard, in any form an
// install ever wrote: the bare `sentinel guard --agent NAME`, an absolute
// path, or the sh -c script that fails closed.
func isOurs(entry any) bool {
	_, _, ok := guardEntry(entry)
	return ok
}

// withoutOurs drops sentinel's entries from an event's list, and reports
// whether there were any. A group of hooks behind a matcher loses only
// sentinel's hooks, and goes when it held nothing else; a group without
// them stays as it is.
func withoutOurs(list []any) ([]any, bool) {
	var kept []any
	removed := false
	for _, e := range list {
		group, ok := e.(map[string]any)
		inner, isGroup := group["hooks"].([]any)
		if !ok || !isGroup {
			if isOurs(e) {
				removed = true
			} else {
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
		if len(rest) == len(inner) {
			kept = append(kept, e)
			continue
		}
		removed = true
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
	return kept, removed
}

// InstallResult says what an install or uninstall did.
type InstallResult struct {
	// Path is the settings file.
	Path string
	// Changed reports a file written or removed.
	Changed bool
	// Backup is where an install kept the original, the first time it
	// changed the file.
	Backup string
	// MovedBackup is where a backup an earlier install left beside a
	// project's file went, into the git directory.
	MovedBackup string
	// Restored reports an uninstall that put the original back, byte for
	// byte, from its backup (which then went).
	Restored bool
	// KeptBackup is a backup an uninstall left where it is: the file
	// holds more than it did before the install.
	KeptBackup string
	// Reformatted says why the file was rewritten whole rather than
	// edited in place; empty when only sentinel's entries changed.
	Reformatted string
}

// Install writes sentinel's guard into an agent's settings at path, merged
// with what is there: no key is dropped, other hooks stay, a second install
// changes nothing. Only sentinel's entry is written into the file's text,
// in the file's own layout; the rest stays byte for byte. The original is
// kept once (as <path>.sentinel-backup, or where BackupsIn says) and the
// file is replaced atomically. A file that is not JSON is refused and left
// untouched. command is the hook command, as HookCommand or
// PathHookCommand writes it; an entry any sentinel wrote before, in
// whatever form, is replaced.
func Install(t *Target, root, path, command string, opts ...Option) (*InstallResult, error) {
	b, o := below(root), newOptions(opts)
	switch t.form {
	case formScript:
		return installFile(b, path, hookScript(t, command), 0o755)
	case formPlugin:
		return installFile(b, path, hostPlugin(t.Agent, command, HookTimeoutSeconds*1000), 0o644)
	}
	scriptChanged := false
	if t.script != "" {
		// The settings run the script, which runs the command.
		script := filepath.Join(filepath.Dir(path), t.script)
		if strings.ContainsAny(script, "'\"$`\\\n") {
			return nil, fmt.Errorf("the path %q holds a character a hook entry cannot carry; install from a plain path", script)
		}
		res, err := installFile(b, script, hookScript(t, command), 0o755)
		if err != nil {
			return nil, err
		}
		scriptChanged, command = res.Changed, script
	}
	res, err := installSettings(b, o, t, path, command)
	if res != nil && scriptChanged {
		res.Changed = true
	}
	return res, err
}

// installSettings writes the entries into the settings file (and its
// manifest and twin) once the script, if any, is in place.
func installSettings(b below, o *options, t *Target, path, command string) (*InstallResult, error) {
	if t.manifest != "" {
		if err := writeManifest(b, filepath.Join(filepath.Dir(path), filepath.FromSlash(t.manifest)), t.manifestText); err != nil {
			return nil, err
		}
	}
	switch t.form {
	case formKiro:
		return installKiro(b, o, path, command)
	case formAmp:
		return installAmp(b, o, path, command)
	case formHooks:
		// the hooks object, below
	}
	if len(t.twins) > 0 {
		twin, m, err := t.activeTwin(b, path)
		if err != nil {
			return nil, err
		}
		if twin != "" && len(t.shadowed(m)) > 0 {
			if _, err := installHooksAt(b, o, t, twin, command, nil); err != nil {
				return nil, err
			}
		}
	}
	return installHooksAt(b, o, t, path, command, hooksKey)
}

// hooksKey is where most settings files keep their hooks: a "hooks"
// object of event lists. A twin keeps its event lists at its top level
// (nil).
var hooksKey = []string{"hooks"}

// activeTwin returns the twin the host reads beside the settings file at
// path, with what it holds: the first of the target's twins that exists;
// "" when none does.
func (t *Target) activeTwin(b below, path string) (string, map[string]any, error) {
	for _, name := range t.twins {
		twin := filepath.Join(filepath.Dir(path), filepath.FromSlash(name))
		m, orig, err := readSettings(b, twin)
		if err != nil {
			return "", nil, err
		}
		if orig != nil {
			return twin, m, nil
		}
	}
	return "", nil, nil
}

// shadowed returns the events install writes that a twin's content m
// lists, whose lists the host runs in place of the settings file's.
func (t *Target) shadowed(m map[string]any) []string {
	var out []string
	for _, ev := range sortedKeys(t.entriesOrNil()) {
		if _, ok := m[ev].([]any); ok {
			out = append(out, ev)
		}
	}
	return out
}

// hooksAt returns the object of event lists at at (the file's top level
// for nil): nil when it is missing, an error when it is not an object.
func hooksAt(path string, m map[string]any, at []string) (map[string]any, error) {
	if len(at) == 0 {
		return m, nil
	}
	hooks, _ := m[at[0]].(map[string]any)
	if hooks == nil && m[at[0]] != nil {
		return nil, &SettingsError{path, 1, 1, fmt.Sprintf("%q is not an object", at[0])}
	}
	return hooks, nil
}

// guardHooksAt finds sentinel's guard entries in a settings object whose
// event lists are at at.
func guardHooksAt(m map[string]any, at []string) []Hook {
	if len(at) == 0 {
		return guardHooks(map[string]any{"hooks": m})
	}
	return guardHooks(m)
}

// installHooksAt merges the entries into the object of event lists at at
// in a settings file: its "hooks" object (hooksKey), or its top level.
func installHooksAt(b below, o *options, t *Target, path, command string, at []string) (*InstallResult, error) {
	m, orig, err := readSettings(b, path)
	if err != nil {
		return nil, err
	}
	// A file that already runs the guard is not the user's original.
	keep := orig != nil && len(guardHooksAt(m, at)) == 0
	for k, v := range t.top {
		if _, ok := m[k]; !ok {
			m[k] = v
		}
	}
	hooks, err := hooksAt(path, m, at)
	if err != nil {
		return nil, err
	}
	if hooks == nil {
		hooks = map[string]any{}
	}
	for event, add := range t.entries(command) {
		list, _ := hooks[event].([]any)
		if hooks[event] != nil && list == nil {
			return nil, &SettingsError{path, 1, 1, fmt.Sprintf("%s is not a list", strings.Join(append(slices.Clone(at), event), "."))}
		}
		kept, _ := withoutOurs(list)
		hooks[event] = append(kept, add...)
	}
	if len(at) > 0 {
		m[at[0]] = hooks
	}
	edit := func(d *textDoc) error { return editInstallHooks(d, t, command, at) }
	return writeSettings(b, o, path, orig, m, edit, keep, false)
}

// Uninstall removes sentinel's entries from an agent's settings, and the
// lists and objects that only held them, by taking their text out of the
// file: the rest stays byte for byte, and a file that holds again what its
// backup holds is put back from it exactly. A file without them is left as
// it is, byte for byte.
func Uninstall(t *Target, root, path string, opts ...Option) (*InstallResult, error) {
	b, o := below(root), newOptions(opts)
	switch t.form {
	case formScript, formPlugin:
		return removeFile(b, path)
	case formKiro:
		return uninstallKiro(b, o, path)
	case formAmp:
		res, err := uninstallAmp(b, o, path)
		if err == nil && t.script != "" {
			_, err = removeFile(b, filepath.Join(filepath.Dir(path), t.script))
		}
		return res, err
	}
	for _, name := range t.twins {
		// An older sentinel wrote a twin's entries under "hooks", where
		// the host never read them: they go too.
		for _, at := range [][]string{nil, hooksKey} {
			if _, err := uninstallHooksAt(b, o, t, filepath.Join(filepath.Dir(path), filepath.FromSlash(name)), at); err != nil {
				return nil, err
			}
		}
	}
	res, err := uninstallHooksAt(b, o, t, path, hooksKey)
	if err != nil {
		return nil, err
	}
	if t.script != "" {
		if _, err := removeFile(b, filepath.Join(filepath.Dir(path), t.script)); err != nil {
			return nil, err
		}
	}
	if t.manifest != "" && res.Changed {
		// The plugin directory is sentinel's own: once its hooks are gone,
		// so are they and the manifest.
		if left, err := InstalledHooks(path); err == nil && len(left) == 0 && onlyHooksLeft(b, path) {
			b.remove(path)
			b.remove(filepath.Join(filepath.Dir(path), filepath.FromSlash(t.manifest)))
		}
	}
	return res, nil
}

// uninstallHooksAt removes sentinel's entries from the object of event
// lists at at in a settings file: its "hooks" object (hooksKey), which
// goes when nothing else is left in it, or its top level.
func uninstallHooksAt(b below, o *options, t *Target, path string, at []string) (*InstallResult, error) {
	m, orig, err := readSettings(b, path)
	if err != nil {
		return nil, err
	}
	if orig == nil || len(guardHooksAt(m, at)) == 0 {
		return &InstallResult{Path: path}, nil
	}
	hooks, _ := hooksAt(path, m, at)
	removedAny := false
	for event := range t.entries("") {
		list, _ := hooks[event].([]any)
		kept, removed := withoutOurs(list)
		if !removed {
			continue
		}
		removedAny = true
		switch {
		case len(at) == 0:
			// A twin's list stays, empty or not, as editUninstallHooks
			// says.
			if kept == nil {
				kept = []any{}
			}
			hooks[event] = kept
		case len(kept) == 0:
			delete(hooks, event)
		default:
			hooks[event] = kept
		}
	}
	if removedAny && len(at) > 0 && len(hooks) == 0 {
		delete(m, at[0])
	}
	edit := func(d *textDoc) error { return editUninstallHooks(d, t, at) }
	return writeSettings(b, o, path, orig, m, edit, false, true)
}

// Installed reports whether an agent's settings run sentinel's guard.
func Installed(path string) (bool, error) {
	hooks, err := InstalledHooks(path)
	return len(hooks) > 0, err
}
