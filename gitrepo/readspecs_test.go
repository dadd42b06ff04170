package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/internal/gittest"
)

// TestReadSpecsMax: an object over the bound is skipped, like one that is
// not there, and the objects after it still read.
func TestReadSpecsMax(t *testing.T) {
	gittest.Isolate(t)
	dir := t.TempDir()
	gitT(t, dir, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(dir, "big"), []byte(strings.Repeat("x", 100)), 0o644)
	os.WriteFile(filepath.Join(dir, "small"), []byte("ok"), 0o644)
	gitT(t, dir, "add", "big", "small")
	gitT(t, dir, "commit", "-q", "-m", "two files")
	got, err := ReadSpecsMax(context.Background(), dir, []string{"HEAD:big", "HEAD:small", "HEAD:none"}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if got["HEAD:big"] != nil || string(got["HEAD:small"]) != "ok" || got["HEAD:none"] != nil || len(got) != 3 {
		t.Fatalf("read %q", got)
	}
	all, err := ReadSpecs(context.Background(), dir, []string{"HEAD:big"})
	if err != nil || len(all["HEAD:big"]) != 100 {
		t.Fatalf("without a bound: %d bytes, %v", len(all["HEAD:big"]), err)
	}
}
