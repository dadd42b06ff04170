package languages

import (
	"context"
	"fmt"
	"reflect"
	"testing"
)

// TestCredit checks that each language credits a test with the assertions
// inside it, vacuous ones apart, and with those of a helper of its file
// that it calls; a helper no test calls is credited to none.
func TestCredit(t *testing.T) {
	cases := []struct {
		lang *Language
		path string
		src  string
		want []string
	}{
		{Go, "a_test.go", "package a\nimport \"testing\"\n" +
			"func helper(t *testing.T) { t.Error(\"x\") }\n" +
			"func TestA(t *testing.T) {\n\tassert.Equal(t, 1, x)\n\tassert.Equal(t, 6, 6)\n\tt.Run(\"s\", func(t *testing.T) { t.Fatal(\"x\") })\n}\n" +
			"func TestB(t *testing.T) { helper(t) }\n",
			[]string{"TestA 2 1", "TestB 1 0"}},
		{Python, "test_a.py", "def helper():\n    assert x\n" +
			"class TestC:\n    def test_a(self):\n        assert f() == 1\n        assert 6 == 6\n" +
			"def test_b():\n    self.assertEqual(1, x)\n    def inner():\n        assert y\n",
			[]string{"TestC.test_a 1 1", "test_b 2 0"}},
		{Rust, "tests/a.rs", "fn helper() { assert!(x); }\n#[test]\nfn a() { assert_eq!(f(), 1); assert!(true); }\n#[test]\nfn b() {}\n",
			[]string{"a 1 1", "b 0 0"}},
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
			if tt.span != (rangeSpan{}) {
				t.Errorf("%s: %s keeps its span after the count", c.lang.Name, tt.Name)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: credited %q, want %q", c.lang.Name, got, c.want)
		}
	}
}
