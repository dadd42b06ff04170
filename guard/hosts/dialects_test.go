package hosts

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDialectsRefuseOthersEvents feeds every recorded event to every
// other dialect: a dialect reads another host's event only where it
// shares that host's shape (a Claude-shaped envelope), never by reading
// the wrong keys.
func TestDialectsRefuseOthersEvents(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "fixtures", "guard", "events", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatal(err)
	}
	for _, f := range files {
		host := strings.SplitN(filepath.Base(f), "-", 2)[0]
		input, _ := os.ReadFile(f)
		o, _ := parseObject(input)
		sig := signature(o)
		for _, name := range DialectNames() {
			if name == host || name == "amp" {
				continue // Amp's stdin is the model's own arguments
			}
			_, err := Dialects[name].Parse(input)
			shared := len(sig) == 1 && reads(name, sig)
			if err == nil && !shared {
				t.Errorf("%s read %s's event %s", name, host, filepath.Base(f))
			}
		}
	}
}

// An Auggie event with ids named like Cursor's is still Augment's when the
// tool is one of Augment's own.
func TestAugmentWithCursorLikeIDs(t *testing.T) {
	ev := []byte(`{"hook_event_name":"PreToolUse","conversation_id":"c1","workspace_roots":["/home/u/src/p"],"tool_name":"launch-process","tool_input":{"command":"git commit --no-verify -m x","cwd":"/home/u/src/p"}}`)
	if d := Detect(ev); d.Name() != "augment" {
		t.Fatalf("recognised as %s", d.Name())
	}
	c, err := Dialects["augment"].Parse(ev)
	if err != nil {
		t.Fatal(err)
	}
	if c.Kind != "bash" || c.Command != "git commit --no-verify -m x" {
		t.Fatalf("call %+v", c)
	}
}

// A Droid event for a tool Claude Code has too (Read) is Droid's by its
// envelope: Droid's own permission modes, or a transcript under
// ~/.factory/sessions (Droid 0.225.2's live events); Claude Code's stays
// Claude Code's.
func TestFactorySharedToolNames(t *testing.T) {
	for ev, want := range map[string]string{
		`{"session_id":"s","transcript_path":"/home/u/.factory/sessions/-home-u-src-p/s.jsonl","cwd":"/home/u/src/p","permission_mode":"auto-low","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/home/u/src/p/.env"}}`: "factory",
		`{"session_id":"s","transcript_path":"","cwd":"/home/u/src/p","permission_mode":"off","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"/home/u/src/p/a","old_str":"a","new_str":"b"}}`:                            "factory",
		`{"session_id":"s","transcript_path":"/home/u/.factory/sessions/x/s.jsonl","cwd":"/home/u/src/p","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Grep","tool_input":{"pattern":"x"}}`:                                 "factory",
		`{"session_id":"s","transcript_path":"/home/u/.claude/projects/-home-u-src-p/s.jsonl","cwd":"/home/u/src/p","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/home/u/src/p/.env"}}`:   "claude",
	} {
		if d := Detect([]byte(ev)); d.Name() != want {
			t.Errorf("%s: recognised as %s, want %s", ev, d.Name(), want)
		}
		if _, err := Dialects[want].Parse([]byte(ev)); err != nil {
			t.Errorf("%s: %v", ev, err)
		}
	}
}

// augmentEvent is an event in the shape Auggie 0.36.0 sends (recorded in
// fixtures/guard/events/live): indented, with no cwd, and tool_output
// as the text "[undefined]".
func augmentEvent(tool, input string, mcp bool) []byte {
	return []byte(`{
  "hook_event_name": "PreToolUse",
  "conversation_id": "0528ca1b-e5e2-4dc3-acc4-d5495022a80b",
  "workspace_roots": [
    "/home/u/src/p"
  ],
  "tool_name": "` + tool + `",
  "tool_input": ` + input + `,
  "tool_output": "[undefined]",
  "tool_error": null,
  "is_mcp_tool": ` + map[bool]string{true: "true", false: "false"}[mcp] + `
}`)
}

// TestAugmentRecordedShape reads every tool Auggie 0.36.0 offers in its
// own envelope: recognised as Augment's whatever the tool (its apply_patch
// is not Codex's, its task tools not Cursor's), the cwd its first
// workspace root, and the tools that act read as calls the guard checks.
func TestAugmentRecordedShape(t *testing.T) {
	for _, tc := range []struct {
		tool, input string
		mcp         bool
		want        Call
	}{
		{"launch-process", `{"command":"git commit --no-verify -m live","wait":true,"max_wait_seconds":30,"cwd":"."}`, false,
			Call{Kind: "bash", Command: "git commit --no-verify -m live", Cwd: "/home/u/src/p"}},
		{"launch-process", `{"command":"make","wait":true,"cwd":"sub/dir"}`, false,
			Call{Kind: "bash", Command: "make", Cwd: "/home/u/src/p/sub/dir"}},
		{"launch-process", `{"command":"make","wait":true,"cwd":"/tmp"}`, false, Call{Kind: "bash", Command: "make", Cwd: "/tmp"}},
		{"launch-process", `{"command":"make","wait":false}`, false, Call{Kind: "bash", Command: "make", Cwd: "/home/u/src/p"}},
		{"write-process", `{"terminal_id":3,"input_text":"git push --no-verify\n"}`, false,
			Call{Kind: "bash", Command: "git push --no-verify\n", Cwd: "/home/u/src/p"}},
		{"save-file", `{"path":".git/hooks/pre-commit","file_content":"exit 0\n"}`, false,
			Call{Kind: "write", Writes: []string{".git/hooks/pre-commit"}, Cwd: "/home/u/src/p"}},
		{"str-replace-editor", `{"command":"str_replace","path":"main.go","old_str":"a","new_str":"b"}`, false,
			Call{Kind: "edit", Writes: []string{"main.go"}, Cwd: "/home/u/src/p"}},
		{"apply_patch", `{"input":"*** Begin Patch\n*** Add File: .git/hooks/pre-commit\n+exit 0\n*** End Patch\n"}`, false,
			Call{Kind: "edit", Writes: []string{".git/hooks/pre-commit"}, Cwd: "/home/u/src/p"}},
		{"remove-files", `{"file_paths":[".git/hooks/pre-push"]}`, false,
			Call{Kind: "edit", Writes: []string{".git/hooks/pre-push"}, Cwd: "/home/u/src/p"}},
		{"view", `{"path":".env","type":"file"}`, false, Call{Kind: "read", Reads: []string{".env"}, Cwd: "/home/u/src/p"}},
		{"view_tasklist", `{}`, false, Call{Cwd: "/home/u/src/p"}},
		{"view-range-untruncated", `{"reference_id":"r1","start_line":1,"end_line":9}`, false, Call{Cwd: "/home/u/src/p"}},
		{"read_issue", `{"id":7}`, true, Call{Cwd: "/home/u/src/p"}},
	} {
		ev := augmentEvent(tc.tool, tc.input, tc.mcp)
		if d := Detect(ev); d.Name() != "augment" {
			t.Errorf("%s: recognised as %s", tc.tool, d.Name())
			continue
		}
		c, err := Dialects["augment"].Parse(ev)
		if err != nil {
			t.Errorf("%s: %v", tc.tool, err)
			continue
		}
		tc.want.Tool = tc.tool
		if fmt.Sprintf("%+v", *c) != fmt.Sprintf("%+v", tc.want) {
			t.Errorf("%s: read as %+v, want %+v", tc.tool, *c, tc.want)
		}
	}
	// The envelope's members are of their types, or the event is refused.
	for _, bad := range []string{
		strings.Replace(string(augmentEvent("view", `{"path":"a"}`, false)), `"is_mcp_tool": false`, `"is_mcp_tool": "no"`, 1),
		strings.Replace(string(augmentEvent("view", `{"path":"a"}`, false)), `"conversation_id": "0528ca1b-e5e2-4dc3-acc4-d5495022a80b"`, `"conversation_id": 7`, 1),
		strings.Replace(string(augmentEvent("view", `{"path":"a"}`, false)), `[
    "/home/u/src/p"
  ]`, `"/home/u/src/p"`, 1),
		strings.Replace(string(augmentEvent("view", `{"path":"a"}`, false)), `"PreToolUse"`, `"PostToolUse"`, 1),
	} {
		if c, err := Dialects["augment"].Parse([]byte(bad)); err == nil {
			t.Errorf("read %s as %+v", bad, c)
		}
	}
	// Cursor's own ids keep a Cursor event Cursor's.
	cursor := []byte(`{"conversation_id":"c1","generation_id":"g1","hook_event_name":"beforeShellExecution","command":"ls","cwd":"/p","workspace_roots":["/p"]}`)
	if d := Detect(cursor); d.Name() != "cursor" {
		t.Errorf("a Cursor event recognised as %s", d.Name())
	}
}
