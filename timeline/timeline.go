// Package timeline reads the test ratchet's history: the baseline each
// commit on the first-parent line recorded, with the acceptances that
// lowered it, and draws it as a terminal chart, JSON, CSV or an SVG chart.
//
// The baseline holds peaks, not counts: a commit's figures here are the
// peaks it recorded (the floor the ratchet holds the next commit to),
// which rise with the tests and fall only through an acceptance. The
// highest figure each row has reached so far, which no acceptance lowers,
// is kept beside them, so that a chart shows how far acceptances brought
// the floor down.
package timeline

import (
	"context"
	"errors"
	"maps"
	"slices"

	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/gitrepo"
)

// Order says, in the JSON, how the commits are listed.
const Order = "oldest first"

// Timeline is the ratchet's history: the commits on HEAD's first-parent
// line that changed the baseline, oldest first.
type Timeline struct {
	// Order is always Order.
	Order string `json:"order"`
	// Since is the revision the history starts after, or "".
	Since string `json:"since"`
	// Keys are every row (language, or scope and language) any commit
	// recorded, sorted.
	Keys []string `json:"keys"`
	// Commits are the commits, oldest first.
	Commits []Commit `json:"commits"`
}

// Commit is one commit that changed the baseline, and the baseline it
// holds.
type Commit struct {
	Commit string `json:"commit"`
	// Date is the committer date, strict ISO 8601.
	Date   string `json:"date"`
	Author string `json:"author"`
	Title  string `json:"title"`
	// Peaks are the figures the commit's baseline records; empty when
	// Error is set.
	Peaks map[string]coverage.Peak `json:"peaks"`
	// Highs are the highest figures each row has recorded up to and with
	// this commit, from the start of the history (or the baseline of
	// Since): acceptances do not lower them.
	Highs map[string]coverage.Peak `json:"highs"`
	// Accepted are the acceptances this commit adds.
	Accepted []Acceptance `json:"accepted"`
	// Error says why the commit's baseline could not be read, or is "".
	Error string `json:"error"`
}

// Acceptance is an acceptance a commit adds: who, when, why, and what it
// lowered.
type Acceptance struct {
	At     string `json:"at"`
	By     string `json:"by"`
	Reason string `json:"reason"`
	// Lowered are the figures it lowered, in key and figure order.
	Lowered []coverage.Lowering `json:"lowered"`
	// Tests are the tests it let go by name.
	Tests []coverage.AcceptedTest `json:"tests"`
}

// Read builds the timeline of the repository that holds dir: one git log and one
// git cat-file for every commit, however long the history. With since set,
// the commits reachable from it are left out, and its baseline is the one
// the first commit is compared with. A baseline that does not parse is
// reported in its commit's Error.
func Read(ctx context.Context, dir, since string) (*Timeline, error) {
	root, err := gitrepo.FindRoot(ctx, dir)
	if err != nil {
		return nil, err
	}
	logged, err := gitrepo.FileLog(ctx, root, since, coverage.BaselinePath)
	if err != nil {
		return nil, err
	}
	var prev *coverage.Baseline
	if since != "" {
		var be *coverage.BaselineError
		if prev, err = coverage.BaselineAt(ctx, root, since); errors.As(err, &be) {
			prev = nil // reported by nobody: the range starts after it
		} else if err != nil {
			return nil, err
		}
	}
	return build(since, logged, prev), nil
}

// build turns the logged baselines into a timeline; prev is the baseline
// before the first of them, or nil.
func build(since string, logged []gitrepo.FileCommit, prev *coverage.Baseline) *Timeline {
	t := &Timeline{Order: Order, Since: since, Keys: []string{}, Commits: []Commit{}}
	highs := map[string]coverage.Peak{}
	if prev != nil {
		raise(highs, prev.Peaks)
	}
	keys := map[string]bool{}
	for _, l := range logged {
		c := Commit{Commit: l.Hash, Date: l.Date, Author: l.Author, Title: l.Title,
			Peaks: map[string]coverage.Peak{}, Accepted: []Acceptance{}}
		var cur *coverage.Baseline
		if l.Data == nil {
			c.Error = "the commit deletes " + coverage.BaselinePath
		} else if b, err := coverage.ParseBaseline(gitrepo.ShortID(l.Hash)+":"+coverage.BaselinePath, l.Data); err != nil {
			c.Error = err.Error()
		} else {
			cur = b
		}
		if cur != nil {
			c.Peaks = maps.Clone(cur.Peaks)
			if c.Peaks == nil {
				c.Peaks = map[string]coverage.Peak{}
			}
			raise(highs, cur.Peaks)
			for k := range cur.Peaks {
				keys[k] = true
			}
			ref := prev
			if ref == nil {
				ref = &coverage.Baseline{}
			}
			for _, a := range coverage.AddedAcceptances(ref, cur) {
				c.Accepted = append(c.Accepted, acceptance(a))
			}
			prev = cur
		}
		c.Highs = maps.Clone(highs)
		t.Commits = append(t.Commits, c)
	}
	t.Keys = slices.Sorted(maps.Keys(keys))
	return t
}

// raise lifts each high to at least the peak recorded.
func raise(highs, peaks map[string]coverage.Peak) {
	for k, p := range peaks {
		h := highs[k]
		h.Tests = max(h.Tests, p.Tests)
		h.Assertions = max(h.Assertions, p.Assertions)
		highs[k] = h
	}
}

func acceptance(a coverage.Acceptance) Acceptance {
	out := Acceptance{At: a.At, By: a.By, Reason: a.Reason, Lowered: []coverage.Lowering{}, Tests: []coverage.AcceptedTest{}}
	for _, k := range slices.Sorted(maps.Keys(a.Lowered)) {
		for _, f := range []string{coverage.FigureTests, coverage.FigureAssertions} {
			if v, ok := a.Lowered[k][f]; ok {
				out.Lowered = append(out.Lowered, coverage.Lowering{Key: k, Figure: f, Before: v[0], After: v[1]})
			}
		}
	}
	out.Tests = append(out.Tests, a.Tests...)
	return out
}

// figure reads one figure of a peak.
func figure(p coverage.Peak, name string) int {
	if name == coverage.FigureAssertions {
		return p.Assertions
	}
	return p.Tests
}
