package coverage

import (
	"sort"
)

// MergeBaselines merges two baselines that grew apart from a common base,
// as the `sentinel` merge driver does: each peak is the maximum of the two
// sides, and the acceptance records are the union. One exception keeps a
// person's decision: a figure that one side lowered through an acceptance
// the other side lacks stays lowered, at that side's value plus whatever
// the other side grew since the base.
func MergeBaselines(base, ours, theirs *Baseline) *Baseline {
	if base == nil {
		base = &Baseline{Version: BaselineVersion, Peaks: map[string]Peak{}}
	}
	out := &Baseline{Version: BaselineVersion, Peaks: map[string]Peak{}}

	inBase := map[string]bool{}
	for _, a := range base.Accepted {
		inBase[a.key()] = true
	}
	oursOnly := newAcceptances(ours, theirs, inBase)
	theirsOnly := newAcceptances(theirs, ours, inBase)

	keys := map[string]bool{}
	for k := range ours.Peaks {
		keys[k] = true
	}
	for k := range theirs.Peaks {
		keys[k] = true
	}
	for k := range keys {
		o, a, b := base.Peaks[k], ours.Peaks[k], theirs.Peaks[k]
		out.Peaks[k] = Peak{
			Tests:      mergeFigure(o.Tests, a.Tests, b.Tests, lowers(oursOnly, k, FigureTests), lowers(theirsOnly, k, FigureTests)),
			Assertions: mergeFigure(o.Assertions, a.Assertions, b.Assertions, lowers(oursOnly, k, FigureAssertions), lowers(theirsOnly, k, FigureAssertions)),
		}
	}

	seen := map[string]bool{}
	for _, side := range [][]Acceptance{ours.Accepted, theirs.Accepted} {
		for _, a := range side {
			if !seen[a.key()] {
				seen[a.key()] = true
				out.Accepted = append(out.Accepted, a)
			}
		}
	}
	sort.SliceStable(out.Accepted, func(i, j int) bool { return out.Accepted[i].At < out.Accepted[j].At })
	return out
}

// newAcceptances returns the records of side that neither the base nor the
// other side has.
func newAcceptances(side, other *Baseline, inBase map[string]bool) []Acceptance {
	inOther := map[string]bool{}
	for _, a := range other.Accepted {
		inOther[a.key()] = true
	}
	var out []Acceptance
	for _, a := range side.Accepted {
		if !inBase[a.key()] && !inOther[a.key()] {
			out = append(out, a)
		}
	}
	return out
}

func lowers(recs []Acceptance, key, figure string) bool {
	for _, a := range recs {
		if _, ok := a.Lowered[key][figure]; ok {
			return true
		}
	}
	return false
}

// mergeFigure merges one figure of one row.
func mergeFigure(base, ours, theirs int, oursLowered, theirsLowered bool) int {
	growth := func(v int) int { return max(0, v-base) }
	switch {
	case oursLowered && !theirsLowered:
		return ours + growth(theirs)
	case theirsLowered && !oursLowered:
		return theirs + growth(ours)
	}
	return max(ours, theirs)
}
