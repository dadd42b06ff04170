package languages

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"path"
	"runtime"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// TestBracketDepth reads the depth of the brackets that pair, as a parser
// would pair them: a bracket a string or a comment leaves open nests
// nothing.
func TestBracketDepth(t *testing.T) {
	for _, c := range []struct {
		src  string
		want int
	}{
		{"", 0},
		{"f(x)", 1},
		{"f([{}])", 3},
		{"f(a)(b)[c]", 1},
		{`check("(") ; check("((((")`, 1},
		{"// (((( a comment\nf(x)", 1},
		{"f(] x)", 1},
		{"))))((((", 0},
		{strings.Repeat("(", 50) + strings.Repeat(")", 50), 50},
		{strings.Repeat("(", 50) + strings.Repeat("]", 50), 0},
		{"f(" + strings.Repeat(`"(" `, 1000) + ")", 1},
	} {
		if got := bracketDepth([]byte(c.src), 1<<20); got != c.want {
			t.Errorf("bracketDepth(%.40q) = %d, want %d", c.src, got, c.want)
		}
	}
	// The scan stops once past the limit.
	if got := bracketDepth([]byte(strings.Repeat("(", 100)+strings.Repeat(")", 100)), 10); got != 11 {
		t.Errorf("past a limit of 10: %d", got)
	}
}

// TestTreeShapeMatchesCursor holds the walk in C, which reads the C node
// at the start of a sitter.Node, to a walk through the Go bindings, on
// every sample of every language: the same depth, nodes and sum of
// depths.
func TestTreeShapeMatchesCursor(t *testing.T) {
	for _, l := range All() {
		for _, s := range l.Samples {
			grammar, ok := l.Grammars[path.Ext(s.Path)]
			if !ok {
				continue
			}
			p := sitter.NewParser()
			p.SetLanguage(grammar())
			tree, err := p.ParseCtx(context.Background(), nil, []byte(s.Source))
			if err != nil {
				t.Fatal(err)
			}
			c := sitter.NewTreeCursor(tree.RootNode())
			depth, deepest, nodes, sum := 0, 0, uint64(1), uint64(0)
		walk:
			for {
				if c.GoToFirstChild() {
					depth++
					deepest = max(deepest, depth)
					nodes, sum = nodes+1, sum+uint64(depth)
					continue
				}
				for !c.GoToNextSibling() {
					if !c.GoToParent() {
						break walk
					}
					depth--
				}
				nodes, sum = nodes+1, sum+uint64(depth)
			}
			closeCursor(c)
			gotDepth, gotNodes, gotSum := treeShape(tree.RootNode(), 1<<30)
			if gotDepth != deepest || gotNodes != nodes || gotSum != sum {
				t.Fatalf("%s %s: the C walk found depth %d, %d nodes, depths %d; the bindings' %d, %d, %d",
					l.Name, s.Path, gotDepth, gotNodes, gotSum, deepest, nodes, sum)
			}
			// The walk that leaves out shallow subtrees counts every node
			// and bounds the depths; with a skip of 3, it leaves some out.
			for _, skip := range []int{3, depthPerNode} {
				d, n, bound := shapeOf(tree.RootNode(), 1<<30, skip)
				if n != nodes || d < deepest || bound < sum {
					t.Fatalf("%s %s: skipping within %d: depth %d, %d nodes, bound %d; the walk's %d, %d, %d",
						l.Name, s.Path, skip, d, n, bound, deepest, nodes, sum)
				}
			}
			tree.Close()
			p.Close()
		}
	}
}

// nestedSources are, for each language, a test whose one assertion holds
// an expression nested as deep as asked, by brackets.
var nestedSources = []struct {
	lang *Language
	path string
	src  func(open, close string) string
}{
	{Go, "a_test.go", func(o, c string) string {
		return "package a\nimport \"testing\"\nfunc TestA(t *testing.T) { assert.Equal(t, 1, " + o + "1" + c + ") }\n"
	}},
	{Python, "test_a.py", func(o, c string) string { return "def test_a():\n    assert f(" + o + "1" + c + ")\n" }},
	{JavaScript, "a.test.js", func(o, c string) string { return "it('a', () => { expect(" + o + "1" + c + ").toBe(1) })\n" }},
	{Rust, "tests/a.rs", func(o, c string) string { return "#[test]\nfn a() { assert_eq!(" + o + "1" + c + ", 1); }\n" }},
	{Java, "ATest.java", func(o, c string) string {
		return "class ATest { @Test void a() { assertEquals(1, " + o + "1" + c + "); } }\n"
	}},
	{Kotlin, "ATest.kt", func(o, c string) string {
		return "class ATest { @Test fun a() { assertEquals(1, " + o + "1" + c + ") } }\n"
	}},
	{Ruby, "a_test.rb", func(o, c string) string {
		return "class ATest < Minitest::Test\n  def test_a\n    assert_equal 1, " + o + "1" + c + "\n  end\nend\n"
	}},
	{CSharp, "ATests.cs", func(o, c string) string {
		return "public class ATests { [Fact] public void A() { Assert.Equal(1, " + o + "1" + c + "); } }\n"
	}},
	{CPP, "a_test.cc", func(o, c string) string { return "TEST(A, B) { EXPECT_EQ(1, " + o + "1" + c + "); }\n" }},
	{PHP, "ATest.php", func(o, c string) string {
		return "<?php\nclass ATest extends TestCase { public function testA(): void { $this->assertSame(1, " + o + "1" + c + "); } }\n"
	}},
	{Swift, "ATests.swift", func(o, c string) string {
		return "import XCTest\nclass ATests: XCTestCase { func testA() { XCTAssertEqual(1, " + o + "1" + c + ") } }\n"
	}},
}

// TestDeepNestingRefused holds each language to the nesting bound: a test
// whose brackets nest past MaxNesting is refused before it is parsed, with
// an error that names the file; one nested a few hundred deep, past any
// real code but CPython's tests of nesting, is counted.
func TestDeepNestingRefused(t *testing.T) {
	p := NewParser()
	defer p.Close()
	for _, s := range nestedSources {
		deep := s.src(strings.Repeat("(", MaxNesting+1), strings.Repeat(")", MaxNesting+1))
		_, err := p.Count(context.Background(), s.lang, s.path, []byte(deep))
		if !errors.Is(err, ErrTooDeep) || !strings.HasPrefix(err.Error(), s.path+": ") {
			t.Errorf("%s: nested %d deep: %v, want %v naming the file", s.lang.Name, MaxNesting+1, err, ErrTooDeep)
		}
		fine := s.src(strings.Repeat("(", 300), strings.Repeat(")", 300))
		r, err := p.Count(context.Background(), s.lang, s.path, []byte(fine))
		if err != nil || len(r.Tests) != 1 {
			t.Errorf("%s: nested 300 deep: %v, %+v", s.lang.Name, err, r)
		}
	}
}

// TestDeepTreesRefused covers the nesting that takes no brackets (a chain
// of operators, of else-ifs, of attributes, Ruby's keyword blocks): the
// tree is measured before the query engine or the analysis reads it, and
// refused past MaxNesting. Read all the way down, a chain of 10,000
// else-ifs took the analysis minutes, one of 10,000 additions took the
// query engine seconds, and one of millions overflowed Go's stack and
// killed the count.
func TestDeepTreesRefused(t *testing.T) {
	n := MaxNesting + 10
	cases := []struct {
		name string
		lang *Language
		path string
		src  string
	}{
		{"go operators", Go, "a_test.go", "package a\nimport \"testing\"\nfunc TestA(t *testing.T) {\n\tif " + strings.Repeat("1 + ", n) + "1 == 0 {\n\t\tt.Skip()\n\t}\n}\n"},
		{"go else-ifs", Go, "a_test.go", "package a\nimport \"testing\"\nfunc TestA(t *testing.T) {\n\tif x {\n\t" + strings.Repeat("} else if x {\n\t", n) + "}\n\tt.Error()\n}\n"},
		{"python attributes", Python, "test_a.py", "class TestA(a" + strings.Repeat(".b", n) + "):\n    def test_a(self):\n        assert f()\n"},
		{"python operators", Python, "test_a.py", "def test_a():\n    assert " + strings.Repeat("1 + ", n) + "1\n"},
		{"javascript else-ifs", JavaScript, "a.test.js", "it('a', () => {\n  if (x) {\n  " + strings.Repeat("} else if (x) {\n  ", n) + "}\n  expect(f()).toBe(1)\n})\n"},
		{"rust operators", Rust, "tests/a.rs", "#[test]\nfn a() {\n    if " + strings.Repeat("1 + ", n) + "1 == 0 { return; }\n    assert!(f());\n}\n"},
		{"ruby blocks", Ruby, "a_test.rb", "class ATest < Minitest::Test\n  def test_a\n" + strings.Repeat("if true then\n", n) + "assert f\n" + strings.Repeat("end\n", n) + "  end\nend\n"},
	}
	p := NewParser()
	defer p.Close()
	for _, c := range cases {
		if d := bracketDepth([]byte(c.src), MaxNesting); d > 10 {
			t.Fatalf("%s: nested %d deep by brackets; the case is of other nesting", c.name, d)
		}
		_, err := p.Count(context.Background(), c.lang, c.path, []byte(c.src))
		if !errors.Is(err, ErrTooDeep) {
			t.Errorf("%s, %d deep: %v, want %v", c.name, n, err, ErrTooDeep)
		}
	}
}

// TestManyDeepChainsRefused covers a file of many chains, each under
// MaxNesting: the query engine's work is the sum of the nodes' depths,
// which such a file makes quadratic, and the sum is bounded too.
func TestManyDeepChainsRefused(t *testing.T) {
	chain := "\tif " + strings.Repeat("1 + ", 3000) + "1 == 0 {\n\t\tt.Skip()\n\t}\n"
	src := "package a\nimport \"testing\"\nfunc TestA(t *testing.T) {\n" + strings.Repeat(chain, 12) + "}\n"
	p := NewParser()
	defer p.Close()
	if _, err := p.Count(context.Background(), Go, "a_test.go", []byte(src)); !errors.Is(err, ErrTooDeep) {
		t.Errorf("12 chains of 3,000 additions: %v, want %v", err, ErrTooDeep)
	}
	one := "package a\nimport \"testing\"\nfunc TestA(t *testing.T) {\n" + chain + "}\n"
	if r, err := p.Count(context.Background(), Go, "a_test.go", []byte(one)); err != nil || len(r.Tests) != 1 {
		t.Errorf("one chain of 3,000 additions: %v, %+v", err, r)
	}
}

// TestTooManyTestsRefused holds each language to the bound on tests: a
// file of one test more than the bound is refused, with an error that
// names the file, and one at the bound is counted whole. The bound is
// lowered here, so that the files stay small; TestMaxTestsRefused checks
// the real one.
func TestTooManyTestsRefused(t *testing.T) {
	defer func(was int) { maxTests = was }(maxTests)
	maxTests = 40
	p := NewParser()
	defer p.Close()
	for _, s := range manyShapes {
		_, err := p.Count(context.Background(), s.lang, s.path, s.source(maxTests+1))
		if !errors.Is(err, ErrTooManyTests) || !strings.HasPrefix(err.Error(), s.path+": ") {
			t.Errorf("%s: %d tests: %v, want %v naming the file", s.name, maxTests+1, err, ErrTooManyTests)
		}
		r, err := p.Count(context.Background(), s.lang, s.path, s.source(maxTests))
		if err != nil || len(r.Tests) != maxTests {
			t.Errorf("%s: %d tests: %v, %+v", s.name, maxTests, err, r)
		}
	}
}

// TestInheritedTestsRefused covers pytest's inheritance, where a file's
// tests outgrow its definitions: a chain of subclasses each collects the
// tests of all the classes before it, n² tests from n definitions, and a
// chain whose classes share one test's name collects one test each but
// considers every class of the chain. Both are refused once past the
// bound, before the collection is done.
func TestInheritedTestsRefused(t *testing.T) {
	defer func(was int) { maxTests = was }(maxTests)
	maxTests = 100
	chain := func(n int, name func(i int) string) []byte {
		var b strings.Builder
		b.WriteString("class TestC0:\n    def test_0(self):\n        assert f()\n")
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, "class TestC%d(TestC%d):\n    def %s(self):\n        assert f()\n", i, i-1, name(i))
		}
		return []byte(b.String())
	}
	p := NewParser()
	defer p.Close()
	count := func(n int, name func(i int) string) (int, error) {
		r, err := p.Count(context.Background(), Python, "test_chain.py", chain(n, name))
		if err != nil {
			return 0, err
		}
		return len(r.Tests), nil
	}
	// Class i collects i+1 tests: 13 classes collect 91 tests, 14 collect
	// 105, past the bound.
	distinct := func(i int) string { return fmt.Sprintf("test_%d", i) }
	if got, err := count(13, distinct); err != nil || got != 91 {
		t.Errorf("a chain of 13 classes: %v, %d tests", err, got)
	}
	if _, err := count(14, distinct); !errors.Is(err, ErrTooManyTests) {
		t.Errorf("a chain of 14 classes, 105 tests: %v, want %v", err, ErrTooManyTests)
	}
	// Class i considers its MRO's i+1 classes and their one function each:
	// 31 classes consider 992 candidates, 32 consider 1,056, past 10 for
	// each of the 100 tests a file may hold.
	same := func(int) string { return "test_0" }
	if got, err := count(31, same); err != nil || got != 31 {
		t.Errorf("a chain of 31 classes of one test each: %v, %d tests", err, got)
	}
	if _, err := count(32, same); !errors.Is(err, ErrTooManyTests) {
		t.Errorf("a chain of 32 classes of one test each: %v, want %v", err, ErrTooManyTests)
	}
}

// TestMaxTestsRefused checks the real bound once, in C++, whose tests are
// the shortest to write: MaxTests tests are counted, one more is refused.
func TestMaxTestsRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("counts two files of 100,000 tests")
	}
	src := func(n int) []byte {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "TEST(A, T%d) {}\n", i)
		}
		return []byte(b.String())
	}
	p := NewParser()
	defer p.Close()
	p.Timeout = 0 // no time limit: the test must not depend on the machine
	r, err := p.Count(context.Background(), CPP, "a_test.cc", src(MaxTests))
	if err != nil || len(r.Tests) != MaxTests {
		t.Fatalf("%d tests: %v", MaxTests, err)
	}
	if _, err := p.Count(context.Background(), CPP, "a_test.cc", src(MaxTests+1)); !errors.Is(err, ErrTooManyTests) {
		t.Fatalf("%d tests: %v, want %v", MaxTests+1, err, ErrTooManyTests)
	}
}

// TestBracketDepthMatchesPairs holds the two readings to the pairs a stack
// makes, each pair's depth counted as the pairs around it, on random
// brackets of three kinds.
func TestBracketDepthMatchesPairs(t *testing.T) {
	r := rand.New(rand.NewSource(10))
	for round := 0; round < 2000; round++ {
		src := make([]byte, r.Intn(40))
		for i := range src {
			src[i] = "()[]{}x"[r.Intn(7)]
		}
		type pair struct{ open, close int }
		var pairs []pair
		var stack []int
		for i, b := range src {
			switch b {
			case '(', '[', '{':
				stack = append(stack, i)
			case ')', ']', '}':
				if k := len(stack); k > 0 && bracketKind(src[stack[k-1]]) == bracketKind(b) {
					pairs = append(pairs, pair{stack[k-1], i})
					stack = stack[:k-1]
				}
			}
		}
		want := 0
		for _, p := range pairs {
			d := 0
			for _, q := range pairs {
				if q.open <= p.open && p.close <= q.close {
					d++
				}
			}
			want = max(want, d)
		}
		if got := bracketDepth(src, 1<<20); got != want {
			t.Fatalf("%q: depth %d, the pairs %d", src, got, want)
		}
	}
}

// TestDeepFileRefusedBeforeParse holds an 8 MiB file of nested parentheses
// (the file, which took 1.4 GB to parse and more to count) to the
// memory bound: it is refused before any parser exists for it, having
// taken no more Go memory than four bytes for each byte of its source.
func TestDeepFileRefusedBeforeParse(t *testing.T) {
	d := (8<<20 - 40) / 2
	src := []byte("def test_deep():\n    assert f(" + strings.Repeat("(", d) + strings.Repeat(")", d) + ")\n")
	p := NewParser()
	defer p.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := p.Count(context.Background(), Python, "test_deep.py", src)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTooDeep) || !strings.HasPrefix(err.Error(), "test_deep.py: ") {
		t.Fatalf("nested %d deep: %v, want %v naming the file", d+1, err, ErrTooDeep)
	}
	if len(p.parsers) != 0 {
		t.Errorf("a parser was made for a file refused before its parse")
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*uint64(len(src)) {
		t.Errorf("refusing a file of %d bytes took %d bytes of memory", len(src), alloc)
	}
}

// TestHeavyFilesOneAtATime holds the parsers of a process to one file past
// HeavyFile at a time: while one holds its turn, another waits (here until
// its context is done), and a small file does not wait at all.
func TestHeavyFilesOneAtATime(t *testing.T) {
	release, err := admitHeavy(context.Background(), HeavyFile+1)
	if err != nil {
		t.Fatal(err)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := admitHeavy(done, HeavyFile+1); !errors.Is(err, context.Canceled) {
		t.Errorf("a second large file was admitted while the first held its turn: %v", err)
	}
	small, err := admitHeavy(done, HeavyFile)
	if err != nil {
		t.Errorf("a file of HeavyFile bytes waited for a large one: %v", err)
	} else {
		small()
	}
	release()
	again, err := admitHeavy(context.Background(), HeavyFile+1)
	if err != nil {
		t.Fatalf("the turn was not given back: %v", err)
	}
	again()
}
