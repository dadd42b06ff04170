package coverage

import (
	"fmt"
	"io"
	"sort"
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
	return nil
}
