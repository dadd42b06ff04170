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
	Queries: map[string]string{
		"main": `
		(function_declaration (simple_identifier) @name) @fun
		(class_declaration (type_identifier) @cname) @class
		(call_expression (call_suffix (annotated_lambda))) @block
		(call_expression (simple_identifier) @fn) @call
		(infix_expression (_) (simple_identifier) @infix) @inf
	` + kotlinFlow.query()},
	Analyze: analyzeKotlin,
	Samples: kotlinSamples,
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
	fl := newFlow(f, kotlinFlow)
	defer fl.close()
	var nodes []kotlinNode
	type fun struct{ node, name *sitter.Node }
	var funs []fun
	fl.each(func(c map[string]*sitter.Node) {
		switch {
		case c["class"] != nil:
			cl := c["class"]
			off := jvmAnnotationsOff(f, kotlinFlow, kotlinAnnotations(f, cl))
			nodes = append(nodes, kotlinNode{start: cl.StartByte(), end: cl.EndByte(), name: f.Text(c["cname"]), class: true, skipped: off})
		case c["fun"] != nil:
			funs = append(funs, fun{c["fun"], c["name"]})
		case c["block"] != nil:
			if n, ok := kotestBlock(f, fl, c["block"]); ok {
				nodes = append(nodes, n)
			}
		case c["call"] != nil:
			fn := f.Text(c["fn"])
			if (strings.HasPrefix(fn, "assert") || fn == "verify" || fn == "fail" || strings.HasPrefix(fn, "should")) && !fl.dead(c["call"]) {
				f.Assert(kotlinVacuous(f, fn, c["call"]))
			}
		case c["inf"] != nil:
			if op := f.Text(c["infix"]); strings.HasPrefix(op, "should") && !fl.dead(c["inf"]) {
				check := map[string]flowCheck{"shouldBe": checkEqual, "shouldNotBe": checkNotEqual}[op]
				inf := c["inf"]
				f.Assert(check != 0 && inf.NamedChildCount() == 3 && kotlinFlow.passes(f, check, inf.NamedChild(0), inf.NamedChild(2)))
			}
		}
	})
	sort.SliceStable(nodes, func(i, j int) bool { return nodes[i].start < nodes[j].start })
	// The classes and the kotest groups, each by its place among the
	// nodes and its span, to find those around a function or a test.
	var classIdx, groupIdx []int
	var classSpans, groupSpans []rangeSpan
	for i, n := range nodes {
		if n.class {
			classIdx = append(classIdx, i)
			classSpans = append(classSpans, rangeSpan{n.start, n.end})
		}
		if n.class || n.group {
			groupIdx = append(groupIdx, i)
			groupSpans = append(groupSpans, rangeSpan{uint32(i), n.end})
		}
	}
	classesAround, groupsAround := newStabber(classSpans), newStabber(groupSpans)
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
		skipped := jvmAnnotationsOff(f, kotlinFlow, ann)
		classesAround.eachBefore(fn.node.StartByte(), fn.node.EndByte(), func(k int) {
			n := nodes[classIdx[k]]
			classes = append(classes, n.name)
			skipped = skipped || n.skipped
		})
		if len(classes) == 0 {
			continue
		}
		cls := strings.Join(classes, ".")
		for i := 0; i < int(fn.node.NamedChildCount()); i++ {
			if b := fn.node.NamedChild(i); b.Type() == "function_body" {
				skipped = skipped || fl.skips(b)
			}
		}
		f.AddTest(cls+"#"+f.Text(fn.name), fn.name, skipped)
	}
	// Kotest's focus: once a top-level test's name starts with "f:", only
	// the focused ones run.
	anyFocus := false
	for _, n := range nodes {
		anyFocus = anyFocus || !n.class && strings.HasPrefix(n.name, "f:")
	}
	for i, n := range nodes {
		if n.class || n.group {
			continue
		}
		var path []string
		skipped, focused := n.skipped, strings.HasPrefix(n.name, "f:")
		// The classes and groups before it in this order that begin
		// where it does or before and reach its end.
		if i > 0 {
			groupsAround.each(uint32(i-1), n.end, func(k int) {
				g := nodes[groupIdx[k]]
				if g.start <= n.start {
					path = append(path, g.name)
					skipped = skipped || g.skipped
					focused = focused || g.group && strings.HasPrefix(g.name, "f:")
				}
			})
		}
		f.AddTest(strings.Join(append(path, n.name), " > "), n.node, skipped || anyFocus && !focused)
	}
	f.sortTests()
}

// kotestBlock reads a kotest container or test: "name" { }, test("name") { },
// test("name").config(enabled = false) { }, describe("…") { }.
func kotestBlock(f *File, fl *flow, call *sitter.Node) (kotlinNode, bool) {
	n, ok := kotestBlock0(f, call)
	if !ok {
		return n, false
	}
	// A bang before the name disables a test; a test never registered
	// (under if (false)) is off too; so is one whose body skips first.
	n.skipped = n.skipped || strings.HasPrefix(n.name, "!") || fl.dead(call)
	if !n.group {
		if suffix := flowLastNamed(call); suffix != nil && suffix.Type() == "call_suffix" {
			if lambda := flowLastNamed(suffix); lambda != nil && lambda.Type() == "annotated_lambda" {
				n.skipped = n.skipped || fl.skips(flowLastNamed(lambda))
			}
		}
	}
	return n, true
}

func kotestBlock0(f *File, call *sitter.Node) (kotlinNode, bool) {
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
			n.skipped = kotestConfigOff(f, inner)
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

// kotlinAnnotations returns a declaration's annotations by simple name.
func kotlinAnnotations(f *File, fn *sitter.Node) map[string]*sitter.Node {
	out := map[string]*sitter.Node{}
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
			out[strings.TrimSpace(text)] = a
		}
	}
	return out
}
