package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// BackupSuffix names the copy of an agent's settings file that install keeps
// the first time it changes the file.
const BackupSuffix = ".sentinel-backup"

// failMessage is what a host shows when the guard cannot answer. $s is the
// exit status the shell saw: 127 for a missing binary, 126 for one that
// cannot run, 128+n for a signal.
const failMessage = "sentinel guard failed or is missing (exit status $s): the call is refused; run sentinel doctor"

// failure is how a hook command refuses, in its host's terms, when sentinel
// is missing, crashes or exits with a status its protocol does not use.
type failure int

const (
	// failExit2 is Claude Code's, Codex's and Gemini CLI's: exit status 2
	// blocks the call and its stderr is the reason; any other non-zero
	// status is a non-blocking error that lets the call run. sentinel's own
	// 2 (Codex's deny, or an error it has already explained on stderr) is
	// kept as it is.
	failExit2 failure = iota
	// failCursor prints Cursor's deny and exits 2, which Cursor reads as a
	// deny as well; failClosed in the entry covers what the command cannot
	// (a timeout).
	failCursor
	// failCopilot prints Copilot CLI's deny and exits non-zero, which
	// Copilot CLI reads as a deny for command hooks.
	failCopilot
	// failCline prints Cline's cancel and exits non-zero: Cline honours
	// the JSON whatever the status, and its documentation says a
	// non-zero status blocks as well. The Cline CLI 3 reads the JSON
	// alone: a hook that exits non-zero with nothing on stdout, prints
	// what is not JSON, dies or runs past its 120 s lets the call run.
	failCline
	// failAmp keeps Amp's three answers, 0 (allow), 1 (ask the operator)
	// and 2 (reject), as sentinel gave them, and rejects on any other
	// status with the reason on stderr, which Amp shows the model.
	failAmp
)

// tail is the part of the script that runs once sentinel has exited with
// status $s.
func (f failure) tail() string {
	ok := `[ $s -eq 0 ] && exit 0; `
	switch f {
	case failCursor:
		return ok + `echo "{\"permission\":\"deny\",\"user_message\":\"` + failMessage + `\",\"agent_message\":\"` + failMessage + `\"}"; exit 2`
	case failCopilot:
		return ok + `echo "{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"` + failMessage + `\"}"; exit 2`
	case failCline:
		return ok + `echo "{\"cancel\":true,\"errorMessage\":\"` + failMessage + `\"}"; exit 2`
	case failAmp:
		return ok + `[ $s -eq 1 ] && exit 1; [ $s -eq 2 ] && exit 2; echo "` + failMessage + `" >&2; exit 2`
	case failExit2:
		// the tail below
	}
	return ok + `[ $s -eq 2 ] && exit 2; echo "` + failMessage + `" >&2; exit 2`
}

// HookCommand returns the command written into a user's own settings: the
// guard run by the absolute path bin, inside a POSIX sh script that turns a
// missing binary, a crash or an unexpected exit status into the host's own
// deny. sentinel's answer passes through unchanged when it exits 0. With
// pathFallback a missing bin falls back to the sentinel on PATH, and when
// neither exists the call is refused: the form installs before
// PathHookCommand wrote into a project's file, still recognised and
// replaced.
//
// The script runs under /bin/sh whatever shell the host starts (Codex runs
// $SHELL -lc, and fish or csh would misread POSIX syntax and fail open), and
// it holds no single quote and no backslash before a quote or a backslash,
// so sh, bash, zsh, fish and csh all pass it to /bin/sh as it is.
func (t *Target) HookCommand(bin string, pathFallback bool) (string, error) {
	if !strings.HasPrefix(bin, "/") {
		return "", fmt.Errorf("%q is not an absolute path", bin)
	}
	if i := strings.IndexFunc(bin, func(r rune) bool {
		return r < 0x20 || r == 0x7f || strings.ContainsRune(`'"$`+"`"+`\`, r)
	}); i >= 0 {
		return "", fmt.Errorf("the path %q holds %q, which a hook command cannot carry", bin, bin[i])
	}
	q := `"` + bin + `"`
	run := q + " guard --agent " + t.Agent
	if pathFallback {
		run = "if [ -x " + q + " ]; then " + run + "; else sentinel guard --agent " + t.Agent + "; fi"
	}
	// The rest of the event is read before the script exits: a host still
	// writing it to a hook that has gone gets a broken pipe, which Codex
	// takes for a failed hook and lets the call run.
	return "/bin/sh -c '" + run + "; s=$?; cat >/dev/null 2>&1; " + t.fail.tail() + "'", nil
}

// moduleMark is what `sentinel --version` prints of sentinel's module, the
// mark the git hooks also require of a sentinel they find on PATH.
const moduleMark = "(github.com/gitsentinel/sentinel)"

// PathHookCommand returns the command written into a project's settings,
// which the repository commits and every clone runs: it names no one
// machine's path. It runs the sentinel that `command -v` finds on PATH,
// only when that is an absolute path whose --version names sentinel's
// module (as the git hooks take a sentinel from PATH): a stand-in that
// PATH puts first by accident (a package's node_modules/.bin/sentinel, a
// relative PATH entry such as ./bin) is refused, not run with the event.
// With none there, or one that is not sentinel, the call is refused in
// the host's terms, as for a missing binary (exit status 127); sentinel's
// own answer passes as HookCommand's does. A stand-in that prints the
// mark on purpose is not stopped by it: the host's PATH is the person's
// to keep, and a user's own settings (HookCommand) pin the binary by its
// path.
func (t *Target) PathHookCommand() string {
	find := `b=$(command -v sentinel) || b=; ` +
		`case $b in /*) case $("$b" --version </dev/null 2>/dev/null) in *"` + moduleMark + `"*) ;; *) b= ;; esac ;; *) b= ;; esac; `
	run := `if [ -n "$b" ]; then "$b" guard --agent ` + t.Agent + `; s=$?; else s=127; fi`
	return "/bin/sh -c '" + find + run + "; cat >/dev/null 2>&1; " + t.fail.tail() + "'"
}

// InstallPaths lists every file `sentinel guard install` writes, for every
// agent: project holds the paths relative to a project's root, user those
// relative to the home directory, each followed by its backup. The path
// guard protects them all.
func InstallPaths() (project, user []string) {
	for _, t := range Targets {
		project = append(project, t.Project, t.Project+BackupSuffix)
		user = append(user, t.User, t.User+BackupSuffix)
		for _, p := range t.extraFiles(t.Project) {
			project = append(project, p, p+BackupSuffix)
		}
		for _, p := range t.extraFiles(t.User) {
			user = append(user, p, p+BackupSuffix)
		}
	}
	return sortedUnique(project), sortedUnique(user)
}

func sortedUnique(s []string) []string {
	sort.Strings(s)
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// Hook is one of sentinel's guard entries in an agent's settings.
type Hook struct {
	// Event is the hook event the entry is listed under.
	Event string
	// Command is what the host runs.
	Command string
	// Binaries are the sentinel binaries the command runs, in the order it
	// tries them: paths, or bare names the shell looks up on PATH. $VAR and
	// ~ are left for Missing to expand.
	Binaries []string
	// Grouped reports an entry in a group of hooks behind a matcher (Claude
	// Code's form), and Matcher is the group's matcher: nil when the group
	// has none, which the host runs for every tool. A matcher that is not
	// a string is kept in its JSON form, which names no tool.
	Grouped bool
	Matcher *string
	// Disabled reports an entry its own settings switch off (a Kiro hook
	// with "enabled": false): the host skips it.
	Disabled bool
	// OnFailure is the entry's "onFailure" setting (Claude Code's), "" when
	// it has none.
	OnFailure string
}

// InstalledHooks returns sentinel's guard entries in an agent's settings
// file, in every event; none for a missing file. A JSON file is read as
// settings (a twin, such as Factory Droid's hooks.json, with its event
// lists at the top), a .js file as the OpenCode plugin, anything else as
// a hook script (Cline's).
func InstalledHooks(path string) ([]Hook, error) {
	if !strings.HasSuffix(path, ".json") {
		content, err := readHookFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		return ParseHooks(path, content)
	}
	m, _, err := readSettings("", path)
	if err != nil {
		return nil, err
	}
	return guardHooksAt(m, listsAt(path)), nil
}

// listsAt is where the settings file at path keeps its event lists: at
// its top level for a target's twin (Factory Droid's hooks.json), in its
// "hooks" object otherwise.
func listsAt(p string) []string {
	s := filepath.ToSlash(p)
	for _, t := range Targets {
		for _, name := range t.twins {
			for _, rel := range []string{t.Project, t.User} {
				twin := path.Join(path.Dir(rel), name)
				if s == twin || strings.HasSuffix(s, "/"+twin) {
					return nil
				}
			}
		}
	}
	return hooksKey
}

// ParseHooks returns sentinel's guard entries in the content of an agent's
// settings file (such as a committed copy), read as InstalledHooks reads
// the file at path; none for empty content.
func ParseHooks(path string, data []byte) ([]Hook, error) {
	if len(data) == 0 {
		return nil, nil
	}
	if !strings.HasSuffix(path, ".json") {
		cmd, bins, ok := fileHooks(path, data)
		if !ok {
			return nil, nil
		}
		event := filepath.Base(path)
		switch {
		case isPlugin(path) && bytes.Contains(data, []byte(piHook)):
			event = "tool_call"
		case isPlugin(path):
			event = "tool.execute.before"
		}
		return []Hook{{Event: event, Command: cmd, Binaries: bins}}, nil
	}
	m, err := decodeSettings(path, data)
	if err != nil {
		return nil, err
	}
	return guardHooksAt(m, listsAt(path)), nil
}

// guardHooks finds sentinel's guard entries in a settings object: in a
// "hooks" object of event lists, in Kiro's "hooks" list, and in Amp's
// delegate rules.
func guardHooks(m map[string]any) []Hook {
	var out []Hook
	if list, ok := m["hooks"].([]any); ok {
		for _, h := range list {
			hm, _ := h.(map[string]any)
			if cmd, bins, ok := guardEntry(hm["action"]); ok {
				trigger, _ := hm["trigger"].(string)
				out = append(out, Hook{Event: trigger, Command: cmd, Binaries: bins, Disabled: hm["enabled"] == false})
			}
		}
	}
	if rules, ok := m[ampKey].([]any); ok {
		for _, r := range rules {
			if to, bins, ok := ampOurs(r); ok {
				tool, _ := r.(map[string]any)["tool"].(string)
				out = append(out, Hook{Event: tool, Command: to, Binaries: bins})
			}
		}
	}
	hooks, _ := m["hooks"].(map[string]any)
	events := make([]string, 0, len(hooks))
	for ev := range hooks {
		events = append(events, ev)
	}
	sort.Strings(events)
	for _, ev := range events {
		list, _ := hooks[ev].([]any)
		for _, e := range list {
			inner := []any{e}
			grouped := false
			var matcher *string
			if group, ok := e.(map[string]any); ok {
				if hs, ok := group["hooks"].([]any); ok {
					inner, grouped = hs, true
					matcher = matcherOf(group)
				}
			}
			for _, h := range inner {
				if cmd, bins, ok := guardEntry(h); ok {
					hm, _ := h.(map[string]any)
					onFailure, _ := hm[claudeOnFailure].(string)
					out = append(out, Hook{Event: ev, Command: cmd, Binaries: bins, Grouped: grouped, Matcher: matcher, OnFailure: onFailure})
				}
			}
		}
	}
	return out
}

// matcherOf returns a group's matcher: nil when it has none, its JSON
// form when it is not a string.
func matcherOf(group map[string]any) *string {
	v, ok := group["matcher"]
	if !ok {
		return nil
	}
	s, ok := v.(string)
	if !ok {
		b, _ := json.Marshal(v)
		s = string(b)
	}
	return &s
}

// Missing says why none of the hook's binaries can run on this machine, or
// "" when one can (or the command is too unusual to tell). getenv expands
// $VAR and a leading ~; lookPath finds a bare name as the shell would.
func (h Hook) Missing(getenv func(string) string, lookPath func(string) (string, error)) string {
	var why []string
	for _, b := range h.Binaries {
		p := b
		if p == "~" || strings.HasPrefix(p, "~/") {
			p = "${HOME}" + p[1:]
		}
		p = os.Expand(p, getenv)
		if !strings.Contains(p, "/") {
			if _, err := lookPath(p); err == nil {
				return ""
			}
			why = append(why, p+" is not on PATH")
			continue
		}
		st, err := os.Stat(p)
		switch {
		case err != nil:
			why = append(why, p+" does not exist")
		case !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0:
			why = append(why, p+" is not an executable file")
		default:
			return ""
		}
	}
	return strings.Join(why, ", and ")
}

// guardEntry reports a hook entry that runs sentinel's guard: its command
// and the binaries it runs. Hosts keep the command under "command" (Claude
// Code, Codex, Gemini CLI, Cursor) or "bash" (Copilot CLI); Copilot CLI
// also takes an executable and its arguments, run without a shell.
func guardEntry(entry any) (string, []string, bool) {
	m, ok := entry.(map[string]any)
	if !ok {
		return "", nil, false
	}
	if exe, ok := m["exec"].(string); ok {
		argv := []string{exe}
		args, _ := m["args"].([]any)
		for _, a := range args {
			s, _ := a.(string)
			argv = append(argv, s)
		}
		if isGuardArgv(argv) {
			return strings.Join(argv, " "), []string{exe}, true
		}
	}
	for _, key := range []string{"command", "bash"} {
		if cmd, ok := m[key].(string); ok {
			if bins, ok := guardCommand(cmd); ok {
				return cmd, bins, true
			}
			// Augment runs a script: the script sentinel wrote.
			if bins, ok := scriptEntry(cmd); ok {
				return cmd, bins, true
			}
		}
	}
	return "", nil, false
}

// marker is the text of the oldest entries, sentinel guard --agent NAME; it
// finds an entry whose command the shell parser cannot read.
const marker = "sentinel guard"

// guardCommand reports a shell command that runs sentinel's guard, however
// it names the binary (sentinel, /abs/sentinel, "/abs/sentinel" inside
// sh -c), and the binaries it runs.
func guardCommand(cmd string) ([]string, bool) {
	var bins []string
	found, err := findGuardCalls(cmd, 0, &bins)
	if err != nil {
		return nil, strings.Contains(cmd, marker)
	}
	return bins, found
}

// maxHookDepth bounds how many sh -c levels findGuardCalls reads.
const maxHookDepth = 4

func findGuardCalls(src string, depth int, bins *[]string) (bool, error) {
	if depth > maxHookDepth {
		return false, fmt.Errorf("nested too deep")
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		return false, err
	}
	found := false
	var inner error
	// A variable set to what `command -v NAME` prints names the binary
	// NAME on PATH, as PathHookCommand runs it.
	lookups := map[string]string{}
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok {
			return true
		}
		for _, a := range call.Assigns {
			if name, ok := lookupWord(a.Value); ok && a.Name != nil {
				lookups[a.Name.Value] = name
			}
		}
		if len(call.Args) == 0 {
			return true
		}
		argv := make([]string, len(call.Args))
		for i, w := range call.Args {
			argv[i] = hookWord(w)
		}
		if isGuardArgv(argv) {
			found = true
			if v, ok := strings.CutPrefix(argv[0], "${"); ok && strings.HasSuffix(v, "}") {
				if name := lookups[strings.TrimSuffix(v, "}")]; name != "" {
					argv[0] = name
				}
			}
			for _, b := range *bins {
				if b == argv[0] {
					return true
				}
			}
			*bins = append(*bins, argv[0])
			return true
		}
		if script, ok := shellScript(argv); ok {
			sub, err := findGuardCalls(script, depth+1, bins)
			if err != nil && inner == nil {
				inner = err
			}
			found = found || sub
		}
		return true
	})
	return found, inner
}

// lookupWord reports a word that is exactly $(command -v NAME), and NAME.
func lookupWord(w *syntax.Word) (string, bool) {
	if w == nil || len(w.Parts) != 1 {
		return "", false
	}
	cs, ok := w.Parts[0].(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return "", false
	}
	call, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 3 || len(call.Assigns) > 0 {
		return "", false
	}
	if hookWord(call.Args[0]) != "command" || hookWord(call.Args[1]) != "-v" {
		return "", false
	}
	name := hookWord(call.Args[2])
	return name, name != "" && !strings.ContainsAny(name, "/\x00$")
}

// isGuardArgv reports `sentinel guard` with anything but a subcommand
// after it: the binary's base name starts with sentinel, or, for a binary
// renamed, the arguments are sentinel's own (--agent and a known agent).
func isGuardArgv(argv []string) bool {
	if len(argv) < 2 || argv[1] != "guard" {
		return false
	}
	if len(argv) > 2 && (argv[2] == "explain" || argv[2] == "install" || argv[2] == "uninstall") {
		return false
	}
	if strings.HasPrefix(path.Base(argv[0]), "sentinel") {
		return true
	}
	if len(argv) > 3 && argv[2] == "--agent" {
		return Targets[argv[3]] != nil
	}
	return len(argv) > 2 && strings.HasPrefix(argv[2], "--agent=") && Targets[strings.TrimPrefix(argv[2], "--agent=")] != nil
}

// shellScript returns the script of sh -c SCRIPT (and of bash, dash, zsh,
// ksh; -c may be bundled, as in -lc).
func shellScript(argv []string) (string, bool) {
	switch path.Base(argv[0]) {
	case "sh", "bash", "dash", "zsh", "ksh", "mksh":
	default:
		return "", false
	}
	for i := 1; i < len(argv)-1; i++ {
		a := argv[i]
		if a == "--" || !strings.HasPrefix(a, "-") {
			return "", false
		}
		if !strings.HasPrefix(a, "--") && strings.Contains(a, "c") {
			return argv[i+1], true
		}
	}
	return "", false
}

// hookWord renders a word as the shell would see it once quotes are
// removed; a parameter stays ${NAME}, and anything else computed becomes
// a NUL, which no path holds.
func hookWord(w *syntax.Word) string {
	var b strings.Builder
	var part func(p syntax.WordPart, quoted bool)
	part = func(p syntax.WordPart, quoted bool) {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(hookUnescape(p.Value, quoted))
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				part(q, true)
			}
		case *syntax.ParamExp:
			if p.Param != nil && p.Exp == nil && p.Repl == nil && p.Index == nil && !p.Length && !p.Excl {
				b.WriteString("${" + p.Param.Value + "}")
			} else {
				b.WriteByte(0)
			}
		default:
			b.WriteByte(0)
		}
	}
	for _, p := range w.Parts {
		part(p, false)
	}
	return b.String()
}

// hookUnescape removes the backslashes the shell removes: before any
// character outside quotes, before $ ` " \ and newline inside double quotes.
func hookUnescape(s string, quoted bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (!quoted || strings.IndexByte("$`\"\\\n", s[i+1]) >= 0) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
