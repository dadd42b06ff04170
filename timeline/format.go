package timeline

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/jsonout"
	"github.com/gitsentinel/sentinel/internal/quote"
)

// SparkWidth is the most commits a terminal chart draws: the latest ones.
const SparkWidth = 60

var sparks = []rune("▁▂▃▄▅▆▇█")

// WriteJSON writes the timeline as one JSON report, its version first.
func WriteJSON(w io.Writer, t *Timeline) error {
	return jsonout.Write(w, t)
}

// CSVHeader is the first row of WriteCSV's output.
var CSVHeader = []string{"commit", "date", "author", "title", "key", "tests", "assertions", "high_tests", "high_assertions", "accepted", "error"}

// WriteCSV writes one row per commit and row key, oldest first, so that
// each figure is a column a spreadsheet can plot; a commit whose baseline
// does not read, or holds no rows, has one row with an empty key. The
// accepted column lists the acceptances the commit adds that lowered that
// key (or that lowered no figure at all), as "by: reason (figure from →
// to; …)", separated by " | ".
func WriteCSV(w io.Writer, t *Timeline) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	for _, c := range t.Commits {
		keys := make([]string, 0, len(c.Peaks))
		for _, k := range t.Keys {
			if _, ok := c.Peaks[k]; ok {
				keys = append(keys, k)
			}
		}
		if len(keys) == 0 {
			keys = []string{""}
		}
		for _, k := range keys {
			row := []string{c.Commit, c.Date, cell(c.Author), cell(c.Title), k, "", "", "", "", cell(acceptedFor(c.Accepted, k)), cell(c.Error)}
			if p, ok := c.Peaks[k]; ok {
				h := c.Highs[k]
				row[5], row[6] = strconv.Itoa(p.Tests), strconv.Itoa(p.Assertions)
				row[7], row[8] = strconv.Itoa(h.Tests), strconv.Itoa(h.Assertions)
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// cell keeps a spreadsheet from reading user text (a commit title, a
// reason) as a formula: a cell that starts with one of = + - @ or a tab or
// carriage return gets a leading apostrophe, as OWASP advises.
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func acceptedFor(as []Acceptance, key string) string {
	var parts []string
	for _, a := range as {
		var lows []string
		for _, l := range a.Lowered {
			if l.Key == key {
				lows = append(lows, fmt.Sprintf("%s %d → %d", l.Figure, l.Before, l.After))
			}
		}
		if len(lows) > 0 || len(a.Lowered) == 0 {
			s := a.By + ": " + a.Reason
			if len(lows) > 0 {
				s += " (" + strings.Join(lows, "; ") + ")"
			}
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " | ")
}

// WriteText writes a chart for a terminal: a sparkline per row and figure
// over the commits (oldest on the left), with the latest figure and the
// highest one; then each acceptance, with who, why and what it lowered;
// then each commit whose baseline does not read. Text from commits and
// acceptances is quoted where it holds control characters.
func WriteText(w io.Writer, t *Timeline) error {
	if len(t.Commits) == 0 {
		where := "HEAD's first-parent line"
		if t.Since != "" {
			where += " after " + t.Since
		}
		_, err := fmt.Fprintf(w, "no commit on %s changed %s\n", where, coverage.BaselinePath)
		return err
	}
	shown := t.Commits[max(0, len(t.Commits)-SparkWidth):]
	first, last := shown[0], t.Commits[len(t.Commits)-1]
	head := fmt.Sprintf("%d commits changed %s", len(t.Commits), coverage.BaselinePath)
	if len(t.Commits) == 1 {
		head = "1 commit changed " + coverage.BaselinePath
	}
	if len(shown) < len(t.Commits) {
		head += fmt.Sprintf("; the chart shows the last %d", len(shown))
	}
	fmt.Fprintf(w, "%s, %s to %s, oldest on the left\n", head, day(first.Date), day(last.Date))
	fmt.Fprintln(w, "each mark is the peak the commit recorded; \"now\" is the latest, \"high\" the highest reached, which no acceptance lowers")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ROW\tFIGURE\tHISTORY\tNOW\tHIGH")
	for _, k := range t.Keys {
		for _, f := range []string{coverage.FigureTests, coverage.FigureAssertions} {
			now, high := "-", "-"
			if p, ok := last.Peaks[k]; ok {
				now = strconv.Itoa(figure(p, f))
			}
			if h, ok := last.Highs[k]; ok {
				high = strconv.Itoa(figure(h, f))
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", quote.Name(k), f, sparkline(shown, k, f), now, high)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var accepted, broken []string
	for _, c := range t.Commits {
		for _, a := range c.Accepted {
			s := fmt.Sprintf("  %s %s  %s: %s", day(c.Date), gitrepo.ShortID(c.Commit), quote.Text(a.By), quote.Text(a.Reason))
			var lows []string
			for _, l := range a.Lowered {
				lows = append(lows, fmt.Sprintf("%s %s %d → %d", quote.Name(l.Key), l.Figure, l.Before, l.After))
			}
			if len(a.Tests) > 0 {
				lows = append(lows, fmt.Sprintf("%d tests let go by name", len(a.Tests)))
			}
			if len(lows) > 0 {
				s += "\n      lowered " + strings.Join(lows, ", ")
			}
			accepted = append(accepted, s)
		}
		if c.Error != "" {
			broken = append(broken, fmt.Sprintf("  %s %s  %s", day(c.Date), gitrepo.ShortID(c.Commit), quote.Text(c.Error)))
		}
	}
	if len(accepted) > 0 {
		fmt.Fprintf(w, "\naccepted:\n%s\n", strings.Join(accepted, "\n"))
	}
	if len(broken) > 0 {
		fmt.Fprintf(w, "\nunreadable baselines:\n%s\n", strings.Join(broken, "\n"))
	}
	return nil
}

// sparkline draws one figure of one row over the commits, scaled from its
// lowest to its highest value; a commit that records no such row, or
// whose baseline does not read, is a space.
func sparkline(cs []Commit, key, fig string) string {
	lo, hi, any := 0, 0, false
	for _, c := range cs {
		if p, ok := c.Peaks[key]; ok {
			v := figure(p, fig)
			if !any || v < lo {
				lo = v
			}
			if !any || v > hi {
				hi = v
			}
			any = true
		}
	}
	var b strings.Builder
	for _, c := range cs {
		p, ok := c.Peaks[key]
		switch {
		case !ok:
			b.WriteRune(' ')
		case hi == lo:
			b.WriteRune(sparks[len(sparks)-1])
		default:
			b.WriteRune(sparks[(figure(p, fig)-lo)*(len(sparks)-1)/(hi-lo)])
		}
	}
	return b.String()
}

// day is the date part of a strict ISO 8601 time.
func day(iso string) string {
	if len(iso) >= 10 {
		return iso[:10]
	}
	return iso
}
