package languages

import (
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
			f.Assert(false)
		}
	}
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
