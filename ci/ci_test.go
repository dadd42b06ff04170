package ci

import (
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/coverage"
)

// TestGitHubAnnotationsCannotBeForged checks that no name in a report can
// end an annotation's line or its list of properties, nor bring an escape
// sequence into the log.
func TestGitHubAnnotationsCannotBeForged(t *testing.T) {
	r := &Report{Head: "HEAD", Checked: 1, AcceptCommand: "sentinel accept", Drops: []coverage.Drop{{
		Key: "go", Figure: coverage.FigureTests, Peak: 3, Now: 0,
		Missing: []coverage.Missing{
			{Name: "TestA", Path: "a\n::warning::forged_test.go", Line: 7},
			{Name: "TestB", Path: "b,line=1::forged%0A_test.go", Line: 8},
			{Name: "TestC\x1b[2K", Path: "c\x1b[31m_test.go", Line: 9},
		},
	}}}
	var b strings.Builder
	if err := r.WriteGitHub(&b); err != nil {
		t.Fatal(err)
	}
	want := `::error file=.sentinel/baseline.json,line=1,title=sentinel ratchet::go tests 3 → 0; if intended: sentinel accept
::error file=a%0A%3A%3Awarning%3A%3Aforged_test.go,line=7,title=sentinel ratchet::test removed: TestA
::error file=b%2Cline=1%3A%3Aforged%250A_test.go,line=8,title=sentinel ratchet::test removed: TestB
::error title=sentinel ratchet::"c\033[31m_test.go": test removed: "TestC\033[2K"
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestJSONListsAreNeverNull checks that a report with nothing to say
// writes every list as [], as docs/json.md promises.
func TestJSONListsAreNeverNull(t *testing.T) {
	var b strings.Builder
	if err := (&Report{Head: "HEAD", Checked: 1}).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"drops", "history", "attribution", "person_only"} {
		if !strings.Contains(b.String(), `"`+key+`": []`) {
			t.Errorf("%s is not [] in\n%s", key, b.String())
		}
	}
}
