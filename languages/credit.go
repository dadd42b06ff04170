package languages

import sitter "github.com/smacker/go-tree-sitter"

// A drop in assertions is easier to act on when the report names the test
// that lost them (`assert 6 == 6` in place of a real check leaves the test
// count whole), and a test emptied of its assertions is a loss though it
// keeps its name. Each assertion is credited to the innermost test whose
// code holds it: the span a language gives with AddTestSpan, or else the
// test's definition as the grammar has it (see identify).

type assertAt struct {
	at      uint32
	vacuous bool
}

// AddTestSpan records a test like AddTest, with the node that holds the
// test's own code (its function), so that the assertions inside it are
// credited to it.
func (f *File) AddTestSpan(name string, n *sitter.Node, skipped bool, code *sitter.Node) {
	f.AddTest(name, n, skipped)
	if code != nil && !f.tooMany {
		f.Result.Tests[len(f.Result.Tests)-1].span = rangeSpan{code.StartByte(), code.EndByte()}
	}
}

// AssertAt records an assertion like Assert, at the byte where it starts,
// for an assertion found outside a query match.
func (f *File) AssertAt(at uint32, vacuous bool) {
	f.setAt(at)
	f.Assert(vacuous)
}
