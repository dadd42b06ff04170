package coverage

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkWarmCountRepo counts the index and the work tree of the
// repository SENTINEL_BENCH_REPO names (scripts/bench-scale builds large
// ones) through its warm cache: the cost that grows with the files present
// rather than the files changed. Skipped without the variable.
func BenchmarkWarmCountRepo(b *testing.B) {
	dir := os.Getenv("SENTINEL_BENCH_REPO")
	if dir == "" {
		b.Skip("SENTINEL_BENCH_REPO is not set")
	}
	for _, m := range []struct {
		name string
		mode Mode
	}{{"index", Index}, {"worktree", WorkTree}} {
		b.Run(m.name, func(b *testing.B) {
			o, _, err := ProjectOptions(context.Background(), dir, m.mode, "")
			if err != nil {
				b.Fatal(err)
			}
			if _, err := Count(context.Background(), o); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				c, err := Count(context.Background(), o)
				if err != nil {
					b.Fatal(err)
				}
				if c.Parsed != 0 {
					b.Fatalf("parsed %d files on a warm cache", c.Parsed)
				}
			}
		})
	}
}

// BenchmarkWarmCheckRepo is the pre-commit hook's check of the index
// against its baseline and HEAD in the repository SENTINEL_BENCH_REPO
// names, nothing changed, warm cache.
func BenchmarkWarmCheckRepo(b *testing.B) {
	dir := os.Getenv("SENTINEL_BENCH_REPO")
	if dir == "" {
		b.Skip("SENTINEL_BENCH_REPO is not set")
	}
	o, _, err := ProjectOptions(context.Background(), dir, Index, "")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := Check(context.Background(), o); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Check(context.Background(), o); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChangedCheckRepo is the pre-commit hook's check after a
// one-line change to one test file (SENTINEL_BENCH_FILE, by default
// team1/go/strings/strings_test.go), staged before each run.
func BenchmarkChangedCheckRepo(b *testing.B) {
	dir := os.Getenv("SENTINEL_BENCH_REPO")
	if dir == "" {
		b.Skip("SENTINEL_BENCH_REPO is not set")
	}
	file := os.Getenv("SENTINEL_BENCH_FILE")
	if file == "" {
		file = "team1/go/strings/strings_test.go"
	}
	o, _, err := ProjectOptions(context.Background(), dir, Index, "")
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		b.StopTimer()
		i++
		f, err := os.OpenFile(filepath.Join(dir, file), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(f, "// %d %d\n", i, time.Now().UnixNano()) // new content: parsed every run
		f.Close()
		if out, err := exec.Command("git", "-C", dir, "add", file).CombinedOutput(); err != nil {
			b.Fatalf("git add: %v\n%s", err, out)
		}
		b.StartTimer()
		if _, err := Check(context.Background(), o); err != nil {
			b.Fatal(err)
		}
	}
}
