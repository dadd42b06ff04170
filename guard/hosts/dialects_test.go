package hosts

import (
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
// tool is one of Augment's own: the shape is constructed from the report
// of Auggie 0.36.0's live event, which sentinel took for Cursor's.
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
