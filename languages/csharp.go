package languages

import (
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/csharp"
)

// CSharp counts xUnit, NUnit and MSTest tests.
var CSharp = &Language{
	Name:     "csharp",
	Grammars: map[string]func() *sitter.Language{".cs": csharp.GetLanguage},
	// Every .cs file with a test attribute or an assertion is a candidate.
	AllFiles: true,
	Markers:  []string{"[Fact", "[Theory", "[Test", "[DataTestMethod", "Fact]", "Test]", "Assert.", ".Should()"},
	Queries: map[string]string{
		"main": `
		(method_declaration name: (identifier) @name) @method
		(class_declaration name: (identifier) @cname) @class
		(invocation_expression function: (member_access_expression expression: (_) @obj name: (identifier) @mname) arguments: (argument_list) @args) @call
	` + csharpFlow.query()},
	Analyze: analyzeCSharp,
	Samples: csharpSamples,
}

var csharpTestAttrs = map[string]bool{"Fact": true, "Theory": true, "Test": true, "TestCase": true, "TestCaseSource": true, "TestMethod": true, "DataTestMethod": true, "SkippableFact": true}

func analyzeCSharp(f *File) {
	fl := newFlow(f, csharpFlow)
	defer fl.close()
	type class struct {
		start, end uint32
		name       string
		off        bool
	}
	var classes []class
	type method struct{ node, name *sitter.Node }
	var methods []method
	fl.each(func(c map[string]*sitter.Node) {
		switch {
		case c["class"] != nil:
			cl := c["class"]
			classes = append(classes, class{cl.StartByte(), cl.EndByte(), f.Text(c["cname"]), csharpOff(f, csharpAttributes(f, cl))})
		case c["method"] != nil:
			methods = append(methods, method{c["method"], c["name"]})
		case c["call"] != nil:
			obj, name := f.Text(c["obj"]), f.Text(c["mname"])
			switch {
			case fl.dead(c["call"]):
			case obj == "Assert" || obj == "CollectionAssert" || obj == "StringAssert" || obj == "ClassicAssert" || strings.HasSuffix(obj, ".Assert"):
				switch name {
				case "Ignore", "Inconclusive", "Skip", "SkipWhen", "SkipUnless", "Pass":
					// They end the test; they check nothing.
				default:
					f.Assert(obj != "CollectionAssert" && obj != "StringAssert" && csharpVacuous(f, name, flowArgs(c["args"])))
				}
			case name == "Should" && c["args"].NamedChildCount() == 0:
				// FluentAssertions: one assertion per x.Should() chain.
				f.Assert(csharpShouldPasses(f, c["obj"], c["call"]))
			}
		}
	})
	sort.Slice(classes, func(i, j int) bool { return classes[i].start < classes[j].start })
	spans := make([]rangeSpan, len(classes))
	for i, cl := range classes {
		spans[i] = rangeSpan{cl.start, cl.end}
	}
	around := newStabber(spans)
	for _, m := range methods {
		attrs := csharpAttributes(f, m.node)
		test := false
		for name := range attrs {
			if csharpTestAttrs[name] {
				test = true
			}
		}
		if !test {
			continue
		}
		skipped := csharpOff(f, attrs) || fl.skips(m.node.ChildByFieldName("body")) || fl.dead(m.node)
		var path []string
		around.eachBefore(m.node.StartByte(), m.node.EndByte(), func(i int) {
			cl := classes[i]
			path = append(path, cl.name)
			skipped = skipped || cl.off
		})
		f.AddTest(strings.Join(append(path, f.Text(m.name)), "."), m.name, skipped)
	}
	f.sortTests()
}

// csharpAttributes maps each attribute of a declaration (short name,
// without "Attribute") to its node; several may share a list, as in
// [Test, Ignore("x")].
func csharpAttributes(f *File, m *sitter.Node) map[string]*sitter.Node {
	out := map[string]*sitter.Node{}
	for i := 0; i < int(m.NamedChildCount()); i++ {
		list := m.NamedChild(i)
		if list.Type() != "attribute_list" {
			continue
		}
		for j := 0; j < int(list.NamedChildCount()); j++ {
			a := list.NamedChild(j)
			if a.Type() != "attribute" {
				continue
			}
			name := f.Text(a.ChildByFieldName("name"))
			if k := strings.LastIndexByte(name, '.'); k >= 0 {
				name = name[k+1:]
			}
			out[strings.TrimSuffix(name, "Attribute")] = a
		}
	}
	return out
}
