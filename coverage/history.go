package coverage

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/gitsentinel/sentinel/config"
	"github.com/gitsentinel/sentinel/gitrepo"
)

// HistoryIssue is a commit that lowered a peak without an acceptance.
type HistoryIssue struct {
	Commit string `json:"commit"`
	Title  string `json:"title"`
	Key    string `json:"key,omitempty"`
	Figure string `json:"figure,omitempty"`
	Before int    `json:"before"`
	After  int    `json:"after"`
	// Test, Path, Line and Cause name a test the commit lost.
	Test   string `json:"test,omitempty"`
	Path   string `json:"path,omitempty"`
	Line   int    `json:"line,omitempty"`
	Cause  string `json:"cause,omitempty"`
	Reason string `json:"reason"`
}

// BaselineChange is a commit that does to the baseline what only a person
// may do: add an acceptance, or lower a peak (with an acceptance or
// without).
type BaselineChange struct {
	// Commit is the commit's full id.
	Commit string
	// Added are the acceptances the commit's baseline holds and its
	// reference lacks, in the baseline's order.
	Added []Acceptance
	// Lowered are the peaks the commit holds lower than its reference, in
	// key order, covered by an acceptance or not.
	Lowered []Lowering
}

// ReviewHistory checks the baseline commit by commit: no peak may be lower
// than in the commit's parent, unless the same commit adds an acceptance
// that lowers that figure. For a merge, the reference is what the merge
// driver computes from the parents and their merge base. Comparing only the
// two ends of a range would miss a branch that raised a peak and then
// lowered it by hand, or a hand edit committed with --no-verify. It also
// returns, for each commit that adds an acceptance or lowers a peak, what
// it changed: whether a person made such a commit is for the caller to
// judge. A commit with no baseline before it (the one that sets the
// ratchet up) changes nothing.
func ReviewHistory(ctx context.Context, root string, commits []gitrepo.Commit) ([]HistoryIssue, []BaselineChange, error) {
	var specs []string
	for _, c := range commits {
		specs = append(specs, c.Hash+":"+BaselinePath, c.Hash+":"+config.File)
		for _, p := range c.Parents {
			specs = append(specs, p+":"+BaselinePath)
		}
	}
	blobs, err := gitrepo.ReadSpecs(ctx, root, specs)
	if err != nil {
		return nil, nil, err
	}
	parse := func(rev string) (*Baseline, error) {
		data := blobs[rev+":"+BaselinePath]
		if data == nil {
			return nil, nil
		}
		return ParseBaseline(rev[:min(12, len(rev))]+":"+BaselinePath, data)
	}
	var issues []HistoryIssue
	var changes []BaselineChange
	var opts *Options
	// Acceptances recorded after the fact, by the commit they name: a
	// commit of the range that adds one is itself a person's to make
	// (changes), as any acceptance.
	later := laterAcceptances(commits, parse)
	for _, c := range commits {
		title := firstLine(c.Message)
		cur, err := parse(c.Hash)
		if err != nil {
			issues = append(issues, HistoryIssue{Commit: c.Hash, Title: title, Reason: err.Error()})
			continue
		}
		ref, err := referenceBaseline(ctx, root, c, parse)
		if err != nil {
			return nil, nil, err
		}
		switch {
		case ref == nil:
			continue // no baseline before this commit
		case cur == nil:
			issues = append(issues, HistoryIssue{Commit: c.Hash, Title: title, Reason: "the commit deletes " + BaselinePath})
			continue
		}
		for _, l := range Lowered(ref, cur) {
			if later.lowers(c.Hash, l) {
				continue
			}
			issues = append(issues, HistoryIssue{Commit: c.Hash, Title: title, Key: l.Key, Figure: l.Figure, Before: l.Before, After: l.After,
				Reason: fmt.Sprintf("the peak of %s %s fell from %d to %d without an acceptance in the same commit", l.Key, l.Figure, l.Before, l.After)})
		}
		if ch := (BaselineChange{Commit: c.Hash, Added: AddedAcceptances(ref, cur), Lowered: Fallen(ref, cur)}); len(ch.Added) > 0 || len(ch.Lowered) > 0 {
			changes = append(changes, ch)
		}
		if len(c.Parents) == 0 {
			continue
		}
		// Tests the commit loses by name, though its totals hold: the same
		// rule the pre-commit hook applies, commit by commit, so that
		// --no-verify does not get one through.
		if opts == nil {
			o, _, err := ProjectOptions(ctx, root, Rev, "")
			if err != nil {
				return nil, nil, err
			}
			opts = &o
		}
		// Each commit counts with its own configuration, and its parent
		// with the parent's: the same work tree's for all would let a
		// pattern added at the end hide a test file removed on the way.
		o := *opts
		counting, err := config.Counting{}, error(nil)
		if data := blobs[c.Hash+":"+config.File]; data != nil {
			counting, err = config.ReadCounting(gitrepo.ShortID(c.Hash)+":"+config.File, data)
		}
		if err != nil {
			issues = append(issues, HistoryIssue{Commit: c.Hash, Title: title,
				Reason: fmt.Sprintf("%v: what the commit counts is unknown, so the tests it loses are", err)})
			continue
		}
		o.Excludes, o.Scopes = counting.Exclude, counting.Scope
		ls, err := CommitLosses(ctx, o, c.Hash, c.Parents[0], cur, ref)
		if err != nil {
			return nil, nil, err
		}
		for _, l := range ls {
			if later.lets(c.Hash, l) {
				continue
			}
			issues = append(issues, HistoryIssue{Commit: c.Hash, Title: title, Key: l.Language, Test: l.Name, Path: l.Path, Line: l.Line, Cause: l.Cause,
				Reason: l.Text() + ", and neither the commit nor a later one adds an acceptance that names it"})
		}
	}
	return issues, changes, nil
}

// forward holds the acceptances recorded after the fact (Acceptance.Commit),
// by the full id of the commit they name.
type forward map[string][]Acceptance

// laterAcceptances collects the acceptances after the fact that the
// baselines of the range hold.
func laterAcceptances(commits []gitrepo.Commit, parse func(string) (*Baseline, error)) forward {
	out := forward{}
	seen := map[string]bool{}
	for _, c := range commits {
		b, err := parse(c.Hash)
		if err != nil || b == nil {
			continue
		}
		for _, a := range b.Accepted {
			if a.Commit != "" && !seen[a.key()] {
				seen[a.key()] = true
				out[a.Commit] = append(out[a.Commit], a)
			}
		}
	}
	return out
}

// lets reports whether an acceptance after the fact names a test the
// commit lost.
func (f forward) lets(commit string, l Loss) bool {
	for _, a := range f[commit] {
		for _, t := range a.Tests {
			if t.Key() == l.Key() {
				return true
			}
		}
	}
	return false
}

// lowers reports whether an acceptance after the fact covers a peak the
// commit lowered, to at most its new value.
func (f forward) lowers(commit string, l Lowering) bool {
	for _, a := range f[commit] {
		if v, ok := a.Lowered[l.Key][l.Figure]; ok && v[1] <= l.After {
			return true
		}
	}
	return false
}

// AddedAcceptances lists the acceptances cur holds and ref lacks. An
// acceptance edited in place (another reason, another name) is a new one.
func AddedAcceptances(ref, cur *Baseline) []Acceptance {
	old := map[string]bool{}
	for _, a := range ref.Accepted {
		old[a.key()] = true
	}
	var out []Acceptance
	for _, a := range cur.Accepted {
		if !old[a.key()] {
			out = append(out, a)
		}
	}
	return out
}

// Fallen lists, in key order, every peak cur holds lower than ref, whether
// or not an acceptance covers it.
func Fallen(ref, cur *Baseline) []Lowering {
	var out []Lowering
	for _, k := range slices.Sorted(maps.Keys(ref.Peaks)) {
		was, now := ref.Peaks[k], cur.Peaks[k]
		if now.Tests < was.Tests {
			out = append(out, Lowering{Key: k, Figure: FigureTests, Before: was.Tests, After: now.Tests})
		}
		if now.Assertions < was.Assertions {
			out = append(out, Lowering{Key: k, Figure: FigureAssertions, Before: was.Assertions, After: now.Assertions})
		}
	}
	return out
}

// Lowering is a peak that a baseline holds lower than the baseline before
// it did.
type Lowering struct {
	Key    string `json:"key"`
	Figure string `json:"figure"`
	Before int    `json:"before"`
	After  int    `json:"after"`
}

// Lowered lists, in key order, the peaks that cur holds lower than ref
// without an acceptance that cur adds and ref lacks: the one way a peak may
// fall.
func Lowered(ref, cur *Baseline) []Lowering {
	added := map[string]bool{}
	for _, a := range ref.Accepted {
		added[a.key()] = true
	}
	var out []Lowering
	for _, k := range slices.Sorted(maps.Keys(ref.Peaks)) {
		was, now := ref.Peaks[k], cur.Peaks[k]
		for _, f := range []struct {
			name        string
			before, got int
		}{{FigureTests, was.Tests, now.Tests}, {FigureAssertions, was.Assertions, now.Assertions}} {
			if f.got >= f.before || coveredByNew(cur, added, k, f.name, f.got) {
				continue
			}
			out = append(out, Lowering{Key: k, Figure: f.name, Before: f.before, After: f.got})
		}
	}
	return out
}

// coveredByNew reports an acceptance, new in this commit, that lowers the
// figure to at most its new value.
func coveredByNew(cur *Baseline, old map[string]bool, key, figure string, to int) bool {
	for _, a := range cur.Accepted {
		if old[a.key()] {
			continue
		}
		if v, ok := a.Lowered[key][figure]; ok && v[1] <= to {
			return true
		}
	}
	return false
}

// referenceBaseline is the baseline a commit is measured against: its
// parent's, or for a merge what the merge driver makes of its parents.
func referenceBaseline(ctx context.Context, root string, c gitrepo.Commit, parse func(string) (*Baseline, error)) (*Baseline, error) {
	var ref *Baseline
	for i, p := range c.Parents {
		pb, err := parse(p)
		if err != nil {
			// The commit that broke that baseline is reported on its own;
			// it is no reference for this one.
			continue
		}
		switch {
		case pb == nil:
			continue
		case ref == nil || i == 0:
			ref = pb
			continue
		}
		base, err := gitrepo.MergeBase(ctx, root, c.Parents[0], p)
		if err != nil {
			return nil, err
		}
		var bb *Baseline
		if base != "" {
			var be *BaselineError
			if bb, err = BaselineAt(ctx, root, base); errors.As(err, &be) {
				bb = nil // unreadable: no base
			} else if err != nil {
				return nil, err
			}
		}
		ref = MergeBaselines(bb, ref, pb)
	}
	return ref, nil
}

func firstLine(msg []byte) string {
	for i, c := range msg {
		if c == '\n' {
			return string(msg[:i])
		}
	}
	return string(msg)
}

// BaselineAt reads and parses the baseline a revision holds; it returns nil
// when the revision does not exist (an unborn HEAD) or holds none.
func BaselineAt(ctx context.Context, dir, rev string) (*Baseline, error) {
	spec := rev + ":" + BaselinePath
	blobs, err := gitrepo.ReadSpecs(ctx, dir, []string{spec})
	if err != nil {
		return nil, err
	}
	if blobs[spec] == nil {
		return nil, nil
	}
	return ParseBaseline(spec, blobs[spec])
}
