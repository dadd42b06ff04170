package githooks

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/internal/gittest"
)

// TestInitRefusesUnreadableBaseline: init keeps a baseline that reads, and
// stops at one that does not, with the parse error, before it installs
// hooks that would each fail on it; the file is left as it was.
func TestInitRefusesUnreadableBaseline(t *testing.T) {
	gittest.Isolate(t)
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	path := filepath.Join(dir, filepath.FromSlash(coverage.BaselinePath))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	cut := "{\n  \"accepted\": [],\n  \"peaks\": {\n    \"go\": {\n      \"assertions\": 3,\n"
	if err := os.WriteFile(path, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := InitOptions{Install: InstallOptions{Dir: dir, Bin: "/usr/local/bin/sentinel"}}
	res, err := Init(context.Background(), opts)
	var be *coverage.BaselineError
	if !errors.As(err, &be) || be.Line != 5 || be.Col != 23 || !strings.HasSuffix(err.Error(), "run `git checkout HEAD -- .sentinel/baseline.json`") {
		t.Fatalf("init on a cut baseline: %v", err)
	}
	if res != nil && len(res.Hooks) > 0 {
		t.Errorf("hooks installed over an unreadable baseline: %+v", res.Hooks)
	}
	if data, _ := os.ReadFile(path); string(data) != cut {
		t.Errorf("the baseline was changed:\n%s", data)
	}

	good := (&coverage.Baseline{Version: coverage.BaselineVersion}).Marshal()
	if err := os.WriteFile(path, good, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err = Init(context.Background(), opts)
	if err != nil || !strings.Contains(strings.Join(res.Done, "\n"), "kept "+coverage.BaselinePath) {
		t.Fatalf("init on a good baseline: %v %+v", err, res)
	}
}
