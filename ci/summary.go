package ci

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/quote"
)

// mdEscape makes text safe in a GitHub-flavoured markdown table cell or
// list item: quote.Text has already made control characters visible, and
// every character that markdown or HTML would read as markup is
// backslash-escaped, so that a test's or commit's name shows as it is and
// cannot add a link, an image or a row of its own (the colon and the at
// sign, so that no URL or @mention is linked by GitHub's autolinks).
var mdEscape = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "{", `\{`, "}", `\}`, "[", `\[`, "]", `\]`,
	"(", `\(`, ")", `\)`, "#", `\#`, "+", `\+`, "!", `\!`, "|", `\|`, "<", "&lt;", ">", "&gt;",
	"&", "&amp;", "~", `\~`, ":", `\:`, "@", `\@`,
)

// md is s, quoted as the text report quotes it, then escaped for markdown.
func md(s string) string { return mdEscape.Replace(quote.Text(s)) }

// code puts a command in a code span, with a fence longer than any run of
// backticks inside it.
func code(s string) string {
	s = strings.NewReplacer("\n", " ", "\r", " ", "|", `\|`).Replace(s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	return fence + " " + s + " " + fence
}

// maxListed bounds each list in the summary: GitHub refuses a step summary
// over 1 MiB, and a commit that deletes a test suite can miss thousands of
// tests; the text report and the annotations still name every one.
const maxListed = 100

// WriteMarkdown prints the report as a GitHub job summary: the verdict, a
// table of the counts at HEAD beside their peaks, then what was refused
// and the command that fixes it.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("## sentinel ci\n\n")
	if r.OK() {
		fmt.Fprintf(&b, "**Passed**: %d commits checked. The counts hold their peaks, no peak fell without an acceptance, every acceptance is a person's, attribution is clean.\n\n", r.Checked)
	} else {
		fmt.Fprintf(&b, "**Refused**: %d commits checked; %s.\n\n", r.Checked, r.tally())
	}
	if len(r.Rows) > 0 {
		below := map[string]map[string]bool{}
		for _, d := range r.Drops {
			if below[d.Key] == nil {
				below[d.Key] = map[string]bool{}
			}
			below[d.Key][d.Figure] = true
		}
		b.WriteString("| language | tests | peak | assertions | peak | skipped | |\n")
		b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | --- |\n")
		for _, row := range r.Rows {
			status := "ok"
			var fell []string
			for _, f := range []string{coverage.FigureTests, coverage.FigureAssertions} {
				if below[row.Key][f] {
					fell = append(fell, f)
				}
			}
			if len(fell) > 0 {
				status = "**below its peak**: " + strings.Join(fell, ", ")
			}
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %s |\n", md(row.Key), row.Now.Tests, row.Peak.Tests,
				row.Now.Assertions, row.Peak.Assertions, row.Now.Skipped, status)
		}
		b.WriteString("\n")
	}
	if len(r.Drops) > 0 {
		b.WriteString("### Drops at HEAD\n\n")
		for _, d := range r.Drops {
			fmt.Fprintf(&b, "- %s %s: %d → %d\n", md(d.Key), d.Figure, d.Peak, d.Now)
			for _, u := range d.Uncounted {
				fmt.Fprintf(&b, "  - %s\n", md(u.Sentence()))
			}
			for i, m := range d.Missing {
				if i == maxListed {
					fmt.Fprintf(&b, "  - and %d more (`sentinel ci` lists them all)\n", len(d.Missing)-i)
					break
				}
				fmt.Fprintf(&b, "  - %s\n", md(m.Text()))
			}
			for i, f := range d.Fewer {
				if i == maxListed {
					fmt.Fprintf(&b, "  - and %d more (`sentinel ci` lists them all)\n", len(d.Fewer)-i)
					break
				}
				fmt.Fprintf(&b, "  - %s\n", md(f.Text()))
			}
		}
		if r.AcceptCommand != "" {
			fmt.Fprintf(&b, "\nIf the tests were removed or switched off on purpose, a person records it: %s\n", code(r.AcceptCommand))
		}
		b.WriteString("\n")
	}
	if len(r.History) > 0 {
		b.WriteString("### " + r.historyHeading() + "\n\n")
		for i, h := range r.History {
			if i == maxListed {
				fmt.Fprintf(&b, "- and %d more (`sentinel ci` lists them all)\n", len(r.History)-i)
				break
			}
			fmt.Fprintf(&b, "- commit `%s` %s: %s\n", gitrepo.ShortID(h.Commit), md(h.Title), md(h.Reason))
		}
		b.WriteString("\nA peak may only fall, and a test may only go, with `sentinel accept` in the same commit, or after the fact with `sentinel accept --rev COMMIT --reason WHY` in a person's later commit.\n\n")
	}
	if len(r.PersonOnly) > 0 {
		b.WriteString("### Acceptances a person must make\n\n")
		for _, p := range r.PersonOnly {
			for _, c := range p.Causes {
				fmt.Fprintf(&b, "- commit `%s` %s: %s; %s: %s; instead: %s\n", gitrepo.ShortID(p.Commit), md(p.Title), md(p.Summary()), c.Rule, md(c.Reason), md(c.Fix))
			}
		}
		b.WriteString("\n")
	}
	if v := r.Results; v != nil {
		fmt.Fprintf(&b, "### What ran\n\nThe runners' reports (%d) ran %d of the %d active tests the count sees at HEAD, %d cases.\n\n", len(v.Reports), v.Ran, v.Tests, v.Cases)
		for i, f := range v.Lost {
			if i == maxListed {
				fmt.Fprintf(&b, "- and %d more (`sentinel ci` lists them all)\n", len(v.Lost)-i)
				break
			}
			fmt.Fprintf(&b, "- %s test %s (%s:%d): %s\n", f.Language, md(f.Name), md(f.Path), f.Line, md(f.Text()))
		}
		if len(v.Lost) > 0 {
			b.WriteString("\nUndo what keeps the runner from running them (a harness, a runner's configuration, the workflow), or delete them in a commit a person makes and accepts: `sentinel accept --reason \"WHY THESE TESTS WENT\"`.\n")
		}
		if n := len(v.Platform); n > 0 {
			fmt.Fprintf(&b, "\n%d tests skipped on this platform, for a reason the count sees; another job of the matrix runs them.\n", n)
		}
		if n := len(v.Unknown); n > 0 {
			fmt.Fprintf(&b, "\n%d cases the runners ran match no test the count sees (information; `sentinel ci` lists them).\n", n)
		}
		b.WriteString("\n")
	}
	if len(r.Attribution) > 0 {
		b.WriteString("### Attribution\n\n")
		for _, f := range r.Attribution {
			for _, v := range f.Violations {
				fmt.Fprintf(&b, "- commit `%s` %s: line %d: %s: %s\n", md(f.Source), md(f.Title), v.Line, v.Rule, md(v.Reason))
			}
		}
		// The fixes are commands, often the same rebase for several
		// commits: each once, as code.
		seen := map[string]bool{}
		for _, f := range r.Attribution {
			for _, v := range f.Violations {
				if !seen[v.Fix] {
					seen[v.Fix] = true
					fmt.Fprintf(&b, "\nFix (%s): %s\n", v.Rule, fixMarkdown(v.Fix))
				}
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// fixMarkdown shows a fix whose command follows a colon (the rebase
// recipe) as text and a code block, and any other fix as text.
func fixMarkdown(fix string) string {
	if i := strings.Index(fix, "--force-with-lease: GIT_SEQUENCE_EDITOR="); i >= 0 {
		i += len("--force-with-lease")
		return md(fix[:i]) + ":\n\n```sh\n" + fix[i+2:] + "\n```"
	}
	return md(fix)
}

// historyKinds counts the history's issues by kind: tests lost, peaks
// lowered, and baselines a commit deleted or broke.
func (r *Report) historyKinds() (lost, lowered, other int) {
	for _, h := range r.History {
		switch {
		case h.Test != "":
			lost++
		case h.Figure != "":
			lowered++
		default:
			other++
		}
	}
	return lost, lowered, other
}

// historyHeading names the history's section by what it holds.
func (r *Report) historyHeading() string {
	lost, lowered, other := r.historyKinds()
	var parts []string
	if lost > 0 {
		parts = append(parts, "tests lost")
	}
	if lowered > 0 {
		parts = append(parts, "peaks lowered")
	}
	heading := strings.Join(parts, " and ") + " without an acceptance"
	switch {
	case len(parts) == 0:
		return "The baseline, deleted or broken"
	case other > 0:
		heading += ", and the baseline deleted or broken"
	}
	return strings.ToUpper(heading[:1]) + heading[1:]
}

// tally says what was refused, for the verdict line.
func (r *Report) tally() string {
	var parts []string
	add := func(n int, one, many string) {
		switch {
		case n == 1:
			parts = append(parts, "1 "+one)
		case n > 1:
			parts = append(parts, fmt.Sprintf("%d %s", n, many))
		}
	}
	add(len(r.Drops), "figure below its peak", "figures below their peaks")
	lost, lowered, other := r.historyKinds()
	add(lost, "test lost without an acceptance", "tests lost without an acceptance")
	add(lowered, "peak lowered without an acceptance", "peaks lowered without an acceptance")
	add(other, "commit that deletes or breaks the baseline", "commits that delete or break the baseline")
	add(len(r.PersonOnly), "acceptance not shown to be a person's", "acceptances not shown to be a person's")
	add(len(r.Attribution), "commit refused by the attribution policy", "commits refused by the attribution policy")
	if r.Results != nil {
		add(len(r.Results.Lost), "active test the runners' reports did not run", "active tests the runners' reports did not run")
	}
	return strings.Join(parts, ", ")
}

// AppendSummary appends the report's markdown to the file at path, or, when
// the check could not run, the error that stopped it. GitHub gives each
// step a file of its own in $GITHUB_STEP_SUMMARY and documents appending
// to it (a step may write it more than once), so this is an append, not
// an atomic replace.
func AppendSummary(path string, r *Report, runErr error) error {
	var b strings.Builder
	if runErr != nil {
		fmt.Fprintf(&b, "## sentinel ci\n\n**Could not run**: %s\n\n", md(runErr.Error()))
	} else if err := r.WriteMarkdown(&b); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("the job summary: %w", err)
	}
	if _, err := io.WriteString(f, b.String()); err != nil {
		f.Close()
		return fmt.Errorf("the job summary %s: %w", quote.Path(path), err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("the job summary %s: %w", quote.Path(path), err)
	}
	return nil
}
