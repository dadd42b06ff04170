package languages

import (
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
	// Tests live anywhere in C and C++ projects: every file with a test
	// macro is a candidate, and the prefilter keeps the rest unparsed.
	// Assertions count in test files: these, or a file that defines tests.
	AllFiles:  true,
	TestFiles: []string{"*_test.cc", "*_test.cpp", "*_unittest.cc", "**/test/**", "**/tests/**"},
	Markers:   []string{"TEST(", "TEST_F(", "TEST_P(", "TYPED_TEST", "TEST_CASE(", "SCENARIO(", "TEST_CASE_METHOD(", "EXPECT_", "ASSERT_", "REQUIRE(", "CHECK("},
	Queries: map[string]string{"main": `
		(function_definition declarator: (function_declarator declarator: (identifier) @macro parameters: (parameter_list) @params) body: (compound_statement) @body) @test
		(call_expression function: (identifier) @fn arguments: (argument_list) @args) @call
	`},
	Analyze: analyzeCPP,
	Samples: []Sample{
		{Path: "math_test.cc", Source: "#include <gtest/gtest.h>\nTEST(Math, Adds) {\n  EXPECT_EQ(2, 1 + 1);\n  ASSERT_TRUE(true);\n}\nTEST_F(Fixture, DISABLED_Later) { EXPECT_NE(1, 2); }\nTEST(Math, Skips) {\n  GTEST_SKIP() << \"not here\";\n}\nTEST(Math, SkipsMaybe) {\n  if (x) { GTEST_SKIP(); }\n}\n",
			Tests: []string{"Math.Adds active", "Fixture.DISABLED_Later skipped", "Math.Skips skipped", "Math.SkipsMaybe active"}, Assertions: 2, Vacuous: 1},
		{Path: "tests/catch.cpp", Source: "#include <catch2/catch_test_macros.hpp>\nTEST_CASE(\"vectors grow\", \"[vector]\") {\n  std::vector<int> v;\n  REQUIRE(v.empty());\n  SECTION(\"push\") {\n    v.push_back(1);\n    CHECK(v.size() == 1);\n  }\n}\nSCENARIO(\"hidden\", \"[.]\") { REQUIRE(true); }\n",
			Tests: []string{"vectors grow active", "hidden skipped"}, Assertions: 2, Vacuous: 1, Subtests: 1},
		// Negative: not tests.
		{Path: "src/main.cc", Source: "int main() { return TEST_VALUE; }\nvoid f() { CHECK_STATE(x); }\n", Tests: nil},
		{Path: "src/util.c", Source: "static int TEST(int a, int b) { return a + b; }\n", Tests: nil},
	},
}

var (
	gtestMacros  = map[string]bool{"TEST": true, "TEST_F": true, "TEST_P": true, "TYPED_TEST": true, "TYPED_TEST_P": true}
	catchMacros  = map[string]bool{"TEST_CASE": true, "SCENARIO": true, "TEST_CASE_METHOD": true}
	cppAssertion = regexp.MustCompile(`^(EXPECT_[A-Z_]+|ASSERT_[A-Z_]+|REQUIRE(_[A-Z_]+)?|CHECK(_[A-Z_]+)?|REQUIRE_THAT|CHECK_THAT|STATIC_REQUIRE|STATIC_CHECK)$`)
)

func analyzeCPP(f *File) {
	defer func() {
		// glog's CHECK in production code is not a test's assertion.
		if len(f.Result.Tests) == 0 && !f.Lang.isTestFile(f.Path) {
			f.Result.Assertions, f.Result.Vacuous, f.Result.Subtests = 0, 0, 0
		}
	}()
	f.Each("main", f.Root, func(c map[string]*sitter.Node) {
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
			skipped := strings.HasPrefix(name, "DISABLED_") || strings.HasPrefix(suite, "DISABLED_") || cppPlainSkip(f, c["body"])
			f.AddTest(suite+"."+name, c["macro"], skipped)
		case c["call"] != nil:
			fn := f.Text(c["fn"])
			switch {
			case catchMacros[fn]:
				args := c["args"]
				first := 0
				if fn == "TEST_CASE_METHOD" {
					first = 1 // TEST_CASE_METHOD(Fixture, "name", "[tags]")
				}
				if int(args.NamedChildCount()) <= first || args.NamedChild(first).Type() != "string_literal" {
					return
				}
				name := strings.Trim(f.Text(args.NamedChild(first)), `"`)
				tags := ""
				if int(args.NamedChildCount()) > first+1 {
					tags = f.Text(args.NamedChild(first + 1))
				}
				f.AddTest(name, c["call"], strings.Contains(tags, "[.") || strings.Contains(tags, "[!hide]"))
			case fn == "SECTION":
				f.Result.Subtests++
			case cppAssertion.MatchString(fn):
				args := strings.ReplaceAll(f.Text(c["args"]), " ", "")
				f.Assert(args == "(true)" && (strings.HasSuffix(fn, "_TRUE") || fn == "REQUIRE" || fn == "CHECK"))
			}
		}
	})
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

// cppPlainSkip reports GTEST_SKIP() as a statement of the test body itself,
// not inside a condition.
func cppPlainSkip(f *File, body *sitter.Node) bool {
	for i := 0; i < int(body.NamedChildCount()); i++ {
		st := body.NamedChild(i)
		if st.Type() != "expression_statement" {
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(f.Text(st)), "GTEST_SKIP(") {
			return true
		}
	}
	return false
}
