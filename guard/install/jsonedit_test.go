package install

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// claudeSettingsText is a project's .claude/settings.json as Claude Code's
// documentation shows them: a schema, permissions, environment, hooks
// of other events and a status line, in a layout of the person's own.
const claudeSettingsText = `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "permissions": {
    "allow": [
      "Bash(npm run lint)",
      "Bash(npm run test:*)",
      "Read(~/.zshrc)"
    ],
    "deny": [
      "Bash(curl:*)",
      "Read(./.env)",
      "Read(./secrets/**)"
    ],
    "defaultMode": "acceptEdits"
  },
  "env": {"CLAUDE_CODE_ENABLE_TELEMETRY": "1", "OTEL_METRICS_EXPORTER": "otlp"},
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "jq -r '.tool_input.command' >> ~/.claude/bash-command-log.txt"
          }
        ]
      }
    ],
    "PostToolUse": [
      {
        "matcher": "Edit|MultiEdit|Write",
        "hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/format.sh", "timeout": 30}]
      }
    ]
  },
  "statusLine": {"type": "command", "command": "~/.claude/statusline.sh"},
  "includeCoAuthoredBy": false,
  "model": "claude-sonnet-4-5"
}
`

// oneInsertion reports whether after is before with one run of bytes put
// in, and returns that run.
func oneInsertion(before, after []byte) (string, bool) {
	p := 0
	for p < len(before) && p < len(after) && before[p] == after[p] {
		p++
	}
	s := 0
	for s < len(before)-p && s < len(after)-p && before[len(before)-1-s] == after[len(after)-1-s] {
		s++
	}
	if p+s != len(before) {
		return "", false
	}
	return string(after[p : len(after)-s]), true
}

// settingsShapes are settings files laid out in different ways, each
// with hooks of the person's own.
var settingsShapes = map[string]string{
	"claude code":  claudeSettingsText,
	"tabs":         "{\n\t\"hooks\": {\n\t\t\"PreToolUse\": [\n\t\t\t{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"./lint.sh\"}]}\n\t\t]\n\t},\n\t\"model\": \"opus\"\n}\n",
	"four spaces":  "{\n    \"model\": \"opus\",\n    \"hooks\": {\n        \"Stop\": [\n            {\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]}\n        ]\n    }\n}",
	"one line":     `{"model":"opus","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./lint.sh"}]}]}}`,
	"spaced line":  `{"model": "opus", "hooks": {"PreToolUse": []}}` + "\n",
	"crlf":         "{\r\n  \"model\": \"opus\",\r\n  \"hooks\": {\r\n    \"PreToolUse\": [\r\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"./lint.sh\"}]}\r\n    ]\r\n  }\r\n}\r\n",
	"no hooks":     "{\n  \"permissions\": {\"allow\": [\"Bash(go test:*)\"]}\n}\n",
	"empty":        "{}\n",
	"empty list":   "{\n  \"hooks\": {\n    \"PreToolUse\": []\n  }\n}\n",
	"other events": "{\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]}]\n  },\n  \"model\": \"opus\"\n}\n",
}

// TestInstallEditsOnlyItsEntry installs Claude Code's guard into files
// of every layout: the file gains one run of text, sentinel's entry,
// which reads back as the settings meant; the rest is byte for byte as
// it was. Uninstall then takes exactly that run out again, without
// needing the backup.
func TestInstallEditsOnlyItsEntry(t *testing.T) {
	tg := Targets["claude"]
	cmd := tg.PathHookCommand()
	for name, before := range settingsShapes {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ".claude", "settings.json")
			os.MkdirAll(filepath.Dir(path), 0o755)
			os.WriteFile(path, []byte(before), 0o644)
			res, err := Install(tg, existingDir(path), path, cmd)
			if err != nil || !res.Changed || res.Reformatted != "" {
				t.Fatalf("install: %+v %v", res, err)
			}
			after := mustRead(t, path)
			added, ok := oneInsertion([]byte(before), after)
			if !ok {
				t.Fatalf("not one insertion:\n%s", after)
			}
			if !strings.Contains(added, "guard --agent claude") {
				t.Errorf("the insertion is not the entry: %q", added)
			}
			if strings.Contains(before, "\r\n") && strings.Count(added, "\n") != strings.Count(added, "\r\n") {
				t.Errorf("a bare newline in a CRLF file: %q", added)
			}
			if hooks, err := InstalledHooks(path); err != nil || len(hooks) != 1 || hooks[0].Command != cmd {
				t.Errorf("installed: %+v %v", hooks, err)
			}
			if res, err := Install(tg, existingDir(path), path, cmd); err != nil || res.Changed {
				t.Errorf("a second install: %+v %v", res, err)
			}
			// Without the backup, the text edit alone takes the entry out.
			os.Remove(path + BackupSuffix)
			if res, err := Uninstall(tg, existingDir(path), path); err != nil || !res.Changed || res.Reformatted != "" {
				t.Fatalf("uninstall: %+v %v", res, err)
			}
			got := mustRead(t, path)
			if name == "empty list" || name == "spaced line" {
				// The empty list the guard went into goes with it, as the
				// lists sentinel's entries alone filled always have.
				if bytes.Contains(got, []byte("PreToolUse")) {
					t.Errorf("the emptied list stayed:\n%s", got)
				}
				return
			}
			if string(got) != before {
				t.Errorf("uninstall left\n%s\nwant\n%s", got, before)
			}
		})
	}
}

// TestUninstallKeepsLaterEdits: what the person changed after the install
// stays as they wrote it, and so does the backup, which no longer holds
// what the file does.
func TestUninstallKeepsLaterEdits(t *testing.T) {
	tg := Targets["claude"]
	path := filepath.Join(t.TempDir(), ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(claudeSettingsText), 0o644)
	if _, err := Install(tg, existingDir(path), path, tg.PathHookCommand()); err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(mustRead(t, path), []byte(`"Read(~/.zshrc)"`), []byte(`"Read(~/.zshrc)",`+"\n      \"WebFetch(domain:go.dev)\""), 1)
	os.WriteFile(path, edited, 0o644)
	res, err := Uninstall(tg, existingDir(path), path)
	if err != nil || !res.Changed || res.Restored || res.KeptBackup != path+BackupSuffix {
		t.Fatalf("uninstall: %+v %v", res, err)
	}
	want := strings.Replace(claudeSettingsText, `"Read(~/.zshrc)"`, `"Read(~/.zshrc)",`+"\n      \"WebFetch(domain:go.dev)\"", 1)
	if got := mustRead(t, path); string(got) != want {
		t.Errorf("uninstall left\n%s\nwant\n%s", got, want)
	}
	if b, err := os.ReadFile(path + BackupSuffix); err != nil || string(b) != claudeSettingsText {
		t.Errorf("the backup: %v", err)
	}
}

// TestUninstallRestoresFromBackup: a file that holds again what it held
// before the install is put back from the backup, byte for byte, even
// where the text edit alone could not (the list the guard filled was
// there, empty), and the backup goes.
func TestUninstallRestoresFromBackup(t *testing.T) {
	tg := Targets["claude"]
	before := settingsShapes["empty list"]
	path := filepath.Join(t.TempDir(), ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(before), 0o644)
	if res, err := Install(tg, existingDir(path), path, tg.PathHookCommand()); err != nil || res.Backup == "" {
		t.Fatalf("install: %+v %v", res, err)
	}
	// The list stays, emptied, only if the person empties it.
	res, err := Uninstall(tg, existingDir(path), path)
	if err != nil || !res.Changed || res.Restored || res.KeptBackup == "" {
		t.Fatalf("uninstall: %+v %v", res, err)
	}
	os.WriteFile(path, []byte(before), 0o644)
	os.Remove(path + BackupSuffix)

	// The whole file: installed, then uninstalled with nothing changed.
	for _, shape := range []string{"claude code", "one line", "crlf"} {
		os.WriteFile(path, []byte(settingsShapes[shape]), 0o644)
		if _, err := Install(tg, existingDir(path), path, tg.PathHookCommand()); err != nil {
			t.Fatal(err)
		}
		res, err := Uninstall(tg, existingDir(path), path)
		if err != nil || !res.Restored || res.KeptBackup != "" {
			t.Errorf("%s: uninstall: %+v %v", shape, res, err)
		}
		if got := mustRead(t, path); string(got) != settingsShapes[shape] {
			t.Errorf("%s: left\n%s", shape, got)
		}
		if _, err := os.Stat(path + BackupSuffix); !os.IsNotExist(err) {
			t.Errorf("%s: the backup stayed: %v", shape, err)
		}
	}
}

// TestInstallRewritesWhatItCannotEdit: an object that holds a key twice
// cannot be edited in place (which one the host reads is the host's to
// say), so the file is rewritten whole, and the install says why.
func TestInstallRewritesWhatItCannotEdit(t *testing.T) {
	tg := Targets["claude"]
	path := filepath.Join(t.TempDir(), ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(`{"hooks": {}, "model": "a", "hooks": {"Stop": []}}`), 0o644)
	res, err := Install(tg, existingDir(path), path, tg.PathHookCommand())
	if err != nil || !res.Changed || !strings.Contains(res.Reformatted, `the key "hooks" is there twice`) {
		t.Fatalf("install: %+v %v", res, err)
	}
	m := readJSON(t, path)
	if dig(m, "model") != "a" || dig(m, "hooks", "Stop") == nil || dig(m, "hooks", "PreToolUse", 0, "hooks", 0, "command") != tg.PathHookCommand() {
		t.Errorf("rewritten: %v", m)
	}
}

// TestEditEveryForm: the hosts whose files are not Claude Code's shape
// (Cursor's three events and version, Kiro's list, Amp's rules first)
// gain only their entries too, and lose exactly them.
func TestEditEveryForm(t *testing.T) {
	for _, tc := range []struct{ agent, before string }{
		{"cursor", "{\n  \"version\": 1,\n  \"hooks\": {\n    \"afterFileEdit\": [{\"command\": \"./fmt.sh\"}]\n  }\n}\n"},
		{"cursor", "{\n  \"hooks\": {}\n}\n"},
		{"copilot", "{\n    \"version\": 1,\n    \"hooks\": {\n        \"sessionStart\": [{\"type\": \"command\", \"bash\": \"echo hi\"}]\n    }\n}\n"},
		{"kiro", "{\n  \"version\": \"v1\",\n  \"hooks\": [\n    {\"name\": \"lint\", \"trigger\": \"PostToolUse\", \"action\": {\"type\": \"command\", \"command\": \"./lint.sh\"}}\n  ]\n}\n"},
		{"amp", "{\n  \"amp.notifications.enabled\": false,\n  \"amp.permissions\": [\n    {\"tool\": \"Bash\", \"action\": \"allow\"}\n  ]\n}\n"},
		{"factory", "{\n  \"model\": \"x\"\n}\n"},
	} {
		t.Run(tc.agent, func(t *testing.T) {
			tg := Targets[tc.agent]
			path := filepath.Join(t.TempDir(), filepath.FromSlash(tg.Project))
			os.MkdirAll(filepath.Dir(path), 0o755)
			os.WriteFile(path, []byte(tc.before), 0o644)
			res, err := Install(tg, existingDir(path), path, tg.PathHookCommand())
			if err != nil || !res.Changed || res.Reformatted != "" {
				t.Fatalf("install: %+v %v", res, err)
			}
			after := mustRead(t, path)
			if tc.agent != "cursor" {
				if _, ok := oneInsertion([]byte(tc.before), after); !ok {
					t.Errorf("not one insertion:\n%s", after)
				}
			}
			var v any
			if err := json.Unmarshal(after, &v); err != nil {
				t.Fatalf("%v\n%s", err, after)
			}
			if hooks, err := InstalledHooks(path); err != nil || len(hooks) == 0 {
				t.Errorf("installed: %v %v", hooks, err)
			}
			os.Remove(path + BackupSuffix)
			if res, err := Uninstall(tg, existingDir(path), path); err != nil || !res.Changed || res.Reformatted != "" {
				t.Fatalf("uninstall: %+v %v", res, err)
			}
			got := mustRead(t, path)
			want := tc.before
			if tc.agent == "cursor" && !strings.Contains(tc.before, "version") {
				// Cursor's version stays, since the file needs it; the
				// hooks object the entries filled goes with them.
				want = "{\n  \"version\": 1\n}\n"
			}
			if string(got) != want {
				t.Errorf("uninstall left\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func TestSpaceCompact(t *testing.T) {
	in := `{"a":"x:y, z","b":[1,2],"c":"q\"u:o,te"}`
	want := `{"a": "x:y, z", "b": [1, 2], "c": "q\"u:o,te"}`
	if got := spaceCompact(in); got != want {
		t.Errorf("%s, want %s", got, want)
	}
}
