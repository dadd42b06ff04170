package languages

import (
	"context"
	"testing"
)

// TestIdentity: each test knows its own assertions, a helper's included,
// and a body that does not depend on its name or layout.
func TestIdentity(t *testing.T) {
	p := NewParser()
	count := func(path, src string) map[string]Test {
		t.Helper()
		r, err := p.Count(context.Background(), ForPath(path), path, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]Test{}
		for _, x := range r.Tests {
			out[x.Name] = x
		}
		return out
	}
	goSrc := "package a\nimport \"testing\"\nfunc TestA(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"a\")\n\t}\n}\nfunc TestB(t *testing.T) { check(t) }\nfunc TestC(t *testing.T) {}\nfunc check(t *testing.T) {\n\tt.Error(\"x\")\n\tt.Error(\"y\")\n}\n"
	got := count("a_test.go", goSrc)
	for name, want := range map[string]int{"TestA": 1, "TestB": 2, "TestC": 0} {
		if got[name].Assertions != want {
			t.Errorf("go %s: %d assertions, want %d", name, got[name].Assertions, want)
		}
	}
	renamed := count("a_test.go", "package a\nimport \"testing\"\nfunc TestRenamed(t *testing.T) {\n  if 1+1 != 2 { t.Fatal(\"a\") }\n}\n")
	if renamed["TestRenamed"].Body != got["TestA"].Body || got["TestA"].Body == got["TestC"].Body {
		t.Errorf("go bodies: renamed %q, original %q, other %q", renamed["TestRenamed"].Body, got["TestA"].Body, got["TestC"].Body)
	}

	py := count("test_a.py", "def test_a():\n    assert f() == 2\n\ndef test_b():\n    pass\n\nclass TestK:\n    def test_c(self):\n        assert g()\n        assert h()\n")
	for name, want := range map[string]int{"test_a": 1, "test_b": 0, "TestK.test_c": 2} {
		if py[name].Assertions != want {
			t.Errorf("python %s: %d assertions, want %d", name, py[name].Assertions, want)
		}
	}

	// A test declared by a call or a macro is known by its code without
	// its title: two tests of different code never share a body, a
	// renamed one keeps its own.
	for _, c := range []struct{ path, src, renamed, a, b, r string }{
		{"a.test.js", "it('adds', () => { expect(add(1)).toBe(2) })\nit('removes', () => { expect(rm(1)).toBe(0) })\n",
			"it('adds (renamed)', () => {\n  expect(add(1)).toBe(2)\n})\n", "adds", "removes", "adds (renamed)"},
		{"spec/a_spec.rb", "describe 'c' do\n  it 'adds' do\n    expect(add(1)).to eq(2)\n  end\n  it 'removes' do\n    expect(rm(1)).to eq(0)\n  end\nend\n",
			"describe 'c' do\n  it \"adds (renamed)\" do expect(add(1)).to eq(2) end\nend\n", "c > adds", "c > removes", "c > adds (renamed)"},
		{"a_test.cc", "TEST(S, Adds) { EXPECT_EQ(2, add(1)); }\nTEST_F(S, Removes) { EXPECT_EQ(0, rm(1)); }\n",
			"TEST(T, Sums) {\n  EXPECT_EQ(2, add(1));\n}\n", "S.Adds", "S.Removes", "T.Sums"},
		{"tests/a.cpp", "TEST_CASE(\"adds\", \"[m]\") { REQUIRE(add(1) == 2); }\nTEST_CASE(\"removes\", \"[m]\") { REQUIRE(rm(1) == 0); }\n",
			"TEST_CASE(\"sums\", \"[m]\")\n{\n  REQUIRE(add(1) == 2);\n}\n", "adds", "removes", "sums"},
	} {
		got, renamed := count(c.path, c.src), count(c.path, c.renamed)
		if got[c.a].Body == "" || got[c.a].Body == got[c.b].Body || renamed[c.r].Body != got[c.a].Body {
			t.Errorf("%s bodies: %q %q, renamed %q", c.path, got[c.a].Body, got[c.b].Body, renamed[c.r].Body)
		}
	}

	js := count("a.test.js", "describe('s', () => {\n  it('one', () => { expect(f()).toBe(1); expect(g()).toBe(2) })\n  it('two', () => {})\n})\n")
	for name, want := range map[string]int{"s > one": 2, "s > two": 0} {
		if js[name].Assertions != want {
			t.Errorf("js %q: %d assertions, want %d", name, js[name].Assertions, want)
		}
	}
}
