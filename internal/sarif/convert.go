package sarif

import (
	"fmt"
	"strings"

	"github.com/gitsentinel/sentinel/ci"
	"github.com/gitsentinel/sentinel/config"
	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/quote"
)

// FromCheck is the log of `sentinel check`: a result for each count below
// its peak, on the baseline, and for each test it loses (removed, switched
// off, emptied or asserting less) and each file it can no longer count, on
// the test's file and line.
func FromCheck(res *coverage.CheckResult, version string) *Log {
	var rs results
	fix := "if the tests were removed or switched off on purpose, a person records it: " + res.AcceptCommand()
	rs.drops(res.Drops, fix)
	for _, l := range res.Losses {
		rs.test(lossRule(l.Cause), l.Path, l.Line, l.Name, l.Text()+"; "+fix)
	}
	return New(version, rs.list)
}

// FromCI is the log of `sentinel ci`: FromCheck's results for the counts at
// the head, one for each commit that lowered a peak without an acceptance,
// one for each test a commit lost without one (unless the head's drops
// name it already), one for each line of a commit message the attribution
// policy refuses, and one for each commit that makes a change only a
// person may make without showing that a person made it.
func FromCI(r *ci.Report, version string) *Log {
	var rs results
	rs.drops(r.Drops, "if the tests were removed or switched off on purpose, a person records it: "+r.AcceptCommand)
	const historyFix = "a peak may only fall, and a test may only go, with `sentinel accept` in the same commit"
	for _, h := range r.History {
		text := fmt.Sprintf("commit %s %s: %s; %s", gitrepo.ShortID(h.Commit), quote.Name(h.Title), quote.Text(h.Reason), historyFix)
		if h.Test != "" {
			// A test lost on the way: reported once, by the head's drop
			// when it is still lost there.
			rs.test(lossRule(h.Cause), h.Path, h.Line, h.Test, text)
			continue
		}
		rs.add(result(RulePeakLowered, coverage.BaselinePath, 0, text, h.Commit, h.Key, h.Figure))
	}
	for _, f := range r.Attribution {
		for _, v := range f.Violations {
			text := fmt.Sprintf("commit %s %s: line %d, %s: %s; fix: %s", quote.Name(f.Source), quote.Name(f.Title), v.Line, quote.Name(v.Text), v.Reason, v.Fix)
			rs.add(result(v.Rule, config.File, 0, text, f.Source, v.Rule, v.Text))
		}
	}
	for _, p := range r.PersonOnly {
		var causes []string
		for _, c := range p.Causes {
			causes = append(causes, fmt.Sprintf("%s: %s; instead: %s", c.Rule, c.Reason, c.Fix))
		}
		text := fmt.Sprintf("commit %s %s: %s; only a person may make this change, and the commit does not show that a person made it: %s",
			gitrepo.ShortID(p.Commit), quote.Name(p.Title), p.Summary(), strings.Join(causes, "; "))
		rs.add(result(RulePersonOnly, coverage.BaselinePath, 0, text, p.Commit))
	}
	return New(version, rs.list)
}

// results gathers results, each test once.
type results struct {
	list []Result
	// named are the tests a result names already, by rule, path and name.
	named map[string]bool
}

func (rs *results) add(r Result) { rs.list = append(rs.list, r) }

// test adds a result about a test, unless one of the same rule names it.
func (rs *results) test(rule, path string, line int, name, text string) {
	k := rule + "\x00" + path + "\x00" + name
	if rs.named[k] {
		return
	}
	if rs.named == nil {
		rs.named = map[string]bool{}
	}
	rs.named[k] = true
	rs.add(result(rule, path, line, text, path, name))
}

// drops adds a result for each count below its peak, and for the tests and
// files each names.
func (rs *results) drops(drops []coverage.Drop, fix string) {
	for _, d := range drops {
		text := fmt.Sprintf("%s %s %d → %d, below the peak %s records", quote.Name(d.Key), d.Figure, d.Peak, d.Now, coverage.BaselinePath)
		if d.AtReference {
			text += fmt.Sprintf("; the last commit counts %d by this sentinel's rules: the peak came from an older sentinel or a commit that skipped the hooks", d.Reference)
		}
		rs.add(result(RuleBelowPeak, coverage.BaselinePath, 0, text+"; "+fix, d.Key, d.Figure))
		for _, u := range d.Uncounted {
			rs.add(result(RuleUncountedFile, u.Path, 0, u.Sentence()+"; "+fix, u.Path))
		}
		for _, m := range d.Missing {
			rule := RuleMissingTest
			if m.Skipped {
				rule = RuleSkippedTest
			}
			rs.test(rule, m.Path, m.Line, m.Name, m.Text()+"; "+fix)
		}
		for _, f := range d.Fewer {
			rs.test(RuleFewerAssertions, f.Path, f.Line, f.Name, f.Text()+"; "+fix)
		}
	}
}

// lossRule is the rule of a lost test, by what became of it.
func lossRule(cause string) string {
	switch cause {
	case coverage.LostSkipped:
		return RuleSkippedTest
	case coverage.LostEmptied:
		return RuleFewerAssertions
	}
	return RuleMissingTest
}
