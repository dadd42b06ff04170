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
