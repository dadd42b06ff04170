package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"

	"github.com/gitsentinel/sentinel/internal/atomicfile"
)

// The settings forms beyond a JSON "hooks" object: hook scripts (Cline's
// hook file, Augment's and Amp's programs), Kiro's hook files, Amp's
// permission rules and OpenCode's plugin.

// scriptName is the name of the script sentinel writes beside a host's
// settings when the host runs a program rather than a command line.
const scriptName = "sentinel-guard.sh"

// maxHookFile bounds what is read of a hook script or plugin.
const maxHookFile = 1 << 20

// hookScript is an executable that runs the hook command with the host's
// stdin: the command fails closed by itself, in the host's terms.
func hookScript(t *Target, command string) []byte {
	return []byte("#!/bin/sh\n" +
		"# sentinel guard for " + t.Agent + ", written by sentinel guard install --agent " + t.Agent + ".\n" +
		"# It runs the guard with the event on stdin and refuses the call when the\n" +
		"# guard is missing or fails. sentinel guard uninstall removes it.\n" +
		command + "\n")
}

// readHookFile reads a hook script or plugin, links followed to a regular
// file only, opened without blocking (a committed link to a FIFO must not
// stall doctor or install) and bounded by maxHookFile.
func readHookFile(path string) ([]byte, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	return atomicfile.ReadFile(real, maxHookFile)
}

// fileHooks returns the binaries a hook script or plugin runs, and whether
// it runs sentinel's guard at all.
func fileHooks(path string, content []byte) (command string, bins []string, ok bool) {
	if isPlugin(path) {
		cmd, ok := pluginCommand(content)
		if !ok {
			return "", nil, false
		}
		bins, ok = guardCommand(cmd)
		return cmd, bins, ok
	}
	bins, ok = guardCommand(string(content))
	return path, bins, ok
}

// isPlugin reports a JavaScript or TypeScript plugin file.
func isPlugin(path string) bool {
	switch filepath.Ext(path) {
	case ".js", ".mjs", ".ts":
		return true
	}
	return false
}

// installFile writes a file sentinel owns whole (a hook script, a plugin),
// unless a file that is not sentinel's is there: the host runs one file by
// that name, and the person's own is not replaced behind their back.
func installFile(b below, path string, content []byte, mode os.FileMode) (*InstallResult, error) {
	res := &InstallResult{Path: path}
	old, err := b.read(path)
	switch {
	case err == nil:
		if _, _, ours := fileHooks(path, old); !ours {
			return nil, fmt.Errorf("%s is there and does not run sentinel's guard; the agent runs one file by that name, so move it away, then run the install again", path)
		}
		if st, err := os.Stat(path); err == nil && bytes.Equal(old, content) && st.Mode().Perm() == mode {
			return res, nil
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	// The mode is set whatever the old file's was: a hook file that is not
	// executable is skipped without a word by Cline. (The Cline CLI 3 runs
	// it through its #! line's interpreter whatever its mode, but skips a
	// link, which b.read refuses here.)
	if err := b.write(path, content, mode, true); err != nil {
		return nil, err
	}
	res.Changed = true
	return res, nil
}

// removeFile removes a hook script or plugin that runs sentinel's guard;
// anything else is left.
func removeFile(b below, path string) (*InstallResult, error) {
	res := &InstallResult{Path: path}
	old, err := b.read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return res, nil
	}
	if err != nil {
		return nil, err
	}
	if _, _, ours := fileHooks(path, old); !ours {
		return res, nil
	}
	if err := b.remove(path); err != nil {
		return nil, err
	}
	res.Changed = true
	return res, nil
}

// writeManifest writes a file the host needs beside the hooks, once.
func writeManifest(b below, path, text string) error {
	if there, err := b.exists(path); there || err != nil {
		return err
	}
	return b.write(path, []byte(text), 0o644, false)
}

// onlyHooksLeft reports a settings file that holds nothing once
// sentinel's entries are gone.
func onlyHooksLeft(b below, path string) bool {
	m, _, err := readSettings(b, path)
	return err == nil && len(m) == 0
}

// scriptEntry reports a hook entry whose command is the path of the script
// sentinel writes, and the binaries that script runs: the path itself
// when it is gone, so that doctor names it.
func scriptEntry(cmd string) ([]string, bool) {
	if !filepath.IsAbs(cmd) || filepath.Base(cmd) != scriptName {
		return nil, false
	}
	content, err := readHookFile(cmd)
	if err != nil {
		return []string{cmd}, true
	}
	if bins, ok := guardCommand(string(content)); ok {
		return bins, true
	}
	return []string{cmd}, true
}

// --- Kiro ---

// kiroHook is sentinel's entry in a Kiro hook file: every tool, since the
// guard lets alone the tools it does not read.
func kiroHook(command string) map[string]any {
	return map[string]any{
		"name":    "sentinel-guard",
		"trigger": "PreToolUse",
		"action":  map[string]any{"type": "command", "command": command},
		"timeout": HookTimeoutSeconds,
		"enabled": true,
	}
}

// kiroList returns a Kiro hook file's list, refusing one that is not a list.
func kiroList(path string, m map[string]any) ([]any, error) {
	list, _ := m["hooks"].([]any)
	if m["hooks"] != nil && list == nil {
		return nil, &SettingsError{path, 1, 1, `"hooks" is not a list`}
	}
	return list, nil
}

// withoutOursKiro drops sentinel's hooks from a Kiro hook list.
func withoutOursKiro(list []any) []any {
	var kept []any
	for _, h := range list {
		if hm, ok := h.(map[string]any); ok && isOurs(hm["action"]) {
			continue
		}
		kept = append(kept, h)
	}
	return kept
}

func installKiro(b below, o *options, path, command string) (*InstallResult, error) {
	m, orig, err := readSettings(b, path)
	if err != nil {
		return nil, err
	}
	keep := orig != nil && len(guardHooks(m)) == 0
	list, err := kiroList(path, m)
	if err != nil {
		return nil, err
	}
	if _, ok := m["version"]; !ok {
		m["version"] = "v1"
	}
	m["hooks"] = append(withoutOursKiro(list), kiroHook(command))
	edit := func(d *textDoc) error { return editInstallKiro(d, command) }
	return writeSettings(b, o, path, orig, m, edit, keep, false)
}

func uninstallKiro(b below, o *options, path string) (*InstallResult, error) {
	m, orig, err := readSettings(b, path)
	if err != nil {
		return nil, err
	}
	if orig == nil || len(guardHooks(m)) == 0 {
		return &InstallResult{Path: path}, nil
	}
	list, err := kiroList(path, m)
	if err != nil {
		return nil, err
	}
	kept := withoutOursKiro(list)
	if len(kept) == 0 && len(m) <= 2 {
		// Only the version and sentinel's hook were there: the file goes.
		if err := b.remove(path); err != nil {
			return nil, err
		}
		return &InstallResult{Path: path, Changed: true}, nil
	}
	m["hooks"] = kept
	if kept == nil {
		m["hooks"] = []any{}
	}
	return writeSettings(b, o, path, orig, m, editUninstallKiro, false, true)
}

// --- Amp ---

// ampTools are the tools whose calls Amp delegates to sentinel: the ones
// the guard reads. Every other tool keeps Amp's own rules. Amp applies the
// rule for Bash to its other shell tools (shell_command,
// async_shell_command) itself; apply_patch is how its current modes write.
var ampTools = []string{"Bash", "create_file", "edit_file", "undo_edit", "apply_patch", "Read", "Grep"}

// ampKey is the settings key of Amp's permission rules.
const ampKey = "amp.permissions"

// ampOurs reports a permission rule that delegates to sentinel's script.
func ampOurs(rule any) (string, []string, bool) {
	m, ok := rule.(map[string]any)
	if !ok || m["action"] != "delegate" {
		return "", nil, false
	}
	to, _ := m["to"].(string)
	if bins, ok := scriptEntry(to); ok {
		return to, bins, true
	}
	return "", nil, false
}

// ampRules returns Amp's permission rules, refusing a key that is not a list.
func ampRules(path string, m map[string]any) ([]any, error) {
	list, _ := m[ampKey].([]any)
	if m[ampKey] != nil && list == nil {
		return nil, &SettingsError{path, 1, 1, fmt.Sprintf("%q is not a list", ampKey)}
	}
	return list, nil
}

func withoutOursAmp(list []any) []any {
	var kept []any
	for _, r := range list {
		if _, _, ours := ampOurs(r); !ours {
			kept = append(kept, r)
		}
	}
	return kept
}

// installAmp puts sentinel's delegate rules first: Amp applies the first
// rule that matches a call, so one placed after a person's "allow Bash"
// would never run.
func installAmp(b below, o *options, path, program string) (*InstallResult, error) {
	m, orig, err := readSettings(b, path)
	if err != nil {
		return nil, err
	}
	keep := orig != nil && len(guardHooks(m)) == 0
	list, err := ampRules(path, m)
	if err != nil {
		return nil, err
	}
	var rules []any
	for _, tool := range ampTools {
		rules = append(rules, map[string]any{"tool": tool, "action": "delegate", "to": program})
	}
	m[ampKey] = append(rules, withoutOursAmp(list)...)
	edit := func(d *textDoc) error { return editInstallAmp(d, rules) }
	return writeSettings(b, o, path, orig, m, edit, keep, false)
}

func uninstallAmp(b below, o *options, path string) (*InstallResult, error) {
	m, orig, err := readSettings(b, path)
	if err != nil {
		return nil, err
	}
	if orig == nil || len(guardHooks(m)) == 0 {
		return &InstallResult{Path: path}, nil
	}
	list, err := ampRules(path, m)
	if err != nil {
		return nil, err
	}
	if kept := withoutOursAmp(list); len(kept) > 0 {
		m[ampKey] = kept
	} else {
		delete(m, ampKey)
	}
	return writeSettings(b, o, path, orig, m, editUninstallAmp, false, true)
}

// --- OpenCode ---

// pluginHook finds the hook command in a plugin sentinel wrote.
var pluginHook = regexp.MustCompile(`(?m)^const HOOK = ("(?:[^"\\\n]|\\.)*")$`)

// pluginCommand returns the hook command a plugin sentinel wrote runs.
func pluginCommand(content []byte) (string, bool) {
	m := pluginHook.FindSubmatch(content)
	if m == nil {
		return "", false
	}
	var cmd string
	if json.Unmarshal(m[1], &cmd) != nil {
		return "", false
	}
	return cmd, true
}

// pluginHosts name the hosts of the JavaScript plugin, by agent, in the
// plugin's own comment.
var pluginHosts = map[string]string{"opencode": "OpenCode", "kilo": "Kilo Code", "pi": "Pi"}

// opencodePlugin is the OpenCode plugin that runs the hook command before
// every tool call, synchronously, and throws (which blocks the call)
// unless the guard answers allow: a refusal, a missing or failing binary,
// an exit status other than 0, a timeout and an answer that is not
// exactly an allow all block.
func opencodePlugin(command string, timeoutMs int) []byte {
	return hostPlugin("opencode", command, timeoutMs)
}

// hostPlugin is opencodePlugin for the agent's host: OpenCode's, or that
// of a fork that loads OpenCode's plugins from directories of its own
// (Kilo Code). A fork's event names it in "host", so that the guard tells
// it from OpenCode's without --agent; OpenCode's stays as it was written.
func hostPlugin(agent, command string, timeoutMs int) []byte {
	if agent == "pi" {
		return piExtension(command, timeoutMs)
	}
	hook, _ := json.Marshal(command)
	host := ""
	if agent != "opencode" {
		host = `          host: "` + agent + `",
`
	}
	return []byte(`// sentinel guard for ` + pluginHosts[agent] + `, written by sentinel guard install --agent ` + agent + `.
// Before every tool call it runs the guard with the call on stdin, and
// throws, which blocks the call, unless the guard answers allow. A
// refusal, a missing or failing binary, a timeout and an answer it cannot
// read all block. sentinel guard uninstall --agent ` + agent + ` removes it.
import { spawnSync } from "node:child_process"

const HOOK = ` + string(hook) + `
const TIMEOUT_MS = ` + fmt.Sprint(timeoutMs) + `

export const SentinelGuard = async (ctx) => {
  const directory = ctx && typeof ctx.directory === "string" ? ctx.directory : process.cwd()
  return {
    "tool.execute.before": async (input, output) => {
      let event
      try {
        event = JSON.stringify({
          hook_event_name: "tool.execute.before",
` + host + `          tool: input && input.tool,
          session_id: input && input.sessionID,
          call_id: input && input.callID,
          cwd: directory,
          args: output && output.args,
        })
      } catch (err) {
        throw new Error("sentinel guard: the call cannot be written out for the guard (" + err + "); it is refused")
      }
      const run = spawnSync("/bin/sh", ["-c", HOOK], {
        input: event,
        encoding: "utf8",
        timeout: TIMEOUT_MS,
        killSignal: "SIGKILL",
        maxBuffer: 1 << 20,
      })
      if (run.error) {
        throw new Error("sentinel guard: no answer (" + run.error.message + "); the call is refused")
      }
      let answer = null
      try {
        answer = JSON.parse(run.stdout)
      } catch {}
      if (run.status === 0 && answer !== null && typeof answer === "object" && answer.decision === "allow") {
        return
      }
      if (answer !== null && typeof answer === "object" && typeof answer.reason === "string" && answer.reason !== "") {
        throw new Error(answer.reason)
      }
      const said = String(run.stderr || "").trim()
      throw new Error(said !== "" ? said : "sentinel guard: an answer that is not an allow (exit status " + run.status + "); the call is refused")
    },
  }
}
`)
}

// piHook is how Pi's extension subscribes to the calls, which tells it
// from OpenCode's plugin.
const piHook = `pi.on("tool_call", `

// piExtension is Pi's extension that runs the hook command before every
// tool call, as opencodePlugin does, in Pi's terms: its tool_call handler
// returns { block: true, reason } unless the guard answers allow, and a
// handler that throws blocks the call as well.
func piExtension(command string, timeoutMs int) []byte {
	hook, _ := json.Marshal(command)
	return []byte(`// sentinel guard for Pi, written by sentinel guard install --agent pi.
// Before every tool call it runs the guard with the call on stdin, and
// blocks the call unless the guard answers allow. A refusal, a missing or
// failing binary, a timeout and an answer it cannot read all block.
// sentinel guard uninstall --agent pi removes it.
import { spawnSync } from "node:child_process"

const HOOK = ` + string(hook) + `
const TIMEOUT_MS = ` + fmt.Sprint(timeoutMs) + `

export default function (pi) {
  ` + piHook + `async (event, ctx) => {
    let input
    try {
      input = JSON.stringify({
        hook_event_name: "tool_call",
        tool: event && event.toolName,
        tool_call_id: event && event.toolCallId,
        cwd: ctx && typeof ctx.cwd === "string" ? ctx.cwd : process.cwd(),
        args: event && event.input,
      })
    } catch (err) {
      return { block: true, reason: "sentinel guard: the call cannot be written out for the guard (" + err + "); it is refused" }
    }
    const run = spawnSync("/bin/sh", ["-c", HOOK], {
      input,
      encoding: "utf8",
      timeout: TIMEOUT_MS,
      killSignal: "SIGKILL",
      maxBuffer: 1 << 20,
    })
    if (run.error) {
      return { block: true, reason: "sentinel guard: no answer (" + run.error.message + "); the call is refused" }
    }
    let answer = null
    try {
      answer = JSON.parse(run.stdout)
    } catch {}
    if (run.status === 0 && answer !== null && typeof answer === "object" && answer.decision === "allow") {
      return undefined
    }
    if (answer !== null && typeof answer === "object" && typeof answer.reason === "string" && answer.reason !== "") {
      return { block: true, reason: answer.reason }
    }
    const said = String(run.stderr || "").trim()
    return { block: true, reason: said !== "" ? said : "sentinel guard: an answer that is not an allow (exit status " + run.status + "); the call is refused" }
  })
}
`)
}
