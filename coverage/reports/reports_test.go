package reports

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// runnerCase is a report of testdata, produced by its runner (see
// testdata/README.md), with the tests sentinel counts in the project the
// runner ran, and what the report must say of them.
type runnerCase struct {
	report string
	tests  []Test
	// ran, skipped and absent name the tests by Name; cases is how many
	// cases of the tests ran; unknown is how many cases match no test.
	ran, skipped, absent []string
	cases, unknown       int
}

// runnerCases are the reports of testdata beside the counts of the
// projects that made them (`sentinel count --list` over the same sources).
var runnerCases = []runnerCase{
	{
		report: "go-test.json",
		tests: []Test{
			{Language: "go", Path: "calc/calc_test.go", Name: "TestAdd", Scope: "example.com/m/calc"},
			{Language: "go", Path: "calc/calc_test.go", Name: "TestShort", Scope: "example.com/m/calc"},
			{Language: "go", Path: "calc/calc_test.go", Name: "TestGone", Scope: "example.com/m/calc"},
		},
		// TestOff is skipped in the source too: the count does not hold it
		// active, so the report's skip of it is unknown here.
		ran: []string{"TestAdd", "TestShort"}, absent: []string{"TestGone"}, cases: 3, unknown: 1,
	},
	{
		report: "gotestsum.xml",
		tests: []Test{
			{Language: "go", Path: "calc/calc_test.go", Name: "TestAdd", Scope: "example.com/m/calc"},
			{Language: "go", Path: "calc/calc_test.go", Name: "TestShort", Scope: "example.com/m/calc"},
		},
		ran: []string{"TestAdd", "TestShort"}, cases: 3, unknown: 1,
	},
	{
		report: "pytest.xml",
		tests: []Test{
			{Language: "python", Path: "tests/test_calc.py", Name: "test_add"},
			{Language: "python", Path: "tests/test_calc.py", Name: "test_inc"},
			{Language: "python", Path: "tests/test_calc.py", Name: "test_windows", Condition: "condition"},
			{Language: "python", Path: "tests/test_calc.py", Name: "TestCalc.test_mul"},
			{Language: "python", Path: "tests/test_calc.py", Name: "TestCalc.test_fails"},
		},
		ran: []string{"test_add", "test_inc", "TestCalc.test_mul", "TestCalc.test_fails"}, skipped: []string{"test_windows"}, cases: 6, unknown: 1,
	},
	{
		report: "jest-junit-default.xml",
		tests: []Test{
			{Language: "javascript", Path: "src/calc.test.js", Name: "calc > adds"},
			{Language: "javascript", Path: "src/calc.test.js", Name: "calc > nested > divides"},
			{Language: "javascript", Path: "src/calc.test.js", Name: "calc > increments %i to %i"},
			{Language: "javascript", Path: "src/calc.test.js", Name: "top level"},
		},
		ran: []string{"calc > adds", "calc > nested > divides", "calc > increments %i to %i", "top level"}, cases: 5, unknown: 1,
	},
	{
		report: "jest-junit-file.xml",
		tests: []Test{
			{Language: "javascript", Path: "src/calc.test.js", Name: "calc > adds"},
			{Language: "javascript", Path: "src/calc.test.js", Name: "calc > nested > divides"},
			{Language: "javascript", Path: "src/calc.test.js", Name: "calc > increments %i to %i"},
			{Language: "javascript", Path: "src/calc.test.js", Name: "top level"},
			{Language: "javascript", Path: "src/other.test.js", Name: "calc > adds"},
		},
		ran: []string{"calc > adds", "calc > nested > divides", "calc > increments %i to %i", "top level"}, absent: []string{"calc > adds"}, cases: 5, unknown: 1,
	},
	{
		report: "vitest.xml",
		tests: []Test{
			{Language: "javascript", Path: "src/calc.vitest.test.js", Name: "calc > adds"},
			{Language: "javascript", Path: "src/calc.vitest.test.js", Name: "calc > nested > divides"},
			{Language: "javascript", Path: "src/calc.vitest.test.js", Name: "calc > increments %i to %i"},
			{Language: "javascript", Path: "src/calc.vitest.test.js", Name: "calc > skips at run time"},
		},
		ran: []string{"calc > adds", "calc > nested > divides", "calc > increments %i to %i"}, skipped: []string{"calc > skips at run time"}, cases: 4, unknown: 1,
	},
	{
		report: "cargo-libtest.xml",
		tests: []Test{
			{Language: "rust", Path: "src/lib.rs", Name: "tests::adds"},
			{Language: "rust", Path: "src/lib.rs", Name: "tests::nested::deep"},
			{Language: "rust", Path: "tests/api.rs", Name: "from_outside"},
		},
		ran: []string{"tests::adds", "tests::nested::deep", "from_outside"}, cases: 3,
	},
	{
		report: "nextest-junit.xml",
		tests: []Test{
			{Language: "rust", Path: "src/lib.rs", Name: "tests::adds"},
			{Language: "rust", Path: "src/lib.rs", Name: "tests::nested::deep"},
			{Language: "rust", Path: "tests/api.rs", Name: "from_outside"},
			{Language: "rust", Path: "src/strings.rs", Name: "strings::tests::trims"},
		},
		ran: []string{"tests::adds", "tests::nested::deep", "from_outside"}, absent: []string{"strings::tests::trims"}, cases: 3,
	},
	{
		report: "phpunit.xml",
		tests: []Test{
			{Language: "php", Path: "tests/CalcTest.php", Name: `App\Tests\CalcTest::testAdds`},
			{Language: "php", Path: "tests/CalcTest.php", Name: `App\Tests\CalcTest::testIncrements`},
		},
		ran: []string{`App\Tests\CalcTest::testAdds`, `App\Tests\CalcTest::testIncrements`}, cases: 3, unknown: 1,
	},
	{
		report: "junit-console.xml",
		tests: []Test{
			{Language: "java", Path: "src/test/java/com/example/CalcTest.java", Name: "CalcTest#adds"},
			{Language: "java", Path: "src/test/java/com/example/CalcTest.java", Name: "CalcTest#positive"},
		},
		ran: []string{"CalcTest#adds", "CalcTest#positive"}, cases: 4, unknown: 1,
	},
	{
		report: "surefire-TEST-com.example.CalcTest.xml",
		tests: []Test{
			{Language: "java", Path: "src/test/java/com/example/CalcTest.java", Name: "CalcTest#adds"},
			{Language: "java", Path: "src/test/java/com/example/CalcTest.java", Name: "CalcTest#positive"},
			{Language: "java", Path: "src/test/java/com/example/CalcTest.java", Name: "CalcTest#later"},
			{Language: "java", Path: "src/test/java/com/other/CalcTest.java", Name: "CalcTest#adds"},
		},
		ran: []string{"CalcTest#adds", "CalcTest#positive"}, skipped: []string{"CalcTest#later"}, absent: []string{"CalcTest#adds"}, cases: 4,
	},
	{
		report: "rspec-junit.xml",
		tests: []Test{
			{Language: "ruby", Path: "spec/calc_spec.rb", Name: "Calc > #add > adds two numbers"},
			{Language: "ruby", Path: "spec/calc_spec.rb", Name: "Calc > #add > with floats > rounds"},
			{Language: "ruby", Path: "spec/calc_spec.rb", Name: "Calc > #divide > raises on zero"},
			{Language: "ruby", Path: "spec/calc_spec.rb", Name: "Calc > #divide > waits on a fix"},
		},
		ran: []string{"Calc > #add > adds two numbers", "Calc > #add > with floats > rounds", "Calc > #divide > raises on zero"}, skipped: []string{"Calc > #divide > waits on a fix"}, cases: 3,
	},
	{
		report: "dotnet-junit.xml",
		tests: []Test{
			{Language: "csharp", Path: "tests/CalculatorTests.cs", Name: "CalculatorTests.Adds"},
			{Language: "csharp", Path: "tests/CalculatorTests.cs", Name: "CalculatorTests.Squares"},
			{Language: "csharp", Path: "tests/CalculatorTests.cs", Name: "CalculatorTests.Divides"},
		},
		ran: []string{"CalculatorTests.Adds", "CalculatorTests.Squares"}, skipped: []string{"CalculatorTests.Divides"}, cases: 3,
	},
}

// TestRunnersReports reads each runner's own report and matches it with
// the count of the project it ran.
func TestRunnersReports(t *testing.T) {
	for _, rc := range runnerCases {
		t.Run(rc.report, func(t *testing.T) {
			s, err := Load([]string{filepath.Join("testdata", rc.report)})
			if err != nil {
				t.Fatal(err)
			}
			v := Match(rc.tests, s)
			var ran, skipped, absent []string
			lost := map[string]bool{}
			for _, f := range append(append([]Finding{}, v.Lost...), v.Platform...) {
				lost[f.Path+"\x00"+f.Name] = true
				if f.Cause == CauseAbsent {
					absent = append(absent, f.Name)
				} else {
					skipped = append(skipped, f.Name)
				}
			}
			for _, tt := range rc.tests {
				if !lost[tt.Path+"\x00"+tt.Name] {
					ran = append(ran, tt.Name)
				}
			}
			for _, c := range []struct {
				what      string
				got, want []string
			}{{"ran", ran, rc.ran}, {"skipped", skipped, rc.skipped}, {"absent", absent, rc.absent}} {
				sort.Strings(c.got)
				sort.Strings(c.want)
				if !reflect.DeepEqual(c.got, c.want) && (len(c.got)+len(c.want) > 0) {
					t.Errorf("%s: got %q, want %q", c.what, c.got, c.want)
				}
			}
			if v.Ran != len(rc.ran) || v.Cases != rc.cases || len(v.Unknown) != rc.unknown {
				t.Errorf("ran %d, cases %d, unknown %d (%v); want %d, %d, %d", v.Ran, v.Cases, len(v.Unknown), v.Unknown, len(rc.ran), rc.cases, rc.unknown)
			}
		})
	}
}

// TestSkipReasons keeps a skip's reason as the runner gives it: pytest's
// message, go test's output line.
func TestSkipReasons(t *testing.T) {
	for _, c := range []struct{ report, name, want string }{
		{"pytest.xml", "test_skips_at_run_time", "flaky today"},
		{"go-test.json", "TestOff", "calc_test.go:23: off"},
		{"junit-console.xml", "later()", "later"},
	} {
		s, err := Load([]string{filepath.Join("testdata", c.report)})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, k := range s.Cases {
			if k.Name == c.name {
				found = true
				if k.Outcome != Skipped || k.Message != c.want {
					t.Errorf("%s %s: %s %q, want skipped %q", c.report, c.name, k.Outcome, k.Message, c.want)
				}
			}
		}
		if !found {
			t.Errorf("%s: no case %s", c.report, c.name)
		}
	}
}

// TestReportsCombine: a matrix's reports combine, a test counting as run
// when any of them ran it.
func TestReportsCombine(t *testing.T) {
	dir := t.TempDir()
	linux := `<testsuite name="pytest"><testcase classname="tests.test_os" name="test_posix"/><testcase classname="tests.test_os" name="test_win"><skipped message="windows only"/></testcase></testsuite>`
	windows := `<testsuite name="pytest"><testcase classname="tests.test_os" name="test_posix"><skipped message="posix only"/></testcase><testcase classname="tests.test_os" name="test_win"/></testsuite>`
	write(t, dir, "linux/report.xml", linux)
	write(t, dir, "windows/report.xml", windows)
	tests := []Test{{Language: "python", Path: "tests/test_os.py", Name: "test_posix"}, {Language: "python", Path: "tests/test_os.py", Name: "test_win"}}
	s, err := Load([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if v := Match(tests, s); !v.OK() || v.Ran != 2 {
		t.Errorf("both jobs: %+v", v)
	}
	s, err = Load([]string{filepath.Join(dir, "linux", "*.xml")})
	if err != nil {
		t.Fatal(err)
	}
	if v := Match(tests, s); v.OK() || len(v.Lost) != 1 || v.Lost[0].Name != "test_win" || v.Lost[0].Cause != CauseSkipped || v.Lost[0].Message != "windows only" {
		t.Errorf("one job: %+v", v)
	}
}

// TestReportErrors: what cannot be read is an error naming the file, and
// where in it.
func TestReportErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, content, want string }{
		{"empty.xml", "", "empty.xml: the report is empty"},
		{"none.xml", `<testsuites></testsuites>`, "none.xml: the report is empty"},
		{"none.json", "\n\n", "none.json: the report is empty"},
		{"nopkg.json", `{"Action":"output","Output":"no Go files\n"}`, "nopkg.json: the report is empty"},
		{"html.xml", "<html><body/></html>", "html.xml:1:7: an XML document whose root is <html>"},
		{"text.json", "ok  \texample.com/m\t0.1s\n", "text.json:1:1: not a JUnit XML report nor go test -json output"},
		{"bad.json", "{\"Action\":\"run\",\"Test\":\"TestA\"}\n{\"Action\":\n", "bad.json:2:1: not a go test -json event"},
		{"cut.xml", "<testsuite>\n<testcase name=\"a\">\n", "cut.xml:3: unexpected EOF"},
		{"deep.xml", "<testsuite>" + strings.Repeat("<a>", MaxDepth) + strings.Repeat("</a>", MaxDepth) + "</testsuite>", "nested over 64 deep"},
		{"entity.xml", `<!DOCTYPE t [<!ENTITY a "aaaaaaaa">]><testsuite><testcase name="&a;"/></testsuite>`, "invalid character entity &a;"},
	} {
		p := write(t, dir, c.name, c.content)
		_, err := Load([]string{p})
		var re *Error
		if err == nil || !errors.As(err, &re) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an *Error with %q", c.name, err, c.want)
		}
	}
	if _, err := Load([]string{filepath.Join(dir, "nothing-*.xml")}); err == nil || !strings.Contains(err.Error(), "no file matches") {
		t.Errorf("a glob of nothing: %v", err)
	}
	if _, err := Load([]string{filepath.Join(dir, "missing.xml")}); err == nil {
		t.Error("a missing report read")
	}
}

// TestRanNothing: a report that ran no test, but says what it ran (a
// TestMain that exits before m.Run), reads, and every test is absent.
func TestRanNothing(t *testing.T) {
	s, err := Load([]string{write(t, t.TempDir(), "r.json", `{"Action":"start","Package":"example.com/m/calc"}
{"Action":"output","Package":"example.com/m/calc","Output":"ok  \texample.com/m/calc\t0.002s\n"}
{"Action":"pass","Package":"example.com/m/calc","Elapsed":0.002}
`)})
	if err != nil {
		t.Fatal(err)
	}
	v := Match([]Test{{Language: "go", Path: "calc/calc_test.go", Name: "TestAdd", Scope: "example.com/m/calc"}}, s)
	if len(v.Lost) != 1 || v.Lost[0].Cause != CauseAbsent {
		t.Errorf("%+v", v)
	}
}

// TestGoJSONUnfinished: a test that starts and never ends (os.Exit, a
// panic) ran; one that never starts is not in the report.
func TestGoJSONUnfinished(t *testing.T) {
	cs, err := Parse("r.json", []byte(`{"Action":"start","Package":"m"}
{"Action":"run","Package":"m","Test":"TestA"}
{"Action":"output","Package":"m","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"fail","Package":"m","Elapsed":0.1}
`))
	if err != nil || len(cs) != 1 || cs[0].Outcome != Failed || cs[0].Name != "TestA" {
		t.Errorf("%v %+v", err, cs)
	}
}

// TestImportPath maps a directory to its package's import path by the
// nearest go.mod.
func TestImportPath(t *testing.T) {
	mods := map[string]string{"": "example.com/m", "tools": "example.com/m/tools", "x/y": "other.org/y"}
	for dir, want := range map[string]string{"": "example.com/m", ".": "example.com/m", "calc": "example.com/m/calc", "tools/gen": "example.com/m/tools/gen", "x/y/z": "other.org/y/z", "x": "example.com/m/x"} {
		if got := ImportPath(mods, dir); got != want {
			t.Errorf("ImportPath(%q) = %q, want %q", dir, got, want)
		}
	}
	if got := ModulePath([]byte("// c\nmodule \"example.com/q\" // x\n\ngo 1.22\n")); got != "example.com/q" {
		t.Errorf("ModulePath = %q", got)
	}
}

// write writes a file below dir and returns its path.
func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestConditionExplainsOnlyASkip: a real condition the count sees
// (testing.Short()) explains the runner's skip of a test, never its
// absence from the report; a platform explains both.
func TestConditionExplainsOnlyASkip(t *testing.T) {
	tests := []Test{
		{Language: "go", Path: "a_test.go", Name: "TestShortSkipped", Scope: "m", Condition: "testing.Short()"},
		{Language: "go", Path: "a_test.go", Name: "TestShortAbsent", Scope: "m", Condition: "testing.Short()"},
		{Language: "go", Path: "a_test.go", Name: "TestPlainSkipped", Scope: "m"},
		{Language: "go", Path: "a_windows_test.go", Name: "TestWindowsAbsent", Scope: "m", Reason: "built for windows"},
	}
	s := &Set{Files: []string{"r.json"}, Cases: []Case{
		{Report: "r.json", Format: FormatGoJSON, Class: "m", Name: "TestShortSkipped", Outcome: Skipped},
		{Report: "r.json", Format: FormatGoJSON, Class: "m", Name: "TestPlainSkipped", Outcome: Skipped},
	}}
	v := Match(tests, s)
	got := map[string]string{}
	for _, f := range v.Lost {
		got[f.Name] = "lost " + f.Cause
	}
	for _, f := range v.Platform {
		got[f.Name] = "platform " + f.Cause
	}
	want := map[string]string{
		"TestShortSkipped":  "platform " + CausePlatform,
		"TestShortAbsent":   "lost " + CauseAbsent,
		"TestPlainSkipped":  "lost " + CauseSkipped,
		"TestWindowsAbsent": "platform " + CausePlatform,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
