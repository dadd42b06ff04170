package languages

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite fixtures/languages/*/expected.json from the current engine (review the diff!)")

// expected is a fixture directory's expected.json.
type expected struct {
	Tests       []expectedTest `json:"tests"`
	Figures     figures        `json:"figures"`
	ParseErrors []string       `json:"parse_errors"`
}

type expectedTest struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Name   string `json:"name"`
	Status Status `json:"status"`
}

type figures struct {
	Files      int `json:"files"`
	Tests      int `json:"tests"`
	Skipped    int `json:"skipped"`
	Assertions int `json:"assertions"`
	Vacuous    int `json:"vacuous"`
	Benchmarks int `json:"benchmarks"`
	Subtests   int `json:"subtests"`
}

// TestFixtures counts each language's fixture directory and compares every
// test (file, line, name, status) and every figure with expected.json.
func TestFixtures(t *testing.T) {
	p := NewParser()
	defer p.Close()
	for _, l := range All() {
		t.Run(l.Name, func(t *testing.T) {
			dir := filepath.Join("..", "fixtures", "languages", l.Name)
			got := expected{Tests: []expectedTest{}, ParseErrors: []string{}}
			cases := 0
			err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || d.Name() == "expected.json" {
					return err
				}
				rel, _ := filepath.Rel(dir, path)
				rel = filepath.ToSlash(rel)
				src, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				if ForPath(rel) != l || !l.Admits(rel, src) {
					return nil
				}
				r, err := p.Count(context.Background(), l, rel, src)
				if err != nil {
					return err
				}
				if l.Settle != nil {
					r = l.Settle(r, Place{Path: rel})
				}
				got.Figures.Files++
				for _, tt := range r.Tests {
					got.Tests = append(got.Tests, expectedTest{rel, tt.Line, tt.Name, tt.Status})
					if tt.Status == Active {
						got.Figures.Tests++
					} else {
						got.Figures.Skipped++
					}
				}
				got.Figures.Assertions += r.Assertions
				got.Figures.Vacuous += r.Vacuous
				got.Figures.Benchmarks += r.Benchmarks
				got.Figures.Subtests += r.Subtests
				if r.ParseError {
					got.ParseErrors = append(got.ParseErrors, rel)
				}
				cases += bytes.Count(src, []byte("\n")) // sanity only
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			data, _ := json.MarshalIndent(got, "", "  ")
			data = append(data, '\n')
			file := filepath.Join(dir, "expected.json")
			if *update {
				if err := os.WriteFile(file, data, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test ./languages -run TestFixtures -update, then review it)", err)
			}
			if !bytes.Equal(want, data) {
				t.Errorf("%s differs from the count:\n%s", file, data)
			}
			if len(got.ParseErrors) == 0 {
				t.Errorf("%s has no fixture with a syntax error", l.Name)
			}
			if got.Figures.Tests+got.Figures.Skipped < 15 {
				t.Errorf("%s fixtures hold %d tests; they need at least 15 tricky cases", l.Name, got.Figures.Tests+got.Figures.Skipped)
			}
		})
	}
}
