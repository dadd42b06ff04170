package trailers

import (
	"fmt"
	"io"
	"strings"

	"github.com/gitsentinel/sentinel/internal/jsonout"
	"github.com/gitsentinel/sentinel/internal/quote"
)

// Finding is the policy's verdict on one message: a file, stdin or a commit.
type Finding struct {
	// Source names the message: a path, "-", or a commit id.
	Source string `json:"source"`
	// Title is the message's first line, for commits.
	Title string `json:"title,omitempty"`
	// Violations are the refused lines.
	Violations []Violation `json:"violations"`
}

// Report is the result of checking one or more messages.
type Report struct {
	// Checked is how many messages were checked.
	Checked int `json:"checked"`
	// Commits reports whether the messages were commits of a range.
	Commits bool `json:"-"`
	// Findings are the messages that were refused.
	Findings []Finding `json:"findings"`
	// Edits are the changes --fix made to a message it passed, for
	// people: "line 3: Co-authored-by: … became Assisted-by: …".
	Edits []string `json:"edits"`
}

// OK reports whether every message passed.
func (r *Report) OK() bool { return len(r.Findings) == 0 }

// WriteText prints the report for people.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, f := range r.Findings {
		head := quote.Path(f.Source)
		if f.Title != "" {
			head += " " + quote.Name(f.Title)
		}
		fmt.Fprintf(&b, "%s: refused\n", head)
		for _, v := range f.Violations {
			fmt.Fprintf(&b, "  line %d: %s\n", v.Line, quote.Name(v.Text))
			fmt.Fprintf(&b, "    %s: %s\n", v.Rule, v.Reason)
			fmt.Fprintf(&b, "    fix: %s\n", v.Fix)
		}
	}
	unit := "message"
	if r.Commits {
		unit = "commit"
	}
	if r.Checked != 1 {
		unit += "s"
	}
	if r.OK() {
		fmt.Fprintf(&b, "%d %s checked: all pass the attribution policy\n", r.Checked, unit)
	} else {
		fmt.Fprintf(&b, "%d of %d %s checked refused\n", len(r.Findings), r.Checked, unit)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON prints the report as JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	return jsonout.Write(w, struct {
		OK bool `json:"ok"`
		*Report
	}{r.OK(), r})
}
