package languages

import (
	"bytes"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// Suites: each method a suite runs is a test, named Type.Method after its
// receiver, for testify and gopkg.in/check.v1 alike. The runner function
// (TestSuite, which calls suite.Run or check.TestingT) is a test of its
// own. testify runs a method as the subtest TestRunner/Method, which
// `go test -run` addresses; check.v1 runs its methods inside the runner,
// not as subtests, and reports and filters them by Type.Method itself
// (-check.v, -check.list, -check.f). Type.Method names both without
// knowing which runner, possibly in another file, runs the suite.

// goImportsGocheck reports a file that imports check.v1, under its
// gopkg.in path or its GitHub one.
func goImportsGocheck(src []byte) bool {
	return bytes.Contains(src, []byte(`"gopkg.in/check.v1"`)) || bytes.Contains(src, []byte(`"github.com/go-check/check"`))
}

// goCheckCall is a check.v1 c.Assert or c.Check call, resolved once every
// scope is known.
type goCheckCall struct {
	call    goFailCall
	vacuous bool
}

// goSuiteMethod records a method that a suite runs: testify's Test…
// methods without parameters or results, and, in a file that imports
// check.v1, methods whose name starts with Test (check.v1 asks no more of
// the name) and that take a *C and return nothing; check.v1's
// Benchmark…(c *C) methods are benchmarks.
func goSuiteMethod(f *File, fn *sitter.Node, g *goAnalysis) {
	nameNode := fn.ChildByFieldName("name")
	name := f.Text(nameNode)
	params := fn.ChildByFieldName("parameters")
	if params == nil || fn.ChildByFieldName("result") != nil {
		return
	}
	test := goTest{name: goReceiverType(f, fn) + "." + name, nameNode: nameNode, code: fn, body: fn.ChildByFieldName("body")}
	switch {
	case params.NamedChildCount() == 0:
		if isGoTestName(name, "Test") {
			g.tests = append(g.tests, test)
		}
	case g.gocheck:
		param, ok := goSingleParam(f, params, "C")
		switch {
		case !ok:
		case strings.HasPrefix(name, "Test"):
			test.param = param
			g.tests = append(g.tests, test)
		case strings.HasPrefix(name, "Benchmark"):
			f.Result.Benchmarks++
		}
	}
}

// goVacuousGocheck reports a check.v1 assertion of two literals that
// passes: c.Assert(1, Equals, 1), c.Check(nil, IsNil).
func goVacuousGocheck(f *File, args *sitter.Node) bool {
	if args == nil || args.NamedChildCount() < 2 {
		return false
	}
	got := goConst(f, args.NamedChild(0))
	checker := f.Text(args.NamedChild(1))
	if i := strings.LastIndexByte(checker, '.'); i >= 0 {
		checker = checker[i+1:]
	}
	switch checker {
	case "IsNil":
		return got.kind == constNil
	case "NotNil":
		return got.value() && got.kind != constNil
	case "Equals", "DeepEquals":
		if args.NamedChildCount() < 3 {
			return false
		}
		want := goConst(f, args.NamedChild(2))
		return got.value() && want.value() && !constCompare("==", got, want).isFalse()
	}
	return false
}
