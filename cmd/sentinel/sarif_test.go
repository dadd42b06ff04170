//go:build !sentinel_front

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/internal/sarif"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifSchemaFile is the schema, found before a test moves into a
// repository.
var sarifSchemaFile, _ = filepath.Abs(filepath.Join("testdata", "sarif", "sarif-schema-2.1.0.json"))

// sarifSchema compiles the official SARIF 2.1.0 schema pinned in
// testdata/sarif, with its formats (uri, uri-reference) asserted.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(sarifSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(sarif.Schema, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(sarif.Schema)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// validSARIF reports what makes data not a SARIF 2.1.0 log, or nil.
func validSARIF(s *jsonschema.Schema, data []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return s.Validate(v)
}

// TestSARIFSchema validates `sentinel ci --format sarif` and `sentinel
// check --format sarif`, with and without findings of every kind, and the
// example in docs/json.md, against the official schema; and checks what
// code scanning needs beyond it: one run, the driver and its rules, each
// result at level error on a rule of the driver, with a file.
func TestSARIFSchema(t *testing.T) {
	s := sarifSchema(t)
	rep := collectReports(t)
	wantRules := map[string][]string{
		"check": {sarif.RuleBelowPeak, sarif.RuleMissingTest, sarif.RuleSkippedTest, sarif.RuleFewerAssertions},
		"ci": {sarif.RuleBelowPeak, sarif.RuleMissingTest, sarif.RuleSkippedTest, sarif.RuleFewerAssertions, sarif.RulePeakLowered,
			sarif.RulePersonOnly, sarif.RuleMissingAssisted, sarif.RuleAgentIdentity},
		"ci-pass": nil,
		"ci-results": {sarif.RuleBelowPeak, sarif.RuleMissingTest, sarif.RuleSkippedTest, sarif.RuleFewerAssertions, sarif.RulePeakLowered,
			sarif.RulePersonOnly, sarif.RuleMissingAssisted, sarif.RuleAgentIdentity, sarif.RuleNotRun},
	}
	for name, want := range wantRules {
		data := rep.sarif[name]
		if err := validSARIF(s, data); err != nil {
			t.Errorf("%s: not SARIF 2.1.0: %v\n%s", name, err, data)
			continue
		}
		var log sarif.Log
		if err := json.Unmarshal(data, &log); err != nil {
			t.Fatal(err)
		}
		if len(log.Runs) != 1 {
			t.Fatalf("%s: %d runs", name, len(log.Runs))
		}
		run := log.Runs[0]
		if run.Tool.Driver.Name != "sentinel" || run.Tool.Driver.Version != version || len(run.Tool.Driver.Rules) != len(sarif.Rules) {
			t.Errorf("%s: driver %+v", name, run.Tool.Driver)
		}
		if run.Results == nil {
			t.Errorf("%s: results missing, not []", name)
		}
		got := map[string]bool{}
		for _, r := range run.Results {
			got[r.RuleID] = true
			if r.Level != "error" || r.RuleIndex < 0 || run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
				t.Errorf("%s: result %+v: not an error on a rule of the driver", name, r)
			}
			if len(r.Locations) != 1 || r.Locations[0].PhysicalLocation.ArtifactLocation.URI == "" || r.PartialFingerprints[sarif.FingerprintKey] == "" {
				t.Errorf("%s: result %+v: no file or no fingerprint", name, r)
			}
		}
		for _, id := range want {
			if !got[id] {
				t.Errorf("%s: no %s result in\n%s", name, id, data)
			}
		}
		if len(want) == 0 && len(run.Results) > 0 {
			t.Errorf("%s: results for a clean repository:\n%s", name, data)
		}
	}
	// The messages carry the fixes; a result on a test names its line.
	for _, want := range []string{`sentinel accept --reason \"WHY THESE TESTS WENT\" --language go`, `"startLine": 14`} {
		if !strings.Contains(string(rep.sarif["check"]), want) {
			t.Errorf("check: no %s in\n%s", want, rep.sarif["check"])
		}
	}
	// The example docs/json.md gives.
	sec := docSections(t)[secSARIF]
	if sec == nil || len(sec.examples) == 0 {
		t.Fatalf("docs/json.md has no SARIF example under %s", secSARIF)
	}
	for _, ex := range sec.examples {
		if err := validSARIF(s, []byte(ex)); err != nil {
			t.Errorf("the example in docs/json.md is not SARIF 2.1.0: %v\n%s", err, ex)
		}
	}
}

// TestSARIFSchemaRefuses makes sure the validation can fail: a result
// without a message, and a line 0, are not SARIF.
func TestSARIFSchemaRefuses(t *testing.T) {
	s := sarifSchema(t)
	for _, doc := range []string{
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "sentinel"}}, "results": [{"ruleId": "x"}]}]}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "sentinel"}}, "results": [{"message": {"text": "m"},
		  "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.go"}, "region": {"startLine": 0}}}]}]}]}`,
		`{"version": "2.0.0", "runs": []}`,
	} {
		if validSARIF(s, []byte(doc)) == nil {
			t.Errorf("valid: %s", doc)
		}
	}
}
