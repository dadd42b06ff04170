package languages

import sitter "github.com/smacker/go-tree-sitter"

// A drop in assertions is easier to act on when the report names the test
// that lost them (`assert 6 == 6` in place of a real check leaves the test
// count whole). A language that records each test's span and each
// assertion's position gets its tests credited here; one that does not
// still counts the file's assertions, and its tests carry zeros.

type assertAt struct {
	at      uint32
	vacuous bool
}

// AddTestSpan records a test like AddTest, with the node that holds the
// test's own code (its function), so that the assertions inside it are
// credited to it.
func (f *File) AddTestSpan(name string, n *sitter.Node, skipped bool, code *sitter.Node) {
	f.AddTest(name, n, skipped)
	if code != nil {
		f.Result.Tests[len(f.Result.Tests)-1].span = rangeSpan{code.StartByte(), code.EndByte()}
	}
}

// AssertAt records an assertion like Assert, at the byte where it starts.
func (f *File) AssertAt(at uint32, vacuous bool) {
	f.Assert(vacuous)
	f.credits = append(f.credits, assertAt{at, vacuous})
}

// credit gives each assertion recorded by position to the innermost test
// whose span holds it.
func (f *File) credit() {
	tests := f.Result.Tests
	for _, a := range f.credits {
		best := -1
		for i, t := range tests {
			if t.span.end == 0 || a.at < t.span.start || a.at >= t.span.end {
				continue
			}
			if best < 0 || t.span.start > tests[best].span.start {
				best = i
			}
		}
		if best < 0 {
			continue
		}
		if a.vacuous {
			tests[best].Vacuous++
		} else {
			tests[best].Assertions++
		}
	}
	f.credits = nil
	for i := range tests {
		tests[i].span = rangeSpan{} // a cached result has none either
	}
}
