package languages

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
)

// benchCorpus gathers the files of a language under root, up to limit bytes.
func benchCorpus(b *testing.B, l *Language, root string, limit int) ([]string, [][]byte) {
	var paths []string
	var srcs [][]byte
	total := 0
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || total >= limit {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if strings.Contains(rel, "/testdata/") || ForPath(rel) != l {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil || !l.Admits(rel, src) {
			return nil
		}
		paths = append(paths, rel)
		srcs = append(srcs, src)
		total += len(src)
		return nil
	})
	if len(srcs) == 0 {
		b.Skipf("no %s files under %s", l.Name, root)
	}
	return paths, srcs
}

// BenchmarkScanRate parses and analyses each language's files on one core:
// the real test suites this machine has (Go's standard library, CPython's
// tests, GoogleTest's own tests, Minitest's), and for the other languages
// their fixtures. The MB/s column is the cold scan rate per core.
func BenchmarkScanRate(b *testing.B) {
	goroot, _ := exec.Command("go", "env", "GOROOT").Output()
	pyTests, _ := exec.Command("python3", "-c", "import os, test; print(os.path.dirname(test.__file__))").Output()
	roots := map[string]string{
		"go":     filepath.Join(strings.TrimSpace(string(goroot)), "src"),
		"python": strings.TrimSpace(string(pyTests)),
		"cpp":    "/usr/src/googletest",
		"ruby":   "/usr/lib/ruby/gems",
	}
	for _, l := range All() {
		root := roots[l.Name]
		synthetic := root == ""
		if synthetic {
			root = filepath.Join("..", "fixtures", "languages", l.Name)
		}
		b.Run(l.Name, func(b *testing.B) {
			paths, srcs := benchCorpus(b, l, root, 8<<20)
			if synthetic {
				// Without a real suite on the machine, the fixtures
				// repeated to about 1 MB stand in.
				n := len(srcs)
				for size := 0; size < 1<<20; {
					for i := 0; i < n; i++ {
						paths, srcs = append(paths, paths[i]), append(srcs, srcs[i])
						size += len(srcs[i])
					}
				}
			}
			size := 0
			for _, s := range srcs {
				size += len(s)
			}
			b.SetBytes(int64(size))
			p := NewParser()
			defer p.Close()
			// Compile the queries before the clock starts.
			for i, src := range srcs[:1] {
				p.Count(context.Background(), l, paths[i], src)
			}
			for b.Loop() {
				for i, src := range srcs {
					if _, err := p.Count(context.Background(), l, paths[i], src); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(len(srcs)), "files")
		})
	}
}

// BenchmarkParseGo only parses the Go standard library's test files that the
// prefilter keeps, on one core, and frees each tree: the share of a cold
// count that belongs to tree-sitter's parser, which neither the queries nor
// the analysis can make cheaper. BenchmarkScanRate/go is the whole count.
func BenchmarkParseGo(b *testing.B) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("no Go toolchain")
	}
	_, srcs := benchCorpus(b, Go, filepath.Join(strings.TrimSpace(string(goroot)), "src"), 1<<40)
	size := 0
	for _, s := range srcs {
		size += len(s)
	}
	b.SetBytes(int64(size))
	sp := sitter.NewParser()
	defer sp.Close()
	sp.SetLanguage(Go.Grammars[".go"]())
	for b.Loop() {
		for _, src := range srcs {
			tree, err := sp.ParseCtx(context.Background(), nil, src)
			if err != nil {
				b.Fatal(err)
			}
			tree.Close()
		}
	}
	b.ReportMetric(float64(len(srcs)), "files")
}

// BenchmarkCountFile counts the Go test file SENTINEL_BENCH_FILE names,
// whole (parse, queries, analysis), in a warm process: what a commit that
// changed only that file cannot spend less on. Skipped without the variable.
func BenchmarkCountFile(b *testing.B) {
	file := os.Getenv("SENTINEL_BENCH_FILE")
	if file == "" {
		b.Skip("SENTINEL_BENCH_FILE is not set")
	}
	src, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	p := NewParser()
	defer p.Close()
	for b.Loop() {
		if _, err := p.Count(context.Background(), Go, "x_test.go", src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkManyTests counts one generated test file per language with 1k,
// 10k and 100k tests (manyShapes), whole: parse, queries, analysis and, for
// Python, the collection of the file on its own. The time per file should
// grow with the tests, not with their square.
func BenchmarkManyTests(b *testing.B) {
	for _, s := range manyShapes {
		for _, n := range []int{1_000, 10_000, 100_000} {
			b.Run(fmt.Sprintf("%s/%dk", s.name, n/1000), func(b *testing.B) {
				src := s.source(n)
				b.SetBytes(int64(len(src)))
				p := NewParser()
				defer p.Close()
				p.Timeout = time.Hour
				for b.Loop() {
					if _, err := p.Count(context.Background(), s.lang, s.path, src); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
