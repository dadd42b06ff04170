package sarif

import "testing"

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
// among them, every attribution rule included (that they are the trailer
// policy's is ci's TestSARIFRules).
func TestRules(t *testing.T) {
	seen := map[string]bool{}
	for i, r := range Rules {
		if seen[r.ID] || ruleIndex(r.ID) != i || r.Name == "" || r.ShortDescription.Text == "" || r.Help.Text == "" || r.DefaultConfiguration.Level != "error" {
			t.Errorf("rule %d: %+v", i, r)
		}
		seen[r.ID] = true
	}
	for _, id := range []string{RuleBelowPeak, RuleMissingTest, RuleSkippedTest, RuleFewerAssertions, RuleUncountedFile, RulePeakLowered, RulePersonOnly,
		RuleAgentIdentity, RuleAgentSignoff, RuleAgentFooter, RuleMissingAssisted, RuleMessageTooLarge, RuleNotRun} {
		if !seen[id] {
			t.Errorf("no rule %s", id)
		}
	}
	if ruleIndex("a-rule-from-later") != -1 {
		t.Error("an unknown rule has an index")
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
