package languages

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/golang"
)

// Go counts Go tests the way `go test` finds them.
var Go = &Language{
	Name:      "go",
	Grammars:  map[string]func() *sitter.Language{".go": golang.GetLanguage},
	TestFiles: []string{"*_test.go"},
	Markers:   []string{"Test", "Fuzz", "Benchmark", "assert.", "require.", "Expect(", "Ω("},
	// One query with every pattern: tree-sitter then walks the tree once.
	// A call's arguments are not captured but read when needed: most
	// calls are neither assertions nor skips, and every capture costs.
	Queries: map[string]string{"main": `
		[(function_declaration) (method_declaration)] @func
		(call_expression
			function: (selector_expression operand: (identifier) @recv field: (field_identifier) @method)
			arguments: (argument_list)) @selcall
		(call_expression function: (identifier) @fn arguments: (argument_list)) @barecall
		(call_expression
			function: (selector_expression field: (field_identifier) @f)
			arguments: (argument_list (_) (func_literal parameters: (parameter_list) @params))) @runcall
		(func_literal parameters: (parameter_list) @litparams) @funclit
		(if_statement) @if
		(return_statement) @return
		(binary_expression operator: ["&&" "||"]) @logic
	`},
	Analyze:  analyzeGo,
	Ignore:   goIgnore,
	Manifest: "go.mod",
	Settle:   settleGo,
	Samples: []Sample{
		{Path: "a_test.go", Source: "package a\nimport \"testing\"\nfunc TestA(t *testing.T) { if x != 1 { t.Errorf(\"x\") } }\nfunc Test(t *testing.T) {}\nfunc Test_b(t *testing.T) { t.Fatal(\"x\") }\nfunc Test1(t *testing.T) {}\n",
			Tests: []string{"TestA active", "Test active", "Test_b active", "Test1 active"}, Assertions: 2},
		{Path: "a_test.go", Source: "package a\nimport \"testing\"\nfunc TestSkip(t *testing.T) {\n\tt.Skip(\"later\")\n\tt.Error(\"x\")\n}\nfunc TestShort(t *testing.T) {\n\tif testing.Short() {\n\t\tt.Skip()\n\t}\n}\n",
			Tests: []string{"TestSkip skipped", "TestShort active"}},
		{Path: "a_test.go", Source: "package a\nimport \"testing\"\nfunc FuzzP(f *testing.F) { f.Fuzz(func(t *testing.T, s string) { t.Fail() }) }\nfunc BenchmarkX(b *testing.B) {}\nfunc TestMain(m *testing.M) { os.Exit(m.Run()) }\n",
			Tests: []string{"FuzzP active"}, Assertions: 1, Benchmarks: 1},
		// A TestMain that never calls m.Run, or exits with 0 whatever it
		// returned, switches off every test of its package (the count
		// applies it to the package's other files too).
		{Path: "a_test.go", Source: "package a\nimport (\"os\"; \"testing\")\nfunc TestMain(m *testing.M) { os.Exit(0) }\nfunc TestA(t *testing.T) { t.Fail() }\n",
			Tests: []string{"TestA skipped"}, Assertions: 1},
		{Path: "a_test.go", Source: "package a\nimport (\"os\"; \"testing\")\nfunc TestMain(m *testing.M) {\n\t_ = m.Run()\n\tos.Exit(0)\n}\nfunc TestA(t *testing.T) {}\n",
			Tests: []string{"TestA skipped"}},
		{Path: "a_test.go", Source: "package a\nimport \"testing\"\nfunc TestMain(_ *testing.M) {}\nfunc TestA(t *testing.T) {}\n",
			Tests: []string{"TestA skipped"}},
		// Negative: a TestMain that hands m.Run's code on, or returns after
		// m.Run (the binary exits with its code), or passes m to a helper
		// that runs it, runs the tests; so does one that exits 1.
		{Path: "a_test.go", Source: "package a\nimport (\"os\"; \"testing\")\nfunc TestMain(m *testing.M) {\n\tsetup()\n\tcode := m.Run()\n\tteardown()\n\tos.Exit(code)\n}\nfunc TestA(t *testing.T) {}\n",
			Tests: []string{"TestA active"}},
		{Path: "a_test.go", Source: "package a\nimport (\"os\"; \"testing\")\nfunc TestMain(m *testing.M) { m.Run() }\nfunc TestB(t *testing.T) {}\n",
			Tests: []string{"TestB active"}},
		{Path: "a_test.go", Source: "package a\nimport (\"os\"; \"testing\")\nfunc TestMain(m *testing.M) {\n\tif os.Getenv(\"X\") != \"\" {\n\t\tos.Exit(0)\n\t}\n\tgoleak.VerifyTestMain(m)\n}\nfunc TestC(t *testing.T) {}\n",
			Tests: []string{"TestC active"}},
		{Path: "a_test.go", Source: "package a\nimport (\"os\"; \"testing\")\nfunc TestMain(m *testing.M) {\n\tm.Run()\n\tos.Exit(1)\n}\nfunc TestD(t *testing.T) {}\n",
			Tests: []string{"TestD active"}},
		{Path: "a_test.go", Source: "package a\nimport (\"testing\"; \"github.com/stretchr/testify/assert\")\nfunc TestT(t *testing.T) {\n\tassert.Equal(t, 1, got)\n\trequire.NoError(t, err)\n\tassert.True(t, true)\n\ta := assert.New(t)\n\t_ = a\n\tt.Run(\"sub\", func(t *testing.T) { t.Error(\"x\") })\n}\n",
			Tests: []string{"TestT active"}, Assertions: 3, Vacuous: 1, Subtests: 1},
		{Path: "a_test.go", Source: "package a\ntype S struct{ suite.Suite }\nfunc (s *S) TestInSuite() { s.Equal(1, 1) }\nfunc (s *S) Testify() {}\nfunc TestRun(t *testing.T) { suite.Run(t, new(S)) }\n",
			Tests: []string{"S.TestInSuite active", "TestRun active"}},
		{Path: "a_test.go", Source: "package a\nimport . \"github.com/onsi/gomega\"\nfunc TestG(t *testing.T) {\n\tg := NewWithT(t)\n\tg.Expect(x).To(Equal(1))\n\tExpect(true).To(BeTrue())\n\tΩ(2).Should(Equal(2))\n}\n",
			Tests: []string{"TestG active"}, Assertions: 1, Vacuous: 2},
		// Switched off however it is written: a skip under a constant-true
		// condition, or a return (or an if that returns) as the first
		// statement. go test reports the first as SKIP, the second as a
		// PASS that ran nothing. What follows is dead, and not counted.
		{Path: "a_test.go", Source: "package a\nimport \"testing\"\n" +
			"func TestIfTrue(t *testing.T) {\n\tif true {\n\t\tt.Skip(\"off\")\n\t}\n\tt.Error(\"x\")\n}\n" +
			"func TestOneIsOne(t *testing.T) {\n\tif 1 == 1 { t.Skip() }\n}\n" +
			"func TestNotFalse(t *testing.T) {\n\tif !false { t.Skipf(\"x\") }\n}\n" +
			"func TestTrueOr(t *testing.T) {\n\tif true || x { t.SkipNow() }\n}\n" +
			"func TestOrTrue(t *testing.T) {\n\tif (x || \"a\" != \"b\") { t.Skip() }\n}\n" +
			"func TestElse(t *testing.T) {\n\tt.Log(\"x\")\n\tif false {\n\t} else {\n\t\tt.Skip()\n\t}\n}\n" +
			"func TestReturn(t *testing.T) {\n\treturn\n\tt.Error(\"x\")\n}\n" +
			"func TestParallelReturn(t *testing.T) {\n\t// Nothing to see.\n\tt.Parallel()\n\treturn\n}\n" +
			"func TestIfTrueReturn(t *testing.T) {\n\tif true { return }\n\tt.Fatal(\"x\")\n}\n" +
			"func TestEitherWay(t *testing.T) {\n\tif x { return } else { t.Skip() }\n\tt.Fatal(\"x\")\n}\n",
			Tests: []string{"TestIfTrue skipped", "TestOneIsOne skipped", "TestNotFalse skipped", "TestTrueOr skipped", "TestOrTrue skipped",
				"TestElse skipped", "TestReturn skipped", "TestParallelReturn skipped", "TestIfTrueReturn skipped", "TestEitherWay skipped"}},
		// Negative: skips under real conditions, and a return after work,
		// leave the test active; an empty test is active too.
		{Path: "a_test.go", Source: "package a\nimport (\"os\"; \"runtime\"; \"testing\")\n" +
			"func TestShort(t *testing.T) {\n\tif testing.Short() { t.Skip() }\n\tt.Error(\"x\")\n}\n" +
			"func TestGOOS(t *testing.T) {\n\tif runtime.GOOS == \"windows\" { t.Skip(\"x\") }\n\tt.Error(\"x\")\n}\n" +
			"func TestEnv(t *testing.T) {\n\tif os.Getenv(\"X\") == \"\" || false { t.Skip() }\n}\n" +
			"func TestNever(t *testing.T) {\n\tif false { t.Skip() }\n\tif 1 == 2 { return }\n\tt.Error(\"x\")\n}\n" +
			"func TestLateReturn(t *testing.T) {\n\tdo(t)\n\treturn\n\tt.Error(\"dead\")\n}\n" +
			"func TestReturnInBranch(t *testing.T) {\n\tif x { return }\n\tt.Error(\"x\")\n}\n" +
			"func TestNotMine(t *testing.T) {\n\tr.Skip(1)\n\tt.Error(\"x\")\n}\n" +
			"func TestEmpty(t *testing.T) {}\n",
			Tests: []string{"TestShort active", "TestGOOS active", "TestEnv active", "TestNever active", "TestLateReturn active",
				"TestReturnInBranch active", "TestNotMine active", "TestEmpty active"}, Assertions: 5,
			// A skip under a condition a matrix of jobs decides is named by
			// it: the runner's report shows such a test skipped where the
			// condition holds. One the job decides itself (an environment
			// variable) is not.
			Conditions: []string{"TestShort: testing.Short()", "TestGOOS: runtime.GOOS == \"windows\""}},
		// Assertions that never run: under a constant-false condition, on
		// the right of false && …, after a return or skip in their block.
		// A label after a return can be reached by goto.
		{Path: "a_test.go", Source: "package a\nimport \"testing\"\nfunc TestDead(t *testing.T) {\n" +
			"\tif false { t.Error(\"x\") }\n\tif 1 != 1 { t.Fatal(\"x\") }\n\tif true {} else { assert.Equal(t, 1, x) }\n" +
			"\t_ = false && assert.True(t, x)\n\t_ = true || assert.True(t, x)\n\t_ = x || assert.True(t, y)\n" +
			"\tif x {\n\t\treturn\n\t\tt.Error(\"dead\")\n\t}\n\tif y {\n\t\tt.Skip()\n\t\tt.Error(\"dead\")\n\t}\n" +
			"\tfunc() { return; t.Error(\"dead\") }()\n\tif z { goto L }\n\treturn\n\tt.Error(\"dead\")\nL:\n\tt.Error(\"live\")\n}\n",
			Tests: []string{"TestDead active"}, Assertions: 2},
		// Vacuous: literals compared, and truths of literals. A literal that
		// always fails is an explicit failure and counts.
		{Path: "a_test.go", Source: "package a\nimport \"testing\"\nfunc TestV(t *testing.T) {\n" +
			"\tassert.Equal(t, 3, 3)\n\trequire.Equal(t, \"a\", \"a\")\n\tassert.NotEqual(t, 1, 2)\n\tassert.Equal(t, -3, -3.0)\n" +
			"\tassert.Equalf(t, `a`, \"a\", \"msg %d\", 1)\n\tassert.True(t, 1 == 1)\n\tassert.Nil(t, nil)\n\tassert.NotNil(t, \"x\")\n" +
			"\tassert.False(t, !true)\n\trequire.NoError(t, nil)\n\tassert.Zero(t, 0)\n\tassert.NotEmpty(t, \"x\")\n" +
			"\tExpect(1).To(Equal(1))\n\tΩ('a').ShouldNot(Equal(\"a\"))\n\tg.Expect(nil).To(BeNil())\n" +
			"\tassert.True(t, false, \"unreachable\")\n\tassert.Equal(t, 3, x)\n\tassert.Equal(t, x, y)\n\tassert.Fail(t, \"a\", \"b\")\n" +
			"\tassert.Nil(t, err)\n\tassert.Len(t, xs, 3)\n\tExpect(1).To(Equal(f(x)))\n\tExpect(x).To(BeTrue())\n\tt.Fatal(\"x\")\n" +
			"\tassert.Equal(t, 0, 1, \"unreachable\")\n\trequire.Less(t, 2, 1)\n\tassert.Contains(t, \"abc\", \"b\")\n}\n",
			Tests: []string{"TestV active"}, Assertions: 11, Vacuous: 16},
		// A constant of the file is as constant as its literal; a variable,
		// or a constant of iota, is not.
		{Path: "a_test.go", Source: "package a\nimport \"testing\"\nconst off = !false\nconst alias = off\nfunc TestA(t *testing.T) {\n\tif alias {\n\t\tt.Skip()\n\t}\n\tt.Error(\"x\")\n}\n",
			Tests: []string{"TestA skipped"}},
		{Path: "a_test.go", Source: "package a\nimport \"testing\"\nvar off = true\nconst (\n\ta = iota\n\tb\n)\nfunc TestA(t *testing.T) {\n\tif off {\n\t\tt.Skip()\n\t}\n\tif b == 1 {\n\t\tt.Skip()\n\t}\n\tt.Error(\"x\")\n}\n",
			Tests: []string{"TestA active"}, Assertions: 1},
		// A file go test never builds: its tests are switched off.
		{Path: "a_test.go", Source: "//go:build ignore\n\npackage a\nimport \"testing\"\nfunc TestA(t *testing.T) { t.Error(\"x\") }\n",
			Tests: []string{"TestA skipped"}, Assertions: 1},
		{Path: "a_test.go", Source: "// Copyright\n\n//go:build integration && !short\n\npackage a\nfunc TestA(t *testing.T) {}\n",
			Tests: []string{"TestA skipped"}},
		{Path: "a_test.go", Source: "//go:build linux && windows\n\npackage a\nfunc TestA(t *testing.T) {}\n",
			Tests: []string{"TestA skipped"}},
		{Path: "a_test.go", Source: "//go:build (linux && amd64) || windows\n\npackage a\nfunc TestA(t *testing.T) {}\n",
			Tests: []string{"TestA active [android/amd64 linux/amd64 windows]"}},
		{Path: "a_test.go", Source: "//go:build unix && !cgo && go1.21\n\npackage a\nfunc TestA(t *testing.T) {}\n",
			Tests: []string{"TestA active [aix android darwin dragonfly freebsd illumos ios linux netbsd openbsd solaris]"}},
		{Path: "a_test.go", Source: "package a\n\n//go:build ignore\nfunc TestA(t *testing.T) {}\n",
			Tests: []string{"TestA active"}},
		{Path: "a_test.go", Source: "// +build ignore\n\npackage a\nfunc TestA(t *testing.T) {}\n",
			Tests: []string{"TestA skipped"}},
		{Path: "a_test.go", Source: "// +build linux\n// +build !linux\n\npackage a\nfunc TestA(t *testing.T) {}\n",
			Tests: []string{"TestA skipped"}},
		{Path: "a_test.go", Source: "//go:build linux\n// +build ignore\n\npackage a\nfunc TestA(t *testing.T) {}\n",
			Tests: []string{"TestA active [android linux]"}},
		// Another platform's file stays active: it runs on that platform's
		// CI. Its name says which (go/build's rule: the last element before
		// _test, after the first _), and so does its constraint; a name
		// that is no platform's, or with nothing before it, says nothing.
		{Path: "x/a_windows_test.go", Source: "package a\nfunc TestA(t *testing.T) {}\n", Tests: []string{"TestA active [windows]"}},
		{Path: "a_linux_arm64_test.go", Source: "package a\nfunc TestA(t *testing.T) {}\n", Tests: []string{"TestA active [android/arm64 linux/arm64]"}},
		{Path: "a_amd64_test.go", Source: "package a\nfunc TestA(t *testing.T) {}\n",
			Tests: []string{"TestA active [amd64]"}},
		{Path: "a_darwin_test.go", Source: "//go:build !ios\n\npackage a\nfunc TestA(t *testing.T) {}\n", Tests: []string{"TestA active [darwin]"}},
		{Path: "a_nacl_test.go", Source: "package a\nfunc TestA(t *testing.T) {}\n", Tests: []string{"TestA skipped"}},
		{Path: "a_windows_test.go", Source: "//go:build linux\n\npackage a\nfunc TestA(t *testing.T) {}\n", Tests: []string{"TestA skipped"}},
		{Path: "windows_test.go", Source: "package a\nfunc TestA(t *testing.T) {}\n", Tests: []string{"TestA active"}},
		{Path: "a_linuxish_test.go", Source: "package a\nfunc TestA(t *testing.T) {}\n", Tests: []string{"TestA active"}},
		// Release tags hold up to the release the module asks for (the
		// later of go.mod's go and toolchain lines): a file for a newer
		// release is not built; one for an older release still is. With
		// no go.mod, every release holds.
		{Path: "a_test.go", Manifest: "module m\n\ngo 1.25.0\n",
			Source: "//go:build !(go1.27 && !http2legacy)\n\npackage a\nfunc TestA(t *testing.T) {}\n", Tests: []string{"TestA active"}},
		{Path: "a_test.go", Manifest: "module m\n\ngo 1.25.0\n",
			Source: "//go:build go1.27 && !http2legacy\n\npackage a\nfunc TestA(t *testing.T) {}\n", Tests: []string{"TestA skipped"}},
		{Path: "a_test.go", Manifest: "module m\n\ngo 1.25\n",
			Source: "//go:build go1.26\n\npackage a\nfunc TestA(t *testing.T) { t.Fail() }\n", Tests: []string{"TestA skipped"}, Assertions: 1},
		{Path: "a_test.go", Manifest: "module m\n\ngo 1.25\n",
			Source: "//go:build !go1.26\n\npackage a\nfunc TestA(t *testing.T) {}\n", Tests: []string{"TestA active"}},
		{Path: "a_test.go", Manifest: "module m\n\ngo 1.25.0\n\ntoolchain go1.27.1\n",
			Source: "//go:build go1.27 && !http2legacy\n\npackage a\nfunc TestA(t *testing.T) {}\n", Tests: []string{"TestA active"}},
		{Path: "a_test.go", Manifest: "module m\n",
			Source: "//go:build go1.17\n\npackage a\nfunc TestA(t *testing.T) {}\n", Tests: []string{"TestA skipped"}},
		{Path: "a_test.go", Source: "//go:build go1.99\n\npackage a\nfunc TestA(t *testing.T) {}\n", Tests: []string{"TestA active"}},
		{Path: "a_test.go", Manifest: "module m\n\ngo 1.25\n",
			Source: "//go:build go1.26 && windows\n\npackage a\nfunc TestA(t *testing.T) {}\n", Tests: []string{"TestA skipped"}},
		{Path: "a_test.go", Manifest: "module m\n\ngo 1.25\n",
			Source: "//go:build go1.25 && windows\n\npackage a\nfunc TestA(t *testing.T) {}\n", Tests: []string{"TestA active [windows]"}},
		// go test ./... builds no package under testdata, or under a
		// directory whose name starts with _ or ., and no file whose name
		// does.
		{Path: "testdata/a_test.go", Source: "package a\nfunc TestA(t *testing.T) {}\n", Tests: nil},
		{Path: "x/_old/a_test.go", Source: "package a\nfunc TestA(t *testing.T) {}\n", Tests: nil},
		{Path: ".github/a_test.go", Source: "package a\nfunc TestA(t *testing.T) {}\n", Tests: nil},
		{Path: "x/_a_test.go", Source: "package a\nfunc TestA(t *testing.T) {}\n", Tests: nil},
		{Path: "x/.a_test.go", Source: "package a\nfunc TestA(t *testing.T) {}\n", Tests: nil},
		{Path: "x/test_data/a_test.go", Source: "package a\nfunc TestA(t *testing.T) {}\n", Tests: []string{"TestA active"}},
		// check.v1 suites, like testify's: each method the suite runs is a
		// test named Type.Method; c.Assert and c.Check are assertions, c.Skip
		// a skip. check.v1 runs any Test… method that takes a *C.
		{Path: "a_test.go", Source: "package a\nimport (\n\t\"testing\"\n\t. \"gopkg.in/check.v1\"\n)\n" +
			"func Test(t *testing.T) { TestingT(t) }\ntype S struct{}\nvar _ = Suite(&S{})\n" +
			"func (s *S) SetUpTest(c *C) { c.Assert(setup(), IsNil) }\n" +
			"func (s *S) TestA(c *C) {\n\tc.Assert(f(), Equals, 1)\n\tc.Check(g(), DeepEquals, []int{1})\n\tc.Assert(1, Equals, 1)\n\tc.Check(nil, IsNil)\n}\n" +
			"func (s *S) Testable(c *C) {}\n" +
			"func (s *S) TestSkipped(c *C) {\n\tc.Skip(\"later\")\n\tc.Assert(f(), Equals, 1)\n}\n" +
			"func (s *S) TestNoC() {}\nfunc (s *S) TestTwo(c *C, x int) {}\nfunc (s *S) TestResult(c *C) error { return nil }\n" +
			"func (s *S) BenchmarkX(c *C) {}\nfunc (s *S) helper(c *C) { c.Assert(f(), NotNil) }\n",
			Tests:      []string{"Test active", "S.TestA active", "S.Testable active", "S.TestSkipped skipped", "S.TestNoC active"},
			Assertions: 4, Vacuous: 2, Benchmarks: 1},
		{Path: "a_test.go", Source: "package a\nimport check \"gopkg.in/check.v1\"\n" +
			"type S struct{}\nfunc (s *S) TestA(c *check.C) { c.Check(f(), check.Equals, 2) }\n",
			Tests: []string{"S.TestA active"}, Assertions: 1},
		// Negative: without check.v1, a method taking a *C is no test, and
		// c.Assert no assertion.
		{Path: "a_test.go", Source: "package a\ntype C struct{}\ntype S struct{}\nfunc (s *S) TestA(c *C) { c.Assert(f(), 1) }\n", Tests: nil},
		// Negative: look like tests, are not.
		{Path: "a_test.go", Source: "package a\nimport \"testing\"\nfunc Testing(t *testing.T) {}\nfunc TestX(t testing.T) {}\nfunc TestY(t *testing.T) int { return 0 }\nfunc TestZ(a, b *testing.T) {}\nfunc helper(t *testing.T) { t.Helper(); t.Log(\"x\") }\nvar test = 1\n",
			Tests: nil},
		{Path: "a.go", Source: "package a\nfunc TestA(t *testing.T) {}\n", Tests: nil},
		{Path: "b_test.go", Source: "package a\nfunc other(x *Foo) { x.Error(\"not a T\") }\n", Tests: nil},
	},
}

var goTestKinds = []struct{ prefix, arg string }{
	{"Test", "T"}, {"Fuzz", "F"}, {"Benchmark", "B"},
}

// isGoTestName is go test's rule: the prefix, then nothing or a character
// that is not a lower-case letter.
func isGoTestName(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	if len(name) == len(prefix) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(name[len(prefix):])
	return !unicode.IsLower(r)
}

// goScope is a function or function literal and the parameters it
// declares, true for those of a testing type.
type goScope struct {
	start, end uint32
	params     map[string]bool
}

// goFailCall is a x.Error/Fatal/Fail call, resolved once every scope is known.
type goFailCall struct {
	recv string
	at   uint32
}

// goAnalysis is what one pass of the query over a Go file collects, read
// once every function's parameters are known.
type goAnalysis struct {
	f      *File
	scopes []goScope
	// nest arranges the scopes, once they are all known.
	nest  *nesting
	fails []goFailCall
	// gocheck says the file imports gopkg.in/check.v1, whose *C is a
	// testing type; checks are its c.Assert and c.Check calls.
	gocheck bool
	checks  []goCheckCall
	// asserts are testify and gomega calls, by position.
	asserts []goAssert
	// skipCalls are x.Skip, x.Skipf and x.SkipNow calls; skips holds the
	// start of those whose receiver is a testing parameter.
	skipCalls []*sitter.Node
	skips     map[uint32]bool
	ifs       []*sitter.Node
	returns   []*sitter.Node
	logic     []*sitter.Node
	tests     []goTest
	// testMain is the file's TestMain, and testMainParam its *testing.M.
	testMain      *sitter.Node
	testMainParam string
	dead          deadSpans
	// conds holds the value of each if's condition, by the if's start:
	// markDead, ends and switchedOff each ask for it, often more than once.
	conds map[uint32]constant
}

type goAssert struct {
	at      uint32
	vacuous bool
}

// goTest is a test function, whose status waits for the skip calls to be
// resolved.
type goTest struct {
	name           string
	nameNode, code *sitter.Node
	body           *sitter.Node
	param          string
}

func analyzeGo(f *File) {
	g := &goAnalysis{f: f, skips: map[uint32]bool{}, conds: map[uint32]constant{}, gocheck: goImportsGocheck(f.Src)}
	// Predicates are checked here rather than in the query: smacker
	// compiles a #match? regexp on every match.
	f.Each("main", f.Root, func(c map[string]*sitter.Node) {
		switch {
		case c["func"] != nil:
			fn := c["func"]
			f.functions = append(f.functions, namedSpan{fn.StartByte(), fn.EndByte(), f.Text(fn.ChildByFieldName("name"))})
			goFunc(f, fn, g)
			g.scopes = append(g.scopes, goScope{fn.StartByte(), fn.EndByte(), goTestingParams(f, fn.ChildByFieldName("parameters"), g.gocheck)})
		case c["funclit"] != nil:
			fl := c["funclit"]
			g.scopes = append(g.scopes, goScope{fl.StartByte(), fl.EndByte(), goTestingParams(f, c["litparams"], g.gocheck)})
		case c["selcall"] != nil:
			recv, method := f.Text(c["recv"]), f.Text(c["method"])
			at := c["selcall"].StartByte()
			switch {
			case recv == "assert" || recv == "require":
				if method != "New" {
					g.asserts = append(g.asserts, goAssert{at, goVacuousTestify(f, method, c["selcall"].ChildByFieldName("arguments"))})
				}
			case method == "Expect" || method == "Ω":
				g.asserts = append(g.asserts, goAssert{at, goVacuousGomega(f, c["selcall"], c["selcall"].ChildByFieldName("arguments"))})
			case goFailMethod(method):
				g.fails = append(g.fails, goFailCall{recv, at})
			case g.gocheck && (method == "Assert" || method == "Check"):
				g.checks = append(g.checks, goCheckCall{goFailCall{recv, at}, goVacuousGocheck(f, c["selcall"].ChildByFieldName("arguments"))})
			case method == "Skip" || method == "Skipf" || method == "SkipNow":
				g.skipCalls = append(g.skipCalls, c["selcall"])
			}
		case c["barecall"] != nil:
			if name := f.Text(c["fn"]); name == "Expect" || name == "Ω" {
				g.asserts = append(g.asserts, goAssert{c["barecall"].StartByte(), goVacuousGomega(f, c["barecall"], c["barecall"].ChildByFieldName("arguments"))})
			}
		case c["runcall"] != nil:
			if f.Text(c["f"]) != "Run" {
				return
			}
			if _, ok := goSingleParam(f, c["params"], "T"); ok {
				f.Result.Subtests++
			}
		case c["if"] != nil:
			g.ifs = append(g.ifs, c["if"])
		case c["return"] != nil:
			g.returns = append(g.returns, c["return"])
		case c["logic"] != nil:
			g.logic = append(g.logic, c["logic"])
		}
	})
	var skips []*sitter.Node
	for _, call := range g.skipCalls {
		recv := call.ChildByFieldName("function").ChildByFieldName("operand")
		if g.resolvesToTesting(goFailCall{g.f.Text(recv), call.StartByte()}) {
			g.skips[call.StartByte()] = true
			skips = append(skips, call)
		}
	}
	g.skipCalls = skips
	g.markDead()
	for _, a := range g.asserts {
		if !g.dead.has(a.at) {
			f.AssertAt(a.at, a.vacuous)
		}
	}
	for _, fc := range g.fails {
		if g.resolvesToTesting(fc) && !g.dead.has(fc.at) {
			f.AssertAt(fc.at, false)
		}
	}
	for _, cc := range g.checks {
		if g.resolvesToTesting(cc.call) && !g.dead.has(cc.call.at) {
			f.AssertAt(cc.call.at, cc.vacuous)
		}
	}
	// The build constraint is read in settleGo, against the file's name
	// and its module's Go version, which its content does not give.
	f.Result.Constraint = goConstraint(f.Src)
	f.Result.PackageOff = g.testMainOff()
	for _, t := range g.tests {
		f.AddTestSpan(t.name, t.nameNode, f.Result.PackageOff != "" || g.switchedOff(t), t.code)
		if f.tooMany {
			continue
		}
		if f.Result.PackageOff != "" {
			f.Result.Tests[len(f.Result.Tests)-1].Note = f.Result.PackageOff
		}
		f.Result.Tests[len(f.Result.Tests)-1].Conditional = g.conditional(t)
	}
}

// markDead finds the code that never runs: the branch a constant condition
// never takes, the right of `false && …` and `true || …`, and what follows
// a return, a skip, or an if that returns or skips whichever way it goes.
func (g *goAnalysis) markDead() {
	for _, n := range g.ifs {
		cond := g.condition(n)
		switch {
		case cond.isFalse():
			g.dead.add(n.ChildByFieldName("consequence"))
		case cond.isTrue():
			g.dead.add(n.ChildByFieldName("alternative"))
		}
		if g.ends(n) != endsNot {
			g.dead.addAfter(n, "labeled_statement")
		}
	}
	for _, n := range g.logic {
		left := goConst(g.f, n.ChildByFieldName("left"))
		op := g.f.Text(n.ChildByFieldName("operator"))
		if (op == "&&" && left.isFalse()) || (op == "||" && left.isTrue()) {
			g.dead.add(n.ChildByFieldName("right"))
		}
	}
	for _, n := range g.returns {
		g.dead.addAfter(n, "labeled_statement")
	}
	for _, call := range g.skipCalls {
		if st := call.Parent(); st != nil && st.Type() == "expression_statement" {
			g.dead.addAfter(st, "labeled_statement")
		}
	}
}

// ends reports how a statement ends the code after it: a return, a skip on
// a testing parameter, a block whose statements do, or an if whose branch
// does: the branch a constant condition takes, or both.
func (g *goAnalysis) ends(st *sitter.Node) endKind {
	if !g.f.descend() {
		return endsNot
	}
	defer g.f.ascend()
	if st == nil {
		return endsNot
	}
	switch st.Type() {
	case "return_statement":
		return endsReturn
	case "expression_statement":
		if len(g.skips) > 0 && st.NamedChildCount() == 1 && g.skips[st.NamedChild(0).StartByte()] && st.NamedChild(0).Type() == "call_expression" {
			return endsSkip
		}
	case "block":
		return firstEndOf(st, g.ends)
	case "if_statement":
		cond := g.condition(st)
		cons, alt := st.ChildByFieldName("consequence"), st.ChildByFieldName("alternative")
		switch {
		case cond.isTrue():
			return g.ends(cons)
		case cond.isFalse():
			return g.ends(alt)
		case alt == nil:
			return endsNot
		}
		return bothEnd(g.ends(cons), g.ends(alt))
	}
	return endsNot
}

// condition is the value of an if statement's condition.
func (g *goAnalysis) condition(ifStmt *sitter.Node) constant {
	at := ifStmt.StartByte()
	if c, ok := g.conds[at]; ok {
		return c
	}
	c := goConst(g.f, ifStmt.ChildByFieldName("condition"))
	g.conds[at] = c
	return c
}

// switchedOff reports a test that does not run as written: one that skips
// unconditionally at the top level of its body (t.Skip, or a skip under a
// constant-true condition), or whose first statement, after t.Parallel and
// t.Helper, returns or skips. go test reports the first kind as SKIP and
// the second as PASS, having run nothing.
func (g *goAnalysis) switchedOff(t goTest) bool {
	first := true
	for _, st := range statements(t.body) {
		k := g.ends(st)
		if k == endsSkip || (first && k == endsReturn) {
			return true
		}
		if first && goPreamble(g.f, st, t.param) {
			continue
		}
		first = false
	}
	return false
}

// conditional is the condition under which an active test skips itself
// at run time (`if testing.Short() { t.Skip() }`, a GOOS test), as its
// source text: the runner's report shows the test skipped where the
// condition holds, for a reason the count sees. Empty when the test has
// no such skip in its own body.
func (g *goAnalysis) conditional(t goTest) string {
	for _, st := range statements(t.body) {
		if st.Type() != "if_statement" || st.ChildByFieldName("alternative") != nil {
			continue
		}
		if c := g.condition(st); c.isTrue() || c.isFalse() {
			continue
		}
		if g.ends(st.ChildByFieldName("consequence")) == endsSkip && goMatrixCondition(g.f, st.ChildByFieldName("condition")) {
			text := strings.Join(strings.Fields(g.f.Text(st.ChildByFieldName("condition"))), " ")
			if r := []rune(text); len(r) > maxConditional {
				text = string(r[:maxConditional]) + "…"
			}
			return text
		}
	}
	return ""
}

// goMatrixCondition reports a condition that a matrix of CI jobs decides,
// not the job's own code: built of runtime.GOOS, runtime.GOARCH,
// testing.Short(), literals and operators. A skip under anything else (an
// environment variable, a file, a helper's answer) is one the job can
// arrange for itself, so it explains no skip in a report.
func goMatrixCondition(f *File, n *sitter.Node) bool {
	if n == nil || !f.descend() {
		return false
	}
	defer f.ascend()
	switch n.Type() {
	case "selector_expression":
		t := f.Text(n)
		return t == "runtime.GOOS" || t == "runtime.GOARCH"
	case "call_expression":
		args := n.ChildByFieldName("arguments")
		return f.Text(n.ChildByFieldName("function")) == "testing.Short" && args != nil && args.NamedChildCount() == 0
	case "interpreted_string_literal", "raw_string_literal", "int_literal", "true", "false":
		return true
	case "binary_expression", "unary_expression", "parenthesized_expression":
		for i := 0; i < int(n.NamedChildCount()); i++ {
			if !goMatrixCondition(f, n.NamedChild(i)) {
				return false
			}
		}
		return n.NamedChildCount() > 0
	}
	return false
}

// maxConditional bounds the condition's text a test carries.
const maxConditional = 80

// goPreamble reports t.Parallel() and t.Helper(), which decide nothing.
func goPreamble(f *File, st *sitter.Node, param string) bool {
	if param == "" || st.Type() != "expression_statement" || st.NamedChildCount() != 1 {
		return false
	}
	text := strings.Join(strings.Fields(f.Text(st)), "")
	return text == param+".Parallel()" || text == param+".Helper()"
}

// goConst evaluates a Go expression of literals: numbers, runes, strings,
// true, false, nil, !, unary minus, &&, ||, comparisons and parentheses.
// Anything else (a name, a call, arithmetic) is unknown. true, false and nil
// are read as the predeclared ones: a file that shadows them is not worth
// the doubt.
func goConst(f *File, n *sitter.Node) constant {
	if !f.descend() {
		return unknownConst
	}
	defer f.ascend()
	if n == nil {
		return unknownConst
	}
	switch n.Type() {
	case "true":
		return constOfBool(true)
	case "false":
		return constOfBool(false)
	case "nil":
		return constOfNil()
	case "int_literal", "float_literal":
		return constOfNumber(f.Text(n))
	case "rune_literal":
		text := f.Text(n)
		if len(text) < 2 {
			return unknownConst
		}
		r, _, tail, err := strconv.UnquoteChar(text[1:len(text)-1], '\'')
		if err != nil || tail != "" {
			return unknownConst
		}
		return constOfNumber(strconv.Itoa(int(r)))
	case "interpreted_string_literal", "raw_string_literal":
		s, err := strconv.Unquote(f.Text(n))
		if err != nil {
			return unknownConst
		}
		return constOfString("string", s, true)
	case "identifier":
		// A constant of the file (`const off = true`) is as constant as
		// the literal it names; a chain of them is followed a few steps.
		if v := goFileConsts(f)[f.Text(n)]; v != nil && f.constDepth < 8 {
			f.constDepth++
			defer func() { f.constDepth-- }()
			return goConst(f, v)
		}
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return goConst(f, n.NamedChild(0))
		}
	case "unary_expression":
		x := goConst(f, n.ChildByFieldName("operand"))
		switch f.Text(n.ChildByFieldName("operator")) {
		case "!":
			if x.kind == constBool {
				return constNot(x)
			}
		case "-":
			return constNegate(x)
		case "+":
			if x.kind == constNumber {
				return x
			}
		}
	case "binary_expression":
		op := f.Text(n.ChildByFieldName("operator"))
		left, right := goConst(f, n.ChildByFieldName("left")), goConst(f, n.ChildByFieldName("right"))
		switch op {
		case "&&":
			return constAnd(left, right)
		case "||":
			return constOr(left, right)
		}
		return constCompare(op, left, right)
	}
	return unknownConst
}

// goFileConsts maps the names a file declares with a top-level `const`,
// one name to one value, to their value expressions; read once per file.
func goFileConsts(f *File) map[string]*sitter.Node {
	if f.consts != nil {
		return f.consts
	}
	f.consts = map[string]*sitter.Node{}
	for _, decl := range namedChildren(f.Root) {
		if decl.Type() != "const_declaration" {
			continue
		}
		for j := 0; j < int(decl.NamedChildCount()); j++ {
			spec := decl.NamedChild(j)
			if spec.Type() != "const_spec" {
				continue
			}
			value := spec.ChildByFieldName("value")
			names := 0
			for k := 0; k < int(spec.NamedChildCount()); k++ {
				if spec.NamedChild(k).Type() == "identifier" {
					names++
				}
			}
			if value == nil || names != 1 || value.NamedChildCount() != 1 {
				continue
			}
			f.consts[f.Text(spec.ChildByFieldName("name"))] = value.NamedChild(0)
		}
	}
	return f.consts
}

// resolvesToTesting finds the innermost enclosing function that declares
// the receiver as a parameter, and reports whether it has a testing type:
// t.Error on the test's T, or on a helper's, counts; x.Error does not.
// The functions nest as the tree does, so the climb from the innermost
// one around the call meets them in order.
func (g *goAnalysis) resolvesToTesting(fc goFailCall) bool {
	if g.nest == nil {
		spans := make([]rangeSpan, len(g.scopes))
		for i, sc := range g.scopes {
			spans[i] = rangeSpan{sc.start, sc.end}
		}
		g.nest = newNesting(spans)
	}
	for i := g.nest.around(fc.at, fc.at+1, false); i >= 0; i = g.nest.up(i) {
		if testing, declared := g.scopes[i].params[fc.recv]; declared {
			return testing
		}
	}
	return false
}

// goTestingParams maps each parameter name to whether its type is
// *testing.T, *testing.B, *testing.F or testing.TB, or check.v1's *C in a
// file that imports it.
func goTestingParams(f *File, params *sitter.Node, gocheck bool) map[string]bool {
	m := map[string]bool{}
	if params == nil {
		return m
	}
	for i := 0; i < int(params.NamedChildCount()); i++ {
		pd := params.NamedChild(i)
		if pd.Type() != "parameter_declaration" {
			continue
		}
		testing := false
		if t := pd.ChildByFieldName("type"); t != nil {
			if t.Type() == "pointer_type" && t.NamedChildCount() == 1 {
				inner := t.NamedChild(0)
				testing = goTypeNamed(f, inner, "T") || goTypeNamed(f, inner, "B") || goTypeNamed(f, inner, "F") ||
					(gocheck && goTypeNamed(f, inner, "C"))
			} else {
				testing = goTypeNamed(f, t, "TB")
			}
		}
		for j := 0; j < int(pd.NamedChildCount()); j++ {
			if ch := pd.NamedChild(j); ch.Type() == "identifier" {
				m[f.Text(ch)] = testing
			}
		}
	}
	return m
}

func goFunc(f *File, fn *sitter.Node, g *goAnalysis) {
	nameNode := fn.ChildByFieldName("name")
	name := f.Text(nameNode)
	params := fn.ChildByFieldName("parameters")
	hasResult := fn.ChildByFieldName("result") != nil
	if fn.Type() == "method_declaration" {
		goSuiteMethod(f, fn, g)
		return
	}
	if hasResult || fn.ChildByFieldName("type_parameters") != nil {
		return
	}
	if name == "TestMain" {
		if param, ok := goSingleParam(f, params, "M"); ok {
			g.testMain, g.testMainParam = fn, param
		}
	}
	for _, k := range goTestKinds {
		if !isGoTestName(name, k.prefix) {
			continue
		}
		param, ok := goSingleParam(f, params, k.arg)
		if !ok {
			return
		}
		if k.prefix == "Benchmark" {
			f.Result.Benchmarks++
			return
		}
		if name == "TestMain" {
			return
		}
		g.tests = append(g.tests, goTest{name: name, nameNode: nameNode, code: fn, body: fn.ChildByFieldName("body"), param: param})
		return
	}
}

func goFailMethod(m string) bool {
	for _, p := range []string{"Error", "Fatal", "Fail"} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}

// goSingleParam checks go test's signature rule: exactly one parameter,
// with at most one name, of type *arg or *pkg.arg. It returns the
// parameter's name.
func goSingleParam(f *File, params *sitter.Node, arg string) (string, bool) {
	if params == nil || params.NamedChildCount() != 1 {
		return "", false
	}
	p := params.NamedChild(0)
	if p.Type() != "parameter_declaration" {
		return "", false
	}
	names := 0
	name := ""
	for i := 0; i < int(p.NamedChildCount()); i++ {
		if ch := p.NamedChild(i); ch.Type() == "identifier" {
			names++
			name = f.Text(ch)
		}
	}
	if names > 1 {
		return "", false
	}
	t := p.ChildByFieldName("type")
	if t == nil || t.Type() != "pointer_type" || t.NamedChildCount() != 1 {
		return "", false
	}
	return name, goTypeNamed(f, t.NamedChild(0), arg)
}

// goTypeNamed reports whether a type node is arg or pkg.arg.
func goTypeNamed(f *File, t *sitter.Node, arg string) bool {
	switch t.Type() {
	case "type_identifier":
		return f.Text(t) == arg
	case "qualified_type":
		return f.Text(t.ChildByFieldName("name")) == arg
	}
	return false
}

func goReceiverType(f *File, method *sitter.Node) string {
	recv := method.ChildByFieldName("receiver")
	if recv == nil || recv.NamedChildCount() == 0 {
		return ""
	}
	t := recv.NamedChild(0).ChildByFieldName("type")
	for t != nil && t.Type() == "pointer_type" && t.NamedChildCount() > 0 {
		t = t.NamedChild(0)
	}
	if t != nil && t.Type() == "generic_type" {
		t = t.ChildByFieldName("type")
	}
	return f.Text(t)
}
