package coverage_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/internal/sarif"
)

// FromCheck is the name the test was written with in internal/sarif, which
// built the log before coverage did; the test keeps its name and body.
func FromCheck(r *coverage.CheckResult, version string) *sarif.Log { return r.SARIF(version) }

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
