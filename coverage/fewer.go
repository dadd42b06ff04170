package coverage

import (
	"fmt"
	"sort"

	"github.com/gitsentinel/sentinel/internal/quote"
)

// Fewer is a test, or a file, that holds fewer counted assertions than in
// the reference snapshot: an assertion removed, put under a condition that
// never holds or after a return, or made vacuous (`assert 6 == 6` in place
// of a real check).
type Fewer struct {
	// Name is the test's name; empty when the line is about the file,
	// for the assertions no test of it accounts for.
	Name string `json:"name,omitempty"`
	Path string `json:"path"`
	Line int    `json:"line,omitempty"`
	// Before and Now are the counted assertions in the reference and now.
	Before int `json:"before"`
	Now    int `json:"now"`
	// Vacuous is how many more of its assertions are vacuous than before.
	Vacuous int `json:"vacuous,omitempty"`
}

// Text is the line in a report for people.
func (f Fewer) Text() string {
	s := fmt.Sprintf("fewer assertions: %s %d → %d", quote.Path(f.Path), f.Before, f.Now)
	if f.Name != "" {
		s = fmt.Sprintf("fewer assertions: %s (%s:%d) %d → %d", quote.Name(f.Name), quote.Path(f.Path), f.Line, f.Before, f.Now)
	}
	if f.Vacuous > 0 {
		s += fmt.Sprintf(", %d more vacuous", f.Vacuous)
	}
	return s
}

// fewerAssertions names, for one row, the tests whose assertions fell from
// the reference snapshot ref to now, and the files whose fall their tests
// do not account for. A test is matched by name in the same file.
func fewerAssertions(ref, now *Counts, key string) []Fewer {
	nowFiles := map[string]*File{}
	for i := range now.Files {
		f := &now.Files[i]
		if now.RowKey(f.Path, f.Language) == key {
			nowFiles[f.Path] = f
		}
	}
	var out []Fewer
	for _, rf := range ref.Files {
		if ref.RowKey(rf.Path, rf.Language) != key {
			continue
		}
		nf := nowFiles[rf.Path]
		nowAsserts := 0
		if nf != nil {
			nowAsserts = nf.Assertions
		}
		if nowAsserts >= rf.Assertions {
			continue
		}
		explained := 0
		if nf != nil {
			// Each test of the reference takes the first test of its name
			// not taken yet: a queue per name, not a scan of the file's
			// tests for each, which a file of many tests made quadratic.
			byName := map[string][]int{}
			for i, nt := range nf.Tests {
				byName[nt.Name] = append(byName[nt.Name], i)
			}
			for _, rt := range rf.Tests {
				q := byName[rt.Name]
				if len(q) == 0 {
					continue
				}
				nt := nf.Tests[q[0]]
				byName[rt.Name] = q[1:]
				if nt.Assertions < rt.Assertions {
					out = append(out, Fewer{Name: nt.Name, Path: nf.Path, Line: nt.Line, Before: rt.Assertions, Now: nt.Assertions,
						Vacuous: max(0, nt.Vacuous-rt.Vacuous)})
					explained += rt.Assertions - nt.Assertions
				}
			}
		}
		if rf.Assertions-nowAsserts > explained {
			vac := 0
			if nf != nil {
				vac = max(0, nf.Vacuous-rf.Vacuous)
			}
			out = append(out, Fewer{Path: rf.Path, Before: rf.Assertions, Now: nowAsserts, Vacuous: vac})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Name != "" && out[j].Name == ""
	})
	return out
}
