package coverage

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// pk is a peak of tests and assertions.
func pk(tests, assertions int) Peak { return Peak{Tests: tests, Assertions: assertions} }

func bl(peaks map[string]Peak, acc ...Acceptance) *Baseline {
	return &Baseline{Version: 1, Peaks: peaks, Accepted: acc}
}

func TestMergeBaselines(t *testing.T) {
	accV1 := Acceptance{At: "2026-11-29T10:00:00Z", By: "Jane <j@x>", Reason: "v1 API removed",
		Lowered: map[string]map[string][2]int{"go": {FigureTests: {10, 8}}}}
	accPy := Acceptance{At: "2026-11-29T11:00:00Z", By: "Rob <r@x>", Reason: "py2 shims",
		Lowered: map[string]map[string][2]int{"python": {FigureAssertions: {50, 40}}}}
	base := bl(map[string]Peak{"go": {Tests: 10, Assertions: 100}, "python": {Tests: 5, Assertions: 50}})
	for _, tc := range []struct {
		name         string
		ours, theirs *Baseline
		want         map[string]Peak
		accepted     int
	}{
		{"both raised: maximum", bl(map[string]Peak{"go": pk(12, 101), "python": pk(5, 50)}), bl(map[string]Peak{"go": pk(11, 105), "python": pk(6, 50)}),
			map[string]Peak{"go": pk(12, 105), "python": pk(6, 50)}, 0},
		{"a new language on one side", bl(map[string]Peak{"go": pk(10, 100), "python": pk(5, 50), "rust": pk(3, 4)}), base,
			map[string]Peak{"go": pk(10, 100), "python": pk(5, 50), "rust": pk(3, 4)}, 0},
		{"ours accepted a drop, theirs grew", bl(map[string]Peak{"go": pk(8, 100), "python": pk(5, 50)}, accV1), bl(map[string]Peak{"go": pk(13, 100), "python": pk(5, 50)}),
			map[string]Peak{"go": pk(11, 100), "python": pk(5, 50)}, 1},
		{"theirs accepted a drop, ours did not grow", base, bl(map[string]Peak{"go": pk(8, 100), "python": pk(5, 50)}, accV1),
			map[string]Peak{"go": pk(8, 100), "python": pk(5, 50)}, 1},
		{"both sides have the acceptance", bl(map[string]Peak{"go": pk(8, 100), "python": pk(5, 50)}, accV1), bl(map[string]Peak{"go": pk(9, 100), "python": pk(5, 50)}, accV1),
			map[string]Peak{"go": pk(9, 100), "python": pk(5, 50)}, 1},
		{"each side accepted its own", bl(map[string]Peak{"go": pk(8, 100), "python": pk(5, 50)}, accV1), bl(map[string]Peak{"go": pk(10, 100), "python": pk(5, 40)}, accPy),
			map[string]Peak{"go": pk(8, 100), "python": pk(5, 40)}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := MergeBaselines(base, tc.ours, tc.theirs)
			if !reflect.DeepEqual(got.Peaks, tc.want) || len(got.Accepted) != tc.accepted {
				t.Errorf("peaks %v (%d accepted), want %v (%d)", got.Peaks, len(got.Accepted), tc.want, tc.accepted)
			}
			// The merge is the same whichever side is ours.
			if back := MergeBaselines(base, tc.theirs, tc.ours); !reflect.DeepEqual(back.Peaks, got.Peaks) {
				t.Errorf("not symmetric: %v against %v", back.Peaks, got.Peaks)
			}
		})
	}
}

func TestParseBaseline(t *testing.T) {
	good := bl(map[string]Peak{"go": {Tests: 2, Assertions: 3}}, Acceptance{At: "2026-11-29T14:00:00Z", By: "Jane Doe <jane@example.com>",
		Reason: "removed the v1 API", Lowered: map[string]map[string][2]int{"go": {"tests": {3, 2}}}})
	data := good.Marshal()
	if string(data) != goodBaseline {
		t.Errorf("not the stable form:\n%s", data)
	}
	back, err := ParseBaseline("b.json", data)
	if err != nil || !reflect.DeepEqual(back, good) {
		t.Fatalf("round trip: %v %+v", err, back)
	}
	empty := (&Baseline{Version: BaselineVersion}).Marshal()
	if b, err := ParseBaseline("b.json", empty); err != nil || !bytes.Equal(b.Marshal(), empty) {
		t.Errorf("an empty baseline: %v\n%s", err, empty)
	}
}

// goodBaseline is a baseline in the form sentinel writes; the cases of
// TestParseBaselineStrict each break it in one place.
const goodBaseline = `{
  "accepted": [
    {
      "at": "2026-11-29T14:00:00Z",
      "by": "Jane Doe <jane@example.com>",
      "lowered": {
        "go": {
          "tests": [
            3,
            2
          ]
        }
      },
      "reason": "removed the v1 API"
    }
  ],
  "peaks": {
    "go": {
      "assertions": 3,
      "tests": 2
    }
  },
  "version": 1
}
`

// TestParseBaselineStrict holds the parser to one spelling of the baseline,
// each error at the line and column of the byte, key or value at fault.
func TestParseBaselineStrict(t *testing.T) {
	edit := func(old, new string) string {
		if !strings.Contains(goodBaseline, old) {
			t.Fatalf("%q is not in the baseline", old)
		}
		return strings.Replace(goodBaseline, old, new, 1)
	}
	lines := strings.SplitAfter(goodBaseline, "\n")
	for _, tc := range []struct {
		name, data, pos, want string
	}{
		// What encoding/json let through.
		{"duplicate key", edit(`"tests": 2`, `"tests": 2,`+"\n"+`      "tests": 100`), "21:7", `the key "tests" appears twice in the object (first at 20:7)`},
		{"case variant", edit(`"tests": 2`, `"tests": 2,`+"\n"+`      "Tests": 1`), "21:7", `unknown key "Tests" in the peak of go: the key is "tests", in lower case`},
		{"case variant alone", edit(`"version": 1`, `"Version": 1`), "23:3", `unknown key "Version" in the baseline: the key is "version"`},
		{"null peak", edit("{\n      \"assertions\": 3,\n      \"tests\": 2\n    }", "null"), "18:11", "expected the peak of go, an object, found null"},
		{"null version", edit(`"version": 1`, `"version": null`), "23:14", "expected the version, a whole number, found null"},
		{"null acceptances", edit("[\n    {", "null,\n  \"x\": [\n    {"), "2:15", "expected the list of acceptances, found null"},
		{"trailing NUL", goodBaseline + "\x00", "25:1", "found a NUL byte after the end of the document"},
		{"trailing data", goodBaseline + "{}\n", "25:1", "found '{' after the end of the document"},
		{"no at", edit(lines[3], ""), "3:5", `an acceptance has no "at" (it needs "at", "by", "lowered" and "reason")`},
		{"no by", edit(lines[4], ""), "3:5", `an acceptance has no "by"`},
		{"no reason", edit("      },\n"+lines[13], "      }\n"), "3:5", `an acceptance has no "reason"`},
		{"empty by", edit(`"Jane Doe <jane@example.com>"`, `""`), "5:13", `the acceptance's "by" is empty: it needs the person who accepted`},
		{"blank reason", edit(`"removed the v1 API"`, `" "`), "14:17", `the acceptance's "reason" is empty: it needs why the tests went`},
		{"at not a time", edit(`"2026-11-29T14:00:00Z"`, `"yesterday"`), "4:13", `the acceptance's "at" is "yesterday", not an RFC 3339 time`},
		{"at a number", edit(`"2026-11-29T14:00:00Z"`, `20261129`), "4:13", `expected the acceptance's "at", a string, found the number 20261129`},
		{"removed", edit(`"reason": "removed the v1 API"`, `"reason": "removed the v1 API",`+"\n"+`      "removed": {}`), "15:7", `unknown key "removed" in an acceptance, which has only "assisted_by", "at", "by", "commit", "harness", "lowered", "reason" and "tests"`},
		{"lowered nothing", edit(strings.Join(lines[5:13], ""), "      \"lowered\": {},\n"), "3:5", `the acceptance lowers no figure and names no test`},
		{"tests not a list", edit(`"reason": "removed the v1 API"`, `"reason": "removed the v1 API",`+"\n"+`      "tests": {}`), "15:16", `expected the acceptance's "tests", a list, found an object`},
		{"test without a name", edit(`"reason": "removed the v1 API"`, `"reason": "removed the v1 API",`+"\n"+`      "tests": [{"language": "go", "name": "", "path": "a_test.go"}]`), "15:44", `the accepted test's "name" is empty`},
		{"lowered row empty", edit(strings.Join(lines[6:12], ""), "        \"go\": {}\n"), "7:15", "the acceptance lowers nothing of go"},
		{"lowered upwards", edit("3,\n            2\n", "2,\n            3\n"), "8:20", "go tests lowered from 2 to 3: an acceptance records a fall"},
		{"lowered equal", edit("3,\n            2\n", "2,\n            2\n"), "8:20", "go tests lowered from 2 to 2"},
		{"lowered below zero", edit("3,\n            2\n", "3,\n            -1\n"), "10:13", "go tests lowered to -1, a negative count"},
		{"lowered three", edit("3,\n            2\n", "3,\n            2,\n            1\n"), "8:20", "expected go tests lowered as [from, to], found a list of 3"},
		{"lowered figure unknown", edit(`"tests": [`, `"test": [`), "8:11", `unknown key "test" in the lowered figures of go, which has only "assertions" and "tests"`},
		{"float", edit(`"assertions": 3`, `"assertions": 3.0`), "19:21", "the peak of go assertions is 3.0: expected a whole number in plain digits"},
		{"exponent", edit(`"assertions": 3`, `"assertions": 3e0`), "19:21", "the peak of go assertions is 3e0"},
		{"overflow", edit(`"tests": 2`, `"tests": 99999999999999999999`), "20:16", "the peak of go tests is 99999999999999999999, a number too large"},
		{"negative peak", edit(`"tests": 2`, `"tests": -1`), "20:16", "the peak of go tests is negative (-1)"},
		{"peak missing a figure", edit(`"assertions": 3,`+"\n", ""), "18:11", `the peak of go has no "assertions"`},
		{"string count", edit(`"tests": 2`, `"tests": "2"`), "20:16", "expected the peak of go tests, a whole number, found a string"},
		{"empty row name", edit(`    "go": {`+"\n"+`      "assertions"`, `    "": {`+"\n"+`      "assertions"`), "18:5", "an empty row name in the peaks"},
		// Cut short: reported at the end of what is there, on its line.
		{"truncated at line 5", strings.Join(lines[:5], ""), "5:43", "the file ends inside the object that opens at 3:5"},
		{"truncated in a string", goodBaseline[:strings.Index(goodBaseline, "Doe")], "5:19", "the file ends inside the string that opens at 5:13"},
		{"empty", "", "1:1", "the file is empty"},
		{"syntax", edit(`"go": {`+"\n"+`      "assertions"`, `go: {`+"\n"+`      "assertions"`), "18:5", "expected a key in double quotes or '}', found 'g'"},
		// Valid, but not in the form sentinel writes.
		{"no final newline", strings.TrimSuffix(goodBaseline, "\n"), "24:2", notCanonical + ": expected a line break here, found the end of the file"},
		{"two final newlines", goodBaseline + "\n", "25:1", notCanonical + ": expected the end of the file here, found a line break"},
		{"indent", edit(`  "version"`, `   "version"`), "23:3", notCanonical + `: expected '"' here, found ' '`},
		{"one line", `{"accepted": [], "peaks": {}, "version": 1}` + "\n", "1:2", notCanonical + `: expected a line break here, found '"'`},
		{"keys out of order", strings.Replace(edit(",\n  \"version\": 1", ""), `  "peaks": {`, `  "version": 1,`+"\n"+`  "peaks": {`, 1), "18:3", notCanonical + `: "peaks" comes before "version"`},
		{"rows out of order", edit(`  "peaks": {`, `  "peaks": {`+"\n"+`    "rust": {`+"\n"+`      "assertions": 1,`+"\n"+`      "tests": 1`+"\n"+`    },`), "22:5", notCanonical + `: "go" comes before "rust"`},
		{"escaped slash", edit(`"Jane Doe <jane@example.com>"`, `"Jane Doe \/ <jane@example.com>"`), "5:23", notCanonical + `: expected '/' here, found '\\'`},
		// The version.
		{"no version", edit(",\n  \"version\": 1", ""), "1:1", `the baseline has no "version"`},
		{"version 0", edit(`"version": 1`, `"version": 0`), "23:14", "version 0 is not a baseline version (this sentinel writes 1)"},
		{"newer", edit(`"version": 1`, `"version": 2`), "23:14", "baseline version 2 is newer than this sentinel reads (1): upgrade sentinel"},
		{"newer, with keys this one lacks", `{"version": 2, "shards": []}`, "1:13", "baseline version 2 is newer than this sentinel reads (1): upgrade sentinel"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseBaseline("b.json", []byte(tc.data))
			var be *BaselineError
			if !errors.As(err, &be) {
				t.Fatalf("got %v, want a BaselineError", err)
			}
			if pos := fmt.Sprintf("%d:%d", be.Line, be.Col); pos != tc.pos {
				t.Errorf("at %s, want %s: %v", pos, tc.pos, err)
			}
			if !strings.Contains(be.Msg, tc.want) {
				t.Errorf("%v\nwant %q", err, tc.want)
			}
			if want := "b.json:" + tc.pos + ": "; !strings.HasPrefix(err.Error(), want) {
				t.Errorf("%v\nwant it to start %q", err, want)
			}
		})
	}
}

// TestBaselineErrorNames: the work tree's copy and the staged copy end with
// the command that restores them, and print as file:line:col with no stray
// colon; a revision's copy keeps REV:path; a newer version says to upgrade.
func TestBaselineErrorNames(t *testing.T) {
	cut := goodBaseline[:strings.Index(goodBaseline, `  "peaks"`)]
	restore := "; restore it: run `git checkout HEAD -- .sentinel/baseline.json`"
	for _, tc := range []struct{ name, data, want string }{
		{BaselinePath, cut, ".sentinel/baseline.json:16:5: the file ends inside the object that opens at 1:1" + restore},
		{StagedBaselineName, cut, ".sentinel/baseline.json:16:5: the file ends inside the object that opens at 1:1 (in the staged copy)" + restore},
		{"HEAD:" + BaselinePath, cut, "HEAD:.sentinel/baseline.json:16:5: the file ends inside the object that opens at 1:1"},
		{BaselinePath, strings.Replace(goodBaseline, `"version": 1`, `"version": 3`, 1), ".sentinel/baseline.json:23:14: baseline version 3 is newer than this sentinel reads (1): upgrade sentinel"},
		{StagedBaselineName, "", ".sentinel/baseline.json:1:1: the file is empty (in the staged copy)" + restore},
	} {
		_, err := ParseBaseline(tc.name, []byte(tc.data))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.name, err, tc.want)
		}
		if newer := strings.Contains(tc.want, "newer"); errors.Is(err, ErrNewerBaseline) != newer {
			t.Errorf("%s: errors.Is(err, ErrNewerBaseline) is %v: %v", tc.name, !newer, err)
		}
	}
}

// TestParseBaselineAfterTheFact: an acceptance recorded after the fact
// names its commit by full id; an attestation needs one, and lowers
// nothing.
func TestParseBaselineAfterTheFact(t *testing.T) {
	const id = "0123456789abcdef0123456789abcdef01234567"
	doc := func(acceptance string) []byte {
		return []byte(`{
  "accepted": [
    ` + acceptance + `
  ],
  "peaks": {},
  "version": 1
}
`)
	}
	// An attestation and an acceptance after the fact, as Attest and
	// accept --rev write them, read back whole.
	want := &Baseline{Version: BaselineVersion, Peaks: map[string]Peak{"go": {Tests: 1, Assertions: 1}}, Accepted: []Acceptance{
		{AssistedBy: "Claude:unknown", At: "2026-12-01T00:00:00Z", By: "Jane Doe <jane@example.com>", Commit: id, Lowered: map[string]map[string][2]int{}, Reason: "r"},
		{At: "2026-12-01T00:00:01Z", By: "Jane Doe <jane@example.com>", Commit: id, Lowered: map[string]map[string][2]int{"go": {"tests": {2, 1}}}, Reason: "r",
			Tests: []AcceptedTest{{Language: "go", Name: "TestSub", Path: "a_test.go"}}},
	}}
	got, err := ParseBaseline("b.json", want.Marshal())
	if err != nil {
		t.Fatalf("a baseline with acceptances after the fact: %v\n%s", err, want.Marshal())
	}
	if !reflect.DeepEqual(got.Accepted, want.Accepted) {
		t.Errorf("read back %+v, want %+v", got.Accepted, want.Accepted)
	}
	for _, tc := range []struct {
		name, acceptance, wantErr string
	}{
		{"attestation without a commit", `{"assisted_by": "Claude:unknown", "at": "2026-12-01T00:00:00Z", "by": "Jane Doe <jane@example.com>", "lowered": {}, "reason": "r"}`, "names no \"commit\""},
		{"an abbreviated commit", `{"at": "2026-12-01T00:00:00Z", "by": "Jane Doe <jane@example.com>", "commit": "0123456", "lowered": {"go": {"tests": [2, 1]}}, "reason": "r"}`, "not a full commit id"},
		{"a control character", `{"assisted_by": "Claude:\u001b]0;x", "at": "2026-12-01T00:00:00Z", "by": "Jane Doe <jane@example.com>", "commit": "` + id + `", "lowered": {}, "reason": "r"}`, "control character"},
	} {
		_, f := decodeBaseline(doc(tc.acceptance))
		var err error
		if f != nil {
			err = errors.New(f.msg)
		}
		switch {
		case err == nil || !strings.Contains(err.Error(), tc.wantErr):
			t.Errorf("%s: err = %v, want one saying %q", tc.name, err, tc.wantErr)
		}
	}
}
