package install

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// An entry that names sentinel's guard is not yet a guard: its command may
// run sentinel and then decide the hook's answer by itself (`exit 0;` in
// front, `|| true` behind), its matcher may name no tool the host has, or
// only tools that read. Inspect reads an installed file the way its host
// does and says what keeps it from guarding.

// cover is what a host's entries must reach for the guard to see the calls
// it judges: tools, for the hosts whose entries sit behind a matcher, or
// events, for those that name a hook per kind of call.
type cover struct {
	// acts are the tools (or events) that run commands or write: an
	// install that leaves one out lets the calls that do harm through
	// unchecked.
	acts []string
	// rare are acting tools of one platform only (Claude Code's
	// PowerShell, on Windows), and reads those that read or search files
	// (the guard keeps secrets from them): left out, they are advice.
	rare, reads []string
	// others are more of the host's tools, which the guard lets pass: a
	// matcher that reaches only them still names a real tool.
	others []string
	// byEvent says the names are events (or Amp's per-tool rules), each
	// entry covering its own; otherwise they are tools, reached by the
	// matchers of the entries under the events install writes.
	byEvent bool
}

// covers are the hosts whose entries Inspect checks for reach, by agent.
// The tools install's own matchers list are acts, rare and reads: a test
// holds each matcher to them. Hosts that run sentinel for every call
// (Kiro's hook file, Cline's script, OpenCode's plugin) have no entry here.
var covers = map[string]*cover{
	"claude": {
		acts: []string{"Bash", "Write", "Edit", "MultiEdit", "NotebookEdit"}, rare: []string{"PowerShell"}, reads: []string{"Read", "Grep"},
		others: []string{"Glob", "LS", "NotebookRead", "WebFetch", "WebSearch", "Task", "Agent", "TodoWrite", "BashOutput", "KillShell", "KillBash",
			"ExitPlanMode", "SlashCommand", "Skill", "AskUserQuestion", "ListMcpResourcesTool", "ReadMcpResourceTool", "mcp__server__tool"},
	},
	"codex": {
		acts:   []string{"Bash", "apply_patch", "shell"},
		others: []string{"exec_command", "local_shell", "unified_exec", "update_plan", "view_image", "web_search", "mcp__server__tool"},
	},
	"gemini": {
		acts: []string{"run_shell_command", "write_file", "replace"}, reads: []string{"read_file", "read_many_files", "grep_search", "search_file_content"},
		others: []string{"glob", "list_directory", "web_fetch", "google_web_search", "save_memory", "write_todos"},
	},
	"qwen": {
		acts: []string{"run_shell_command", "write_file", "edit", "replace"}, reads: []string{"read_file", "read_many_files", "grep_search", "search_file_content"},
		others: []string{"glob", "list_directory", "web_fetch", "web_search", "save_memory", "todo_write", "task", "exit_plan_mode"},
	},
	"factory": {
		acts: []string{"Execute", "Bash", "Create", "Write", "Edit", "MultiEdit", "ApplyPatch"}, reads: []string{"Read", "Grep"},
		others: []string{"LS", "Glob", "TodoWrite", "WebSearch", "FetchUrl", "Task", "TaskOutput", "TaskStop", "ToolSearch", "Skill", "ConnectorSearch", "GenerateImage"},
	},
	"augment": {
		// write-process types into a running process (a shell started
		// with launch-process), and apply_patch writes files.
		acts: []string{"launch-process", "write-process", "save-file", "str-replace-editor", "apply_patch", "remove-files"}, reads: []string{"view"},
		others: []string{"kill-process", "read-process", "list-processes", "codebase-retrieval", "web-search", "web-fetch", "diagnostics",
			"view-session", "view-range-untruncated", "search-untruncated", "view_tasklist", "reorganize_tasklist", "update_tasks", "add_tasks"},
	},
	"goose": {
		acts:   []string{"developer__shell", "developer__write", "developer__edit", "developer__text_editor"},
		others: []string{"developer__list_windows", "developer__screen_capture", "developer__image_processor"},
	},
	"cursor": {
		acts: []string{"beforeShellExecution", "preToolUse"}, reads: []string{"beforeReadFile"},
		others: []string{"beforeMCPExecution", "beforeSubmitPrompt", "afterFileEdit", "afterShellExecution", "stop"}, byEvent: true,
	},
	"windsurf": {
		acts: []string{"pre_run_command", "pre_write_code"}, reads: []string{"pre_read_code"},
		others: []string{"pre_mcp_tool_use", "pre_user_prompt", "post_run_command", "post_write_code", "post_read_code"}, byEvent: true,
	},
	"copilot": {
		acts:   []string{"preToolUse"},
		others: []string{"postToolUse", "sessionStart", "sessionEnd", "userPromptSubmitted", "errorOccurred"}, byEvent: true,
	},
	"amp": {
		acts: []string{"Bash", "create_file", "edit_file", "undo_edit", "apply_patch"}, reads: []string{"Read", "Grep"}, byEvent: true,
	},
}

// Problem is what keeps installed entries from guarding as install wrote
// them.
type Problem struct {
	// Broken reports calls the guard must judge that it does not see (or
	// whose answer it does not decide); otherwise the problem is advice.
	Broken bool
	// Event is the event (or Amp's tool) of the entry the problem is
	// about; "" for the file as a whole.
	Event string
	// What says what is wrong, in words for people; the values from the
	// file in it are quoted with %q.
	What string
}

// Inspection is what Inspect finds in one settings file.
type Inspection struct {
	// Hooks are sentinel's entries, as InstalledHooks finds them.
	Hooks []Hook
	// Problems are what keeps them from guarding; none when they guard
	// as install wrote them.
	Problems []Problem
}

// Broken reports a problem that leaves calls unchecked.
func (in *Inspection) Broken() bool {
	return slices.ContainsFunc(in.Problems, func(p Problem) bool { return p.Broken })
}

// Inspect reads an agent's settings file at path as its host would, and
// says what keeps sentinel's entries there from guarding: a command that
// is not what install writes (only sentinel's command, alone, is not
// altered), and entries that do not reach the tools that run commands and
// write. A missing file, or one without sentinel's entries, has no Hooks.
//
// For a host with twins (Factory Droid), the twin it reads beside the file
// counts too: an event the twin lists runs the twin's list, so the file's
// entries under it never run, and the twin's are inspected in their place.
func (t *Target) Inspect(path string) (*Inspection, error) {
	hooks, err := InstalledHooks(path)
	if err != nil {
		return &Inspection{Hooks: hooks}, err
	}
	run, theirs, shadowed, err := t.twinned(path, hooks)
	if err != nil || len(hooks)+len(theirs) == 0 {
		return &Inspection{Hooks: hooks}, err
	}
	in := &Inspection{Hooks: slices.Concat(hooks, theirs), Problems: shadowed}
	var sound []Hook
	for _, h := range run {
		if h.Disabled {
			in.Problems = append(in.Problems, Problem{Broken: true, Event: h.Event,
				What: fmt.Sprintf("the entry under %s is switched off (\"enabled\": false), so %s skips it", h.Event, t.Agent)})
			continue
		}
		switch t.entryShape(path, h) {
		case shapeAltered:
			in.Problems = append(in.Problems, Problem{Broken: true, Event: h.Event,
				What: fmt.Sprintf("the entry under %s is not the command sentinel installs, so sentinel's answer need not decide the call (%q)", h.Event, h.Command)})
			continue
		case shapeOlder:
			in.Problems = append(in.Problems, Problem{Event: h.Event,
				What: fmt.Sprintf("the entry under %s is an older sentinel's: it does not read the rest of the event, and a host still writing it (Codex) takes the broken pipe for a failed hook and runs the call", h.Event)})
		case shapeBare:
			in.Problems = append(in.Problems, Problem{Event: h.Event,
				What: fmt.Sprintf("the entry under %s runs sentinel bare, not in the script that fails closed: where sentinel is missing, the shell's exit status 127 lets the call run", h.Event)})
		case shapeExact:
		}
		if t.Agent == "claude" && h.OnFailure != "block" {
			in.Problems = append(in.Problems, Problem{Event: h.Event,
				What: fmt.Sprintf("the entry under %s has no \"onFailure\": \"block\", so a guard that times out lets the call run; run `sentinel guard install --agent claude` again", h.Event)})
		}
		sound = append(sound, h)
	}
	in.Problems = append(in.Problems, t.reach(sound)...)
	return in, nil
}

// twinned splits a settings file's entries by what its host runs, for a
// host with twins: the twin it reads beside the file takes the place of
// the file's list for each event it lists. It returns the entries that
// run (the file's for the other events, the twin's for those), the twin's
// entries, and a problem for each event whose entries in the file never
// run, the twin not running the guard there itself.
func (t *Target) twinned(path string, hooks []Hook) (run, theirs []Hook, shadowed []Problem, err error) {
	if len(t.twins) == 0 {
		return hooks, nil, nil, nil
	}
	twin, m, err := t.activeTwin("", path)
	if err != nil || twin == "" {
		return hooks, nil, nil, err
	}
	lists := t.shadowed(m)
	for _, h := range guardHooksAt(m, nil) {
		if slices.Contains(lists, h.Event) {
			theirs = append(theirs, h)
		}
	}
	for _, h := range hooks {
		if !slices.Contains(lists, h.Event) {
			run = append(run, h)
			continue
		}
		if !slices.ContainsFunc(theirs, func(o Hook) bool { return o.Event == h.Event }) &&
			!slices.ContainsFunc(shadowed, func(p Problem) bool { return p.Event == h.Event }) {
			shadowed = append(shadowed, Problem{Broken: true, Event: h.Event,
				What: fmt.Sprintf("the entry under %s never runs: %s lists %s hooks, which %s runs in place of this file's", h.Event, twin, h.Event, t.Agent)})
		}
	}
	return append(run, theirs...), theirs, shadowed, nil
}

// HookFiles lists the files the host reads hooks from for the settings
// file at path: the file itself and, for a host with twins, the twin it
// reads beside it, when one exists.
func (t *Target) HookFiles(path string) []string {
	if twin, _, err := t.activeTwin("", path); err == nil && twin != "" {
		return []string{path, twin}
	}
	return []string{path}
}

// disableKeys are where a host's settings hold the switch that turns off
// every hook of it, the guard's with them, whichever of its settings files
// sets it: the keys down to it, in a settings file whose event lists are
// under "hooks" (a twin holds it at its top level, beside its lists).
var disableKeys = map[string][]string{
	"claude": {"disableAllHooks"},
	// Droid 0.225.2 merges hooksDisabled across its levels, the user's
	// with the project's, and runs no hook at all once it is true.
	"factory": {"hooks", "hooksDisabled"},
	// Amp's "amp.dangerouslyAllowAll" (one key, its dot in the name)
	// allows every call before any permission rule is read, so its
	// delegates are never asked.
	"amp": {"amp.dangerouslyAllowAll"},
}

// HooksOff reports a settings file that switches off every hook of the
// host, sentinel's included, and the key that does, dotted: Claude Code's
// "disableAllHooks": true, Factory Droid's "hooksDisabled": true under
// "hooks" (at the top of its hooks.json), or Amp's
// "amp.dangerouslyAllowAll": true, in any of the files it reads, turns off
// the hooks of all of them. A missing file switches nothing off.
func (t *Target) HooksOff(path string) (string, error) {
	keys := disableKeys[t.Agent]
	if len(keys) == 0 {
		return "", nil
	}
	if listsAt(path) == nil && keys[0] == hooksKey[0] {
		keys = keys[1:]
	}
	m, _, err := readSettings("", path)
	if err != nil {
		return "", err
	}
	var v any = m
	for _, k := range keys {
		o, _ := v.(map[string]any)
		v = o[k]
	}
	if v != true {
		return "", nil
	}
	return strings.Join(keys, "."), nil
}

// shape is how an entry's command relates to what install writes.
type shape int

const (
	// shapeAltered is anything but the shapes below: the command may run
	// sentinel and still not let its exit status decide.
	shapeAltered shape = iota
	// shapeExact is the command this sentinel writes.
	shapeExact
	// shapeOlder is the command an older sentinel wrote, the same script
	// without the read of the rest of the event.
	shapeOlder
	// shapeBare is sentinel's guard command alone, the whole and only
	// simple command: the oldest installs' form.
	shapeBare
)

// readRest is the part of the hook command that an older sentinel did not
// write.
const readRest = "cat >/dev/null 2>&1; "

// entryShape returns the shape of an entry: of its command, or, for an
// entry that runs a file sentinel writes (a hook script, the OpenCode
// plugin), of that file.
func (t *Target) entryShape(path string, h Hook) shape {
	switch t.form {
	case formScript:
		return t.fileShape(path, false)
	case formPlugin:
		return t.fileShape(path, true)
	case formHooks, formKiro, formAmp:
	}
	if t.script != "" && filepath.IsAbs(h.Command) && filepath.Base(h.Command) == t.script {
		return t.fileShape(h.Command, false)
	}
	return t.commandShape(h.Command)
}

// fileShape returns the shape of a hook script or plugin: what install
// writes around a command of some shape, or for a script, sentinel's
// command alone.
func (t *Target) fileShape(path string, plugin bool) shape {
	content, err := readHookFile(path)
	if err != nil {
		return shapeAltered
	}
	if plugin {
		cmd, ok := pluginCommand(content)
		if !ok || string(hostPlugin(t.Agent, cmd, HookTimeoutSeconds*1000)) != string(content) {
			return shapeAltered
		}
		return t.commandShape(cmd)
	}
	lines := strings.Split(strings.TrimRight(string(content), "\n"), "\n")
	if cmd := lines[len(lines)-1]; string(hookScript(t, cmd)) == string(content) {
		return t.commandShape(cmd)
	}
	if t.bareGuard(string(content)) {
		return shapeBare
	}
	return shapeAltered
}

// commandShape compares a command with what install writes for each of
// the binaries it runs, with and without the fallback to PATH, now and
// before; failing that, it is bare or altered.
func (t *Target) commandShape(cmd string) shape {
	// A project's entry names no binary: the sentinel on PATH, as every
	// clone finds it.
	if cmd == t.PathHookCommand() {
		return shapeExact
	}
	bins, _ := guardCommand(cmd)
	for _, b := range bins {
		for _, fallback := range []bool{false, true} {
			want, err := t.HookCommand(b, fallback)
			if err != nil {
				continue
			}
			switch cmd {
			case want:
				return shapeExact
			case strings.Replace(want, readRest, "", 1):
				return shapeOlder
			}
		}
	}
	if t.bareGuard(cmd) {
		return shapeBare
	}
	return shapeAltered
}

// bareGuard reports a command line that is exactly one simple command,
// sentinel's guard for this agent: no other command before or after it,
// no operator around it (|| && ! | &), no redirection (a deny on stdout
// sent to /dev/null is an allow), no assignment, nothing computed.
func (t *Target) bareGuard(src string) bool {
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil || len(f.Stmts) != 1 {
		return false
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 || len(call.Assigns) > 0 {
		return false
	}
	argv := make([]string, len(call.Args))
	for i, w := range call.Args {
		if argv[i] = hookWord(w); strings.ContainsRune(argv[i], 0) {
			return false
		}
	}
	if !isGuardArgv(argv) {
		return false
	}
	return slices.Equal(argv[1:], []string{"guard", "--agent", t.Agent}) || slices.Equal(argv[1:], []string{"guard", "--agent=" + t.Agent})
}

// reach says which of the calls the guard judges the sound entries do
// not reach: none of those that act is broken, and so is one of them left
// out; reads and rare tools left out are advice.
func (t *Target) reach(sound []Hook) []Problem {
	c := covers[t.Agent]
	if c == nil || len(sound) == 0 {
		// With no sound entry, the altered or disabled ones are the
		// problem already.
		return nil
	}
	all := slices.Concat(c.acts, c.rare, c.reads, c.others)
	reached := map[string]bool{}
	var events, matchers []string
	for ev := range t.entriesOrNil() {
		events = append(events, ev)
	}
	sort.Strings(events)
	placed := false
	var unreadable []string
	for _, h := range sound {
		if c.byEvent {
			reached[h.Event] = true
			continue
		}
		if !slices.Contains(events, h.Event) || !h.Grouped {
			continue
		}
		placed = true
		m := "*"
		if h.Matcher != nil {
			m = *h.Matcher
		}
		matchers = append(matchers, m)
		match, err := matcherFunc(m)
		if err != nil {
			unreadable = append(unreadable, fmt.Sprintf("%q (%v)", m, err))
			continue
		}
		for _, tool := range all {
			if match(tool) {
				reached[tool] = true
			}
		}
	}
	missed := func(names []string) []string {
		var out []string
		for _, n := range names {
			if !reached[n] {
				out = append(out, n)
			}
		}
		return out
	}
	acts := missed(c.acts)
	if len(acts) == 0 {
		if rest := slices.Concat(missed(c.rare), missed(c.reads)); len(rest) > 0 {
			return []Problem{{What: fmt.Sprintf("sentinel's entries leave %s unchecked (an older install's reach?); install again to cover them", strings.Join(rest, ", "))}}
		}
		return nil
	}
	what := ""
	got := slices.DeleteFunc(slices.Clone(all), func(n string) bool { return !reached[n] })
	switch {
	case c.byEvent && len(got) == 0:
		what = fmt.Sprintf("sentinel's entries are under %s, none under %s: the calls that run commands and write go unchecked", strings.Join(eventsOf(sound), ", "), strings.Join(c.acts, ", "))
	case c.byEvent:
		what = fmt.Sprintf("sentinel's entries cover %s only: %s go unchecked", strings.Join(got, ", "), strings.Join(acts, ", "))
	case !placed && slices.Equal(eventsOf(sound), events):
		what = fmt.Sprintf("sentinel's entry under %s is not in a group of hooks (matcher and hooks), the only form %s runs", strings.Join(events, ", "), t.Agent)
	case !placed:
		what = fmt.Sprintf("sentinel's entries are under %s, none under %s, where %s asks before a call: every call goes unchecked", strings.Join(eventsOf(sound), ", "), strings.Join(events, ", "), t.Agent)
	case len(unreadable) > 0 && len(got) == 0:
		what = fmt.Sprintf("the matcher %s does not read as a pattern, so it reaches no tool", strings.Join(unreadable, ", "))
	case len(got) == 0:
		what = fmt.Sprintf("the matcher %s names no tool %s has: every call goes unchecked", quoteAll(matchers), t.Agent)
	case len(acts) == len(c.acts):
		what = fmt.Sprintf("the matcher %s covers only %s: the tools that run commands and write (%s) go unchecked", quoteAll(matchers), strings.Join(got, ", "), strings.Join(c.acts, ", "))
	default:
		what = fmt.Sprintf("the matcher %s leaves %s unchecked", quoteAll(matchers), strings.Join(acts, ", "))
	}
	return []Problem{{Broken: true, What: what}}
}

// entriesOrNil is the events install writes, for the forms that have
// them.
func (t *Target) entriesOrNil() map[string][]any {
	if t.entries == nil {
		return nil
	}
	return t.entries("")
}

// eventsOf lists the entries' events, sorted, once each.
func eventsOf(hooks []Hook) []string {
	var out []string
	for _, h := range hooks {
		out = append(out, h.Event)
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// quoteAll quotes each matcher and joins them with " and ".
func quoteAll(ms []string) string {
	q := make([]string, len(ms))
	for i, m := range ms {
		q[i] = fmt.Sprintf("%q", m)
	}
	return strings.Join(q, " and ")
}

// simpleMatcher is a matcher Claude Code (and the hosts that copy its
// hooks) compares as names: letters, digits, _ and |.
var simpleMatcher = regexp.MustCompile(`^[A-Za-z0-9_|]+$`)

// matcherFunc returns what a matcher reaches, the way Claude Code reads
// one: "" and "*" reach every tool; names joined by | are compared
// exactly; anything else is a regular expression that may match anywhere
// in the tool's name. The other hosts with matchers read theirs as
// regular expressions too; a name of theirs is one.
func matcherFunc(m string) (func(string) bool, error) {
	if m == "" || m == "*" {
		return func(string) bool { return true }, nil
	}
	if simpleMatcher.MatchString(m) {
		names := strings.Split(m, "|")
		return func(tool string) bool { return slices.Contains(names, tool) }, nil
	}
	re, err := regexp.Compile(m)
	if err != nil {
		return nil, err
	}
	return re.MatchString, nil
}
