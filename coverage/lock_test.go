package coverage

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gitsentinel/sentinel/internal/atomicfile"
)

// TestUpdatesDoNotLoseEachOther runs read-modify-writes of the baseline at
// once, each adding its own acceptance and peak: every one must be in the
// result, in the work tree and the index alike. Reading before the lock,
// as sentinel once did, loses most of them.
func TestUpdatesDoNotLoseEachOther(t *testing.T) {
	dir := newRepo(t)
	common := filepath.Join(dir, ".git")
	ctx := context.Background()
	o := UpdateOptions{Root: dir, CommonDir: common, Stage: true}
	if _, err := UpdateBaseline(ctx, o, func(*Baseline) (*Baseline, error) {
		return &Baseline{Version: 1, Peaks: map[string]Peak{}}, nil
	}); err != nil {
		t.Fatal(err)
	}
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, err := UpdateBaseline(ctx, o, func(b *Baseline) (*Baseline, error) {
				out := b.clone()
				key := fmt.Sprintf("l%d", i)
				out.Peaks[key] = Peak{Tests: i + 1}
				out.Accepted = append(out.Accepted, Acceptance{At: "2026-12-01T00:00:00Z", By: "P <p@example.com>", Reason: key,
					Lowered: map[string]map[string][2]int{key: {FigureTests: {i + 2, i + 1}}}})
				return out, nil
			})
			errs <- err
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, fromIndex := range []bool{false, true} {
		b, err := readBaseline(ctx, dir, fromIndex)
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Peaks) != n || len(b.Accepted) != n {
			t.Errorf("index=%v: %d peaks and %d acceptances of %d", fromIndex, len(b.Peaks), len(b.Accepted), n)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(dir, ".sentinel"))
	for _, e := range entries {
		if atomicfile.IsTemp(e.Name()) {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

// TestUpdateRefusesLinkedBaseline: a work-tree baseline that is a link is
// neither read nor written through.
func TestUpdateRefusesLinkedBaseline(t *testing.T) {
	dir := newRepo(t)
	outside := filepath.Join(t.TempDir(), "target.json")
	orig := NewBaseline(&Counts{}).Marshal()
	os.WriteFile(outside, orig, 0o644)
	os.MkdirAll(filepath.Join(dir, ".sentinel"), 0o755)
	os.Symlink(outside, filepath.Join(dir, BaselinePath))
	_, err := UpdateBaseline(context.Background(), UpdateOptions{Root: dir, CommonDir: filepath.Join(dir, ".git")}, func(b *Baseline) (*Baseline, error) {
		return &Baseline{Version: 1, Peaks: map[string]Peak{"go": {Tests: 1}}}, nil
	})
	if err == nil || !strings.Contains(err.Error(), "symbolic link") || !strings.Contains(err.Error(), BaselinePath) {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(outside); string(b) != string(orig) {
		t.Errorf("the link's target changed: %s", b)
	}
}
