package install

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRecord: guard install's record keeps each file once, forgets what
// uninstall takes out, and reads back what it wrote; a record that is not
// sentinel's is an error that says what to do.
func TestRecord(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "state", "sentinel")
	if rs, err := Remembered(state); err != nil || rs != nil {
		t.Fatalf("no record: %v, %v", rs, err)
	}
	home := t.TempDir()
	a := filepath.Join(home, ".claude", "settings.json")
	b := filepath.Join(home, ".codex", "hooks.json")
	for _, r := range []Recorded{{"claude", a}, {"codex", b}, {"claude", a}} {
		if err := Remember(ctx, state, r.Agent, r.Path); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := Remembered(state)
	want := []Recorded{{"claude", RecordPath(a)}, {"codex", RecordPath(b)}}
	if err != nil || !slices.Equal(rs, want) {
		t.Fatalf("record %v, %v; want %v", rs, err, want)
	}
	if err := Forget(ctx, state, "claude", a); err != nil {
		t.Fatal(err)
	}
	if rs, _ := Remembered(state); !slices.Equal(rs, want[1:]) {
		t.Fatalf("after forgetting claude: %v", rs)
	}
	if st, err := os.Stat(filepath.Join(state, RecordFile)); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("record file: %v, %v", st, err)
	}
	os.WriteFile(filepath.Join(state, RecordFile), []byte(`{"version": 1, "installs": [], "other": 1}`), 0o600)
	if _, err := Remembered(state); err == nil || !strings.Contains(err.Error(), "remove it, then run sentinel guard install again") {
		t.Fatalf("a foreign record: %v", err)
	}
}
