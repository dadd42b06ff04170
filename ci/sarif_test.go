package ci

import (
	"testing"

	"github.com/gitsentinel/sentinel/internal/sarif"
	"github.com/gitsentinel/sentinel/trailers"
)

// TestSARIFRules checks that every rule of the attribution policy, which
// a result of an attribution finding names, is among the log's rules.
func TestSARIFRules(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range sarif.Rules {
		seen[r.ID] = true
	}
	for _, id := range []string{trailers.RuleAgentIdentity, trailers.RuleAgentSignoff, trailers.RuleAgentFooter, trailers.RuleMissingAssisted, trailers.RuleMessageTooLarge} {
		if !seen[id] {
			t.Errorf("no rule %s", id)
		}
	}
}
