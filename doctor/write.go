package doctor

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gitsentinel/sentinel/internal/jsonout"
	"github.com/gitsentinel/sentinel/internal/quote"
)

// WriteText writes the report for people: a line per finding, its status
// first, aligned; then "nothing is missing", or "to fix:" and the fix of
// each gap, once each. Advice and an ok finding with a fix carry theirs in
// their line: they are no gap to fix.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "%-7s  %s\n", f.Status, quote.Text(f.Text()))
	}
	if r.Healthy() {
		b.WriteString("nothing is missing\n")
	} else {
		b.WriteString("to fix:\n")
		var seen []string
		for _, f := range r.Findings {
			if fix := f.FixText(); f.Gap() && fix != "" && !slices.Contains(seen, fix) {
				seen = append(seen, fix)
				b.WriteString("  " + quote.Text(fix) + "\n")
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// jsonReport is the report as `sentinel doctor --format json` writes it.
type jsonReport struct {
	OK       bool      `json:"ok"`
	Findings []Finding `json:"findings"`
	Fixes    []string  `json:"fixes"`
}

// WriteJSON writes the report as JSON (docs/json.md): whether it is
// healthy, every finding, and the fixes of the gaps.
func (r *Report) WriteJSON(w io.Writer) error {
	return jsonout.Write(w, jsonReport{OK: r.Healthy(), Findings: r.Findings, Fixes: r.Fixes()})
}
