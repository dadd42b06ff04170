package policy

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestExpectJoinsBoth: the agents doctor expects are the user's and the
// project's together; neither configuration takes one away.
func TestExpectJoinsBoth(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".sentinel"), 0o755)
	os.WriteFile(filepath.Join(root, ".sentinel", "config.toml"), []byte("[guard]\nexpect = [\"codex\", \"claude\"]\n"), 0o644)
	user := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(user, []byte("[guard]\nexpect = [\"claude\", \"cursor\"]\n"), 0o644)
	p, err := LoadPolicy(user, root)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"claude", "codex", "cursor"}; !slices.Equal(p.Expect, want) {
		t.Fatalf("Expect = %v, want %v", p.Expect, want)
	}
	os.WriteFile(user, []byte("[guard]\nexpect = [\"clade\"]\n"), 0o644)
	if _, err := LoadPolicy(user, root); err == nil {
		t.Fatal("an agent no install knows passed")
	}
}
