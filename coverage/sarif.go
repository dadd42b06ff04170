package coverage

import (
	"fmt"

	"github.com/gitsentinel/sentinel/internal/quote"
	"github.com/gitsentinel/sentinel/internal/sarif"
)

// SARIF is the log of `sentinel check`: a result for each count below its
// peak, on the baseline, and for each test it loses (removed, switched
// off, emptied or asserting less) and each file it can no longer count, on
// the test's file and line.
func (r *CheckResult) SARIF(version string) *sarif.Log {
	var rs sarif.Results
	fix := "if the tests were removed or switched off on purpose, a person records it: " + r.AcceptCommand()
	SARIFDrops(&rs, r.Drops, fix)
	for _, l := range r.Losses {
		rs.Test(LossRule(l.Cause), l.Path, l.Line, l.Name, l.Text()+"; "+fix)
	}
	return rs.Log(version)
}

// SARIFDrops adds to rs a result for each count below its peak, and for
// the tests and files each names, with fix at the end of every message.
func SARIFDrops(rs *sarif.Results, drops []Drop, fix string) {
	for _, d := range drops {
		text := fmt.Sprintf("%s %s %d → %d, below the peak %s records", quote.Name(d.Key), d.Figure, d.Peak, d.Now, BaselinePath)
		if d.AtReference {
			text += fmt.Sprintf("; the last commit counts %d by this sentinel's rules: the peak came from an older sentinel or a commit that skipped the hooks", d.Reference)
		}
		rs.Add(sarif.RuleBelowPeak, BaselinePath, 0, text+"; "+fix, d.Key, d.Figure)
		for _, u := range d.Uncounted {
			rs.Add(sarif.RuleUncountedFile, u.Path, 0, u.Sentence()+"; "+fix, u.Path)
		}
		for _, m := range d.Missing {
			rule := sarif.RuleMissingTest
			if m.Skipped {
				rule = sarif.RuleSkippedTest
			}
			rs.Test(rule, m.Path, m.Line, m.Name, m.Text()+"; "+fix)
		}
		for _, f := range d.Fewer {
			rs.Test(sarif.RuleFewerAssertions, f.Path, f.Line, f.Name, f.Text()+"; "+fix)
		}
	}
}

// LossRule is the SARIF rule of a lost test, by its cause (LostMissing,
// LostSkipped, LostEmptied, LostNarrowed).
func LossRule(cause string) string {
	switch cause {
	case LostSkipped, LostNarrowed:
		return sarif.RuleSkippedTest
	case LostEmptied:
		return sarif.RuleFewerAssertions
	}
	return sarif.RuleMissingTest
}
