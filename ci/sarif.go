package ci

import (
	"fmt"
	"strings"

	"github.com/gitsentinel/sentinel/config"
	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/quote"
	"github.com/gitsentinel/sentinel/internal/sarif"
)

// SARIF is the log of `sentinel ci`: the check's results for the counts
// at the head, one for each commit that lowered a peak without an
// acceptance, one for each test a commit lost without one (unless the
// head's drops name it already), one for each line of a commit message the
// attribution policy refuses, and one for each commit that makes a change
// only a person may make without showing that a person made it.
func (r *Report) SARIF(version string) *sarif.Log {
	var rs sarif.Results
	coverage.SARIFDrops(&rs, r.Drops, "if the tests were removed or switched off on purpose, a person records it: "+r.AcceptCommand)
	const historyFix = "a peak may only fall, and a test may only go, with `sentinel accept` in the same commit, or after the fact with `sentinel accept --rev COMMIT --reason WHY` in a person's later commit"
	for _, h := range r.History {
		text := fmt.Sprintf("commit %s %s: %s; %s", gitrepo.ShortID(h.Commit), quote.Name(h.Title), quote.Text(h.Reason), historyFix)
		if h.Test != "" {
			// A test lost on the way: reported once, by the head's drop
			// when it is still lost there.
			rs.Test(coverage.LossRule(h.Cause), h.Path, h.Line, h.Test, text)
			continue
		}
		rs.Add(sarif.RulePeakLowered, coverage.BaselinePath, 0, text, h.Commit, h.Key, h.Figure)
	}
	for _, f := range r.Attribution {
		for _, v := range f.Violations {
			text := fmt.Sprintf("commit %s %s: line %d, %s: %s; fix: %s", quote.Name(f.Source), quote.Name(f.Title), v.Line, quote.Name(v.Text), v.Reason, v.Fix)
			rs.Add(v.Rule, config.File, 0, text, f.Source, v.Rule, v.Text)
		}
	}
	for _, p := range r.PersonOnly {
		var causes []string
		for _, c := range p.Causes {
			causes = append(causes, fmt.Sprintf("%s: %s; instead: %s", c.Rule, c.Reason, c.Fix))
		}
		text := fmt.Sprintf("commit %s %s: %s; only a person may make this change, and the commit does not show that a person made it: %s",
			gitrepo.ShortID(p.Commit), quote.Name(p.Title), p.Summary(), strings.Join(causes, "; "))
		rs.Add(sarif.RulePersonOnly, coverage.BaselinePath, 0, text, p.Commit)
	}
	if r.Results != nil {
		for _, f := range r.Results.Lost {
			rs.Test(sarif.RuleNotRun, f.Path, f.Line, f.Name, fmt.Sprintf("%s test %s: %s; make the runner run it again, or delete it in a commit a person makes and accepts: `sentinel accept --reason \"WHY\"`", f.Language, quote.Name(f.Name), quote.Text(f.Text())))
		}
	}
	return rs.Log(version)
}
