package coverage

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/gitsentinel/sentinel/internal/jsonout"
	"github.com/gitsentinel/sentinel/internal/quote"
)

// WriteJSON prints the figures per language and in total, the files with
// parse errors and the files skipped.
func (c *Counts) WriteJSON(w io.Writer) error {
	out := struct {
		Languages   map[string]*Figures `json:"languages"`
		Total       *Figures            `json:"total"`
		ParseErrors []string            `json:"parse_errors"`
		Skipped     []SkippedFile       `json:"skipped"`
		// Parsed and Cached say how the files were answered: parsed
		// now, or read from the cache.
		Parsed int `json:"parsed"`
		Cached int `json:"cached"`
	}{c.Languages(), c.Total(), c.ParseErrors(), c.Skipped, c.Parsed, c.Cached}
	return jsonout.Write(w, out)
}

// WriteText prints an aligned table for people, then what was skipped.
func (c *Counts) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "language\tfiles\ttests\tskipped\tassertions\tvacuous\tbenchmarks\tsubtests\t")
	langs := c.Languages()
	names := make([]string, 0, len(langs))
	for n := range langs {
		names = append(names, n)
	}
	sort.Strings(names)
	row := func(name string, f *Figures) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n", name, f.Files, f.Tests, f.Skipped, f.Assertions, f.Vacuous, f.Benchmarks, f.Subtests)
	}
	for _, n := range names {
		row(n, langs[n])
	}
	row("total", c.Total())
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, p := range c.ParseErrors() {
		fmt.Fprintf(w, "parse errors (counted all the same): %s\n", quote.Path(p))
	}
	for _, s := range c.Skipped {
		fmt.Fprintf(w, "skipped %s: %s\n", quote.Path(s.Path), s.Reason)
	}
	for _, n := range c.NestedModules() {
		fmt.Fprintf(w, "note: %s is a module of its own, which go test ./... in the module above does not enter: its %d tests count, and run only where go test runs in it too\n", quote.Path(n.GoMod), n.Tests)
	}
	return nil
}

// NestedModule is a Go module inside another, and how many tests it holds.
type NestedModule struct {
	// GoMod is the slash path of its go.mod.
	GoMod string
	// Tests counts its tests, active or not.
	Tests int
}

// NestedModules lists the Go modules nested in another that hold tests, by
// path: `go test ./...` in the outer module does not run them.
func (c *Counts) NestedModules() []NestedModule {
	n := map[string]int{}
	for _, f := range c.Files {
		for _, t := range f.Tests {
			if mod, ok := strings.CutPrefix(t.Note, nestedNote); ok {
				if mod, ok = strings.CutSuffix(mod, nestedSuffix); ok {
					n[mod]++
				}
			}
		}
	}
	out := make([]NestedModule, 0, len(n))
	for mod, k := range n {
		out = append(out, NestedModule{mod, k})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GoMod < out[j].GoMod })
	return out
}
