package coverage

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/gitsentinel/sentinel/languages"
)

// TestOddCacheIsAMiss: whatever sits where the cache should be, the count
// is the same as without a cache, promptly, and nothing is read past a
// bound.
func TestOddCacheIsAMiss(t *testing.T) {
	name := fmt.Sprintf("counts-v%d.bin", languages.Version)
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, common string)
	}{
		{"link to /dev/zero", func(t *testing.T, common string) {
			os.MkdirAll(filepath.Join(common, "sentinel"), 0o755)
			os.Symlink("/dev/zero", filepath.Join(common, "sentinel", name))
		}},
		{"directory", func(t *testing.T, common string) {
			os.MkdirAll(filepath.Join(common, "sentinel", name), 0o755)
		}},
		{"sentinel dir is a file", func(t *testing.T, common string) {
			os.WriteFile(filepath.Join(common, "sentinel"), []byte("x"), 0o644)
		}},
		{"garbage", func(t *testing.T, common string) {
			os.MkdirAll(filepath.Join(common, "sentinel"), 0o755)
			os.WriteFile(filepath.Join(common, "sentinel", name), []byte("\x00\x01garbage"), 0o644)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := newRepo(t)
			common := filepath.Join(dir, ".git")
			want := count(t, Options{Dir: dir, Mode: WorkTree}).Total()
			os.RemoveAll(filepath.Join(common, "sentinel"))
			tc.setup(t, common)
			start := time.Now()
			got := count(t, Options{Dir: dir, Mode: WorkTree}).Total()
			if *got != *want {
				t.Errorf("count %+v, want %+v", got, want)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

// TestOddWorkTreeFile: a tracked test file replaced by a link to /dev/zero
// or by a FIFO is skipped with the cause, promptly; it is never read
// through or waited on.
func TestOddWorkTreeFile(t *testing.T) {
	for _, tc := range []struct {
		name, cause string
		make        func(p string) error
	}{
		{"link", "a symbolic link", func(p string) error { return os.Symlink("/dev/zero", p) }},
		{"fifo", "not a regular file", func(p string) error { return syscall.Mkfifo(p, 0o644) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := newRepo(t)
			p := filepath.Join(dir, "a_test.go")
			os.Remove(p)
			if err := tc.make(p); err != nil {
				t.Fatal(err)
			}
			done := make(chan *Counts, 1)
			go func() { done <- count(t, Options{Dir: dir, Mode: WorkTree}) }()
			select {
			case c := <-done:
				found := false
				for _, s := range c.Skipped {
					if s.Path == "a_test.go" && s.Reason == tc.cause {
						found = true
					}
				}
				if !found {
					t.Errorf("a_test.go not skipped as %q: %+v", tc.cause, c.Skipped)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("the count hung")
			}
		})
	}
}
