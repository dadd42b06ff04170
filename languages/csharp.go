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
	Queries: map[string]string{"main": `
		(method_declaration name: (identifier) @name) @method
		(class_declaration name: (identifier) @cname) @class
		(invocation_expression function: (member_access_expression expression: (_) @obj name: (identifier) @mname) arguments: (argument_list) @args) @call
	`},
	Analyze: analyzeCSharp,
	Samples: []Sample{
		{Path: "CalcTests.cs", Source: "public class CalcTests {\n  [Fact]\n  public void Adds() { Assert.Equal(2, 1 + 1); result.Should().Be(2).And.NotBe(3); }\n  [Test, Ignore(\"x\")]\n  public void Ignored() { }\n  [Fact(Skip = \"later\")]\n  public void Later() { CollectionAssert.AreEqual(a, b); }\n  [Theory]\n  [InlineData(1)]\n  [InlineData(2)]\n  public void Cases(int n) { Assert.True(true); }\n  [TestCase(1)]\n  [TestCase(2)]\n  public void NUnitCases(int n) { StringAssert.Contains(\"a\", \"abc\"); }\n}\n",
			Tests: []string{"CalcTests.Adds active", "CalcTests.Ignored skipped", "CalcTests.Later skipped", "CalcTests.Cases active", "CalcTests.NUnitCases active"}, Assertions: 4, Vacuous: 1},
		{Path: "Tests/Legacy.cs", Source: "[TestClass]\npublic class Legacy {\n  [TestMethod]\n  public void Works() { Assert.IsTrue(ok); }\n  [DataTestMethod]\n  [DataRow(1)]\n  public void Rows(int x) { }\n  [Microsoft.VisualStudio.TestTools.UnitTesting.TestMethodAttribute]\n  public void Qualified() { }\n}\n",
			Tests: []string{"Legacy.Works active", "Legacy.Rows active", "Legacy.Qualified active"}, Assertions: 1},
		// Negative: not tests.
		{Path: "src/Service.cs", Source: "public class Service {\n  [Obsolete]\n  public void TestConnection() { Debug.Assert(ok); }\n}\n", Tests: nil},
	},
}

var csharpTestAttrs = map[string]bool{"Fact": true, "Theory": true, "Test": true, "TestCase": true, "TestCaseSource": true, "TestMethod": true, "DataTestMethod": true, "SkippableFact": true}

func analyzeCSharp(f *File) {
	type class struct {
		start, end uint32
		name       string
	}
	var classes []class
	type method struct{ node, name *sitter.Node }
	var methods []method
	f.Each("main", f.Root, func(c map[string]*sitter.Node) {
		switch {
		case c["class"] != nil:
			cl := c["class"]
			classes = append(classes, class{cl.StartByte(), cl.EndByte(), f.Text(c["cname"])})
		case c["method"] != nil:
			methods = append(methods, method{c["method"], c["name"]})
		case c["call"] != nil:
			obj, name := f.Text(c["obj"]), f.Text(c["mname"])
			switch {
			case obj == "Assert" || obj == "CollectionAssert" || obj == "StringAssert" || obj == "ClassicAssert" || strings.HasSuffix(obj, ".Assert"):
				args := strings.ReplaceAll(f.Text(c["args"]), " ", "")
				f.Assert(args == "(true)" && (name == "True" || name == "IsTrue" || name == "That"))
			case name == "Should" && c["args"].NamedChildCount() == 0:
				// FluentAssertions: one assertion per x.Should() chain.
				f.Assert(obj == "true" && csharpChainBeTrue(f, c["call"]))
			}
		}
	})
	sort.Slice(classes, func(i, j int) bool { return classes[i].start < classes[j].start })
	for _, m := range methods {
		attrs := csharpAttributes(f, m.node)
		test, skipped := false, false
		for name, args := range attrs {
			if csharpTestAttrs[name] {
				test = true
			}
			if name == "Ignore" || strings.Contains(strings.ReplaceAll(args, " ", ""), "Skip=") {
				skipped = true
			}
		}
		if !test {
			continue
		}
		var path []string
		for _, cl := range classes {
			if cl.start < m.node.StartByte() && m.node.EndByte() <= cl.end {
				path = append(path, cl.name)
			}
		}
		f.AddTest(strings.Join(append(path, f.Text(m.name)), "."), m.name, skipped)
	}
	sort.SliceStable(f.Result.Tests, func(i, j int) bool { return f.Result.Tests[i].Line < f.Result.Tests[j].Line })
}

// csharpAttributes maps each attribute of a method (short name, without
// "Attribute") to its argument text; several may share a list, as in
// [Test, Ignore("x")].
func csharpAttributes(f *File, m *sitter.Node) map[string]string {
	out := map[string]string{}
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
			name = strings.TrimSuffix(name, "Attribute")
			args := ""
			for k := 0; k < int(a.NamedChildCount()); k++ {
				if ch := a.NamedChild(k); ch.Type() == "attribute_argument_list" {
					args = f.Text(ch)
				}
			}
			out[name] = args
		}
	}
	return out
}

// csharpChainBeTrue reports true.Should().BeTrue().
func csharpChainBeTrue(f *File, call *sitter.Node) bool {
	p := call.Parent()
	return p != nil && p.Type() == "member_access_expression" && f.Text(p.ChildByFieldName("name")) == "BeTrue"
}
