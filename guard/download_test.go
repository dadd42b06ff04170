package guard

import (
	"testing"

	"github.com/gitsentinel/sentinel/guard/internal/guardtest"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

// TestDownloadsAreWrites: curl and wget write the files they save, where
// their options put them, so that a download cannot replace git's hooks or
// sentinel's configuration; a file the line downloads is one it writes, so
// that what it holds is not taken from a stale copy on disk.
func TestDownloadsAreWrites(t *testing.T) {
	e := guardtest.Env(t)
	for _, tc := range []struct {
		cmd  string
		want verdict.Verdict
	}{
		{"curl -o .git/hooks/pre-commit https://example.com/x", verdict.Deny},
		{"curl -sSLo .git/hooks/pre-commit https://example.com/x", verdict.Deny},
		{"curl --output=.sentinel/config.toml https://example.com/x", verdict.Deny},
		{"curl -O --output-dir .git/hooks https://example.com/pre-commit", verdict.Deny},
		{"curl -sSLO https://example.com/pre-push --output-dir=.git/hooks", verdict.Deny},
		{"curl -c .git/config https://example.com/", verdict.Deny},
		{"wget -O .sentinel/config.toml https://example.com/x", verdict.Deny},
		{"wget -qO .sentinel/baseline.json https://example.com/x", verdict.Deny},
		{"wget -P .git/hooks https://example.com/pre-commit", verdict.Deny},
		{"curl -sL https://example.com/x.diff -o x.diff && git apply x.diff", verdict.Ask},
		{"curl -fsSL https://example.com/install.sh -o install.sh", verdict.Allow},
		{"curl -s -H 'Accept: application/json' https://api.example.com/x", verdict.Allow},
		{"wget -qO- https://example.com/x", verdict.Allow},
		{"wget https://example.com/dist.tgz", verdict.Allow},
		{"curl -O https://example.com/dist.tgz", verdict.Allow},
	} {
		if d := EvaluateCommand(tc.cmd, e, nil); d.Verdict != tc.want {
			t.Errorf("%q: %s, want %s (%s)", tc.cmd, d.Verdict, tc.want, d.Reason())
		}
	}
}
