package rules

import (
	"testing"

	"github.com/gitsentinel/sentinel/guard/internal/guardtest"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/shell"
)

// TestCatalogueSamples runs every rule's own samples: each Deny sample must
// make that rule fire, each Allow sample must not.
func TestCatalogueSamples(t *testing.T) {
	e := guardtest.Env(t)
	ids := map[string]bool{}
	for _, r := range Catalogue() {
		if ids[r.ID] {
			t.Errorf("rule id %s used twice", r.ID)
		}
		ids[r.ID] = true
		if len(r.Deny) == 0 || len(r.Allow) == 0 {
			t.Errorf("%s ships without positive and negative samples", r.ID)
		}
		for _, s := range r.Deny {
			if !fires(t, r, s, e) {
				t.Errorf("%s does not catch %q", r.ID, s)
			}
		}
		for _, s := range r.Allow {
			if fires(t, r, s, e) {
				t.Errorf("%s catches %q, which it must let through", r.ID, s)
			}
		}
	}
}

func fires(t *testing.T, r *Rule, src string, e *pathguard.Env) bool {
	t.Helper()
	cmds, err := shell.DecomposeIn(src, &e.Env)
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	for _, c := range cmds {
		if r.Match(c, e) {
			return true
		}
	}
	return false
}
