package languages

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// fuzzPaths gives each language a path that makes the file a test file.
var fuzzPaths = []string{"a_test.go", "test_a.py", "a.test.js", "a.test.ts", "a.test.tsx", "src/lib.rs", "src/test/java/ATest.java", "spec/a_spec.rb", "a_test.cc", "a_test.c", "tests/ATest.php", "Tests/A.cs", "src/test/kotlin/ATest.kt", "Tests/ATests.swift"}

// FuzzCount feeds arbitrary source to every language: the analysis must not
// fail or panic on any tree tree-sitter gives it, and what it reports must
// fit the file.
func FuzzCount(f *testing.F) {
	for _, l := range All() {
		for _, s := range l.Samples {
			for i, p := range fuzzPaths {
				if ForPath(p) == l {
					f.Add(uint8(i), []byte(s.Source))
				}
			}
		}
	}
	p := NewParser()
	p.Timeout = 200 * time.Millisecond
	defer p.Close()
	f.Fuzz(func(t *testing.T, which uint8, src []byte) {
		path := fuzzPaths[int(which)%len(fuzzPaths)]
		l := ForPath(path)
		r, err := p.Count(context.Background(), l, path, src)
		if errors.Is(err, ErrParseTimeout) {
			return // reported as skipped by the engine, never a hang
		}
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.Count(src, []byte("\n")) + 1
		for _, tt := range r.Tests {
			if tt.Line < 1 || tt.Line > lines || tt.Name == "" || strings.ContainsAny(tt.Name, "\t\n\r") || (tt.Status != Active && tt.Status != Skipped) {
				t.Fatalf("test %+v does not fit a %d-line file", tt, lines)
			}
		}
		if r.Assertions < 0 || r.Vacuous < 0 || r.Benchmarks < 0 || r.Subtests < 0 || r.Active() > len(r.Tests) {
			t.Fatalf("figures %+v", r)
		}
	})
}
