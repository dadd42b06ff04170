package languages

import (
	"fmt"
	"strings"
)

// manyShape is a test file of one language with n tests, as a generator
// writes it: the shape a repository can commit to make counting slow.
type manyShape struct {
	// name is the benchmark's and the test's name for the shape.
	name string
	// path is the file's path, which makes it a test file.
	path string
	// head and tail open and close the file; test writes test i.
	head, tail string
	test       func(b *strings.Builder, i int)
	// lang is the language that counts the file.
	lang *Language
}

// manyShapes are the shapes the scaling benchmarks and tests count: one
// per language (two for Python: top-level functions, and parametrised
// methods of one class), each test with one assertion and a call of a
// helper of the file that asserts too.
var manyShapes = []manyShape{
	{name: "go", lang: Go, path: "many_test.go",
		head: "package many\n\nimport \"testing\"\n\nfunc check(t *testing.T, got int) {\n\tif got < 0 {\n\t\tt.Fatal(got)\n\t}\n}\n\n",
		test: func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "func Test%d(t *testing.T) {\n\tcheck(t, %d)\n\tif f() != %d {\n\t\tt.Errorf(\"got %%d\", f())\n\t}\n}\n\n", i, i, i)
		}},
	{name: "python", lang: Python, path: "test_many.py",
		head: "def check(x):\n    assert x >= 0\n\n",
		test: func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "def test_%d():\n    check(%d)\n    assert %d == f()\n\n", i, i, i)
		}},
	{name: "python-class", lang: Python, path: "test_many.py",
		head: "import pytest\n\ndef check(x):\n    assert x >= 0\n\nclass TestMany:\n",
		test: func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "    @pytest.mark.parametrize('x', [%d, %d])\n    def test_%d(self, x):\n        check(x)\n        assert x == f()\n\n", i, i+1, i)
		}},
	{name: "javascript", lang: JavaScript, path: "many.test.js",
		head: "function check(x) {\n  expect(x).toBeGreaterThan(-1);\n}\n\ndescribe(\"many\", () => {\n", tail: "});\n",
		test: func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "  it(\"case %d\", () => {\n    check(%d);\n    expect(f()).toBe(%d);\n  });\n", i, i, i)
		}},
	{name: "typescript", lang: JavaScript, path: "many.test.ts",
		head: "function check(x: number): void {\n  expect(x).toBeGreaterThan(-1);\n}\n\n",
		test: func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "test(\"case %d\", (): void => {\n  check(%d);\n  expect(f()).toBe(%d);\n});\n", i, i, i)
		}},
	{name: "rust", lang: Rust, path: "tests/many.rs",
		head: "fn check(x: i64) {\n    assert!(x >= 0);\n}\n\n",
		test: func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "#[test]\nfn case_%d() {\n    check(%d);\n    assert_eq!(f(), %d);\n}\n\n", i, i, i)
		}},
	{name: "java", lang: Java, path: "src/test/java/ManyTest.java",
		head: "import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\n\nclass ManyTest {\n    static void check(int x) {\n        assertTrue(x >= 0);\n    }\n\n", tail: "}\n",
		test: func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "    @Test\n    void case%d() {\n        check(%d);\n        assertEquals(%d, f());\n    }\n\n", i, i, i)
		}},
	{name: "kotlin", lang: Kotlin, path: "src/test/kotlin/ManyTest.kt",
		head: "import org.junit.jupiter.api.Test\nimport kotlin.test.assertEquals\nimport kotlin.test.assertTrue\n\nclass ManyTest {\n    fun check(x: Int) {\n        assertTrue(x >= 0)\n    }\n\n", tail: "}\n",
		test: func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "    @Test\n    fun case%d() {\n        check(%d)\n        assertEquals(%d, f())\n    }\n\n", i, i, i)
		}},
	{name: "ruby", lang: Ruby, path: "test/many_test.rb",
		head: "require \"minitest/autorun\"\n\nclass ManyTest < Minitest::Test\n  def check(x)\n    assert x >= 0\n  end\n\n", tail: "end\n",
		test: func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "  def test_%d\n    check(%d)\n    assert_equal %d, f\n  end\n\n", i, i, i)
		}},
	{name: "csharp", lang: CSharp, path: "tests/ManyTests.cs",
		head: "using Xunit;\n\npublic class ManyTests\n{\n    static void Check(int x)\n    {\n        Assert.True(x >= 0);\n    }\n\n", tail: "}\n",
		test: func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "    [Fact]\n    public void Case%d()\n    {\n        Check(%d);\n        Assert.Equal(%d, F());\n    }\n\n", i, i, i)
		}},
	{name: "cpp", lang: CPP, path: "many_test.cc",
		head: "#include <gtest/gtest.h>\n\nstatic void check(int x) {\n  EXPECT_GE(x, 0);\n}\n\n",
		test: func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "TEST(Many, Case%d) {\n  check(%d);\n  EXPECT_EQ(%d, f());\n}\n\n", i, i, i)
		}},
	{name: "php", lang: PHP, path: "tests/ManyTest.php",
		head: "<?php\n\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class ManyTest extends TestCase\n{\n    private function check(int $x): void\n    {\n        $this->assertGreaterThanOrEqual(0, $x);\n    }\n\n", tail: "}\n",
		test: func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "    public function testCase%d(): void\n    {\n        $this->check(%d);\n        $this->assertSame(%d, f());\n    }\n\n", i, i, i)
		}},
	{name: "swift", lang: Swift, path: "Tests/ManyTests.swift",
		head: "import XCTest\n\nfinal class ManyTests: XCTestCase {\n    func check(_ x: Int) {\n        XCTAssertGreaterThanOrEqual(x, 0)\n    }\n\n", tail: "}\n",
		test: func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "    func testCase%d() {\n        check(%d)\n        XCTAssertEqual(f(), %d)\n    }\n\n", i, i, i)
		}},
}

// source writes the shape's file with n tests.
func (s manyShape) source(n int) []byte {
	var b strings.Builder
	b.WriteString(s.head)
	for i := 0; i < n; i++ {
		s.test(&b, i)
	}
	b.WriteString(s.tail)
	return []byte(b.String())
}
