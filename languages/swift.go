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
	Name:     "swift",
	Grammars: map[string]func() *sitter.Language{".swift": swift.GetLanguage},
	// In a SwiftPM package its test targets decide (coverage reads
	// Package.swift); these are for Xcode projects, whose test bundles'
	// folders are named after them (AppTests/, AppUITests/).
	TestFiles: []string{"**/Tests/**/*.swift", "*Tests.swift", "**/*Tests/**/*.swift"},
	Markers:   []string{"func test", "@Test", "XCTAssert", "XCTFail", "#expect", "#require"},
	Queries: map[string]string{
		"main": `
		(function_declaration name: (simple_identifier) @name) @fun
		(class_declaration name: (type_identifier) @cname) @class
		(call_expression (simple_identifier) @fn) @call
	` + swiftFlow.query()},
	Analyze: analyzeSwift,
	Samples: []Sample{
		{Path: "Tests/CalcTests.swift", Source: "import XCTest\nfinal class CalcTests: XCTestCase {\n    func testAdds() throws { XCTAssertEqual(2, 1 + 1) }\n    func testSkip() throws {\n        throw XCTSkip(\"x\")\n    }\n    func testMaybe() throws {\n        try XCTSkipIf(isCI)\n        XCTAssertTrue(true)\n    }\n    func helper() { XCTFail() }\n}\n",
			Tests: []string{"CalcTests.testAdds active", "CalcTests.testSkip skipped", "CalcTests.testMaybe active"}, Assertions: 2, Vacuous: 1},
		{Path: "Tests/NewTests.swift", Source: "import Testing\n@Test func adds() { #expect(1 + 1 == 2) }\n@Test(.disabled(\"later\")) func off() {}\nstruct Suite {\n    @Test(\"named\") func inSuite() throws { try #require(x != nil) }\n}\n",
			Tests: []string{"adds active", "off skipped", "Suite.inSuite active"}, Assertions: 2},
		// Switched off however it is written: a return first, a guard that
		// always leaves, XCTSkipIf and XCTSkipUnless on a constant, an
		// expected failure. Real conditions stay active; assertions that
		// cannot run or cannot fail are not counted.
		{Path: "Tests/OffTests.swift", Source: "import XCTest\nfinal class OffTests: XCTestCase {\n    func testReturnsFirst() { if true { return }; XCTAssertEqual(1, x) }\n    func testGuard() { guard false else { return }; XCTAssertEqual(1, x) }\n    func testSkipIf() throws { try XCTSkipIf(true, \"later\"); XCTAssertEqual(1, x) }\n    func testSkipUnless() throws { try XCTSkipUnless(!true) }\n    func testSkipReal() throws { try XCTSkipIf(ProcessInfo.isCI); XCTAssertEqual(1, x) }\n    func testExpectFailure() { XCTExpectFailure(\"bug 12\"); XCTAssertEqual(1, x) }\n    func testVacuous() { XCTAssertEqual(1, 1); XCTAssertTrue(true); XCTAssert(1 == 1); XCTAssertNil(nil); XCTAssertNotEqual(\"a\", \"b\"); XCTAssertEqual(x, x); XCTAssertEqual(1, x); if false { XCTAssertEqual(2, y) } }\n}\n",
			Tests: []string{"OffTests.testReturnsFirst skipped", "OffTests.testGuard skipped", "OffTests.testSkipIf skipped", "OffTests.testSkipUnless skipped", "OffTests.testSkipReal active", "OffTests.testExpectFailure skipped", "OffTests.testVacuous active"}, Assertions: 3, Vacuous: 5},
		{Path: "Tests/TraitTests.swift", Source: "import Testing\n@Test(.disabled(if: true)) func off() {}\n@Test(.disabled(if: isCI)) func real() {}\n@Test(.enabled(if: false)) func notEnabled() {}\n@Suite(.disabled()) struct OffSuite { @Test func inside() {} }\n@Test func expects() { #expect(true); #expect(1 == 1); #expect(x == 1); if false { #expect(y == 2) } }\n",
			Tests: []string{"off skipped", "real active", "notEnabled skipped", "OffSuite.inside skipped", "expects active"}, Assertions: 1, Vacuous: 2},
		{Path: "App/AppUITests/Flows/Login.swift", Source: "import XCTest\nfinal class LoginFlow: XCTestCase {\n    func testLogsIn() { XCTAssertTrue(app.loggedIn) }\n}\n",
			Tests: []string{"LoginFlow.testLogsIn active"}, Assertions: 1},
		// Negative: not tests.
		{Path: "Sources/App/Calc.swift", Source: "class Calc { func testMode() {} }\n", Tests: nil},
		{Path: "Tests/Helpers.swift", Source: "class Helper { func testLike() {} }\nfunc testFree() {}\n", Tests: nil},
	},
}

func analyzeSwift(f *File) {
	fl := newFlow(f, swiftFlow)
	defer fl.close()
	type class struct {
		start, end uint32
		name       string
		xctest     bool
		off        bool
	}
	var classes []class
	type fun struct{ node, name *sitter.Node }
	var funs []fun
	fl.each(func(c map[string]*sitter.Node) {
		switch {
		case c["class"] != nil:
			cl := c["class"]
			classes = append(classes, class{cl.StartByte(), cl.EndByte(), f.Text(c["cname"]), swiftInherits(f, cl, "XCTestCase"), swiftTraitsOff(f, cl, "Suite")})
		case c["fun"] != nil:
			funs = append(funs, fun{c["fun"], c["name"]})
		case c["call"] != nil:
			fn := f.Text(c["fn"])
			if (strings.HasPrefix(fn, "XCTAssert") || fn == "XCTFail" || fn == "XCTUnwrap") && !fl.dead(c["call"]) {
				f.Assert(swiftVacuous(f, fn, c["call"]))
			}
		}
	})
	sort.Slice(classes, func(i, j int) bool { return classes[i].start < classes[j].start })
	spans := make([]rangeSpan, len(classes))
	for i, cl := range classes {
		spans[i] = rangeSpan{cl.start, cl.end}
	}
	around := newStabber(spans)
	for _, fn := range funs {
		name := f.Text(fn.name)
		var path []string
		xctest, off := false, false
		around.eachBefore(fn.node.StartByte(), fn.node.EndByte(), func(i int) {
			cl := classes[i]
			path = append(path, cl.name)
			xctest = cl.xctest
			off = off || cl.off
		})
		attrs := swiftAttributes(f, fn.node)
		off = off || fl.skips(fn.node.ChildByFieldName("body"))
		switch {
		case strings.Contains(attrs, "@Test"):
			f.AddTest(strings.Join(append(path, name), "."), fn.name, off || swiftTraitsOff(f, fn.node, "Test"))
			// #expect and #require parse as ERROR nodes in this grammar:
			// count them in the text of the test's body.
			body := f.Src[fn.node.StartByte():fn.node.EndByte()]
			if bytes.Contains(body, []byte("#expect(")) || bytes.Contains(body, []byte("#require(")) {
				swiftMacroChecks(f, fl, fn.node)
			}
		case xctest && strings.HasPrefix(name, "test") && swiftRunnable(f, fn.node, attrs):
			f.AddTest(strings.Join(append(path, name), "."), fn.name, off)
		}
	}
	f.sortTests()
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
