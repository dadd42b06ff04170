package languages

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// A TestMain decides whether its package's tests run at all: go test runs
// them only when it calls m.Run, and reports their failures only through
// the code m.Run returns, which TestMain hands to os.Exit or returns with
// (since Go 1.15 the test binary exits with it). One that never calls
// m.Run, or exits with 0 whatever m.Run said, switches off every test of
// the package as surely as a t.Skip in each, though no test file lost one.

// Notes on the tests a TestMain switches off.
const (
	// NoteTestMainNoRun is the note on the tests of a package whose
	// TestMain never calls m.Run.
	NoteTestMainNoRun = "the package's TestMain never calls m.Run(): go test runs none of its tests"
	// NoteTestMainExits is the note on the tests of a package whose
	// TestMain exits with 0 whatever m.Run() returned.
	NoteTestMainExits = "the package's TestMain exits with 0 whatever m.Run() returns: its tests cannot fail"
)

// testMainOff says why the file's TestMain switches off its package's
// tests, or "" when it runs them. It is read from the text: a TestMain
// that never names its *testing.M runs nothing (m.Run, or a helper such as
// goleak.VerifyTestMain(m), needs it), and one whose body's own statements
// call os.Exit with a constant 0 reports a pass whatever ran.
func (g *goAnalysis) testMainOff() string {
	fn := g.testMain
	if fn == nil {
		return ""
	}
	body := fn.ChildByFieldName("body")
	if body == nil {
		return ""
	}
	if g.testMainParam == "" || g.testMainParam == "_" || !goNames(g.f, body, g.testMainParam) {
		return NoteTestMainNoRun
	}
	for _, st := range statements(body) {
		if st.Type() != "expression_statement" || st.NamedChildCount() != 1 {
			continue
		}
		call := st.NamedChild(0)
		if call.Type() != "call_expression" {
			continue
		}
		if strings.Join(strings.Fields(g.f.Text(call.ChildByFieldName("function"))), "") != "os.Exit" {
			continue
		}
		args := call.ChildByFieldName("arguments")
		if args == nil || args.NamedChildCount() != 1 {
			continue
		}
		if c := goConst(g.f, args.NamedChild(0)); c.kind == constNumber && constCompare("==", c, constOfNumber("0")).isTrue() {
			return NoteTestMainExits
		}
	}
	return ""
}

// goNames reports whether an identifier called name appears under n.
func goNames(f *File, n *sitter.Node, name string) bool {
	if !f.descend() {
		return true // too deep to tell: take it as running the tests
	}
	defer f.ascend()
	if n.Type() == "identifier" && f.Text(n) == name {
		return true
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if goNames(f, n.NamedChild(i), name) {
			return true
		}
	}
	return false
}
