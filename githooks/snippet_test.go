package githooks

import (
	"strings"
	"testing"
)

// TestManagerSnippetsNeedNoRelease: sentinel is not published yet, so the
// lines printed for a hook manager call the sentinel on PATH (which make
// install put there) and never fetch one from a repository or a release.
func TestManagerSnippetsNeedNoRelease(t *testing.T) {
	for _, m := range []string{"husky", "lefthook", "pre-commit"} {
		s := ManagerSnippet(m)
		if s == "" {
			t.Fatalf("%s: no snippet", m)
		}
		for _, bad := range []string{"@latest", "go install", "rev:", "https://"} {
			if strings.Contains(s, bad) {
				t.Errorf("%s: the snippet has %q:\n%s", m, bad, s)
			}
		}
		for _, hook := range []string{"sentinel hook commit-msg", "sentinel hook pre-commit", "sentinel hook pre-push"} {
			if !strings.Contains(s, hook) {
				t.Errorf("%s: the snippet lacks %q:\n%s", m, hook, s)
			}
		}
	}
	if s := ManagerSnippet("pre-commit"); !strings.Contains(s, "repo: local") || !strings.Contains(s, "language: system") {
		t.Errorf("pre-commit: want a local repo calling the system's sentinel:\n%s", s)
	}
}
