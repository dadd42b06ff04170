package install

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/config"
)

// TestExpectNamesEveryTarget: [guard] expect takes the agents guard
// install knows, and config keeps its own list of them.
func TestExpectNamesEveryTarget(t *testing.T) {
	if !slices.Equal(config.GuardAgents, TargetNames()) {
		t.Fatalf("config.GuardAgents = %v, want install's targets %v", config.GuardAgents, TargetNames())
	}
}

// TestCoversMatchWhatInstallWrites holds each host's table of tools to the
// entries install writes: its matchers reach exactly the tools that act,
// the rare ones and the reads, and none of the others; its events (or
// Amp's tools) are exactly the acts and the reads.
func TestCoversMatchWhatInstallWrites(t *testing.T) {
	for name, c := range covers {
		tg := Targets[name]
		if tg == nil {
			t.Errorf("covers names %s, which is no target", name)
			continue
		}
		want := slices.Concat(c.acts, c.rare, c.reads)
		slices.Sort(want)
		var got []string
		switch {
		case name == "amp":
			got = slices.Clone(ampTools)
		case c.byEvent:
			for ev := range tg.entries("x") {
				got = append(got, ev)
			}
		default:
			for ev, list := range tg.entries("x") {
				if ev != "PreToolUse" && ev != "BeforeTool" {
					t.Errorf("%s: install writes under %s", name, ev)
				}
				m := list[0].(map[string]any)["matcher"].(string)
				match, err := matcherFunc(m)
				if err != nil {
					t.Fatalf("%s: matcher %q: %v", name, m, err)
				}
				for _, tool := range slices.Concat(want, c.others) {
					if match(tool) {
						got = append(got, tool)
					}
				}
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: install's entries reach %v; the table says %v", name, got, want)
		}
	}
}

// claudeSettings writes a .claude/settings.json whose PreToolUse list is
// groups, and returns its path.
func claudeSettings(t *testing.T, groups ...map[string]any) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), ".claude", "settings.json")
	data, err := json.MarshalIndent(map[string]any{"hooks": map[string]any{"PreToolUse": groups}}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// group is a Claude Code group of one command hook behind a matcher; a nil
// matcher leaves the key out.
func group(matcher any, command string) map[string]any {
	g := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": command, "timeout": 5, "onFailure": "block"}}}
	if matcher != nil {
		g["matcher"] = matcher
	}
	return g
}

// TestInspectClaude reads real Claude Code settings files: what install
// writes guards; every entry that looks installed and is not (a command
// that does not let sentinel decide, a matcher that names no tool, one
// that covers reads only) is broken, and says why; older forms are
// advice.
func TestInspectClaude(t *testing.T) {
	tg := Targets["claude"]
	const bin = "/opt/sentinel/bin/sentinel"
	cmd, err := tg.HookCommand(bin, true)
	if err != nil {
		t.Fatal(err)
	}
	userCmd, _ := tg.HookCommand(bin, false)
	const full = "Bash|PowerShell|Write|Edit|MultiEdit|NotebookEdit|Read|Grep"
	for _, c := range []struct {
		name   string
		groups []map[string]any
		broken bool
		// want is in the problems' text; "" wants none.
		want string
	}{
		{"as installed", []map[string]any{group(full, cmd)}, false, ""},
		{"as installed for the user", []map[string]any{group(full, userCmd)}, false, ""},
		{"every tool, by *", []map[string]any{group("*", cmd)}, false, ""},
		{"every tool, by an empty matcher", []map[string]any{group("", cmd)}, false, ""},
		{"every tool, without a matcher", []map[string]any{group(nil, cmd)}, false, ""},
		{"every tool, by a pattern", []map[string]any{group(".*", cmd)}, false, ""},
		{"exit 0 first", []map[string]any{group(full, "exit 0; "+cmd)}, true, `is not the command sentinel installs`},
		{"true or", []map[string]any{group(full, "true || "+cmd)}, true, `is not the command sentinel installs`},
		{"colon and", []map[string]any{group(full, ": && "+cmd)}, true, `is not the command sentinel installs`},
		{"or true", []map[string]any{group(full, cmd+" || true")}, true, `is not the command sentinel installs`},
		{"bare, or true", []map[string]any{group(full, "sentinel guard --agent claude || true")}, true, `is not the command sentinel installs`},
		{"bare, negated", []map[string]any{group(full, "! sentinel guard --agent claude")}, true, `is not the command sentinel installs`},
		{"bare, answer thrown away", []map[string]any{group(full, "sentinel guard --agent claude >/dev/null")}, true, `is not the command sentinel installs`},
		{"bare, in the background", []map[string]any{group(full, "sentinel guard --agent claude &")}, true, `is not the command sentinel installs`},
		{"bare, with an assignment", []map[string]any{group(full, "PATH=/tmp/x sentinel guard --agent claude")}, true, `is not the command sentinel installs`},
		{"bare, piped", []map[string]any{group(full, "sentinel guard --agent claude | cat")}, true, `is not the command sentinel installs`},
		{"bare, another agent", []map[string]any{group(full, "sentinel guard --agent cursor")}, true, `is not the command sentinel installs`},
		{"bare, then exit 0", []map[string]any{group(full, "sentinel guard --agent claude; exit 0")}, true, `is not the command sentinel installs`},
		{"the script, edited", []map[string]any{group(full, strings.Replace(cmd, "exit 2'", "exit 0'", 1))}, true, `is not the command sentinel installs`},
		{"bare", []map[string]any{group(full, "sentinel guard --agent claude")}, false, "runs sentinel bare"},
		{"bare, absolute", []map[string]any{group(full, bin+" guard --agent=claude")}, false, "runs sentinel bare"},
		{"older", []map[string]any{group(full, strings.Replace(cmd, readRest, "", 1))}, false, "an older sentinel's"},
		{"no tool of Claude Code's", []map[string]any{group("Bsh|Wrte", cmd)}, true, `the matcher "Bsh|Wrte" names no tool claude has`},
		{"lower case", []map[string]any{group("bash", cmd)}, true, `the matcher "bash" names no tool claude has`},
		{"a pattern that reaches nothing", []map[string]any{group("^Shell$", cmd)}, true, `names no tool claude has`},
		{"not a pattern", []map[string]any{group("Bash(", cmd)}, true, `does not read as a pattern`},
		{"not a string", []map[string]any{group(7, cmd)}, true, `the matcher "7" names no tool`},
		{"Read only", []map[string]any{group("Read", cmd)}, true, `the matcher "Read" covers only Read: the tools that run commands and write (Bash, Write, Edit, MultiEdit, NotebookEdit) go unchecked`},
		{"reads and search", []map[string]any{group("Read|Grep|Glob|WebFetch", cmd)}, true, `covers only Read, Grep, Glob, WebFetch`},
		{"Bash only", []map[string]any{group("Bash", cmd)}, true, `the matcher "Bash" leaves Write, Edit, MultiEdit, NotebookEdit unchecked`},
		{"Bash, and the rest altered", []map[string]any{group("Bash", cmd), group("Write|Edit|MultiEdit|NotebookEdit", "exit 0; "+cmd)}, true, `leaves Write, Edit, MultiEdit, NotebookEdit unchecked`},
		{"split in two", []map[string]any{group("Bash|Read|Grep|PowerShell", cmd), group("Edit|Write|MultiEdit|NotebookEdit", cmd)}, false, ""},
		{"the first install's matcher", []map[string]any{group("Bash|Write|Edit|MultiEdit|NotebookEdit", cmd)}, false, "leave PowerShell, Read, Grep unchecked"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := claudeSettings(t, c.groups...)
			in, err := tg.Inspect(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(in.Hooks) == 0 {
				t.Fatal("no entry of sentinel's found")
			}
			var what []string
			for _, p := range in.Problems {
				what = append(what, p.What)
			}
			text := strings.Join(what, "\n")
			switch {
			case in.Broken() != c.broken:
				t.Errorf("broken = %v, want %v: %q", in.Broken(), c.broken, what)
			case c.want == "" && len(what) > 0:
				t.Errorf("problems %q, want none", what)
			case !strings.Contains(text, c.want):
				t.Errorf("problems %q, want %q among them", what, c.want)
			}
		})
	}
}

// TestInspectWrongEvent: sentinel's entry under an event the host runs
// after a call, or outside a group, guards nothing.
func TestInspectWrongEvent(t *testing.T) {
	tg := Targets["claude"]
	cmd, _ := tg.HookCommand("/opt/sentinel/bin/sentinel", true)
	dir := t.TempDir()
	for name, c := range map[string]struct{ settings, want string }{
		"after the call": {`{"hooks": {"PostToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": ` + jsonString(cmd) + `, "onFailure": "block"}]}]}}`,
			"sentinel's entries are under PostToolUse, none under PreToolUse, where claude asks before a call"},
		"outside a group": {`{"hooks": {"PreToolUse": [{"type": "command", "command": ` + jsonString(cmd) + `, "onFailure": "block"}]}}`,
			"is not in a group of hooks"},
	} {
		path := filepath.Join(dir, name+".json")
		if err := os.WriteFile(path, []byte(c.settings), 0o644); err != nil {
			t.Fatal(err)
		}
		in, err := tg.Inspect(path)
		if err != nil {
			t.Fatal(err)
		}
		if !in.Broken() || len(in.Problems) != 1 || !strings.Contains(in.Problems[0].What, c.want) {
			t.Errorf("%s: %+v, want one broken problem with %q", name, in.Problems, c.want)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestInspectWhatInstallWrites: every host's file as install writes it
// guards, with no problem at all, and one whose command is altered is
// broken, for the hosts whose entry is a command line and for those whose
// entry runs a script or a plugin sentinel writes.
func TestInspectWhatInstallWrites(t *testing.T) {
	const bin = "/opt/sentinel/bin/sentinel"
	for _, name := range TargetNames() {
		t.Run(name, func(t *testing.T) {
			tg := Targets[name]
			root := t.TempDir()
			path := filepath.Join(root, filepath.FromSlash(tg.Project))
			cmd, err := tg.HookCommand(bin, true)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Install(tg, root, path, cmd); err != nil {
				t.Fatal(err)
			}
			in, err := tg.Inspect(path)
			if err != nil || len(in.Hooks) == 0 || len(in.Problems) > 0 {
				t.Fatalf("as installed: %+v, %v; want entries and no problem", in, err)
			}
			// Alter the command wherever install put it: the settings,
			// the script beside them, or the plugin.
			altered := filepath.Join(filepath.Dir(path), tg.script)
			if tg.script == "" {
				altered = path
			}
			data, err := os.ReadFile(altered)
			if err != nil {
				t.Fatal(err)
			}
			old := `[ $s -eq 0 ] && exit 0; `
			if tg.form == formPlugin {
				old = `[ $s -eq 0 ] \u0026\u0026 exit 0; ` // as JSON holds it
			}
			if !strings.Contains(string(data), old) {
				t.Fatalf("%s does not hold %q", altered, old)
			}
			if err := os.WriteFile(altered, []byte(strings.ReplaceAll(string(data), old, `exit 0; `)), 0o755); err != nil {
				t.Fatal(err)
			}
			in, err = tg.Inspect(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(in.Hooks) == 0 || !in.Broken() || !strings.Contains(in.Problems[0].What, "is not the command sentinel installs") {
				t.Fatalf("altered: %+v, want it broken", in)
			}
		})
	}
}

// TestInspectByEvent: Cursor's entries under beforeReadFile alone cover
// only reads.
func TestInspectByEvent(t *testing.T) {
	tg := Targets["cursor"]
	cmd, _ := tg.HookCommand("/opt/sentinel/bin/sentinel", true)
	path := filepath.Join(t.TempDir(), "hooks.json")
	settings := `{"version": 1, "hooks": {"beforeReadFile": [{"command": ` + jsonString(cmd) + `, "timeout": 5, "failClosed": true}]}}`
	if err := os.WriteFile(path, []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := tg.Inspect(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "sentinel's entries cover beforeReadFile only: beforeShellExecution, preToolUse go unchecked"
	if !in.Broken() || len(in.Problems) != 1 || in.Problems[0].What != want {
		t.Fatalf("%+v, want %q", in.Problems, want)
	}
}

// TestInspectPluginBody: an OpenCode plugin whose command is sentinel's
// but whose code no longer throws on a refusal is altered too.
func TestInspectPluginBody(t *testing.T) {
	tg := Targets["opencode"]
	root := t.TempDir()
	path := filepath.Join(root, filepath.FromSlash(tg.Project))
	cmd, _ := tg.HookCommand("/opt/sentinel/bin/sentinel", true)
	if _, err := Install(tg, root, path, cmd); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	body := strings.Replace(string(data), "throw new Error(answer.reason)", "return", 1)
	if body == string(data) {
		t.Fatal("the plugin does not throw the guard's reason")
	}
	os.WriteFile(path, []byte(body), 0o644)
	in, err := tg.Inspect(path)
	if err != nil || !in.Broken() {
		t.Fatalf("%+v, %v; want it broken", in, err)
	}
}

// TestInspectSwitchedOff: a Kiro hook with "enabled": false is skipped by
// Kiro, and Claude Code's "disableAllHooks": true switches off every hook,
// as Amp's "amp.dangerouslyAllowAll": true does its delegates.
func TestInspectSwitchedOff(t *testing.T) {
	kiro := Targets["kiro"]
	root := t.TempDir()
	path := filepath.Join(root, filepath.FromSlash(kiro.Project))
	cmd, _ := kiro.HookCommand("/opt/sentinel/bin/sentinel", true)
	if _, err := Install(kiro, root, path, cmd); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(data), `"enabled": true`, `"enabled": false`, 1)), 0o644)
	in, err := kiro.Inspect(path)
	if err != nil || !in.Broken() || !strings.Contains(in.Problems[0].What, `is switched off ("enabled": false)`) {
		t.Fatalf("%+v, %v; want it broken", in, err)
	}

	claude := Targets["claude"]
	settings := filepath.Join(t.TempDir(), "settings.local.json")
	for content, want := range map[string]string{`{"disableAllHooks": true}`: "disableAllHooks", `{"disableAllHooks": false}`: "", `{}`: ""} {
		os.WriteFile(settings, []byte(content), 0o644)
		if key, err := claude.HooksOff(settings); err != nil || key != want {
			t.Errorf("%s: %q, %v; want %q", content, key, err, want)
		}
	}
	if key, err := claude.HooksOff(filepath.Join(t.TempDir(), "none.json")); err != nil || key != "" {
		t.Errorf("a missing file: %q, %v", key, err)
	}
	if key, err := Targets["cursor"].HooksOff(settings); err != nil || key != "" {
		t.Errorf("cursor: %q, %v", key, err)
	}
	// Amp allows every call, its delegates unasked, under
	// "amp.dangerouslyAllowAll": true.
	amp := Targets["amp"]
	for content, want := range map[string]string{`{"amp.dangerouslyAllowAll": true}`: "amp.dangerouslyAllowAll", `{"amp.dangerouslyAllowAll": false}`: "", `{"disableAllHooks": true}`: ""} {
		os.WriteFile(settings, []byte(content), 0o644)
		if key, err := amp.HooksOff(settings); err != nil || key != want {
			t.Errorf("amp: %s: %q, %v; want %q", content, key, err, want)
		}
	}
}

// TestInspectClaudeOnFailure: Claude Code lets the call run when a hook
// times out, unless the entry says "onFailure": "block"; an entry without
// it is reported, with the install that writes it.
func TestInspectClaudeOnFailure(t *testing.T) {
	tg := Targets["claude"]
	cmd, _ := tg.HookCommand("/opt/sentinel/bin/sentinel", true)
	dir := t.TempDir()
	for name, c := range map[string]struct {
		onFailure string
		want      bool
	}{"block": {`, "onFailure": "block"`, false}, "none": {``, true}, "continue": {`, "onFailure": "continue"`, true}} {
		path := filepath.Join(dir, name+".json")
		settings := `{"hooks": {"PreToolUse": [{"matcher": "Bash|PowerShell|Write|Edit|MultiEdit|NotebookEdit|Read|Grep", "hooks": [{"type": "command", "command": ` + jsonString(cmd) + c.onFailure + `}]}]}}`
		if err := os.WriteFile(path, []byte(settings), 0o644); err != nil {
			t.Fatal(err)
		}
		in, err := tg.Inspect(path)
		if err != nil {
			t.Fatal(err)
		}
		got := len(in.Problems) == 1 && !in.Broken() && strings.Contains(in.Problems[0].What, `no "onFailure": "block"`) &&
			strings.Contains(in.Problems[0].What, "sentinel guard install --agent claude")
		if got != c.want || (!c.want && len(in.Problems) != 0) {
			t.Errorf("%s: %+v, want the onFailure problem: %v", name, in.Problems, c.want)
		}
	}
	// What install writes carries it.
	entries := tg.entries(cmd)
	h := entries["PreToolUse"][0].(map[string]any)["hooks"].([]any)[0].(map[string]any)
	if h["onFailure"] != "block" {
		t.Errorf("install writes %v, want \"onFailure\": \"block\"", h)
	}
}

// TestInspectFactoryTwin: Droid runs the PreToolUse list of the hooks.json
// (or the older hooks/hooks.json) it reads beside settings.json in place
// of settings.json's: the guard there never runs, unless the twin runs it
// too; and "hooksDisabled": true, under "hooks" in settings.json or at the
// top of hooks.json, switches every hook off.
func TestInspectFactoryTwin(t *testing.T) {
	tg := Targets["factory"]
	cmd := tg.PathHookCommand()
	for _, c := range []struct {
		name, twin, content string
		broken              bool
	}{
		{"lists PreToolUse", "hooks.json", `{"PreToolUse":[{"matcher":"Execute","hooks":[{"type":"command","command":"/usr/local/bin/audit"}]}]}`, true},
		{"lists it empty", "hooks.json", `{"PreToolUse":[]}`, true},
		{"the older file", "hooks/hooks.json", `{"PreToolUse":[]}`, true},
		{"other events", "hooks.json", `{"PostToolUse":[]}`, false},
		{"a form Droid does not read", "hooks.json", `{"hooks":{"PreToolUse":[]}}`, false},
	} {
		dir := filepath.Join(t.TempDir(), ".factory")
		path := filepath.Join(dir, "settings.json")
		if _, err := Install(tg, existingDir(path), path, cmd); err != nil {
			t.Fatal(err)
		}
		twin := filepath.Join(dir, filepath.FromSlash(c.twin))
		os.MkdirAll(filepath.Dir(twin), 0o755)
		os.WriteFile(twin, []byte(c.content), 0o644)
		in, err := tg.Inspect(path)
		if err != nil || in.Broken() != c.broken || len(in.Hooks) != 1 {
			t.Errorf("%s: %+v, %v; want broken %v", c.name, in, err, c.broken)
			continue
		}
		if c.broken && !strings.Contains(in.Problems[0].What, "the entry under PreToolUse never runs: "+twin+" lists PreToolUse hooks") {
			t.Errorf("%s: %q", c.name, in.Problems[0].What)
		}
		if !c.broken {
			continue
		}
		// Installed again, the guard is in the twin as well, and runs.
		if _, err := Install(tg, existingDir(path), path, cmd); err != nil {
			t.Fatal(err)
		}
		if in, err := tg.Inspect(path); err != nil || in.Broken() || len(in.Hooks) != 2 {
			t.Errorf("%s, installed again: %+v, %v", c.name, in, err)
		}
		if files := tg.HookFiles(path); !slices.Equal(files, []string{path, twin}) {
			t.Errorf("%s: HookFiles %v", c.name, files)
		}
	}

	dir := filepath.Join(t.TempDir(), ".factory")
	os.MkdirAll(dir, 0o755)
	settings, twin := filepath.Join(dir, "settings.json"), filepath.Join(dir, "hooks.json")
	for _, c := range []struct{ path, content, want string }{
		{settings, `{"hooks":{"hooksDisabled":true}}`, "hooks.hooksDisabled"},
		{settings, `{"hooks":{"hooksDisabled":false}}`, ""},
		{settings, `{"hooksDisabled":true}`, ""},
		{twin, `{"hooksDisabled":true}`, "hooksDisabled"},
		{twin, `{"PreToolUse":[]}`, ""},
	} {
		os.WriteFile(c.path, []byte(c.content), 0o644)
		if key, err := tg.HooksOff(c.path); err != nil || key != c.want {
			t.Errorf("%s %s: %q, %v; want %q", filepath.Base(c.path), c.content, key, err, c.want)
		}
	}
}

// TestInspectAugmentOlderMatcher: the matcher an older sentinel wrote for
// Augment left apply_patch and write-process out, which Auggie 0.36.0
// offers and runs without the guard: broken, and installing again puts
// the whole matcher back.
func TestInspectAugmentOlderMatcher(t *testing.T) {
	tg := Targets["augment"]
	root := t.TempDir()
	path := filepath.Join(root, filepath.FromSlash(tg.Project))
	cmd, err := tg.HookCommand("/opt/sentinel/bin/sentinel", true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Install(tg, root, path, cmd); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	now := `^(launch-process|write-process|save-file|str-replace-editor|apply_patch|remove-files|view)$`
	if !strings.Contains(string(data), now) {
		t.Fatalf("the settings do not hold the matcher %q:\n%s", now, data)
	}
	older := strings.Replace(string(data), now, "launch-process|save-file|str-replace-editor|view|remove-files", 1)
	if err := os.WriteFile(path, []byte(older), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := tg.Inspect(path)
	if err != nil {
		t.Fatal(err)
	}
	if !in.Broken() || !strings.Contains(in.Problems[0].What, "leaves write-process, apply_patch unchecked") {
		t.Fatalf("the older matcher: %+v, want it broken for apply_patch and write-process", in.Problems)
	}
	if _, err := Install(tg, root, path, cmd); err != nil {
		t.Fatal(err)
	}
	if in, err := tg.Inspect(path); err != nil || len(in.Problems) > 0 {
		t.Fatalf("installed again: %+v, %v; want no problem", in, err)
	}
}
