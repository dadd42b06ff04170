package languages

import (
	"bytes"
	"go/build/constraint"
	"strings"
	"unicode"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/golang"
)

// Go counts Go tests the way `go test` finds them.
var Go = &Language{
	Name:      "go",
	Grammars:  map[string]func() *sitter.Language{".go": golang.GetLanguage},
	TestFiles: []string{"*_test.go"},
	Markers:   []string{"Test", "Fuzz", "Benchmark", "assert.", "require.", "Expect(", "Ω("},
	// One query with every pattern: tree-sitter then walks the tree once.
	Queries: map[string]string{"main": `
		[(function_declaration) (method_declaration)] @func
		(call_expression
			function: (selector_expression operand: (identifier) @recv field: (field_identifier) @method)
			arguments: (argument_list) @args) @selcall
		(call_expression function: (identifier) @fn arguments: (argument_list) @args) @barecall
		(call_expression
			function: (selector_expression field: (field_identifier) @f)
			arguments: (argument_list (_) (func_literal parameters: (parameter_list) @params))) @runcall
		(func_literal parameters: (parameter_list) @litparams) @funclit
	`},
	Analyze: analyzeGo,
	Samples: []Sample{
		{Path: "a_test.go", Source: "package a\nimport \"testing\"\nfunc TestA(t *testing.T) { if 1 != 1 { t.Errorf(\"x\") } }\nfunc Test(t *testing.T) {}\nfunc Test_b(t *testing.T) { t.Fatal(\"x\") }\nfunc Test1(t *testing.T) {}\n",
			Tests: []string{"TestA active", "Test active", "Test_b active", "Test1 active"}, Assertions: 2},
		{Path: "a_test.go", Source: "package a\nimport \"testing\"\nfunc TestSkip(t *testing.T) {\n\tt.Skip(\"later\")\n\tt.Error(\"x\")\n}\nfunc TestShort(t *testing.T) {\n\tif testing.Short() {\n\t\tt.Skip()\n\t}\n}\n",
			Tests: []string{"TestSkip skipped", "TestShort active"}, Assertions: 1},
		{Path: "a_test.go", Source: "package a\nimport \"testing\"\nfunc FuzzP(f *testing.F) { f.Fuzz(func(t *testing.T, s string) { t.Fail() }) }\nfunc BenchmarkX(b *testing.B) {}\nfunc TestMain(m *testing.M) {}\n",
			Tests: []string{"FuzzP active"}, Assertions: 1, Benchmarks: 1},
		{Path: "a_test.go", Source: "package a\nimport (\"testing\"; \"github.com/stretchr/testify/assert\")\nfunc TestT(t *testing.T) {\n\tassert.Equal(t, 1, 1)\n\trequire.NoError(t, nil)\n\tassert.True(t, true)\n\ta := assert.New(t)\n\t_ = a\n\tt.Run(\"sub\", func(t *testing.T) { t.Error(\"x\") })\n}\n",
			Tests: []string{"TestT active"}, Assertions: 3, Vacuous: 1, Subtests: 1},
		{Path: "a_test.go", Source: "package a\ntype S struct{ suite.Suite }\nfunc (s *S) TestInSuite() { s.Equal(1, 1) }\nfunc (s *S) Testify() {}\nfunc TestRun(t *testing.T) { suite.Run(t, new(S)) }\n",
			Tests: []string{"S.TestInSuite active", "TestRun active"}},
		{Path: "a_test.go", Source: "package a\nimport . \"github.com/onsi/gomega\"\nfunc TestG(t *testing.T) {\n\tg := NewWithT(t)\n\tg.Expect(1).To(Equal(1))\n\tExpect(true).To(BeTrue())\n\tΩ(2).Should(Equal(2))\n}\n",
			Tests: []string{"TestG active"}, Assertions: 2, Vacuous: 1},
		// A file go test never builds: its tests are switched off.
		{Path: "a_test.go", Source: "//go:build ignore\n\npackage a\nimport \"testing\"\nfunc TestA(t *testing.T) { t.Error(\"x\") }\n",
			Tests: []string{"TestA skipped"}, Assertions: 1},
		{Path: "a_test.go", Source: "// Copyright\n\n//go:build integration && !short\n\npackage a\nfunc TestA(t *testing.T) {}\n",
			Tests: []string{"TestA skipped"}},
		{Path: "a_test.go", Source: "//go:build linux && windows\n\npackage a\nfunc TestA(t *testing.T) {}\n",
			Tests: []string{"TestA skipped"}},
		{Path: "a_test.go", Source: "//go:build (linux && amd64) || windows\n\npackage a\nfunc TestA(t *testing.T) {}\n",
			Tests: []string{"TestA active"}},
		{Path: "a_test.go", Source: "//go:build unix && !cgo && go1.21\n\npackage a\nfunc TestA(t *testing.T) {}\n",
			Tests: []string{"TestA active"}},
		{Path: "a_test.go", Source: "package a\n\n//go:build ignore\nfunc TestA(t *testing.T) {}\n",
			Tests: []string{"TestA active"}},
		{Path: "a_test.go", Source: "// +build ignore\n\npackage a\nfunc TestA(t *testing.T) {}\n",
			Tests: []string{"TestA skipped"}},
		{Path: "a_test.go", Source: "// +build linux\n// +build !linux\n\npackage a\nfunc TestA(t *testing.T) {}\n",
			Tests: []string{"TestA skipped"}},
		{Path: "a_test.go", Source: "//go:build linux\n// +build ignore\n\npackage a\nfunc TestA(t *testing.T) {}\n",
			Tests: []string{"TestA active"}},
		// Negative: look like tests, are not.
		{Path: "a_test.go", Source: "package a\nimport \"testing\"\nfunc Testing(t *testing.T) {}\nfunc TestX(t testing.T) {}\nfunc TestY(t *testing.T) int { return 0 }\nfunc TestZ(a, b *testing.T) {}\nfunc helper(t *testing.T) { t.Helper(); t.Log(\"x\") }\nvar test = 1\n",
			Tests: nil},
		{Path: "a.go", Source: "package a\nfunc TestA(t *testing.T) {}\n", Tests: nil},
		{Path: "b_test.go", Source: "package a\nfunc other(x *Foo) { x.Error(\"not a T\") }\n", Tests: nil},
	},
}

var goTestKinds = []struct{ prefix, arg string }{
	{"Test", "T"}, {"Fuzz", "F"}, {"Benchmark", "B"},
}

// isGoTestName is go test's rule: the prefix, then nothing or a character
// that is not a lower-case letter.
func isGoTestName(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	if len(name) == len(prefix) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(name[len(prefix):])
	return !unicode.IsLower(r)
}

// goScope is a function or function literal and the parameters it
// declares, true for those of a testing type.
type goScope struct {
	start, end uint32
	params     map[string]bool
}

// goFailCall is a x.Error/Fatal/Fail call, resolved once every scope is known.
type goFailCall struct {
	recv string
	at   uint32
}

func analyzeGo(f *File) {
	var scopes []goScope
	var fails []goFailCall
	// Predicates are checked here rather than in the query: smacker
	// compiles a #match? regexp on every match.
	f.Each("main", f.Root, func(c map[string]*sitter.Node) {
		switch {
		case c["func"] != nil:
			fn := c["func"]
			goFunc(f, fn)
			scopes = append(scopes, goScope{fn.StartByte(), fn.EndByte(), goTestingParams(f, fn.ChildByFieldName("parameters"))})
		case c["funclit"] != nil:
			fl := c["funclit"]
			scopes = append(scopes, goScope{fl.StartByte(), fl.EndByte(), goTestingParams(f, c["litparams"])})
		case c["selcall"] != nil:
			recv, method := f.Text(c["recv"]), f.Text(c["method"])
			switch {
			case recv == "assert" || recv == "require":
				if method != "New" {
					f.Assert(goVacuousTestify(f, method, c["args"]))
				}
			case method == "Expect" || method == "Ω":
				f.Assert(goVacuousGomega(f, c["selcall"], c["args"]))
			case goFailMethod(method):
				fails = append(fails, goFailCall{recv, c["selcall"].StartByte()})
			}
		case c["barecall"] != nil:
			if name := f.Text(c["fn"]); name == "Expect" || name == "Ω" {
				f.Assert(goVacuousGomega(f, c["barecall"], c["args"]))
			}
		case c["runcall"] != nil:
			if f.Text(c["f"]) != "Run" {
				return
			}
			if _, ok := goSingleParam(f, c["params"], "T"); ok {
				f.Result.Subtests++
			}
		}
	})
	for _, fc := range fails {
		if goResolvesToTesting(scopes, fc) {
			f.at = fc.at
			f.Assert(false)
		}
	}
	if goNeverBuilt(f.Src) {
		// `//go:build ignore` (or a custom tag) switches a whole file of
		// tests off as surely as t.Skip does, and go test -list agrees.
		for i := range f.Result.Tests {
			f.Result.Tests[i].Status = Skipped
		}
	}
}

// goPorts are the targets `go tool dist list` names, one "GOOS/GOARCH" per
// word.
const goPorts = `aix/ppc64 android/386 android/amd64 android/arm android/arm64 darwin/amd64 darwin/arm64
dragonfly/amd64 freebsd/386 freebsd/amd64 freebsd/arm freebsd/arm64 illumos/amd64 ios/amd64
ios/arm64 js/wasm linux/386 linux/amd64 linux/arm linux/arm64 linux/loong64 linux/mips linux/mips64
linux/mips64le linux/mipsle linux/ppc64 linux/ppc64le linux/riscv64 linux/s390x netbsd/386
netbsd/amd64 netbsd/arm netbsd/arm64 openbsd/386 openbsd/amd64 openbsd/arm openbsd/arm64
openbsd/ppc64 openbsd/riscv64 plan9/386 plan9/amd64 plan9/arm solaris/amd64 wasip1/wasm windows/386
windows/amd64 windows/arm64`

// goUnix are the GOOS values for which the "unix" build tag holds.
var goUnix = map[string]bool{"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true,
	"hurd": true, "illumos": true, "ios": true, "linux": true, "netbsd": true, "openbsd": true, "solaris": true}

// goNeverBuilt reports a file whose build constraint holds on no port, with
// either compiler, cgo on or off, and no tags beyond the defaults: go test
// never builds it unless someone passes -tags. A constraint that does not
// parse is left to the compiler to reject, and the file counts as built.
func goNeverBuilt(src []byte) bool {
	var expr constraint.Expr
	var plus []constraint.Expr // the old "// +build" lines, ANDed, if no //go:build
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		text := strings.TrimSpace(string(line))
		if text == "" {
			continue
		}
		if !strings.HasPrefix(text, "//") {
			break // the constraint must come before the package clause
		}
		if constraint.IsGoBuild(text) || constraint.IsPlusBuild(text) {
			e, err := constraint.Parse(text)
			if err != nil {
				return false
			}
			if constraint.IsGoBuild(text) {
				expr = e
				break
			}
			plus = append(plus, e)
		}
	}
	if expr == nil {
		for _, e := range plus {
			if expr == nil {
				expr = e
			} else {
				expr = &constraint.AndExpr{X: expr, Y: e}
			}
		}
	}
	if expr == nil {
		return false
	}
	for _, port := range strings.Fields(goPorts) {
		goos, goarch, _ := strings.Cut(port, "/")
		for _, compiler := range []string{"gc", "gccgo"} {
			for _, cgo := range []bool{true, false} {
				if expr.Eval(func(tag string) bool {
					switch tag {
					case goos, goarch, compiler:
						return true
					case "unix":
						return goUnix[goos]
					case "cgo":
						return cgo
					}
					return strings.HasPrefix(tag, "go1.") // any release
				}) {
					return false
				}
			}
		}
	}
	return true
}

// goResolvesToTesting finds the innermost enclosing function that declares
// the receiver as a parameter, and reports whether it has a testing type:
// t.Error on the test's T, or on a helper's, counts; x.Error does not.
func goResolvesToTesting(scopes []goScope, fc goFailCall) bool {
	best := -1
	for i, sc := range scopes {
		if fc.at < sc.start || fc.at >= sc.end {
			continue
		}
		if _, declared := sc.params[fc.recv]; !declared {
			continue
		}
		if best < 0 || sc.start > scopes[best].start {
			best = i
		}
	}
	return best >= 0 && scopes[best].params[fc.recv]
}

// goTestingParams maps each parameter name to whether its type is
// *testing.T, *testing.B, *testing.F or testing.TB.
func goTestingParams(f *File, params *sitter.Node) map[string]bool {
	m := map[string]bool{}
	if params == nil {
		return m
	}
	for i := 0; i < int(params.NamedChildCount()); i++ {
		pd := params.NamedChild(i)
		if pd.Type() != "parameter_declaration" {
			continue
		}
		testing := false
		if t := pd.ChildByFieldName("type"); t != nil {
			if t.Type() == "pointer_type" && t.NamedChildCount() == 1 {
				inner := t.NamedChild(0)
				testing = goTypeNamed(f, inner, "T") || goTypeNamed(f, inner, "B") || goTypeNamed(f, inner, "F")
			} else {
				testing = goTypeNamed(f, t, "TB")
			}
		}
		for j := 0; j < int(pd.NamedChildCount()); j++ {
			if ch := pd.NamedChild(j); ch.Type() == "identifier" {
				m[f.Text(ch)] = testing
			}
		}
	}
	return m
}

func goFunc(f *File, fn *sitter.Node) {
	nameNode := fn.ChildByFieldName("name")
	name := f.Text(nameNode)
	params := fn.ChildByFieldName("parameters")
	hasResult := fn.ChildByFieldName("result") != nil
	if fn.Type() == "method_declaration" {
		// A testify suite's tests are its Test… methods without
		// parameters; suite.Run calls them.
		if isGoTestName(name, "Test") && params != nil && params.NamedChildCount() == 0 && !hasResult {
			f.AddTest(goReceiverType(f, fn)+"."+name, nameNode, false)
		}
		return
	}
	if hasResult || fn.ChildByFieldName("type_parameters") != nil {
		return
	}
	for _, k := range goTestKinds {
		if !isGoTestName(name, k.prefix) {
			continue
		}
		param, ok := goSingleParam(f, params, k.arg)
		if !ok {
			return
		}
		if k.prefix == "Benchmark" {
			f.Result.Benchmarks++
			return
		}
		if name == "TestMain" {
			return
		}
		f.AddTest(name, nameNode, goSkipsPlainly(f, fn.ChildByFieldName("body"), param))
		return
	}
}

func goFailMethod(m string) bool {
	for _, p := range []string{"Error", "Fatal", "Fail"} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}

// goSingleParam checks go test's signature rule: exactly one parameter,
// with at most one name, of type *arg or *pkg.arg. It returns the
// parameter's name.
func goSingleParam(f *File, params *sitter.Node, arg string) (string, bool) {
	if params == nil || params.NamedChildCount() != 1 {
		return "", false
	}
	p := params.NamedChild(0)
	if p.Type() != "parameter_declaration" {
		return "", false
	}
	names := 0
	name := ""
	for i := 0; i < int(p.NamedChildCount()); i++ {
		if ch := p.NamedChild(i); ch.Type() == "identifier" {
			names++
			name = f.Text(ch)
		}
	}
	if names > 1 {
		return "", false
	}
	t := p.ChildByFieldName("type")
	if t == nil || t.Type() != "pointer_type" || t.NamedChildCount() != 1 {
		return "", false
	}
	return name, goTypeNamed(f, t.NamedChild(0), arg)
}

// goTypeNamed reports whether a type node is arg or pkg.arg.
func goTypeNamed(f *File, t *sitter.Node, arg string) bool {
	switch t.Type() {
	case "type_identifier":
		return f.Text(t) == arg
	case "qualified_type":
		return f.Text(t.ChildByFieldName("name")) == arg
	}
	return false
}

// goSkipsPlainly reports whether the body has param.Skip, Skipf or SkipNow
// as one of its own statements, not inside a condition.
func goSkipsPlainly(f *File, body *sitter.Node, param string) bool {
	if body == nil || param == "" || param == "_" {
		return false
	}
	list := body
	if body.NamedChildCount() == 1 && body.NamedChild(0).Type() == "statement_list" {
		list = body.NamedChild(0)
	}
	for i := 0; i < int(list.NamedChildCount()); i++ {
		st := list.NamedChild(i)
		if st.Type() != "expression_statement" || st.NamedChildCount() != 1 {
			continue
		}
		call := st.NamedChild(0)
		if call.Type() != "call_expression" {
			continue
		}
		sel := call.ChildByFieldName("function")
		if sel == nil || sel.Type() != "selector_expression" {
			continue
		}
		op, field := sel.ChildByFieldName("operand"), f.Text(sel.ChildByFieldName("field"))
		if op != nil && op.Type() == "identifier" && f.Text(op) == param &&
			(field == "Skip" || field == "Skipf" || field == "SkipNow") {
			return true
		}
	}
	return false
}

func goReceiverType(f *File, method *sitter.Node) string {
	recv := method.ChildByFieldName("receiver")
	if recv == nil || recv.NamedChildCount() == 0 {
		return ""
	}
	t := recv.NamedChild(0).ChildByFieldName("type")
	for t != nil && t.Type() == "pointer_type" && t.NamedChildCount() > 0 {
		t = t.NamedChild(0)
	}
	if t != nil && t.Type() == "generic_type" {
		t = t.ChildByFieldName("type")
	}
	return f.Text(t)
}

// goVacuousTestify reports assert.True(t, true) and assert.False(t, false).
func goVacuousTestify(f *File, method string, args *sitter.Node) bool {
	want := map[string]string{"True": "true", "False": "false"}[method]
	if want == "" || args == nil || args.NamedChildCount() < 2 {
		return false
	}
	return f.Text(args.NamedChild(1)) == want
}

// goVacuousGomega reports Expect(true).To(BeTrue()) and its mirror.
func goVacuousGomega(f *File, call, args *sitter.Node) bool {
	if args == nil || args.NamedChildCount() != 1 {
		return false
	}
	lit := f.Text(args.NamedChild(0))
	if lit != "true" && lit != "false" {
		return false
	}
	sel := call.Parent()
	if sel == nil || sel.Type() != "selector_expression" {
		return false
	}
	outer := sel.Parent()
	if outer == nil || outer.Type() != "call_expression" {
		return false
	}
	matcher := strings.ReplaceAll(f.Text(outer.ChildByFieldName("arguments")), " ", "")
	verb := f.Text(sel.ChildByFieldName("field"))
	positive := verb == "To" || verb == "Should"
	switch {
	case lit == "true" && positive && matcher == "(BeTrue())", lit == "false" && positive && matcher == "(BeFalse())":
		return true
	}
	return false
}
