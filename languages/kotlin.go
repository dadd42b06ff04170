package languages

import (
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/kotlin"
)

// Kotlin counts JUnit tests (annotations in a function's modifiers) and
// kotest specs (test("…") { }, should, it, "name" { }).
var Kotlin = &Language{
	Name:      "kotlin",
	Grammars:  map[string]func() *sitter.Language{".kt": kotlin.GetLanguage},
	TestFiles: []string{"**/src/test/**", "*Test.kt", "*Tests.kt", "*Spec.kt"},
	Markers:   []string{"@Test", "Test", "Spec", "test(", "should", "assert", "verify"},
	Queries: map[string]string{"main": `
		(function_declaration (simple_identifier) @name) @fun
		(class_declaration (type_identifier) @cname) @class
		(call_expression (call_suffix (annotated_lambda))) @block
		(call_expression (simple_identifier) @fn) @call
		(infix_expression (_) (simple_identifier) @infix) @inf
	`},
	Analyze: analyzeKotlin,
	Samples: []Sample{
		{Path: "src/test/kotlin/CalcTest.kt", Source: "class CalcTest {\n    @Test\n    fun adds() { assertEquals(2, 1 + 1); result shouldBe 2 }\n    @Disabled(\"x\") @Test fun off() {}\n    @ParameterizedTest @ValueSource(ints = [1, 2]) fun cases(n: Int) { assertTrue(true) }\n    fun helper() { verify { m.call() } }\n}\n",
			Tests: []string{"CalcTest#adds active", "CalcTest#off skipped", "CalcTest#cases active"}, Assertions: 3, Vacuous: 1},
		{Path: "src/test/kotlin/CalcSpec.kt", Source: "class CalcSpec : StringSpec({\n    \"strings work\" { \"a\".length shouldBe 1 }\n    test(\"named\") { shouldThrow<E> { f() } }\n    xtest(\"skipped\") { }\n    test(\"off\").config(enabled = false) { }\n})\n",
			Tests: []string{"CalcSpec > strings work active", "CalcSpec > named active", "CalcSpec > skipped skipped", "CalcSpec > off skipped"}, Assertions: 2},
		// Negative: not tests.
		{Path: "src/main/kotlin/Calc.kt", Source: "class Calc { @Test fun notInATestFile() {} }\n", Tests: nil},
		{Path: "src/test/kotlin/Util.kt", Source: "class Util { fun testLooksLikeJUnit3() {} fun setup() { listOf(1).forEach { } } }\n", Tests: nil},
	},
}

var (
	kotlinTestAnnotations = map[string]bool{"Test": true, "ParameterizedTest": true, "RepeatedTest": true, "TestFactory": true, "TestTemplate": true}
	kotestCalls           = map[string]bool{"test": true, "should": true, "it": true, "expect": false, "scenario": true, "xtest": true, "xit": true, "xshould": true, "xscenario": true}
	kotestGroups          = map[string]bool{"describe": true, "context": true, "given": true, "feature": true, "xdescribe": true, "xcontext": true}
)

type kotlinNode struct {
	start, end uint32
	name       string
	class      bool
	group      bool
	skipped    bool
	node       *sitter.Node
}

func analyzeKotlin(f *File) {
	var nodes []kotlinNode
	type fun struct{ node, name *sitter.Node }
	var funs []fun
	f.Each("main", f.Root, func(c map[string]*sitter.Node) {
		switch {
		case c["class"] != nil:
			cl := c["class"]
			nodes = append(nodes, kotlinNode{start: cl.StartByte(), end: cl.EndByte(), name: f.Text(c["cname"]), class: true})
		case c["fun"] != nil:
			funs = append(funs, fun{c["fun"], c["name"]})
		case c["block"] != nil:
			if n, ok := kotestBlock(f, c["block"]); ok {
				nodes = append(nodes, n)
			}
		case c["call"] != nil:
			fn := f.Text(c["fn"])
			if strings.HasPrefix(fn, "assert") || fn == "verify" || fn == "fail" || strings.HasPrefix(fn, "should") {
				f.Assert(fn == "assertTrue" && strings.ReplaceAll(kotlinCallArgs(f, c["call"]), " ", "") == "(true)")
			}
		case c["inf"] != nil:
			if strings.HasPrefix(f.Text(c["infix"]), "should") {
				f.Assert(false)
			}
		}
	})
	sort.SliceStable(nodes, func(i, j int) bool { return nodes[i].start < nodes[j].start })
	for _, fn := range funs {
		ann := kotlinAnnotations(f, fn.node)
		test := false
		for a := range ann {
			if kotlinTestAnnotations[a] {
				test = true
			}
		}
		if !test {
			continue
		}
		var classes []string
		for _, n := range nodes {
			if n.class && n.start < fn.node.StartByte() && fn.node.EndByte() <= n.end {
				classes = append(classes, n.name)
			}
		}
		if len(classes) == 0 {
			continue
		}
		cls := strings.Join(classes, ".")
		f.AddTest(cls+"#"+f.Text(fn.name), fn.name, ann["Disabled"] || ann["Ignore"])
	}
	for i, n := range nodes {
		if n.class || n.group {
			continue
		}
		var path []string
		skipped := n.skipped
		for _, g := range nodes[:i] {
			if g.start <= n.start && n.end <= g.end && (g.class || g.group) {
				path = append(path, g.name)
				skipped = skipped || g.skipped
			}
		}
		f.AddTest(strings.Join(append(path, n.name), " > "), n.node, skipped)
	}
	sort.SliceStable(f.Result.Tests, func(i, j int) bool { return f.Result.Tests[i].Line < f.Result.Tests[j].Line })
}

// kotestBlock reads a kotest container or test: "name" { }, test("name") { },
// test("name").config(enabled = false) { }, describe("…") { }.
func kotestBlock(f *File, call *sitter.Node) (kotlinNode, bool) {
	callee := call.NamedChild(0)
	n := kotlinNode{start: call.StartByte(), end: call.EndByte(), node: call}
	switch callee.Type() {
	case "string_literal":
		n.name = strings.Trim(f.Text(callee), `"`)
		return n, true
	case "call_expression":
		inner := callee
		// test("x").config(enabled = false) { }: look through .config(…).
		if nav := inner.NamedChild(0); nav != nil && nav.Type() == "navigation_expression" {
			if strings.Contains(strings.ReplaceAll(f.Text(inner), " ", ""), "enabled=false") {
				n.skipped = true
			}
			inner = nav.NamedChild(0)
			if inner != nil && inner.Type() == "string_literal" {
				// "name".config(enabled = false) { } in a StringSpec.
				n.name = strings.Trim(f.Text(inner), `"`)
				return n, true
			}
			if inner == nil || inner.Type() != "call_expression" {
				return n, false
			}
		}
		id := inner.NamedChild(0)
		if id == nil || id.Type() != "simple_identifier" {
			return n, false
		}
		name := f.Text(id)
		if !kotestCalls[name] && !kotestGroups[name] {
			return n, false
		}
		args := f.Text(inner.NamedChild(1))
		first := strings.Index(args, `"`)
		last := strings.LastIndex(args, `"`)
		if first < 0 || last <= first {
			return n, false
		}
		n.name = args[first+1 : last]
		n.group = kotestGroups[name]
		n.skipped = n.skipped || strings.HasPrefix(name, "x")
		return n, true
	}
	return n, false
}

// kotlinAnnotations returns the simple names of a function's annotations.
func kotlinAnnotations(f *File, fn *sitter.Node) map[string]bool {
	out := map[string]bool{}
	for i := 0; i < int(fn.NamedChildCount()); i++ {
		mods := fn.NamedChild(i)
		if mods.Type() != "modifiers" {
			continue
		}
		for j := 0; j < int(mods.NamedChildCount()); j++ {
			a := mods.NamedChild(j)
			if a.Type() != "annotation" {
				continue
			}
			text := strings.TrimPrefix(f.Text(a), "@")
			if k := strings.IndexByte(text, '('); k >= 0 {
				text = text[:k]
			}
			if k := strings.LastIndexByte(text, '.'); k >= 0 {
				text = text[k+1:]
			}
			out[strings.TrimSpace(text)] = true
		}
	}
	return out
}

func kotlinCallArgs(f *File, call *sitter.Node) string {
	for i := 0; i < int(call.NamedChildCount()); i++ {
		if s := call.NamedChild(i); s.Type() == "call_suffix" {
			return f.Text(s)
		}
	}
	return ""
}
