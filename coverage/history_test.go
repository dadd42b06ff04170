package coverage

import (
	"reflect"
	"testing"
)

func TestLowered(t *testing.T) {
	ref := &Baseline{Version: 1, Peaks: map[string]Peak{
		"python": {Tests: 10, Assertions: 30},
		"go":     {Tests: 5, Assertions: 9},
	}, Accepted: []Acceptance{{At: "old", By: "A", Reason: "earlier", Lowered: map[string]map[string][2]int{"go": {"tests": {9, 1}}}}}}
	accept := func(at string, from, to int) Acceptance {
		return Acceptance{At: at, By: "A", Reason: "r", Lowered: map[string]map[string][2]int{"go": {"tests": {from, to}}}}
	}
	for _, tc := range []struct {
		name string
		cur  *Baseline
		want []Lowering
	}{
		{"same", ref, nil},
		{"raised", &Baseline{Peaks: map[string]Peak{"python": {Tests: 11, Assertions: 30}, "go": {Tests: 6, Assertions: 9}}, Accepted: ref.Accepted}, nil},
		{"lowered by hand, in key order", &Baseline{Peaks: map[string]Peak{"python": {Tests: 9, Assertions: 30}, "go": {Tests: 4, Assertions: 8}}, Accepted: ref.Accepted},
			[]Lowering{{"go", FigureTests, 5, 4}, {"go", FigureAssertions, 9, 8}, {"python", FigureTests, 10, 9}}},
		{"a row dropped", &Baseline{Peaks: map[string]Peak{"go": {Tests: 5, Assertions: 9}}, Accepted: ref.Accepted},
			[]Lowering{{"python", FigureTests, 10, 0}, {"python", FigureAssertions, 30, 0}}},
		{"an acceptance the commit adds", &Baseline{Peaks: map[string]Peak{"python": {Tests: 10, Assertions: 30}, "go": {Tests: 4, Assertions: 9}},
			Accepted: append(append([]Acceptance{}, ref.Accepted...), accept("new", 5, 4))}, nil},
		// An acceptance to 4 does not cover a peak of 3.
		{"lowered past the acceptance", &Baseline{Peaks: map[string]Peak{"python": {Tests: 10, Assertions: 30}, "go": {Tests: 3, Assertions: 9}},
			Accepted: append(append([]Acceptance{}, ref.Accepted...), accept("new", 5, 4))}, []Lowering{{"go", FigureTests, 5, 3}}},
		// The reference's own acceptance covers nothing new.
		{"an old acceptance", &Baseline{Peaks: map[string]Peak{"python": {Tests: 10, Assertions: 30}, "go": {Tests: 1, Assertions: 9}}, Accepted: ref.Accepted},
			[]Lowering{{"go", FigureTests, 5, 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Lowered(ref, tc.cur); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Lowered = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestBaselineChanges(t *testing.T) {
	old := Acceptance{At: "old", By: "A", Reason: "earlier", Lowered: map[string]map[string][2]int{"go": {"tests": {9, 5}}}}
	ref := &Baseline{Version: 1, Peaks: map[string]Peak{"go": {Tests: 5, Assertions: 9}, "python": {Tests: 2, Assertions: 2}}, Accepted: []Acceptance{old}}
	added := Acceptance{At: "new", By: "B", Reason: "r", Lowered: map[string]map[string][2]int{"go": {"tests": {5, 4}}}}
	reworded := old
	reworded.Reason = "reworded"
	cur := &Baseline{Version: 1, Peaks: map[string]Peak{"go": {Tests: 4, Assertions: 10}}, Accepted: []Acceptance{reworded, added}}
	// An acceptance edited in place is a new one; the one it replaced is
	// simply gone.
	if got, want := AddedAcceptances(ref, cur), []Acceptance{reworded, added}; !reflect.DeepEqual(got, want) {
		t.Errorf("AddedAcceptances = %+v, want %+v", got, want)
	}
	if got := AddedAcceptances(ref, ref); got != nil {
		t.Errorf("AddedAcceptances of the same baseline = %+v, want none", got)
	}
	// Every fall, covered or not; a rise is none.
	want := []Lowering{{"go", FigureTests, 5, 4}, {"python", FigureTests, 2, 0}, {"python", FigureAssertions, 2, 0}}
	if got := Fallen(ref, cur); !reflect.DeepEqual(got, want) {
		t.Errorf("Fallen = %+v, want %+v", got, want)
	}
}
