package ci

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/coverage"
)

// TestMarkdownBoundsLists: a drop of thousands of tests stays far below
// GitHub's 1 MiB limit on a step summary, and says how many it left out.
func TestMarkdownBoundsLists(t *testing.T) {
	d := coverage.Drop{Key: "go", Figure: coverage.FigureTests, Peak: 5000, Now: 0}
	for i := range 5000 {
		d.Missing = append(d.Missing, coverage.Missing{Name: fmt.Sprintf("Test%04d", i), Path: "a_test.go", Line: i + 1})
	}
	r := &Report{Head: "HEAD", Checked: 1, Drops: []coverage.Drop{d}}
	var b strings.Builder
	if err := r.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "  - and 4900 more (`sentinel ci` lists them all)\n") || len(out) > 64<<10 {
		t.Errorf("%d bytes:\n%s", len(out), out[max(0, len(out)-300):])
	}
}

// TestMarkdownEscapes: a name cannot end its line, open a link or an HTML
// tag, or mention anyone.
func TestMarkdownEscapes(t *testing.T) {
	name := "x\n## [pwn](https://e.example) <b>@team</b> `c`"
	r := &Report{Head: "HEAD", Checked: 1, Drops: []coverage.Drop{{Key: "go", Figure: "tests", Peak: 2, Now: 1,
		Missing: []coverage.Missing{{Name: name, Path: "a_test.go", Line: 3}}}}}
	var b strings.Builder
	if err := r.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"\n## [", "](https", "<b>", " @team", " `c`"} {
		if strings.Contains(out, bad) {
			t.Errorf("the summary has %q:\n%s", bad, out)
		}
	}
	if !strings.Contains(out, `\#\# \[pwn\]\(https\://e.example\) &lt;b&gt;\@team&lt;/b&gt; \`+"`c\\`") {
		t.Errorf("escaped name not found:\n%s", out)
	}
}
