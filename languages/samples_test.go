package languages

import (
	"context"
	"fmt"
	"reflect"
	"testing"
)

// TestSamples runs every language's own positive and negative samples.
func TestSamples(t *testing.T) {
	p := NewParser()
	defer p.Close()
	for _, l := range All() {
		if len(l.Samples) < 2 {
			t.Errorf("%s carries %d samples; a language ships with positive and negative ones", l.Name, len(l.Samples))
		}
		negative := false
		for i, s := range l.Samples {
			if len(s.Tests) == 0 {
				negative = true
			}
			t.Run(fmt.Sprintf("%s/%d", l.Name, i), func(t *testing.T) {
				got := countSample(t, p, l, s)
				var tests []string
				for _, tt := range got.Tests {
					// A test built for some platforms only names them.
					if tt.Platforms != nil {
						tests = append(tests, fmt.Sprintf("%s %s %v", tt.Name, tt.Status, tt.Platforms))
						continue
					}
					tests = append(tests, fmt.Sprintf("%s %s", tt.Name, tt.Status))
				}
				if s.Conditions != nil {
					var conds []string
					for _, tt := range got.Tests {
						if tt.Conditional != "" {
							conds = append(conds, tt.Name+": "+tt.Conditional)
						}
					}
					if !reflect.DeepEqual(conds, s.Conditions) {
						t.Errorf("conditions %q, want %q\n%s", conds, s.Conditions, s.Source)
					}
				}
				if !reflect.DeepEqual(tests, s.Tests) {
					t.Errorf("tests %q, want %q\n%s", tests, s.Tests, s.Source)
				}
				if got.Assertions != s.Assertions || got.Vacuous != s.Vacuous || got.Benchmarks != s.Benchmarks || got.Subtests != s.Subtests {
					t.Errorf("assertions %d vacuous %d benchmarks %d subtests %d, want %d %d %d %d\n%s",
						got.Assertions, got.Vacuous, got.Benchmarks, got.Subtests,
						s.Assertions, s.Vacuous, s.Benchmarks, s.Subtests, s.Source)
				}
			})
		}
		if !negative {
			t.Errorf("%s has no negative sample", l.Name)
		}
	}
}

func countSample(t *testing.T, p *Parser, l *Language, s Sample) *Result {
	t.Helper()
	if ForPath(s.Path) != l {
		return &Result{}
	}
	if !l.Admits(s.Path, []byte(s.Source)) {
		return &Result{}
	}
	r, err := p.Count(context.Background(), l, s.Path, []byte(s.Source))
	if err != nil {
		t.Fatal(err)
	}
	if l.Settle != nil {
		r = l.Settle(r, Place{Path: s.Path, Manifest: func() []byte {
			if s.Manifest == "" {
				return nil
			}
			return []byte(s.Manifest)
		}})
	}
	return r
}
