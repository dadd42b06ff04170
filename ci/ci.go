// Package ci is `sentinel ci` and the pre-push hook: every rule the local
// hooks enforce, checked again over commits, because local hooks can be
// skipped.
package ci

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/coverage/reports"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/jsonout"
	"github.com/gitsentinel/sentinel/internal/quote"
	"github.com/gitsentinel/sentinel/internal/style"
	"github.com/gitsentinel/sentinel/trailers"
)

// Report is the verdict on a set of commits.
type Report struct {
	// Head is the commit whose counts were checked.
	Head string `json:"head"`
	// Checked is the number of commits checked.
	Checked int `json:"checked"`
	// Rows are the counts at Head beside their peaks, for the job
	// summary; the JSON report leaves them to `sentinel status`.
	Rows []coverage.Row `json:"-"`
	// Drops are the figures below their peaks at Head.
	Drops []coverage.Drop `json:"drops"`
	// History lists commits that lowered a peak without an acceptance.
	History []coverage.HistoryIssue `json:"history"`
	// Attribution lists commits the trailer policy refuses.
	Attribution []trailers.Finding `json:"attribution"`
	// PersonOnly lists commits that add an acceptance, lower a peak or
	// change who may sign, and do not show that a person made them.
	PersonOnly []PersonIssue `json:"person_only"`
	// AcceptCommand records the drops, when there are any.
	AcceptCommand string `json:"accept_command,omitempty"`
	// Since is [ci] since as Head holds it ("" for none); Unjudged is how
	// many commits of the range it left out, being before it.
	Since    string `json:"since"`
	Unjudged int    `json:"unjudged"`
	// Attested are the commits the trailer policy refuses that a person
	// attested after the fact, by their short ids.
	Attested []string `json:"attested"`
	// Harness lists the commits an agent had a hand in that change a file
	// deciding what the runner runs (conftest.py, a Jest config, a
	// TestMain, Cargo's targets, the CI workflow): for a person to look
	// at, not a refusal.
	Harness []HarnessChange `json:"harness"`
	// Results is what the runners' reports (--results) say of the tests
	// the count sees as active at Head; nil without reports.
	Results *reports.Verdict `json:"results,omitempty"`
	// Style paints the verdict of the text report; plain by default.
	Style style.Style `json:"-"`
}

// Options are what `sentinel ci` checks beyond the range.
type Options struct {
	// Results are the paths of the runners' reports for Head: files,
	// directories or globs.
	Results []string
}

// OK reports whether everything passed.
func (r *Report) OK() bool {
	return len(r.Drops) == 0 && len(r.History) == 0 && len(r.Attribution) == 0 && len(r.PersonOnly) == 0 &&
		(r.Results == nil || r.Results.OK()) && !slices.ContainsFunc(r.Harness, func(h HarnessChange) bool { return h.Held })
}

// Run checks the commits of base..HEAD (all of HEAD's history when base is
// empty): counts at HEAD against HEAD's baseline, the baseline commit by
// commit, the trailer policy on every commit, and that a person made each
// commit that accepts a loss of tests (see CheckPersons).
//
// With o.Results, the runners' reports are read first, so that a report
// that does not read stops the check before any count (exit 2), and every
// test the count sees as active at HEAD must be in them as run.
func Run(ctx context.Context, dir, base string, o Options) (*Report, error) {
	var set *reports.Set
	if len(o.Results) > 0 {
		var err error
		if set, err = reports.Load(o.Results); err != nil {
			return nil, fmt.Errorf("%w\nthe runners' reports decide what ran: write them again before sentinel ci, e.g. `go test -json ./... > report.json` (each runner's line is in docs/ci.md)", err)
		}
	}
	opts, _, err := coverage.ProjectOptions(ctx, dir, coverage.Rev, "HEAD")
	if err != nil {
		return nil, err
	}
	// The count cache answers only for what base already had: it may
	// come from a CI cache that a job's own code could write to.
	opts.Verify = base
	if base == "" {
		opts.Verify = "-"
	}
	spec := "HEAD"
	if base != "" {
		spec = base + "..HEAD"
	}
	commits, err := gitrepo.Range(ctx, opts.Dir, spec)
	if err != nil {
		if gitrepo.IsShallow(ctx, opts.Dir) {
			return nil, fmt.Errorf("%w\nthis clone is shallow and lacks the history to check: run `git fetch --unshallow` (or `git fetch origin %s`)", err, base)
		}
		return nil, err
	}
	r, err := runCommits(ctx, opts, "HEAD", commits, true, set)
	if err != nil {
		return nil, err
	}
	r.fixMissingAssisted(base, commits)
	return r, nil
}

// RunCommits checks the given commits, and the counts at head. Without a
// baseline at head, requireBaseline makes that an error; otherwise only
// attribution is checked (a repository with hooks but no ratchet yet).
func RunCommits(ctx context.Context, opts coverage.Options, head string, commits []gitrepo.Commit, requireBaseline bool) (*Report, error) {
	return runCommits(ctx, opts, head, commits, requireBaseline, nil)
}

// runCommits is RunCommits, and with set, the check of what the reports
// ran against the tests of head's count.
func runCommits(ctx context.Context, opts coverage.Options, head string, commits []gitrepo.Commit, requireBaseline bool, set *reports.Set) (*Report, error) {
	r := &Report{Head: head}
	var err error
	if commits, r.Since, r.Unjudged, err = judged(ctx, opts.Dir, head, commits); err != nil {
		return nil, err
	}
	r.Checked = len(commits)
	opts.Mode, opts.Rev = coverage.Rev, head
	// head counts with the configuration it holds, which the work tree
	// (a pre-push from another branch) need not.
	opts, err = coverage.OptionsAt(ctx, opts, head)
	if err != nil {
		return nil, err
	}
	res, err := coverage.Check(ctx, opts)
	switch {
	case errors.Is(err, coverage.ErrNoBaseline) && requireBaseline:
		return nil, fmt.Errorf("%s has no %s: run `sentinel init`, and commit the baseline", head, coverage.BaselinePath)
	case errors.Is(err, coverage.ErrNoBaseline):
	case err != nil:
		return nil, err
	default:
		r.Drops, r.Rows = res.Drops, res.Rows
		if !res.OK() {
			r.AcceptCommand = res.AcceptCommand()
		}
		if set != nil {
			if r.Results, err = checkResults(ctx, res.Counts, head, set); err != nil {
				return nil, err
			}
		}
	}
	var changes []coverage.BaselineChange
	if r.History, changes, err = coverage.ReviewHistory(ctx, opts.Dir, commits); err != nil {
		return nil, err
	}
	s, err := trailers.LoadSettings(ctx, opts.Dir)
	if err != nil {
		return nil, err
	}
	tr, err := s.CheckCommits(commits)
	if err != nil {
		return nil, err
	}
	// A commit a person attested after the fact (sentinel trailers
	// attest) has its attribution mended; the commit that attests is
	// judged below, as any that adds an acceptance.
	attested := map[string]bool{}
	for _, ch := range changes {
		for _, a := range ch.Added {
			if a.AssistedBy != "" && a.Commit != "" {
				attested[gitrepo.ShortID(a.Commit)] = true
			}
		}
	}
	// Where commits of the range lost the tests the counts miss, the
	// accept that mends it is after the fact, naming them: a plain one
	// would lower the peaks and leave those commits refused.
	if fw := r.forwardAccepts(); r.AcceptCommand != "" && len(fw) > 0 {
		r.AcceptCommand = strings.Join(fw, " && ")
	}
	r.Attested, r.Attribution = []string{}, []trailers.Finding{}
	for _, f := range tr.Findings {
		if attested[f.Source] {
			r.Attested = append(r.Attested, f.Source)
			continue
		}
		r.Attribution = append(r.Attribution, f)
	}
	if r.PersonOnly, err = CheckPersons(ctx, opts.Dir, &s.Syntax, commits, changes); err != nil {
		return nil, err
	}
	if r.Harness, err = CheckHarness(ctx, opts.Dir, &s.Syntax, commits); err != nil {
		return nil, err
	}
	if r.Harness == nil {
		r.Harness = []HarnessChange{}
	}
	if err := holdHarness(ctx, opts.Dir, r.Harness, commits, changes); err != nil {
		return nil, err
	}
	return r, nil
}

// forwardAccepts are the commands that accept, after the fact, what each
// commit of the history lost: one per commit, oldest first.
func (r *Report) forwardAccepts() []string {
	var out []string
	seen := map[string]bool{}
	for i := len(r.History) - 1; i >= 0; i-- {
		h := r.History[i]
		if !seen[h.Commit] && (h.Test != "" || h.Figure != "") {
			seen[h.Commit] = true
			out = append(out, fmt.Sprintf("sentinel accept --rev %s --reason \"WHY THESE TESTS WENT\"", gitrepo.ShortID(h.Commit)))
		}
	}
	return out
}

// WriteText prints the report for people.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, d := range r.Drops {
		fmt.Fprintf(&b, "%s: %s %s %d → %d\n", quote.Name(r.Head), quote.Name(d.Key), d.Figure, d.Peak, d.Now)
		for _, u := range d.Uncounted {
			fmt.Fprintf(&b, "  %s\n", u.Sentence())
		}
		for _, m := range d.Missing {
			fmt.Fprintf(&b, "  %s\n", m.Text())
		}
		for _, f := range d.Fewer {
			fmt.Fprintf(&b, "  %s\n", f.Text())
		}
	}
	if r.AcceptCommand != "" {
		fmt.Fprintf(&b, "  if the tests were removed or switched off on purpose, a person records it: %s\n", r.AcceptCommand)
	}
	for _, h := range r.History {
		fmt.Fprintf(&b, "commit %s %s: %s\n", gitrepo.ShortID(h.Commit), quote.Name(h.Title), quote.Text(h.Reason))
	}
	if len(r.History) > 0 {
		b.WriteString("  a peak may only fall, and a test may only go, with `sentinel accept` in the same commit; to mend it forward, a person records it after the fact in a new commit:\n")
		for _, c := range r.forwardAccepts() {
			fmt.Fprintf(&b, "    %s\n", c)
		}
	}
	for _, p := range r.PersonOnly {
		p.writeText(&b)
	}
	writeResultsText(&b, r.Head, r.Results)
	writeHarnessText(&b, r.Harness)
	tr := &trailers.Report{Checked: r.Checked, Findings: onceEach(r.Attribution), Commits: true}
	if len(r.Attribution) > 0 {
		if err := tr.WriteText(&b); err != nil {
			return err
		}
	}
	for _, id := range r.Attested {
		fmt.Fprintf(&b, "commit %s: its attribution is attested after the fact in the baseline\n", id)
	}
	if r.Unjudged > 0 {
		fmt.Fprintf(&b, "%d commits before [ci] since (%s) are not judged: sentinel was adopted after them\n", r.Unjudged, gitrepo.ShortID(r.Since))
	}
	if r.OK() {
		b.WriteString(r.Style.Pass(fmt.Sprintf("%d commits checked: the counts hold their peaks, no peak fell without an acceptance, every acceptance is a person's, attribution is clean", r.Checked)) + "\n")
	} else {
		b.WriteString(r.Style.Fail(fmt.Sprintf("sentinel ci refuses: %s", r.tally())) + "\n")
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

// GitHub reads a workflow command from each line of a step's output,
// "::error file=F,line=N,title=T::MESSAGE", and unescapes %25, %0D and %0A
// in the message and also %3A and %2C in the properties; nothing else. A
// name that is printed unescaped could end the line and start a command of
// its own, or end a property early.
var (
	ghData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// ghError writes one error annotation: on a file and line when the path can
// be given to GitHub as it is, and otherwise, for a path with control
// characters GitHub cannot take, with the quoted path in the message.
func ghError(b *strings.Builder, path string, line int, title, msg string) {
	if path == "" {
		fmt.Fprintf(b, "::error title=%s::%s\n", ghProperty.Replace(title), ghData.Replace(msg))
		return
	}
	if !quote.Safe(strings.NewReplacer("\r", "", "\n", "").Replace(path)) {
		fmt.Fprintf(b, "::error title=%s::%s\n", ghProperty.Replace(title), ghData.Replace(quote.Path(path)+": "+msg))
		return
	}
	fmt.Fprintf(b, "::error file=%s,line=%d,title=%s::%s\n", ghProperty.Replace(path), line, ghProperty.Replace(title), ghData.Replace(msg))
}

// WriteGitHub prints GitHub Actions workflow annotations. Names in the
// messages are quoted as in the text report, so that an escape sequence
// in one does not reach the log; file properties carry the real path, so
// that GitHub puts the annotation on the file.
func (r *Report) WriteGitHub(w io.Writer) error {
	var b strings.Builder
	const ratchet = "sentinel ratchet"
	for _, d := range r.Drops {
		ghError(&b, coverage.BaselinePath, 1, ratchet, fmt.Sprintf("%s %s %d → %d; if intended: %s", quote.Name(d.Key), d.Figure, d.Peak, d.Now, r.AcceptCommand))
		for _, u := range d.Uncounted {
			ghError(&b, u.Path, 1, ratchet, u.Sentence())
		}
		for _, m := range d.Missing {
			what := "test removed: "
			if m.Skipped {
				what = "test skipped: "
			}
			ghError(&b, m.Path, m.Line, ratchet, what+quote.Name(m.Name))
		}
		for _, f := range d.Fewer {
			ghError(&b, f.Path, max(f.Line, 1), ratchet, f.Text())
		}
	}
	for _, h := range r.History {
		// A lost test is shown where it last was; a peak or the
		// baseline itself, on the baseline.
		path, line := coverage.BaselinePath, 1
		if h.Test != "" && h.Path != "" {
			path, line = h.Path, max(h.Line, 1)
		}
		ghError(&b, path, line, ratchet, "commit "+gitrepo.ShortID(h.Commit)+" "+quote.Name(h.Title)+": "+quote.Text(h.Reason))
	}
	for _, p := range r.PersonOnly {
		for _, c := range p.Causes {
			ghError(&b, "", 0, "sentinel acceptance", fmt.Sprintf("commit %s %s: %s; %s: %s; instead: %s", gitrepo.ShortID(p.Commit), quote.Name(p.Title), p.Summary(), c.Rule, c.Reason, c.Fix))
		}
	}
	for _, f := range r.Attribution {
		for _, v := range f.Violations {
			ghError(&b, "", 0, "sentinel attribution", fmt.Sprintf("commit %s %s: line %d: %s: %s; fix: %s", quote.Name(f.Source), quote.Name(f.Title), v.Line, v.Rule, v.Reason, v.Fix))
		}
	}
	if r.Results != nil {
		for _, f := range r.Results.Lost {
			ghError(&b, f.Path, max(f.Line, 1), "sentinel ratchet", "test "+quote.Name(f.Name)+": "+quote.Text(f.Text()))
		}
	}
	for _, h := range r.Harness {
		if h.Held {
			ghError(&b, h.Path, 1, "sentinel harness", fmt.Sprintf("commit %s %s changes %s (%s): [ratchet] harness = \"person\" holds it until a person runs sentinel accept --rev %s --harness --reason WHY", gitrepo.ShortID(h.Commit), quote.Name(h.Title), h.What, h.Agent, gitrepo.ShortID(h.Commit)))
			continue
		}
		// A warning: the change is for a person to look at, not a refusal.
		var e strings.Builder
		ghError(&e, h.Path, 1, "sentinel harness", fmt.Sprintf("commit %s %s changes %s: what the runner runs may have changed with no test file changed (%s)", gitrepo.ShortID(h.Commit), quote.Name(h.Title), h.What, h.Agent))
		b.WriteString(strings.Replace(e.String(), "::error ", "::warning ", 1))
	}
	if r.OK() {
		fmt.Fprintf(&b, "::notice title=sentinel::%d commits checked, all pass\n", r.Checked)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
