package coverage

import (
	"errors"
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
	good := bl(map[string]Peak{"go": {Tests: 2, Assertions: 3}}, Acceptance{At: "t", By: "b", Reason: "r", Lowered: map[string]map[string][2]int{"go": {"tests": {3, 2}}}})
	data := good.Marshal()
	if !strings.HasSuffix(string(data), "}\n") || !strings.Contains(string(data), "\n  \"accepted\": [") {
		t.Errorf("not the stable form:\n%s", data)
	}
	back, err := ParseBaseline("b.json", data)
	if err != nil || !reflect.DeepEqual(back, good) {
		t.Fatalf("round trip: %v %+v", err, back)
	}
	for _, tc := range []struct{ name, data, want string }{
		{"syntax", "{\n  \"version\": 1,\n  \"peaks\": {\n    go: 1\n", "b.json:4:5: invalid character 'g'"},
		{"unknown key", `{"version": 1, "peaks": {}, "extra": 1}`, `b.json:1:1: unknown field "extra"`},
		{"wrong type", "{\"version\": 1,\n \"peaks\": {\"go\": {\"tests\": \"many\"}}}", "b.json:2:"},
		{"no version", `{"peaks": {}}`, "b.json:1:1: no version"},
		{"newer", `{"version": 9}`, "upgrade sentinel"},
		{"negative", `{"version": 1, "peaks": {"go": {"tests": -1}}}`, "peak go is negative"},
		{"empty", ``, "empty baseline"},
		{"trailing", `{"version": 1} {}`, "trailing data"},
	} {
		_, err := ParseBaseline("b.json", []byte(tc.data))
		var be *BaselineError
		if !errors.As(err, &be) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
