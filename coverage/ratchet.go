package coverage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gitsentinel/sentinel/config"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/quote"
	"github.com/gitsentinel/sentinel/internal/style"
)

// ErrNoBaseline is returned where a baseline is needed and there is none.
var ErrNoBaseline = errors.New("no " + BaselinePath + " here: run `sentinel init` to write one from the current counts")

// Missing is a test that the reference snapshot has and the checked one
// does not.
type Missing struct {
	Name string `json:"name"`
	Path string `json:"path"`
	Line int    `json:"line"`
	// Skipped reports a test that is still there but switched off; Path
	// and Line are then where it is now.
	Skipped bool `json:"skipped,omitempty"`
}

// Label is how a report names what happened to the test.
func (m Missing) Label() string {
	if m.Skipped {
		return "skipped"
	}
	return "missing"
}

// Text is the test's line in a report for people: what happened to it, its
// name and where it is, quoted where they hold control characters.
func (m Missing) Text() string {
	return fmt.Sprintf("%s: %s (%s:%d)", m.Label(), quote.Name(m.Name), quote.Path(m.Path), m.Line)
}

// Uncounted is a file whose tests the reference snapshot counts and the
// checked one cannot, because the file itself can no longer be counted: it
// turned binary, stopped being valid text, grew past the size limit. Its
// tests are still there; the report names the file, not each test.
type Uncounted struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
	// Tests are the names of the tests the reference counted there that
	// the checked snapshot has nowhere else.
	Tests []string `json:"tests"`

	cause string
}

// Sentence says what became of the file and what it costs, for people.
func (u Uncounted) Sentence() string {
	what := "its test is"
	if len(u.Tests) != 1 {
		what = fmt.Sprintf("its %d tests are", len(u.Tests))
	}
	return fmt.Sprintf("%s %s, so %s not counted", quote.Path(u.Path), u.cause, what)
}

// Drop is a figure below its peak.
type Drop struct {
	Key     string    `json:"key"`
	Figure  string    `json:"figure"`
	Peak    int       `json:"peak"`
	Now     int       `json:"now"`
	Missing []Missing `json:"missing,omitempty"`
	// Reference is the figure in the reference snapshot (HEAD, or the
	// parent), counted by this sentinel's rules; AtReference reports that
	// the reference is no higher, so the change did not cause the drop.
	Reference   int  `json:"reference"`
	AtReference bool `json:"at_reference"`
	// Uncounted are the files whose tests went uncounted, in place of
	// those tests in Missing.
	Uncounted []Uncounted `json:"uncounted,omitempty"`
	// Fewer are, for a drop in assertions, the tests and files that hold
	// fewer of them than the reference snapshot.
	Fewer []Fewer `json:"fewer,omitempty"`
}

// CheckResult is the ratchet's verdict on a snapshot.
type CheckResult struct {
	// Style paints the verdict of the text report; plain by default.
	Style style.Style `json:"-"`
	// Counts are the snapshot's counts.
	Counts *Counts `json:"-"`
	// Baseline is the snapshot's baseline.
	Baseline *Baseline `json:"-"`
	// Rows compare each row with its peak.
	Rows []Row `json:"rows"`
	// Drops are the figures below their peaks.
	Drops []Drop `json:"drops"`
	// Losses are the tests the reference snapshot runs that this one lost,
	// removed, switched off or emptied, and no acceptance of this snapshot
	// lets go, whatever the totals say.
	Losses []Loss `json:"losses"`
	// Raised is the baseline with peaks raised to the counts, or nil
	// when nothing is above its peak.
	Raised *Baseline `json:"-"`
}

// OK reports whether nothing is below its peak.
func (r *CheckResult) OK() bool { return len(r.Drops) == 0 && len(r.Losses) == 0 }

// Check counts a snapshot and compares it with the baseline of the same
// snapshot. Each drop in tests names the tests that the reference snapshot
// (HEAD, or the parent of the checked revision) has and this one lacks.
func Check(ctx context.Context, o Options) (*CheckResult, error) {
	var pending *changesRun
	if o.Dir != "" && o.Mode != Plain {
		pending = startChanges(ctx, o, o.Dir)
	}
	co := o
	co.changes = pending
	c, err := Count(ctx, co)
	if err != nil {
		if pending != nil {
			pending.wait()
		}
		return nil, err
	}
	if c.Baseline == nil {
		return nil, ErrNoBaseline
	}
	b, err := ParseBaseline(c.BaselineName, c.Baseline)
	if err != nil {
		return nil, err
	}
	res := &CheckResult{Counts: c, Baseline: b, Rows: Compare(c, b)}
	for _, r := range res.Rows {
		if r.Now.Tests < r.Peak.Tests {
			res.Drops = append(res.Drops, Drop{Key: r.Key, Figure: FigureTests, Peak: r.Peak.Tests, Now: r.Now.Tests})
		}
		if r.Now.Assertions < r.Peak.Assertions {
			res.Drops = append(res.Drops, Drop{Key: r.Key, Figure: FigureAssertions, Peak: r.Peak.Assertions, Now: r.Now.Assertions})
		}
	}
	if raised, ok := b.Raise(res.Rows); ok {
		res.Raised = raised
	}
	if len(res.Drops) > 0 {
		if err := res.findMissing(ctx, o); err != nil {
			return nil, err
		}
	}
	ls, ref, err := losses(ctx, o, c, pending)
	if err != nil {
		return nil, err
	}
	if res.Losses, err = unaccepted(ctx, c.Root, ref, b, ls); err != nil {
		return nil, err
	}
	if res.Losses == nil {
		res.Losses = []Loss{}
	}
	if res.Drops == nil {
		res.Drops = []Drop{}
	}
	return res, nil
}

// unaccepted drops the losses that an acceptance lets go: one that the
// checked baseline holds and the reference's baseline does not, so added
// with the change that loses the tests.
func unaccepted(ctx context.Context, root, ref string, b *Baseline, ls []Loss) ([]Loss, error) {
	if len(ls) == 0 {
		return ls, nil
	}
	old, err := BaselineAt(ctx, root, ref)
	var be *BaselineError
	if err != nil && !errors.As(err, &be) {
		return nil, err
	}
	return letGo(b, old, ls), nil
}

// Text says what became of the test, for people.
func (l Loss) Text() string {
	where := fmt.Sprintf("(%s:%d)", quote.Path(l.Path), l.Line)
	switch l.Cause {
	case LostSkipped:
		return fmt.Sprintf("%s %s is switched off %s", l.Language, quote.Name(l.Name), where)
	case LostNarrowed:
		return fmt.Sprintf("%s %s is built for fewer platforms %s: it no longer runs on some it ran on", l.Language, quote.Name(l.Name), where)
	case LostEmptied:
		return fmt.Sprintf("%s %s no longer asserts anything %s; it made %d assertion(s)", l.Language, quote.Name(l.Name), where, l.Assertions)
	}
	return fmt.Sprintf("%s %s is gone %s, under its name and its body", l.Language, quote.Name(l.Name), where)
}

// findMissing diffs the test lists with the reference snapshot. A test that
// moved to another file, or that only changed line, is not missing; one in
// a file this snapshot could not count is put down to that file.
func (r *CheckResult) findMissing(ctx context.Context, o Options) error {
	ref := Options{Dir: o.Dir, Mode: Rev, Rev: "HEAD", Excludes: o.Excludes, Paths: o.Paths, Scopes: o.Scopes, CacheDir: o.CacheDir}
	if o.Mode == Rev {
		ref.Rev = o.Rev + "^"
	}
	rc, err := Count(ctx, ref)
	if errors.Is(err, gitrepo.ErrUnknownRevision) {
		return nil // a first commit has nothing to diff against
	}
	if err != nil {
		return err
	}
	have := map[string]int{}
	skipped := map[string][]Missing{}
	for _, f := range r.Counts.Files {
		for _, t := range f.Tests {
			k := r.Counts.RowKey(f.Path, f.Language) + "\x00" + t.Name
			if t.Status == "active" {
				have[k]++
			} else {
				skipped[k] = append(skipped[k], Missing{Name: t.Name, Path: f.Path, Line: t.Line, Skipped: true})
			}
		}
	}
	uncountable := map[string]SkippedFile{}
	for _, sf := range r.Counts.Skipped {
		uncountable[sf.Path] = sf
	}
	refRows := rc.Rows()
	for i := range r.Drops {
		d := &r.Drops[i]
		// The reference itself below the peak, counted by this sentinel:
		// the drop came with the rules (an upgrade that reads more tests as
		// switched off), not with this change.
		if f := refRows[d.Key]; f != nil {
			now := f.Tests
			if d.Figure == FigureAssertions {
				now = f.Assertions
			}
			d.Reference = now
			d.AtReference = now <= d.Now
		}
		if d.Figure == FigureAssertions {
			d.Fewer = fewerAssertions(rc, r.Counts, d.Key)
		}
		if d.Figure != FigureTests {
			continue
		}
		for _, f := range rc.Files {
			if rc.RowKey(f.Path, f.Language) != d.Key {
				continue
			}
			sf, uncounted := uncountable[f.Path]
			var lost *Uncounted
			for _, t := range f.Tests {
				if t.Status != "active" {
					continue
				}
				k := d.Key + "\x00" + t.Name
				if have[k] > 0 {
					have[k]--
					continue
				}
				if sk := skipped[k]; len(sk) > 0 {
					d.Missing = append(d.Missing, sk[0])
					skipped[k] = sk[1:]
					continue
				}
				if !uncounted {
					d.Missing = append(d.Missing, Missing{Name: t.Name, Path: f.Path, Line: t.Line})
					continue
				}
				if lost == nil {
					d.Uncounted = append(d.Uncounted, Uncounted{Path: f.Path, Reason: sf.Reason, Tests: []string{}, cause: sf.Cause})
					lost = &d.Uncounted[len(d.Uncounted)-1]
				}
				lost.Tests = append(lost.Tests, t.Name)
			}
		}
	}
	return nil
}

// AcceptCommand is the command that records the drops as intended.
func (r *CheckResult) AcceptCommand() string {
	seen := map[string]bool{}
	var langs []string
	for _, d := range r.Drops {
		if !seen[d.Key] {
			seen[d.Key] = true
			langs = append(langs, "--language "+d.Key)
		}
	}
	return strings.TrimSpace(`sentinel accept --reason "WHY THESE TESTS WENT" ` + strings.Join(langs, " "))
}

// WriteText prints the verdict for people.
func (r *CheckResult) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, d := range r.Drops {
		fmt.Fprintf(&b, "%s %s %d → %d (below the peak by %d)\n", quote.Name(d.Key), d.Figure, d.Peak, d.Now, d.Peak-d.Now)
		for _, u := range d.Uncounted {
			fmt.Fprintf(&b, "  %s\n", u.Sentence())
		}
		for _, m := range d.Missing {
			fmt.Fprintf(&b, "  %s\n", m.Text())
		}
		for _, f := range d.Fewer {
			fmt.Fprintf(&b, "  %s\n", f.Text())
		}
		if d.AtReference {
			fmt.Fprintf(&b, "  the last commit counts %d by this sentinel's rules: the peak came from an older sentinel or a commit that skipped the hooks; if the rules changed, a person records it once: sentinel accept --reason \"sentinel upgrade\"\n", d.Reference)
			continue
		}
		if d.Figure == FigureTests && len(d.Missing) == 0 && len(d.Uncounted) == 0 {
			b.WriteString("  (no test is missing by name: tests were turned off, or moved to an excluded path)\n")
		}
	}
	if len(r.Losses) > 0 {
		named := map[string]bool{}
		for _, d := range r.Drops {
			for _, m := range d.Missing {
				named[m.Path+"\x00"+m.Name] = true
			}
		}
		var lines []string
		for _, l := range r.Losses {
			if !named[l.Path+"\x00"+l.Name] {
				lines = append(lines, "  "+l.Text()+"\n")
			}
		}
		if len(lines) > 0 {
			b.WriteString("tests the last commit runs that this change loses, whatever the totals:\n")
			b.WriteString(strings.Join(lines, ""))
		}
	}
	if !r.OK() {
		if len(r.Drops) > 0 {
			b.WriteString(r.Style.Fail(fmt.Sprintf("the ratchet refuses: a count went below its peak in %s.", BaselinePath)) + "\n")
		} else {
			b.WriteString(r.Style.Fail("the ratchet refuses: tests were lost, though the totals hold.") + "\n")
		}
		fmt.Fprintf(&b, "If the tests were removed or switched off on purpose, a person records it:\n  %s\n", r.AcceptCommand())
	} else {
		b.WriteString(r.Style.Pass("every count is at or above its peak") + "\n")
		if r.Raised != nil {
			b.WriteString("some counts are above their peaks: `sentinel check --update` raises them\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteStatus prints a table of the counts against the peaks.
func WriteStatus(w io.Writer, c *Counts, b *Baseline) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "row\tfiles\ttests\tskipped\tassertions\tvacuous\tpeak tests\tpeak assertions\tmargin\t")
	for _, r := range Compare(c, b) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%+d/%+d\t\n", quote.Name(r.Key), r.Now.Files, r.Now.Tests, r.Now.Skipped,
			r.Now.Assertions, r.Now.Vacuous, r.Peak.Tests, r.Peak.Assertions, r.Now.Tests-r.Peak.Tests, r.Now.Assertions-r.Peak.Assertions)
	}
	return tw.Flush()
}

// AcceptOptions says what to accept.
type AcceptOptions struct {
	// Dir is a directory in the repository.
	Dir string
	// Reason says why the tests went; required.
	Reason string
	// Languages restricts the acceptance to these rows; empty means all.
	Languages []string
	// By is who accepts ("Name <email>").
	By string
	// Now is the time of the acceptance.
	Now time.Time
	// Excludes are the configured exclude patterns.
	Excludes []string
	// Scopes are the configured scopes.
	Scopes []config.Scope
	// CacheDir is the configured cache directory, as in Options.
	CacheDir string
	// Rev, when set, is a commit already made whose losses the acceptance
	// lets go after the fact: the tests it lost and the peaks it lowered
	// without an acceptance (Acceptance.Commit).
	Rev string
	// Harness, with Rev, accepts that commit's change to the runner's
	// harness too (Acceptance.Harness), which [ratchet] harness = "person"
	// holds until a person accepts it; the commit need have lost nothing.
	Harness bool
}

// AcceptResult is what Accept did: it recorded a new acceptance, or it
// staged the acceptances an interrupted accept had written to the work
// tree only.
type AcceptResult struct {
	// Recorded is the new acceptance.
	Recorded *Acceptance
	// Restaged are the earlier acceptances it staged instead.
	Restaged []Acceptance
}

// ErrNothingToAccept is returned when no count is below its peak.
var ErrNothingToAccept = errors.New("nothing is below its peak: there is no removal to accept")

// Accept lowers the peaks to the current counts, taking for each figure the
// lower of the index and the work tree (so it works after git add and a
// refused commit, and after a refused commit -a, whose index git throws
// away), appends the record, and stages the baseline. The baseline is read,
// changed and written under the repository's lock.
func Accept(ctx context.Context, o AcceptOptions) (*AcceptResult, error) {
	if strings.TrimSpace(o.Reason) == "" {
		return nil, errors.New("--reason is required: say why the tests went")
	}
	wt, err := Count(ctx, Options{Dir: o.Dir, Mode: WorkTree, Excludes: o.Excludes, Scopes: o.Scopes, CacheDir: o.CacheDir})
	if err != nil {
		return nil, err
	}
	idx, err := Count(ctx, Options{Dir: o.Dir, Mode: Index, Excludes: o.Excludes, Scopes: o.Scopes, CacheDir: o.CacheDir})
	if err != nil {
		return nil, err
	}
	if wt.Baseline == nil {
		return nil, ErrNoBaseline
	}
	// The counts came before the lock, and they are what they are; the
	// peaks are read again under it, so that an acceptance or a raise that
	// landed meanwhile is kept, not written over.
	want := map[string]bool{}
	for _, l := range o.Languages {
		want[l] = true
	}
	lowest := map[string]Figures{}
	for _, c := range []*Counts{wt, idx} {
		for k, f := range c.Rows() {
			cur, ok := lowest[k]
			if !ok {
				lowest[k] = *f
				continue
			}
			cur.Tests = min(cur.Tests, f.Tests)
			cur.Assertions = min(cur.Assertions, f.Assertions)
			lowest[k] = cur
		}
	}
	rec := Acceptance{At: o.Now.UTC().Format(time.RFC3339), By: o.By, Reason: strings.TrimSpace(o.Reason), Lowered: map[string]map[string][2]int{}}
	var after *afterTheFact
	if o.Harness && o.Rev == "" {
		return nil, errors.New("--harness accepts a commit already made: run `sentinel accept --rev COMMIT --harness --reason \"WHY THE HARNESS CHANGED\"`")
	}
	rec.Harness = o.Harness
	if o.Rev != "" {
		if after, err = commitToAccept(ctx, o); err != nil {
			return nil, err
		}
		rec.Commit = after.commit
		for _, l := range after.losses {
			if wantLanguage(want, l.Language) {
				rec.Tests = append(rec.Tests, AcceptedTest{Language: l.Language, Name: l.Name, Path: l.Path})
			}
		}
	}
	// The tests lost by name go into the record too, from the index (what
	// git commit takes) and the work tree (what commit -a takes); after
	// the fact, those of the commit named.
	seenLoss := map[string]bool{}
	for _, side := range []struct {
		mode Mode
		c    *Counts
	}{{Index, idx}, {WorkTree, wt}} {
		if after != nil {
			break
		}
		ls, _, err := losses(ctx, Options{Dir: o.Dir, Mode: side.mode, Excludes: o.Excludes, Scopes: o.Scopes, CacheDir: o.CacheDir}, side.c, nil)
		if err != nil {
			return nil, err
		}
		for _, l := range ls {
			if seenLoss[l.Key()] || !wantLanguage(want, l.Language) {
				continue
			}
			seenLoss[l.Key()] = true
			rec.Tests = append(rec.Tests, AcceptedTest{Language: l.Language, Name: l.Name, Path: l.Path})
		}
	}
	var restaged []Acceptance
	_, err = UpdateBaseline(ctx, UpdateOptions{Root: wt.Root, CommonDir: wt.CommonDir, Stage: true}, func(b *Baseline) (*Baseline, error) {
		if b == nil {
			return nil, ErrNoBaseline
		}
		out := b.clone()
		keys := make([]string, 0, len(b.Peaks))
		for k := range b.Peaks {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if len(want) > 0 && !want[k] {
				continue
			}
			p, now := b.Peaks[k], lowest[k]
			lowered := map[string][2]int{}
			if now.Tests < p.Tests {
				lowered[FigureTests] = [2]int{p.Tests, now.Tests}
				p.Tests = now.Tests
			}
			if now.Assertions < p.Assertions {
				lowered[FigureAssertions] = [2]int{p.Assertions, now.Assertions}
				p.Assertions = now.Assertions
			}
			if len(lowered) > 0 {
				rec.Lowered[k] = lowered
				out.Peaks[k] = p
			}
		}
		if after != nil {
			// What an earlier acceptance after the fact let go of the same
			// commit is not accepted twice; the peaks the commit lowered
			// are recorded beside those this acceptance lowers now.
			already := forward{}
			for _, a := range b.Accepted {
				if a.Commit == after.commit {
					already[a.Commit] = append(already[a.Commit], a)
				}
			}
			var keep []AcceptedTest
			for _, t := range rec.Tests {
				if !already.lets(after.commit, Loss{Language: t.Language, Name: t.Name, Path: t.Path}) {
					keep = append(keep, t)
				}
			}
			rec.Tests = keep
			for _, l := range after.falls {
				if (len(want) > 0 && !want[l.Key]) || already.lowers(after.commit, l) {
					continue
				}
				if rec.Lowered[l.Key] == nil {
					rec.Lowered[l.Key] = map[string][2]int{}
				}
				if _, now := rec.Lowered[l.Key][l.Figure]; !now {
					rec.Lowered[l.Key][l.Figure] = [2]int{l.Before, l.After}
				}
			}
		}
		// Tests that an acceptance not yet committed lets go already are
		// not accepted twice.
		if len(rec.Tests) > 0 && after == nil {
			head, err := BaselineAt(ctx, wt.Root, "HEAD")
			var be *BaselineError
			if err != nil && !errors.As(err, &be) {
				return nil, err
			}
			ls := make([]Loss, len(rec.Tests))
			for i, t := range rec.Tests {
				ls[i] = Loss{Language: t.Language, Name: t.Name, Path: t.Path}
			}
			rec.Tests = rec.Tests[:0]
			for _, l := range letGo(b, head, ls) {
				rec.Tests = append(rec.Tests, AcceptedTest{Language: l.Language, Name: l.Name, Path: l.Path})
			}
			if len(rec.Tests) == 0 {
				rec.Tests = nil
			}
		}
		if len(rec.Lowered) == 0 && len(rec.Tests) == 0 && !rec.Harness {
			// An accept killed between writing the work tree's baseline and
			// staging it leaves the acceptance on disk only; the commit would
			// then be refused with nothing left to accept. Staging it now
			// finishes that accept.
			unstaged, err := unstagedAcceptances(ctx, wt.Root, b)
			if err != nil {
				return nil, err
			}
			if len(unstaged) > 0 {
				restaged = unstaged
				return b, nil
			}
			if after != nil {
				return nil, fmt.Errorf("%w: commit %s lost no test and lowered no peak that an acceptance does not cover", ErrNothingToAccept, gitrepo.ShortID(after.commit))
			}
			return nil, ErrNothingToAccept
		}
		out.Accepted = append(out.Accepted, rec)
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	if len(restaged) > 0 {
		return &AcceptResult{Restaged: restaged}, nil
	}
	return &AcceptResult{Recorded: &rec}, nil
}

// afterTheFact is what a commit already made lost without an acceptance.
type afterTheFact struct {
	commit string
	losses []Loss
	falls  []Lowering
}

// commitToAccept reads what the commit o.Rev names lost against its first
// parent, each side counted with its own configuration, that no acceptance
// of its own lets go: the tests, and the peaks its baseline lowered.
func commitToAccept(ctx context.Context, o AcceptOptions) (*afterTheFact, error) {
	root, err := gitrepo.FindRoot(ctx, o.Dir)
	if err != nil {
		return nil, err
	}
	id, err := gitrepo.ResolveCommit(ctx, root, o.Rev)
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, fmt.Errorf("--rev %s names no commit: give the id `git log` shows for the commit that lost the tests", quote.Name(o.Rev))
	}
	cs, err := gitrepo.CommitsByID(ctx, root, []string{id})
	if err != nil {
		return nil, err
	}
	if len(cs) != 1 || len(cs[0].Parents) == 0 {
		return nil, fmt.Errorf("commit %s has no parent: there is nothing it could have lost", gitrepo.ShortID(id))
	}
	parent := cs[0].Parents[0]
	cur, err := BaselineAt(ctx, root, id)
	if err != nil {
		return nil, err
	}
	ref, err := BaselineAt(ctx, root, parent)
	if err != nil {
		return nil, err
	}
	if cur == nil || ref == nil {
		return nil, fmt.Errorf("commit %s or its parent has no %s: the ratchet did not hold there", gitrepo.ShortID(id), BaselinePath)
	}
	ro, err := OptionsAt(ctx, Options{Dir: root, CacheDir: o.CacheDir}, id)
	if err != nil {
		return nil, err
	}
	ls, err := CommitLosses(ctx, ro, id, parent, cur, ref)
	if err != nil {
		return nil, err
	}
	return &afterTheFact{commit: id, losses: ls, falls: Lowered(ref, cur)}, nil
}

// wantLanguage reports whether --language values (rows: a language, or
// scope/language) take in a test of lang; none take in every language.
func wantLanguage(want map[string]bool, lang string) bool {
	if len(want) == 0 || want[lang] {
		return true
	}
	for k := range want {
		if strings.HasSuffix(k, "/"+lang) {
			return true
		}
	}
	return false
}

// ProjectOptions returns the options for counting the repository that
// contains dir as its configuration asks (excludes), with the configuration.
func ProjectOptions(ctx context.Context, dir string, mode Mode, rev string) (Options, *config.Config, error) {
	root, err := gitrepo.FindRoot(ctx, dir)
	if err != nil {
		return Options{}, nil, err
	}
	cfg, err := config.Load(root)
	if err != nil {
		return Options{}, nil, err
	}
	// The cache's location never comes from the repository: a committed
	// cache_dir could write anywhere the user can, or point CI at counts a
	// pull request forged. SENTINEL_CACHE_DIR, the user's, decides.
	o := Options{Dir: root, Mode: mode, Rev: rev, Excludes: cfg.Coverage.Exclude, Scopes: cfg.Coverage.Scope}
	// A commit counts with the configuration it holds, which need not be
	// the work tree's (a commit pushed from another branch); the index
	// does too, and its count reads the staged copy itself (countSnapshot).
	if mode == Rev && rev != "" {
		if o, err = OptionsAt(ctx, o, rev); err != nil {
			return Options{}, nil, err
		}
	}
	o.stagedConfig = mode == Index
	return o, cfg, nil
}
