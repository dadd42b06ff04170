package ci_test

import (
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/ci"
	"github.com/gitsentinel/sentinel/internal/jsonout"
	"github.com/gitsentinel/sentinel/internal/sarif"
)

// FromCI and Write are the names the test was written with in
// internal/sarif, which built the log before ci did; the test keeps its
// name and body.
func FromCI(r *ci.Report, version string) *sarif.Log { return r.SARIF(version) }

// Write writes a log.
var Write = sarif.Write

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
