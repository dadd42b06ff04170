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
	Samples: []Sample{
		{Path: "CalcTests.cs", Source: "public class CalcTests {\n  [Fact]\n  public void Adds() { Assert.Equal(2, 1 + 1); result.Should().Be(2).And.NotBe(3); }\n  [Test, Ignore(\"x\")]\n  public void Ignored() { }\n  [Fact(Skip = \"later\")]\n  public void Later() { CollectionAssert.AreEqual(a, b); }\n  [Theory]\n  [InlineData(1)]\n  [InlineData(2)]\n  public void Cases(int n) { Assert.True(true); }\n  [TestCase(1)]\n  [TestCase(2)]\n  public void NUnitCases(int n) { StringAssert.Contains(\"a\", \"abc\"); }\n}\n",
			Tests: []string{"CalcTests.Adds active", "CalcTests.Ignored skipped", "CalcTests.Later skipped", "CalcTests.Cases active", "CalcTests.NUnitCases active"}, Assertions: 4, Vacuous: 1},
		{Path: "Tests/Legacy.cs", Source: "[TestClass]\npublic class Legacy {\n  [TestMethod]\n  public void Works() { Assert.IsTrue(ok); }\n  [DataTestMethod]\n  [DataRow(1)]\n  public void Rows(int x) { }\n  [Microsoft.VisualStudio.TestTools.UnitTesting.TestMethodAttribute]\n  public void Qualified() { }\n}\n",
			Tests: []string{"Legacy.Works active", "Legacy.Rows active", "Legacy.Qualified active"}, Assertions: 1},
		// Switched off however it is written: a return or Assert.Pass first,
		// a skip, ignore or inconclusive call, an assumption on a constant,
		// [Explicit], a skip exception, #if false, an ignored class. Real
		// conditions stay active; assertions that cannot run or cannot fail
		// are not counted.
		{Path: "Tests/SwitchedTests.cs", Source: "public class SwitchedTests {\n  [Fact] public void ReturnsFirst() { if (true) return; Assert.Equal(1, x); }\n  [Test] public void Ignores() { Assert.Ignore(\"later\"); Assert.AreEqual(1, x); }\n  [Test] public void Inconclusive() { Assert.Inconclusive(); }\n  [Fact] public void SkipsWhen() { Assert.SkipWhen(!false, \"x\"); }\n  [Fact] public void SkipsReal() { Skip.If(OperatingSystem.IsWindows()); Assert.Equal(1, x); }\n  [SkippableFact] public void SkippableIf() { Skip.If(true); }\n  [Test] public void Passes() { Assert.Pass(); Assert.AreEqual(1, x); }\n  [Test] public void Assumes() { Assume.That(false); }\n  [Test, Explicit] public void ExplicitOne() { }\n  [Fact(Skip = \"x\", SkipUnless = nameof(OnLinux))] public void Conditional() { }\n  [Fact(Skip = \"\")] public void EmptyReason() { }\n  [Fact(Explicit = true)] public void V3Explicit() { }\n  [Fact] public void Throws() { throw new SkipException(\"x\"); }\n#if false\n  [Fact] public void CompiledOut() { }\n#endif\n  [Fact] public void Vacuous() {\n    Assert.Equal(3, 3); Assert.AreEqual(\"a\", \"a\"); Assert.IsTrue(true); Assert.Null(null); Assert.That(1, Is.EqualTo(1)); Assert.That(true, Is.True); 1.Should().Be(1); true.Should().BeTrue(); Assert.NotEqual(1, 2);\n    Assert.Equal(x, x); Assert.Equal(1, x); x.Should().Be(1); if (false) { Assert.Equal(1, y); }\n  }\n}\n[Ignore(\"later\")]\npublic class OffTests { [Test] public void Inside() { } }\n",
			Tests: []string{"SwitchedTests.ReturnsFirst skipped", "SwitchedTests.Ignores skipped", "SwitchedTests.Inconclusive skipped", "SwitchedTests.SkipsWhen skipped", "SwitchedTests.SkipsReal active",
				"SwitchedTests.SkippableIf skipped", "SwitchedTests.Passes skipped", "SwitchedTests.Assumes skipped", "SwitchedTests.ExplicitOne skipped", "SwitchedTests.Conditional active",
				"SwitchedTests.EmptyReason active", "SwitchedTests.V3Explicit skipped", "SwitchedTests.Throws skipped", "SwitchedTests.CompiledOut skipped", "SwitchedTests.Vacuous active", "OffTests.Inside skipped"}, Assertions: 4, Vacuous: 9},
		// Negative: not tests.
		{Path: "src/Service.cs", Source: "public class Service {\n  [Obsolete]\n  public void TestConnection() { Debug.Assert(ok); }\n}\n", Tests: nil},
	},
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
