package languages

import (
	"bytes"
	"regexp"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/cpp"
)

// CPP counts GoogleTest and Catch2 tests in C and C++.
var CPP = &Language{
	Name: "cpp",
	Grammars: map[string]func() *sitter.Language{
		".cc": cpp.GetLanguage, ".cpp": cpp.GetLanguage, ".cxx": cpp.GetLanguage, ".c++": cpp.GetLanguage,
		".hpp": cpp.GetLanguage, ".hh": cpp.GetLanguage, ".c": c.GetLanguage,
	},
	// A test binary runs every TEST that a file linked into it defines,
	// whatever the file's name: every file is a candidate, and one that
	// no test name or directory covers counts when it includes a test
	// framework's header. CHECK( and REQUIRE( are production macros too
	// (Chromium, glog), so a file with neither is never counted.
	AllFiles:  true,
	Gate:      cppIncludesFramework,
	TestFiles: []string{"*_test.cc", "*_test.cpp", "*_unittest.cc", "**/test/**", "**/tests/**"},
	Markers:   []string{"TEST(", "TEST_F(", "TEST_P(", "TYPED_TEST", "TEST_CASE(", "SCENARIO(", "TEST_CASE_METHOD(", "EXPECT_", "ASSERT_", "REQUIRE(", "CHECK("},
	Queries: map[string]string{
		"main": `
		(function_definition declarator: (function_declarator declarator: (identifier) @macro parameters: (parameter_list) @params) body: (compound_statement) @body) @test
		(call_expression function: (identifier) @fn arguments: (argument_list) @args) @call
	` + cppFlow.query()},
	Analyze: analyzeCPP,
	Samples: []Sample{
		{Path: "math_test.cc", Source: "#include <gtest/gtest.h>\nTEST(Math, Adds) {\n  EXPECT_EQ(2, 1 + 1);\n  ASSERT_TRUE(true);\n}\nTEST_F(Fixture, DISABLED_Later) { EXPECT_NE(1, later()); }\nTEST(Math, Skips) {\n  GTEST_SKIP() << \"not here\";\n}\nTEST(Math, SkipsMaybe) {\n  if (x) { GTEST_SKIP(); }\n}\n",
			Tests: []string{"Math.Adds active", "Fixture.DISABLED_Later skipped", "Math.Skips skipped", "Math.SkipsMaybe active"}, Assertions: 2, Vacuous: 1},
		{Path: "tests/catch.cpp", Source: "#include <catch2/catch_test_macros.hpp>\nTEST_CASE(\"vectors grow\", \"[vector]\") {\n  std::vector<int> v;\n  REQUIRE(v.empty());\n  SECTION(\"push\") {\n    v.push_back(1);\n    CHECK(v.size() == 1);\n  }\n}\nSCENARIO(\"hidden\", \"[.]\") { REQUIRE(true); }\n",
			Tests: []string{"vectors grow active", "hidden skipped"}, Assertions: 2, Vacuous: 1, Subtests: 1},
		// Switched off however it is written: a return first, GTEST_SKIP()
		// under a constant condition or in any place of the body, #if 0.
		// Real conditions stay active; assertions that cannot run or cannot
		// fail are not counted.
		{Path: "off_test.cc", Source: "#include <gtest/gtest.h>\nTEST(Off, ReturnsFirst) { if (true) return; EXPECT_EQ(1, f()); }\nTEST(Off, SkipIfTrue) { if (!false) { GTEST_SKIP() << \"later\"; } EXPECT_EQ(1, f()); }\nTEST(Off, SkipReal) { if (getenv(\"CI\")) GTEST_SKIP(); EXPECT_EQ(1, f()); }\nTEST(Off, LateSkip) { EXPECT_EQ(1, f()); GTEST_SKIP(); EXPECT_EQ(2, g()); }\n#if 0\nTEST(Off, CompiledOut) { EXPECT_EQ(1, f()); }\n#endif\nTEST(Off, Vacuous) { EXPECT_EQ(1, 1); ASSERT_TRUE(true); EXPECT_NE(1, 2); EXPECT_LT(1, 2); EXPECT_STREQ(\"a\", \"a\"); EXPECT_EQ(x, x); EXPECT_EQ(1, f()); if (0) { EXPECT_EQ(2, g()); } }\n",
			Tests: []string{"Off.ReturnsFirst skipped", "Off.SkipIfTrue skipped", "Off.SkipReal active", "Off.LateSkip skipped", "Off.CompiledOut skipped", "Off.Vacuous active"}, Assertions: 4, Vacuous: 5},
		// Catch2's expected failures and SKIP(), doctest's decorators.
		{Path: "tests/off.cpp", Source: "TEST_CASE(\"may fail\", \"[!mayfail]\") { REQUIRE(f() == 1); }\nTEST_CASE(\"should fail\", \"[!shouldfail]\") { }\nTEST_CASE(\"skips\") { SKIP(\"later\"); REQUIRE(f() == 1); }\nTEST_CASE(\"doctest skip\" * doctest::skip()) { }\nTEST_CASE(\"doctest run\" * doctest::skip(false) * doctest::timeout(1)) { CHECK(1 == 1); CHECK(f()); }\n",
			Tests: []string{"may fail skipped", "should fail skipped", "skips skipped", "doctest skip skipped", "doctest run active"}, Assertions: 2, Vacuous: 1},
		// A test binary runs a file's tests whatever its name: one that
		// includes a framework's header counts anywhere.
		{Path: "src/parser_checks.cc", Source: "#include \"gtest/gtest.h\"\nTEST(Parser, Reads) { EXPECT_EQ(1, parse(\"1\")); }\n",
			Tests: []string{"Parser.Reads active"}, Assertions: 1},
		{Path: "unittests/FooTest.cxx", Source: "#  include <catch2/catch_test_macros.hpp>\nTEST_CASE(\"foo\") { REQUIRE(foo() == 2); }\n",
			Tests: []string{"foo active"}, Assertions: 1},
		{Path: "lib/test_bar.cpp", Source: "#include <doctest/doctest.h>\nTEST_CASE(\"bar\") { CHECK(bar()); }\nTEST_CASE(\"a long name, \"\n          \"on two lines\" * doctest::test_suite(\"s\")) { CHECK(baz()); }\n",
			Tests: []string{"bar active", "a long name, on two lines active"}, Assertions: 2},
		// Negative: not tests. Production code has CHECK( and REQUIRE( of
		// its own, and a file outside the test names that includes no
		// framework is not built into a test binary by that framework.
		{Path: "src/state.cc", Source: "// #include <gtest/gtest.h>\nconst char* h = \"#include <catch2/catch.hpp>\";\nvoid f() { CHECK(x > 0); REQUIRE(y); }\nTEST(Looks, Alike) { CHECK(z); }\n", Tests: nil},
		{Path: "src/main.cc", Source: "int main() { return TEST_VALUE; }\nvoid f() { CHECK_STATE(x); }\n", Tests: nil},
		{Path: "src/util.c", Source: "static int TEST(int a, int b) { return a + b; }\n", Tests: nil},
	},
}

var (
	gtestMacros  = map[string]bool{"TEST": true, "TEST_F": true, "TEST_P": true, "TYPED_TEST": true, "TYPED_TEST_P": true}
	catchMacros  = map[string]bool{"TEST_CASE": true, "SCENARIO": true, "TEST_CASE_METHOD": true}
	cppAssertion = regexp.MustCompile(`^(EXPECT_[A-Z_]+|ASSERT_[A-Z_]+|REQUIRE(_[A-Z_]+)?|CHECK(_[A-Z_]+)?|REQUIRE_THAT|CHECK_THAT|STATIC_REQUIRE|STATIC_CHECK)$`)
)

// cppFrameworks are the headers of the test frameworks sentinel counts, by
// a part of the included path: GoogleTest and GoogleMock, Catch2 (v2's
// single header, v3's headers and amalgamation), doctest, Boost.Test.
var cppFrameworks = []string{"gtest/", "gmock/", "catch2/", "catch.hpp", "catch_amalgamated.hpp", "doctest.h", "doctest/", "boost/test/"}

// cppIncludesFramework reports a source that includes a test framework's
// header in an #include directive of its own; a mention in a comment or
// a string does not count.
func cppIncludesFramework(src []byte) bool {
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		line = bytes.TrimLeft(line, " \t")
		if len(line) == 0 || line[0] != '#' {
			continue
		}
		line = bytes.TrimLeft(line[1:], " \t")
		if !bytes.HasPrefix(line, []byte("include")) {
			continue
		}
		line = bytes.TrimLeft(line[len("include"):], " \t")
		if len(line) == 0 || line[0] != '<' && line[0] != '"' {
			continue
		}
		end := bytes.IndexAny(line[1:], ">\"")
		if end < 0 {
			continue
		}
		header := string(line[1 : 1+end])
		for _, fw := range cppFrameworks {
			if strings.Contains(header, fw) {
				return true
			}
		}
	}
	return false
}

func analyzeCPP(f *File) {
	fl := newFlow(f, cppFlow)
	defer fl.close()
	fl.each(func(c map[string]*sitter.Node) {
		switch {
		case c["test"] != nil:
			macro := f.Text(c["macro"])
			params := c["params"]
			if !gtestMacros[macro] || params.NamedChildCount() != 2 {
				return
			}
			suite, name := f.Text(params.NamedChild(0)), f.Text(params.NamedChild(1))
			if !cppIdent(suite) || !cppIdent(name) {
				return // a real function with typed parameters
			}
			skipped := strings.HasPrefix(name, "DISABLED_") || strings.HasPrefix(suite, "DISABLED_") || fl.skips(c["body"]) || fl.dead(c["test"])
			f.AddTest(suite+"."+name, c["macro"], skipped)
			// The test is known by its macro and body: a rename of its
			// suite or its name keeps it.
			f.identifyBy(c["test"].StartByte(), c["test"].EndByte(), params)
		case c["call"] != nil:
			fn := f.Text(c["fn"])
			switch {
			case catchMacros[fn]:
				cppCatchTest(f, fl, c["call"], fn, c["args"])
			case fn == "SECTION":
				if !fl.dead(c["call"]) {
					f.Result.Subtests++
				}
			case cppAssertion.MatchString(fn):
				if !fl.dead(c["call"]) {
					f.Assert(cppVacuous(f, fn, flowArgs(c["args"])))
				}
			}
		}
	})
}

// cppCatchTest records a Catch2 or doctest TEST_CASE: switched off by a
// hidden tag ([.], [.slow], [!hide]), by an expected failure ([!mayfail],
// [!shouldfail]; doctest's may_fail, should_fail, expected_failures), by
// doctest's skip decorator, by a skip in its body, or by #if 0.
func cppCatchTest(f *File, fl *flow, call *sitter.Node, fn string, args *sitter.Node) {
	first := 0
	if fn == "TEST_CASE_METHOD" {
		first = 1 // TEST_CASE_METHOD(Fixture, "name", "[tags]")
	}
	if int(args.NamedChildCount()) <= first {
		return
	}
	nameArg := args.NamedChild(first)
	off := false
	// doctest: TEST_CASE("name" * doctest::skip() * doctest::may_fail()).
	for nameArg.Type() == "binary_expression" && f.Text(flowField(nameArg, "operator")) == "*" {
		off = off || cppDecoratorOff(f, nameArg.ChildByFieldName("right"))
		nameArg = nameArg.ChildByFieldName("left")
	}
	if nameArg == nil {
		return
	}
	var name string
	switch nameArg.Type() {
	case "string_literal":
		name = strings.Trim(f.Text(nameArg), `"`)
	case "concatenated_string":
		// "a long name, "  "on two lines": one name, as the compiler joins it.
		for i := 0; i < int(nameArg.NamedChildCount()); i++ {
			part := nameArg.NamedChild(i)
			if part.Type() != "string_literal" {
				return
			}
			name += strings.Trim(f.Text(part), `"`)
		}
	default:
		return
	}
	tags := ""
	if int(args.NamedChildCount()) > first+1 {
		tags = f.Text(args.NamedChild(first + 1))
	}
	off = off || strings.Contains(tags, "[.") || strings.Contains(tags, "[!hide]") || strings.Contains(tags, "[!mayfail]") || strings.Contains(tags, "[!shouldfail]")
	off = off || fl.dead(call)
	// The body is the block after the macro's statement: its assertions
	// are the test's.
	var body *sitter.Node
	end := call.EndByte()
	if st := call.Parent(); st != nil && st.Type() == "expression_statement" {
		if b := st.NextNamedSibling(); b != nil && b.Type() == "compound_statement" {
			body, end = b, b.EndByte()
			off = off || fl.skips(body)
		}
	}
	f.AddTestSpan(name, call, off, body)
	// The test is known by its macro and its block, its name aside: a
	// renamed test keeps it, one emptied under a new name does not.
	f.identifyBy(call.StartByte(), end, nameArg)
}

// cppDecoratorOff reports doctest's decorators that switch a test off:
// skip() (not skip(false)), and the expected failures.
func cppDecoratorOff(f *File, d *sitter.Node) bool {
	if d == nil || d.Type() != "call_expression" {
		return false
	}
	name := f.Text(d.ChildByFieldName("function"))
	name = name[strings.LastIndex(name, ":")+1:]
	switch name {
	case "skip":
		args := flowArgs(d.ChildByFieldName("arguments"))
		return len(args) == 0 || cppFlow.passes(f, checkTrue, args[0])
	case "may_fail", "should_fail", "expected_failures":
		return true
	}
	return false
}

// cppIdent reports a bare identifier, as GoogleTest's macro arguments are
// (a real function's parameters have types and names).
func cppIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}
