package languages

import (
	"bytes"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/swift"
)

// Swift counts XCTest test methods and Swift Testing @Test functions.
var Swift = &Language{
	Name:      "swift",
	Grammars:  map[string]func() *sitter.Language{".swift": swift.GetLanguage},
	TestFiles: []string{"**/Tests/**/*.swift", "*Tests.swift"},
	Markers:   []string{"func test", "@Test", "XCTAssert", "XCTFail", "#expect", "#require"},
	Queries: map[string]string{"main": `
		(function_declaration name: (simple_identifier) @name) @fun
		(class_declaration name: (type_identifier) @cname) @class
		(call_expression (simple_identifier) @fn) @call
	`},
	Analyze: analyzeSwift,
	Samples: []Sample{
		{Path: "Tests/CalcTests.swift", Source: "import XCTest\nfinal class CalcTests: XCTestCase {\n    func testAdds() throws { XCTAssertEqual(2, 1 + 1) }\n    func testSkip() throws {\n        throw XCTSkip(\"x\")\n    }\n    func testMaybe() throws {\n        try XCTSkipIf(true)\n        XCTAssertTrue(true)\n    }\n    func helper() { XCTFail() }\n}\n",
			Tests: []string{"CalcTests.testAdds active", "CalcTests.testSkip skipped", "CalcTests.testMaybe active"}, Assertions: 2, Vacuous: 1},
		{Path: "Tests/NewTests.swift", Source: "import Testing\n@Test func adds() { #expect(1 + 1 == 2) }\n@Test(.disabled(\"later\")) func off() {}\nstruct Suite {\n    @Test(\"named\") func inSuite() throws { try #require(x != nil) }\n}\n",
			Tests: []string{"adds active", "off skipped", "Suite.inSuite active"}, Assertions: 2},
		// Negative: not tests.
		{Path: "Sources/App/Calc.swift", Source: "class Calc { func testMode() {} }\n", Tests: nil},
		{Path: "Tests/Helpers.swift", Source: "class Helper { func testLike() {} }\nfunc testFree() {}\n", Tests: nil},
	},
}

func analyzeSwift(f *File) {
	type class struct {
		start, end uint32
		name       string
		xctest     bool
	}
	var classes []class
	type fun struct{ node, name *sitter.Node }
	var funs []fun
	f.Each("main", f.Root, func(c map[string]*sitter.Node) {
		switch {
		case c["class"] != nil:
			cl := c["class"]
			classes = append(classes, class{cl.StartByte(), cl.EndByte(), f.Text(c["cname"]), swiftInherits(f, cl, "XCTestCase")})
		case c["fun"] != nil:
			funs = append(funs, fun{c["fun"], c["name"]})
		case c["call"] != nil:
			fn := f.Text(c["fn"])
			if strings.HasPrefix(fn, "XCTAssert") || fn == "XCTFail" || fn == "XCTUnwrap" {
				args := strings.ReplaceAll(f.Text(c["call"]), " ", "")
				f.Assert(fn == "XCTAssertTrue" && strings.HasSuffix(args, "(true)"))
			}
		}
	})
	sort.Slice(classes, func(i, j int) bool { return classes[i].start < classes[j].start })
	for _, fn := range funs {
		name := f.Text(fn.name)
		var path []string
		xctest := false
		for _, cl := range classes {
			if cl.start < fn.node.StartByte() && fn.node.EndByte() <= cl.end {
				path = append(path, cl.name)
				xctest = cl.xctest
			}
		}
		attrs := swiftAttributes(f, fn.node)
		switch {
		case strings.Contains(attrs, "@Test"):
			f.AddTest(strings.Join(append(path, name), "."), fn.name, strings.Contains(attrs, ".disabled"))
			// #expect and #require parse as ERROR nodes in this grammar:
			// read them in the text of the test's body.
			body := f.Src[fn.node.StartByte():fn.node.EndByte()]
			f.Result.Assertions += bytes.Count(body, []byte("#expect(")) + bytes.Count(body, []byte("#require("))
		case xctest && strings.HasPrefix(name, "test") && swiftRunnable(f, fn.node, attrs):
			f.AddTest(strings.Join(append(path, name), "."), fn.name, swiftPlainSkip(f, fn.node))
		}
	}
	sort.SliceStable(f.Result.Tests, func(i, j int) bool { return f.Result.Tests[i].Line < f.Result.Tests[j].Line })
}

// swiftInherits reports a class that inherits from base; a struct is a
// class_declaration in this grammar too, so Swift Testing suites qualify
// their tests' names.
func swiftInherits(f *File, cl *sitter.Node, base string) bool {
	for i := 0; i < int(cl.NamedChildCount()); i++ {
		if ch := cl.NamedChild(i); ch.Type() == "inheritance_specifier" && strings.TrimSpace(f.Text(ch)) == base {
			return true
		}
	}
	return false
}

func swiftAttributes(f *File, fn *sitter.Node) string {
	for i := 0; i < int(fn.NamedChildCount()); i++ {
		if ch := fn.NamedChild(i); ch.Type() == "modifiers" {
			return f.Text(ch)
		}
	}
	return ""
}

// swiftRunnable reports a method XCTest runs: not private, no parameters.
func swiftRunnable(f *File, fn *sitter.Node, attrs string) bool {
	if strings.Contains(attrs, "private") {
		return false
	}
	for i := 0; i < int(fn.NamedChildCount()); i++ {
		if fn.NamedChild(i).Type() == "parameter" {
			return false
		}
	}
	return true
}

// swiftPlainSkip reports `throw XCTSkip(…)` as a statement of the body.
func swiftPlainSkip(f *File, fn *sitter.Node) bool {
	body := fn.ChildByFieldName("body")
	if body == nil {
		return false
	}
	for i := 0; i < int(body.NamedChildCount()); i++ {
		st := body.NamedChild(i)
		if st.Type() != "statements" {
			continue
		}
		for j := 0; j < int(st.NamedChildCount()); j++ {
			if strings.HasPrefix(strings.Join(strings.Fields(f.Text(st.NamedChild(j))), " "), "throw XCTSkip(") {
				return true
			}
		}
	}
	return false
}
