package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// readJSON reads a settings file into a generic value.
func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

// dig walks a generic JSON value by keys and list indexes.
func dig(v any, keys ...any) any {
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

// TestInstallNewHosts installs the guard for each host added after the
// first five, checks the shape its documentation gives, that the entry is
// found again with its binaries, that a second install changes nothing,
// and that uninstall leaves the person's own settings as they were.
func TestInstallNewHosts(t *testing.T) {
	const bin = "/opt/sentinel/bin/sentinel"
	for _, name := range []string{"windsurf", "kiro", "cline", "goose", "factory", "qwen", "augment", "amp", "opencode", "kilo", "pi"} {
		t.Run(name, func(t *testing.T) {
			tg := Targets[name]
			root := t.TempDir()
			path := filepath.Join(root, filepath.FromSlash(tg.Project))
			os.MkdirAll(filepath.Dir(path), 0o755)
			var before []byte
			switch name {
			case "amp":
				before = []byte(`{"amp.permissions":[{"tool":"Bash","action":"allow"}],"amp.notifications.enabled":false}`)
			case "windsurf", "factory", "qwen", "augment":
				before = []byte(`{"model":"x","hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]}]}}`)
			}
			if before != nil {
				os.WriteFile(path, before, 0o644)
			}
			cmd, err := tg.HookCommand(bin, true)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Install(tg, existingDir(path), path, cmd)
			if err != nil || !res.Changed {
				t.Fatalf("install: %+v %v", res, err)
			}
			dir := filepath.Dir(path)
			script := filepath.Join(dir, scriptName)
			switch name {
			case "windsurf":
				m := readJSON(t, path)
				for _, ev := range []string{"pre_run_command", "pre_write_code", "pre_read_code"} {
					if dig(m, "hooks", ev, 0, "command") != cmd || dig(m, "hooks", ev, 0, "show_output") != true {
						t.Errorf("%s: %v", ev, dig(m, "hooks", ev))
					}
				}
			case "kiro":
				m := readJSON(t, path)
				if m["version"] != "v1" || dig(m, "hooks", 0, "trigger") != "PreToolUse" || dig(m, "hooks", 0, "action", "command") != cmd ||
					dig(m, "hooks", 0, "timeout") != float64(HookTimeoutSeconds) || dig(m, "hooks", 0, "enabled") != true {
					t.Errorf("kiro: %v", m)
				}
			case "cline":
				st, err := os.Stat(path)
				b, _ := os.ReadFile(path)
				if err != nil || st.Mode().Perm() != 0o755 || !bytes.HasPrefix(b, []byte("#!/bin/sh\n")) || !bytes.Contains(b, []byte(cmd)) {
					t.Errorf("cline's hook file: %v %v\n%s", st.Mode(), err, b)
				}
			case "goose":
				m := readJSON(t, path)
				h := dig(m, "hooks", "PreToolUse", 0, "hooks", 0)
				if dig(h, "command") != cmd || dig(h, "on_failure") != "block" || dig(h, "timeout") != float64(HookTimeoutSeconds) {
					t.Errorf("goose: %v", m)
				}
				if p := readJSON(t, filepath.Join(dir, "..", "plugin.json")); p["name"] != "sentinel" {
					t.Errorf("plugin.json: %v", p)
				}
			case "factory", "qwen":
				m := readJSON(t, path)
				want := float64(HookTimeoutSeconds)
				if name == "qwen" {
					want *= 1000
				}
				if dig(m, "hooks", "PreToolUse", 0, "hooks", 0, "command") != cmd || dig(m, "hooks", "PreToolUse", 0, "hooks", 0, "timeout") != want {
					t.Errorf("%s: %v", name, m)
				}
				if name == "factory" {
					if _, err := os.Stat(filepath.Join(dir, "hooks.json")); err == nil {
						t.Error("factory: wrote hooks.json, which makes Droid ignore settings.json's hooks")
					}
				}
			case "augment":
				m := readJSON(t, path)
				if dig(m, "hooks", "PreToolUse", 0, "hooks", 0, "command") != script || dig(m, "hooks", "PreToolUse", 0, "hooks", 0, "timeout") != float64(HookTimeoutSeconds*1000) {
					t.Errorf("augment: %v", m)
				}
			case "amp":
				m := readJSON(t, path)
				rules, _ := m[ampKey].([]any)
				if len(rules) != len(ampTools)+1 {
					t.Fatalf("amp: %v", rules)
				}
				for i, tool := range ampTools {
					if dig(rules[i], "tool") != tool || dig(rules[i], "action") != "delegate" || dig(rules[i], "to") != script {
						t.Errorf("amp rule %d: %v", i, rules[i])
					}
				}
				if dig(rules[len(ampTools)], "action") != "allow" || m["amp.notifications.enabled"] != false {
					t.Errorf("amp: the person's rules moved or went: %v", m)
				}
			case "opencode", "kilo", "pi":
				b, _ := os.ReadFile(path)
				if got, ok := pluginCommand(b); !ok || got != cmd {
					t.Errorf("%s: %q %v", name, got, ok)
				}
				if !bytes.Contains(b, []byte("--agent "+name+".")) {
					t.Errorf("%s: the plugin names another agent:\n%s", name, b)
				}
			}
			if tg.script != "" {
				b, err := os.ReadFile(script)
				st, _ := os.Stat(script)
				if err != nil || !bytes.Contains(b, []byte(cmd)) || st.Mode().Perm() != 0o755 {
					t.Errorf("%s: the script: %v\n%s", name, err, b)
				}
			}
			hooks, err := InstalledHooks(path)
			if err != nil || len(hooks) == 0 {
				t.Fatalf("installed hooks: %v %v", hooks, err)
			}
			for _, h := range hooks {
				if strings.Join(h.Binaries, "|") != bin+"|sentinel" {
					t.Errorf("%s: binaries %v", h.Event, h.Binaries)
				}
			}
			if res, err := Install(tg, existingDir(path), path, cmd); err != nil || res.Changed {
				t.Errorf("second install: %+v %v", res, err)
			}
			// A new binary replaces the entry, and leaves one.
			cmd2, _ := tg.HookCommand("/usr/local/bin/sentinel", true)
			if res, err := Install(tg, existingDir(path), path, cmd2); err != nil || !res.Changed {
				t.Fatalf("reinstall: %+v %v", res, err)
			}
			if again, _ := InstalledHooks(path); len(again) != len(hooks) || again[0].Binaries[0] != "/usr/local/bin/sentinel" {
				t.Errorf("after a reinstall: %+v", again)
			}
			if res, err := Uninstall(tg, existingDir(path), path); err != nil || !res.Changed {
				t.Fatalf("uninstall: %+v %v", res, err)
			}
			if left, err := InstalledHooks(path); err != nil || len(left) != 0 {
				t.Errorf("after uninstall: %v %v", left, err)
			}
			if tg.script != "" {
				if _, err := os.Stat(script); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("the script stayed: %v", err)
				}
			}
			switch {
			case before != nil:
				var want, got any
				json.Unmarshal(before, &want)
				json.Unmarshal(mustRead(t, path), &got)
				if w, _ := json.Marshal(want); string(w) != string(jsonBytes(got)) {
					t.Errorf("uninstall left\n%s\nwant\n%s", jsonBytes(got), w)
				}
			default:
				// A file that was sentinel's alone goes.
				if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s stayed after uninstall", path)
				}
			}
		})
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func jsonBytes(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// TestFactoryTwin: Droid reads .factory/hooks.json, else the
// .factory/hooks/hooks.json it wrote before, beside settings.json: the
// file's event lists are at its top level, and an event it lists runs
// that list in place of settings.json's. The entry goes into the twin
// when it lists PreToolUse, and only then; uninstall takes it out of
// both, and leaves the twin's list.
func TestFactoryTwin(t *testing.T) {
	tg := Targets["factory"]
	mine := `{"type":"command","command":"/usr/local/bin/audit"}`
	for _, c := range []struct {
		name, twin, content string
		// in says the entry goes into the twin.
		in bool
	}{
		{"lists PreToolUse", "hooks.json", `{"PreToolUse":[{"matcher":"Execute","hooks":[` + mine + `]}]}`, true},
		{"lists it empty", "hooks.json", `{"PreToolUse":[]}`, true},
		{"other events", "hooks.json", `{"PostToolUse":[{"hooks":[` + mine + `]}]}`, false},
		{"the older form", "hooks.json", `{"hooks":{"PreToolUse":[]}}`, false},
		{"legacy", "hooks/hooks.json", `{"PreToolUse":[]}`, true},
	} {
		dir := filepath.Join(t.TempDir(), ".factory")
		twin := filepath.Join(dir, filepath.FromSlash(c.twin))
		os.MkdirAll(filepath.Dir(twin), 0o755)
		os.WriteFile(twin, []byte(c.content), 0o644)
		cmd, _ := tg.HookCommand("/x/sentinel", false)
		path := filepath.Join(dir, "settings.json")
		if _, err := Install(tg, existingDir(path), path, cmd); err != nil {
			t.Fatal(err)
		}
		if h, err := InstalledHooks(path); err != nil || len(h) != 1 {
			t.Errorf("%s: settings.json: %v %v", c.name, h, err)
		}
		h, err := InstalledHooks(twin)
		if err != nil || (len(h) == 1) != c.in {
			t.Errorf("%s: %s: %v %v", c.name, c.twin, h, err)
		}
		if c.in {
			m := readJSON(t, twin)
			if dig(m, "PreToolUse", len(m["PreToolUse"].([]any))-1, "hooks", 0, "command") != cmd || m["hooks"] != nil {
				t.Errorf("%s: %s: %v", c.name, c.twin, m)
			}
		}
		if _, err := Uninstall(tg, existingDir(path), path); err != nil {
			t.Fatal(err)
		}
		if h, _ := InstalledHooks(twin); len(h) != 0 {
			t.Errorf("%s: %s kept the guard: %v", c.name, c.twin, h)
		}
		got, _ := os.ReadFile(twin)
		if c.in && !strings.Contains(string(got), `"PreToolUse"`) {
			t.Errorf("%s: uninstall took the twin's PreToolUse list: %s", c.name, got)
		}
		if c.content != `{"PreToolUse":[]}` && !c.in && string(got) != c.content {
			t.Errorf("%s: uninstall changed %s: %s", c.name, c.twin, got)
		}
	}

	// An older sentinel's entry under "hooks" in hooks.json, which Droid
	// never read, goes with the uninstall.
	dir := filepath.Join(t.TempDir(), ".factory")
	os.MkdirAll(dir, 0o755)
	cmd, _ := tg.HookCommand("/x/sentinel", false)
	old, _ := json.Marshal(map[string]any{"hooks": tg.entries(cmd)})
	twin, path := filepath.Join(dir, "hooks.json"), filepath.Join(dir, "settings.json")
	os.WriteFile(twin, old, 0o644)
	if _, err := Install(tg, existingDir(path), path, cmd); err != nil {
		t.Fatal(err)
	}
	if _, err := Uninstall(tg, existingDir(path), path); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(twin); strings.Contains(string(got), "sentinel") {
		t.Errorf("the older entry stayed: %s", got)
	}
}

// TestInstallRefusesForeignFile: a hook file or plugin by sentinel's name
// that is the person's own is not overwritten, nor removed.
func TestInstallRefusesForeignFile(t *testing.T) {
	for _, name := range []string{"cline", "opencode", "augment"} {
		tg := Targets[name]
		root := t.TempDir()
		path := filepath.Join(root, filepath.FromSlash(tg.Project))
		own := path
		if tg.script != "" {
			own = filepath.Join(filepath.Dir(path), tg.script)
		}
		os.MkdirAll(filepath.Dir(own), 0o755)
		mine := []byte("#!/bin/sh\necho '{\"cancel\":false}'\n")
		os.WriteFile(own, mine, 0o755)
		cmd, _ := tg.HookCommand("/x/sentinel", true)
		if _, err := Install(tg, existingDir(path), path, cmd); err == nil || !strings.Contains(err.Error(), "does not run sentinel's guard") {
			t.Errorf("%s: %v", name, err)
		}
		if res, err := Uninstall(tg, existingDir(path), path); err != nil || res.Changed {
			t.Errorf("%s: uninstall: %+v %v", name, res, err)
		}
		if b, _ := os.ReadFile(own); !bytes.Equal(b, mine) {
			t.Errorf("%s: the person's file changed: %s", name, b)
		}
	}
}

// runHost runs an installed hook file the way its host does: executed
// directly, the event on stdin.
func runHost(t *testing.T, file string, event string, env []string) (stdout, stderr string, code int) {
	t.Helper()
	c := exec.Command(file)
	c.Stdin = strings.NewReader(event)
	c.Env = append([]string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir()}, env...)
	var o, e bytes.Buffer
	c.Stdout, c.Stderr = &o, &e
	err := c.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// TestInstalledScriptsFailClosed runs the files Cline, Augment and Amp
// execute (a hook file, a .sh, a delegate program): sentinel's answer
// passes through, and a missing or crashing binary is the host's refusal.
func TestInstalledScriptsFailClosed(t *testing.T) {
	for _, name := range []string{"cline", "augment", "amp"} {
		t.Run(name, func(t *testing.T) {
			tg := Targets[name]
			root := t.TempDir()
			path := filepath.Join(root, filepath.FromSlash(tg.Project))
			file := path
			if tg.script != "" {
				file = filepath.Join(filepath.Dir(path), tg.script)
			}
			event := string(mustRead(t, filepath.Join("..", "..", "fixtures", "guard", "events", name+"-deny.json")))
			for _, tc := range []struct {
				body string // "" for a missing binary
				want func(out, errOut string, code int) bool
			}{
				{"", func(out, errOut string, code int) bool { return refusedBy(name, out, errOut, code, "127") }},
				{"echo boom >&2; exit 3", func(out, errOut string, code int) bool { return refusedBy(name, out, errOut, code, "3") }},
				{"kill -9 $$", func(out, errOut string, code int) bool { return refusedBy(name, out, errOut, code, "137") }},
			} {
				bin := filepath.Join(t.TempDir(), "sentinel")
				if tc.body != "" {
					fakeSentinel(t, filepath.Dir(bin), tc.body)
				}
				cmd, _ := tg.HookCommand(bin, false)
				if _, err := Install(tg, existingDir(path), path, cmd); err != nil {
					t.Fatal(err)
				}
				out, errOut, code := runHost(t, file, event, []string{"AGENT=amp", "AGENT_TOOL_NAME=edit_file"})
				if !tc.want(out, errOut, code) {
					t.Errorf("%q: exit %d, stdout %q, stderr %q", tc.body, code, out, errOut)
				}
			}
			// sentinel's own answers, as recorded, pass through.
			for _, verdict := range []string{"allow", "deny"} {
				body, wantOut, wantErr, wantExit := replay(t, name, verdict)
				bin := fakeSentinel(t, filepath.Join(t.TempDir(), verdict), body)
				cmd, _ := tg.HookCommand(bin, false)
				if _, err := Install(tg, existingDir(path), path, cmd); err != nil {
					t.Fatal(err)
				}
				out, errOut, code := runHost(t, file, event, nil)
				if out != wantOut || errOut != wantErr || code != wantExit {
					t.Errorf("%s: exit %d, %q, %q; want %d, %q, %q", verdict, code, out, errOut, wantExit, wantOut, wantErr)
				}
			}
		})
	}
}

// refusedBy reports the refusal a host acts on, naming the status the
// shell saw.
func refusedBy(name, out, errOut string, code int, status string) bool {
	why := "(exit status " + status + "): the call is refused"
	if name == "cline" {
		var a struct {
			Cancel       bool   `json:"cancel"`
			ErrorMessage string `json:"errorMessage"`
		}
		return json.Unmarshal([]byte(out), &a) == nil && a.Cancel && strings.Contains(a.ErrorMessage, why) && code != 0
	}
	return code == 2 && strings.Contains(errOut, why)
}

// TestOpenCodePluginInNode loads the installed plugin in node with a stub
// of OpenCode's call and a fake sentinel: only an exact allow lets the
// call through; a refusal, a missing binary, a failing one, garbage and a
// timeout all throw.
func TestOpenCodePluginInNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir := t.TempDir()
	eventFile := filepath.Join(dir, "event.json")
	driver := filepath.Join(dir, "driver.mjs")
	os.WriteFile(driver, []byte(`
const [plugin] = process.argv.slice(2)
const mod = await import(plugin)
const hooks = await mod.SentinelGuard({ directory: "/home/u/src/p", worktree: "/home/u/src/p" })
const output = { args: { command: "rm -rf ~", description: "clean" } }
try {
  await hooks["tool.execute.before"]({ tool: "bash", sessionID: "ses_1", callID: "call_1" }, output)
  console.log("allowed")
} catch (err) {
  console.log("blocked: " + err.message)
}
`), 0o644)
	for _, tc := range []struct {
		name, body, want string
	}{
		{"allow", `printf '{"decision":"allow"}\n'`, "allowed"},
		{"allow with a warning", `printf '{"decision":"allow","warning":"careful"}\n'`, "allowed"},
		{"deny", `printf '{"decision":"deny","reason":"sentinel guard [rm.root]: no"}\n'; exit 2`, "blocked: sentinel guard [rm.root]: no"},
		{"missing", "", "blocked: sentinel guard failed or is missing (exit status 127)"},
		{"crash", `echo boom >&2; exit 1`, "blocked: sentinel guard failed or is missing (exit status 1)"},
		{"garbage", `echo hello`, "blocked: sentinel guard: an answer that is not an allow"},
		{"allow and more", `printf '{"decision":"allow"}{"decision":"allow"}'`, "blocked: sentinel guard: an answer that is not an allow"},
		{"allow but a failure status", `printf '{"decision":"allow"}'; exit 3`, "blocked: sentinel guard failed or is missing (exit status 3)"},
		{"empty", `true`, "blocked: sentinel guard: an answer that is not an allow"},
		{"timeout", `sleep 5; printf '{"decision":"allow"}'`, "blocked: sentinel guard: no answer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin := filepath.Join(t.TempDir(), "sentinel")
			if tc.body != "" {
				fakeSentinel(t, filepath.Dir(bin), tc.body)
			}
			if tc.name == "allow" {
				// This one keeps the event it was given.
				os.WriteFile(bin, []byte("#!/bin/sh\ncat > "+shq(eventFile)+"\n"+tc.body+"\n"), 0o755)
			}
			cmd, err := Targets["opencode"].HookCommand(bin, false)
			if err != nil {
				t.Fatal(err)
			}
			plugin := filepath.Join(t.TempDir(), "sentinel-guard.mjs")
			os.WriteFile(plugin, opencodePlugin(cmd, 1500), 0o644)
			start := time.Now()
			out, err := exec.Command(node, driver, plugin).CombinedOutput()
			if err != nil {
				t.Fatalf("node: %v\n%s", err, out)
			}
			got := strings.TrimSpace(string(out))
			ok := got == tc.want
			if tc.want != "allowed" {
				// The refusal carries the reason, after whatever the
				// shell said.
				ok = strings.HasPrefix(got, "blocked: ") && strings.Contains(got, strings.TrimPrefix(tc.want, "blocked: "))
			}
			if !ok {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if took := time.Since(start); took > 4*time.Second {
				t.Errorf("took %v", took)
			}
		})
	}
	// The event the plugin hands the guard has the shape of the recorded
	// OpenCode events, which the opencode dialect's tests read, and the
	// call it describes is the one OpenCode runs.
	var ev struct {
		Event string `json:"hook_event_name"`
		Tool  string `json:"tool"`
		Cwd   string `json:"cwd"`
		Args  struct {
			Command string `json:"command"`
		} `json:"args"`
	}
	if err := json.Unmarshal(mustRead(t, eventFile), &ev); err != nil || ev.Event != "tool.execute.before" || ev.Tool != "bash" || ev.Args.Command != "rm -rf ~" || ev.Cwd != "/home/u/src/p" {
		t.Errorf("the plugin's event: %+v %v", ev, err)
	}
	var got, recorded map[string]json.RawMessage
	json.Unmarshal(mustRead(t, eventFile), &got)
	json.Unmarshal(mustRead(t, filepath.Join("..", "..", "fixtures", "guard", "events", "opencode-deny.json")), &recorded)
	for k := range got {
		if _, ok := recorded[k]; !ok {
			t.Errorf("the plugin's event has %q, which the recorded OpenCode events lack", k)
		}
	}
}

// TestKiloPluginInNode: Kilo Code's plugin is OpenCode's, and its event
// names the host, so that the guard tells it from OpenCode's; OpenCode's
// event is unchanged.
func TestKiloPluginInNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir := t.TempDir()
	driver := filepath.Join(dir, "driver.mjs")
	os.WriteFile(driver, []byte(`
const [plugin] = process.argv.slice(2)
const mod = await import(plugin)
const hooks = await mod.SentinelGuard({ directory: "/home/u/src/p" })
try {
  await hooks["tool.execute.before"]({ tool: "bash", sessionID: "ses_1", callID: "call_1" }, { args: { command: "ls" } })
  console.log("allowed")
} catch (err) {
  console.log("blocked: " + err.message)
}
`), 0o644)
	for agent, host := range map[string]string{"kilo": `"kilo"`, "opencode": ""} {
		eventFile := filepath.Join(dir, agent+".json")
		bin := filepath.Join(dir, agent, "sentinel")
		os.MkdirAll(filepath.Dir(bin), 0o755)
		os.WriteFile(bin, []byte("#!/bin/sh\ncat > "+shq(eventFile)+"\nprintf '{\"decision\":\"allow\"}'\n"), 0o755)
		cmd, err := Targets[agent].HookCommand(bin, false)
		if err != nil {
			t.Fatal(err)
		}
		plugin := filepath.Join(dir, agent+".mjs")
		os.WriteFile(plugin, hostPlugin(agent, cmd, 3000), 0o644)
		out, err := exec.Command(node, driver, plugin).CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != "allowed" {
			t.Fatalf("%s: %v\n%s", agent, err, out)
		}
		var ev map[string]json.RawMessage
		if err := json.Unmarshal(mustRead(t, eventFile), &ev); err != nil || string(ev["host"]) != host || string(ev["hook_event_name"]) != `"tool.execute.before"` {
			t.Errorf("%s: the plugin's event: %s %v", agent, mustRead(t, eventFile), err)
		}
	}
}

// TestPiExtensionInNode loads Pi's extension in node with a stub of Pi's
// extension API and a fake sentinel: only an exact allow lets the call
// through; every other answer is { block: true } with the reason.
func TestPiExtensionInNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir := t.TempDir()
	eventFile := filepath.Join(dir, "event.json")
	driver := filepath.Join(dir, "driver.mjs")
	os.WriteFile(driver, []byte(`
const [extension] = process.argv.slice(2)
const mod = await import(extension)
const handlers = {}
mod.default({ on: (name, fn) => { handlers[name] = fn } })
const r = await handlers["tool_call"]({ type: "tool_call", toolName: "bash", toolCallId: "call_1", input: { command: "rm -rf ~" } }, { cwd: "/home/u/src/p" })
console.log(r === undefined ? "allowed" : r.block === true ? "blocked: " + r.reason : "unknown: " + JSON.stringify(r))
`), 0o644)
	for _, tc := range []struct {
		name, body, want string
	}{
		{"allow", `printf '{"decision":"allow"}\n'`, "allowed"},
		{"deny", `printf '{"decision":"deny","reason":"sentinel guard [rm.root]: no"}\n'; exit 2`, "blocked: sentinel guard [rm.root]: no"},
		{"missing", "", "blocked: sentinel guard failed or is missing (exit status 127)"},
		{"garbage", `echo hello`, "blocked: sentinel guard: an answer that is not an allow"},
		{"allow but a failure status", `printf '{"decision":"allow"}'; exit 3`, "blocked: sentinel guard failed or is missing (exit status 3)"},
		{"timeout", `sleep 5; printf '{"decision":"allow"}'`, "blocked: sentinel guard: no answer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin := filepath.Join(t.TempDir(), "sentinel")
			if tc.body != "" {
				fakeSentinel(t, filepath.Dir(bin), tc.body)
			}
			if tc.name == "allow" {
				os.WriteFile(bin, []byte("#!/bin/sh\ncat > "+shq(eventFile)+"\n"+tc.body+"\n"), 0o755)
			}
			cmd, err := Targets["pi"].HookCommand(bin, false)
			if err != nil {
				t.Fatal(err)
			}
			extension := filepath.Join(t.TempDir(), "sentinel-guard.mjs")
			os.WriteFile(extension, hostPlugin("pi", cmd, 1500), 0o644)
			out, err := exec.Command(node, driver, extension).CombinedOutput()
			if err != nil {
				t.Fatalf("node: %v\n%s", err, out)
			}
			got := strings.TrimSpace(string(out))
			ok := got == tc.want
			if tc.want != "allowed" {
				ok = strings.HasPrefix(got, "blocked: ") && strings.Contains(got, strings.TrimPrefix(tc.want, "blocked: "))
			}
			if !ok {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	var ev map[string]json.RawMessage
	if err := json.Unmarshal(mustRead(t, eventFile), &ev); err != nil || string(ev["hook_event_name"]) != `"tool_call"` || string(ev["tool"]) != `"bash"` ||
		string(ev["cwd"]) != `"/home/u/src/p"` || string(ev["args"]) != `{"command":"rm -rf ~"}` {
		t.Errorf("the extension's event: %s %v", mustRead(t, eventFile), err)
	}
}

// existingDir is the test's own temporary directory above path: what an
// install may write below in a test, as it would below a project.
func existingDir(path string) string {
	d := filepath.Dir(path)
	for filepath.Dir(filepath.Dir(d)) != filepath.Clean(os.TempDir()) && filepath.Dir(d) != d {
		d = filepath.Dir(d)
	}
	return d
}
