package languages

import (
	"context"
	"fmt"
	"reflect"
	"testing"
)

// TestCreditOthers checks that JavaScript, Java, Kotlin, C#, Ruby, PHP,
// Swift and C++ credit each test with the assertions in its own code,
// vacuous ones apart and those that cannot run left out, whatever order
// the language finds its tests in.
func TestCreditOthers(t *testing.T) {
	cases := []struct {
		lang *Language
		path string
		src  string
		want []string
	}{
		{JavaScript, "a.test.js", "describe('s', () => {\n  it('a', () => { expect(f()).toBe(1); expect(2).toBe(2) })\n  it('b', () => { if (false) { expect(g()).toBe(1) } })\n})\ntest('c', t => { t.is(h(), 1); assert.ok(x) })\n",
			[]string{"s > a 1 1", "s > b 0 0", "c 2 0"}},
		{Java, "ATest.java", "class ATest {\n  @Test void a() { assertEquals(1, f()); assertTrue(true); }\n  @Test void b() { return; }\n}\n",
			[]string{"ATest#a 1 1", "ATest#b 0 0"}},
		{Kotlin, "src/test/kotlin/ASpec.kt", "class ASpec : FunSpec({\n  test(\"k\") { f() shouldBe 1 }\n})\nclass ATest {\n  @Test fun a() { assertEquals(1, f()); 1 shouldBe 1 }\n}\n",
			[]string{"ASpec > k 1 0", "ATest#a 1 1"}},
		{CSharp, "ATests.cs", "public class ATests {\n  [Fact] public void A() { Assert.Equal(1, F()); Assert.True(true); }\n  [Fact] public void B() { }\n}\n",
			[]string{"ATests.A 1 1", "ATests.B 0 0"}},
		{Ruby, "test/a_test.rb", "class ATest < Minitest::Test\n  test \"dsl\" do\n    assert_equal 1, f\n  end\n  def test_b\n    assert_equal 1, 1\n    assert g\n  end\nend\n",
			[]string{"ATest#test_dsl 1 0", "ATest#test_b 1 1"}},
		{PHP, "tests/ATest.php", "<?php\nclass ATest extends TestCase {\n    public function testA() { $this->assertSame(1, f()); $this->assertTrue(true); }\n}\n",
			[]string{"ATest::testA 1 1"}},
		{Swift, "Tests/ATests.swift", "import Testing\n@Test func a() { #expect(f() == 1); #expect(true) }\n@Test func b() { if false { #expect(g()) } }\n",
			[]string{"a 1 1", "b 0 0"}},
		{CPP, "tests/a.cpp", "TEST_CASE(\"c\") { REQUIRE(f() == 1); CHECK(true); }\nTEST(S, G) { EXPECT_EQ(1, g()); }\n",
			[]string{"c 1 1", "S.G 1 0"}},
	}
	p := NewParser()
	defer p.Close()
	for _, c := range cases {
		r, err := p.Count(context.Background(), c.lang, c.path, []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, tt := range r.Tests {
			got = append(got, fmt.Sprintf("%s %d %d", tt.Name, tt.Assertions, tt.Vacuous))
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: credited %q, want %q", c.lang.Name, got, c.want)
		}
	}
}
