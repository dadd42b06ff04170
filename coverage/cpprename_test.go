package coverage

import (
	"context"
	"sort"
	"strings"
	"testing"
)

// cppRenameSteps are the commits of TestCPPRenameInLosses, each a test
// file's content and the losses the commit makes, as "name cause".
var cppRenameSteps = []struct {
	what, src, catch, want string
}{
	{"first", "#include <gtest/gtest.h>\n" +
		"TEST(Math, Adds) { EXPECT_EQ(2, add(1, 1)); }\n" +
		"class Fx : public ::testing::Test {};\n" +
		"TEST_F(Fx, Muls) {\n  EXPECT_EQ(6, mul(2, 3));\n}\n" +
		"TEST(Math, Subs) { EXPECT_EQ(0, sub(1, 1)); }\n" +
		"TEST(Math, Divs) { EXPECT_EQ(1, div(2, 2)); }\n",
		"#include <catch2/catch_test_macros.hpp>\n" +
			"TEST_CASE(\"adds\", \"[math]\") { REQUIRE(add(1, 1) == 2); }\n" +
			"TEST_CASE_METHOD(Fx, \"muls\", \"[math]\") { REQUIRE(mul(2, 3) == 6); }\n" +
			"TEST_CASE(\"subs\", \"[math]\") { REQUIRE(sub(1, 1) == 0); }\n", ""},
	// Renamed, the test's suite as well as its name, its body kept: the
	// same tests, whatever the macro.
	{"renamed", "#include <gtest/gtest.h>\n" +
		"TEST(Arith, Sums) { EXPECT_EQ(2, add(1, 1)); }\n" +
		"class Fx : public ::testing::Test {};\n" +
		"TEST_F(Fx, Times) { EXPECT_EQ(6, mul(2, 3)); }\n" +
		"TEST(Math, Minus) { EXPECT_EQ(0, sub(1, 1)); }\n" +
		"TEST(Math, Divs) { EXPECT_EQ(1, div(2, 2)); }\n",
		"#include <catch2/catch_test_macros.hpp>\n" +
			"TEST_CASE(\"sums\", \"[math]\") {\n  REQUIRE(add(1, 1) == 2);\n}\n" +
			"TEST_CASE_METHOD(Fx, \"times\", \"[math]\") { REQUIRE(mul(2, 3) == 6); }\n" +
			"TEST_CASE(\"subs\", \"[math]\") { REQUIRE(sub(1, 1) == 0); }\n", ""},
	// Renamed and emptied, or renamed into DISABLED_: lost.
	{"renamed and off", "#include <gtest/gtest.h>\n" +
		"TEST(Arith, Plus) {}\n" +
		"class Fx : public ::testing::Test {};\n" +
		"TEST_F(Fx, DISABLED_Times) { EXPECT_EQ(6, mul(2, 3)); }\n" +
		"TEST(Math, Minus) { EXPECT_EQ(0, sub(1, 1)); }\n" +
		"TEST(DISABLED_Math, Divs) { EXPECT_EQ(1, div(2, 2)); }\n",
		"#include <catch2/catch_test_macros.hpp>\n" +
			"TEST_CASE(\"plus\", \"[math]\") {}\n" +
			"TEST_CASE_METHOD(Fx, \"times\", \"[math]\") { REQUIRE(mul(2, 3) == 6); }\n" +
			"TEST_CASE(\"minus\", \"[math][.]\") { REQUIRE(sub(1, 1) == 0); }\n",
		"Arith.Sums missing, Fx.Times missing, Math.Divs missing, subs missing, sums missing"},
}

// TestCPPRenameInLosses checks that a GoogleTest or Catch2 test renamed
// in its macro's arguments, its body kept, is the same test, and that one
// renamed and emptied, or renamed to be disabled or hidden, is a loss.
func TestCPPRenameInLosses(t *testing.T) {
	dir := newRepo(t)
	for i, step := range cppRenameSteps {
		write(t, dir, "tests/math_test.cc", step.src)
		write(t, dir, "tests/catch_test.cpp", step.catch)
		run(t, dir, nil, "add", "-A")
		run(t, dir, nil, "commit", "-q", "-m", step.what)
		if i == 0 {
			continue
		}
		ls, err := CommitLosses(context.Background(), Options{Dir: dir}, "HEAD", "HEAD~1", &Baseline{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range ls {
			got = append(got, l.Name+" "+l.Cause)
		}
		sort.Strings(got)
		if strings.Join(got, ", ") != step.want {
			t.Errorf("%s: losses %q, want %q", step.what, strings.Join(got, ", "), step.want)
		}
	}
}
