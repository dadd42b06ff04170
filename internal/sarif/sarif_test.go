package sarif

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/ci"
	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/internal/jsonout"
	"github.com/gitsentinel/sentinel/trailers"
)

// TestURI checks that a path reads back exactly as a URI reference: a
// space, a colon in the first segment, # and ?, % itself, non-ASCII and
// bytes that are not UTF-8 are percent-encoded; slashes stay.
func TestURI(t *testing.T) {
	for path, want := range map[string]string{
		"a_test.go":             "a_test.go",
		"dir one/b_test.go":     "dir%20one/b_test.go",
		"c:d/e_test.go":         "c%3Ad/e_test.go",
		"q?#/100%.py":           "q%3F%23/100%25.py",
		"tëst.py":               "t%C3%ABst.py",
		"caf\xe9.py":            "caf%E9.py",
		"ctl\x1b[31m.go":        "ctl%1B%5B31m.go",
		"~user/x-y.z_test.go":   "~user/x-y.z_test.go",
		".sentinel/config.toml": ".sentinel/config.toml",
	} {
		if got := URI(path); got != want {
			t.Errorf("URI(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestRules checks the rule table: ids unique, every rule a result may name
// among them, every attribution rule of the trailer policy included.
func TestRules(t *testing.T) {
	seen := map[string]bool{}
	for i, r := range Rules {
		if seen[r.ID] || ruleIndex(r.ID) != i || r.Name == "" || r.ShortDescription.Text == "" || r.Help.Text == "" || r.DefaultConfiguration.Level != "error" {
			t.Errorf("rule %d: %+v", i, r)
		}
		seen[r.ID] = true
	}
	for _, id := range []string{RuleBelowPeak, RuleMissingTest, RuleSkippedTest, RuleFewerAssertions, RuleUncountedFile, RulePeakLowered, RulePersonOnly,
		trailers.RuleAgentIdentity, trailers.RuleAgentSignoff, trailers.RuleAgentFooter, trailers.RuleMissingAssisted} {
		if !seen[id] {
			t.Errorf("no rule %s", id)
		}
	}
	if ruleIndex("a-rule-from-later") != -1 {
		t.Error("an unknown rule has an index")
	}
}

// TestFromCheck checks that each test is reported once: a test the drop
// names and the loss names again, and an emptied test that the drop's
// fewer assertions names.
func TestFromCheck(t *testing.T) {
	res := &coverage.CheckResult{
		Drops: []coverage.Drop{
			{Key: "go", Figure: coverage.FigureTests, Peak: 2, Now: 1, Missing: []coverage.Missing{{Name: "TestTwo", Path: "a_test.go", Line: 6}}},
			{Key: "go", Figure: coverage.FigureAssertions, Peak: 2, Now: 0, Fewer: []coverage.Fewer{{Name: "TestOne", Path: "a_test.go", Line: 5, Before: 2}}},
		},
		Losses: []coverage.Loss{
			{Language: "go", Name: "TestOne", Path: "a_test.go", Line: 5, Cause: coverage.LostEmptied, Assertions: 2},
			{Language: "go", Name: "TestTwo", Path: "a_test.go", Line: 6, Cause: coverage.LostMissing},
			{Language: "go", Name: "TestThree", Path: "a_test.go", Line: 7, Cause: coverage.LostSkipped},
		},
	}
	log := FromCheck(res, "1.2.3")
	var got []string
	for _, r := range log.Runs[0].Results {
		line := 0
		if r.Locations[0].PhysicalLocation.Region != nil {
			line = r.Locations[0].PhysicalLocation.Region.StartLine
		}
		got = append(got, r.RuleID+"@"+r.Locations[0].PhysicalLocation.ArtifactLocation.URI+":"+strconv.Itoa(line))
		if !strings.Contains(r.Message.Text, "sentinel accept --reason") {
			t.Errorf("%s: no fix in %q", r.RuleID, r.Message.Text)
		}
	}
	want := "below-peak@.sentinel/baseline.json:0 missing-test@a_test.go:6 below-peak@.sentinel/baseline.json:0 fewer-assertions@a_test.go:5 skipped-test@a_test.go:7"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	if log.Runs[0].Tool.Driver.Version != "1.2.3" {
		t.Errorf("driver %+v", log.Runs[0].Tool.Driver)
	}
}

// TestFingerprints checks that two findings on one line differ, and that
// a finding keeps its fingerprint when its message changes.
func TestFingerprints(t *testing.T) {
	a := result(RuleAgentIdentity, ".sentinel/config.toml", 0, "one", "abc", "agent-identity", "Co-authored-by: Claude")
	b := result(RuleAgentIdentity, ".sentinel/config.toml", 0, "one", "def", "agent-identity", "Co-authored-by: Claude")
	c := result(RuleAgentIdentity, ".sentinel/config.toml", 0, "other text", "abc", "agent-identity", "Co-authored-by: Claude")
	if a.PartialFingerprints[FingerprintKey] == b.PartialFingerprints[FingerprintKey] {
		t.Error("two commits' findings share a fingerprint")
	}
	if a.PartialFingerprints[FingerprintKey] != c.PartialFingerprints[FingerprintKey] {
		t.Error("a finding's fingerprint follows its message")
	}
}

// TestEmptyLog checks that a report with nothing to say is a log with
// "results": [] and no null anywhere.
func TestEmptyLog(t *testing.T) {
	var b strings.Builder
	if err := Write(&b, FromCI(&ci.Report{Head: "HEAD"}, "dev")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"results": []`) {
		t.Errorf("no empty results in\n%s", b.String())
	}
	if nulls, err := jsonout.Nulls([]byte(b.String())); err != nil || len(nulls) > 0 {
		t.Errorf("nulls %v (%v) in\n%s", nulls, err, b.String())
	}
}
