package coverage

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gitsentinel/sentinel/internal/gittest"
	"github.com/gitsentinel/sentinel/languages"
)

// deepGoTest is a Go test file whose assertion nests its brackets past
// languages.MaxNesting.
func deepGoTest(name string) string {
	n := languages.MaxNesting + 1
	return "package a\nimport \"testing\"\nfunc " + name + "(t *testing.T) { assert.Equal(t, 1, " +
		strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + ") }\n"
}

// manyCPPTests is a C++ test file of n tests.
func manyCPPTests(n int) string {
	var b strings.Builder
	b.WriteString("#include <gtest/gtest.h>\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "TEST(Many, T%d) {}\n", i)
	}
	return b.String()
}

// TestRefusedFilesAreReported holds the count to the bounds of what one
// file may hold: a file nested too deep and one of too many tests are
// reported as not counted, each with its reason and what to do, rather
// than counted as empty or left to hang the count; the refusal is cached,
// so a second count reads neither again.
func TestRefusedFilesAreReported(t *testing.T) {
	if testing.Short() {
		t.Skip("counts a file of 100,001 tests")
	}
	gittest.Isolate(t)
	dir := t.TempDir()
	run(t, dir, nil, "init", "-q")
	write(t, dir, "a_test.go", twoTests)
	write(t, dir, "deep_test.go", deepGoTest("TestDeep"))
	write(t, dir, "many_test.cc", manyCPPTests(languages.MaxTests+1))
	run(t, dir, nil, "add", "-A")
	run(t, dir, nil, "commit", "-q", "-m", "files")

	want := map[string]string{
		"deep_test.go": "nested more than 4096 deep; move such data out of the test file",
		"many_test.cc": "more than 100000 tests in one file; split it into smaller files",
	}
	for _, mode := range []string{"cold", "warm"} {
		c := count(t, Options{Dir: dir, Mode: WorkTree, ParseTimeout: time.Hour})
		got := map[string]string{}
		for _, s := range c.Skipped {
			if !s.Content {
				t.Errorf("%s: %s is skipped for what it is, not for what it holds", mode, s.Path)
			}
			got[s.Path] = s.Reason
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: skipped %v, want %v", mode, got, want)
		}
		if total := c.Total(); total.Files != 1 || total.Tests != 2 {
			t.Errorf("%s: counted %+v, want a_test.go alone", mode, total)
		}
		if mode == "warm" && c.Parsed != 0 {
			t.Errorf("warm: parsed %d files, want the refusals read from the cache", c.Parsed)
		}
		var text strings.Builder
		if err := c.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		for p, reason := range want {
			if line := "skipped " + p + ": " + reason; !strings.Contains(text.String(), line) {
				t.Errorf("%s: the report lacks %q:\n%s", mode, line, text.String())
			}
		}
	}
}

// TestRefusedFileIsALoss holds the ratchet to a file that held tests and
// is now refused: its tests are lost, put down to the file and its reason,
// as for a file past the size limit.
func TestRefusedFileIsALoss(t *testing.T) {
	gittest.Isolate(t)
	dir := t.TempDir()
	run(t, dir, nil, "init", "-q")
	write(t, dir, "deep_test.go", "package a\nimport \"testing\"\nfunc TestDeep(t *testing.T) { t.Error(\"x\") }\n")
	run(t, dir, nil, "add", "-A")
	c := count(t, Options{Dir: dir, Mode: WorkTree})
	write(t, dir, BaselinePath, string(NewBaseline(c).Marshal()))
	run(t, dir, nil, "add", "-A")
	run(t, dir, nil, "commit", "-q", "-m", "tests")

	write(t, dir, "deep_test.go", deepGoTest("TestDeep"))
	res, err := Check(context.Background(), Options{Dir: dir, Mode: WorkTree})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range res.Drops {
		for _, u := range d.Uncounted {
			got = append(got, u.Sentence()+" "+strings.Join(u.Tests, ","))
		}
	}
	want := "deep_test.go is now refused (nested more than 4096 deep; move such data out of the test file), so its test is not counted TestDeep"
	if len(got) != 1 || got[0] != want {
		t.Errorf("uncounted: %q, want %q", got, want)
	}
}

// TestPythonCollectionRefused covers a module whose tests only the
// project's other modules make too many: each of 101 subclasses of a
// base of 1,000 tests, defined in another file, collects those tests,
// 101,000 in all. Counted alone the module holds none; collected with
// its project it is refused.
func TestPythonCollectionRefused(t *testing.T) {
	gittest.Isolate(t)
	dir := t.TempDir()
	run(t, dir, nil, "init", "-q")
	var base, subs strings.Builder
	base.WriteString("class Base:\n")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&base, "    def test_%d(self):\n        assert f()\n", i)
	}
	subs.WriteString("from base import Base\n")
	for i := 0; i < 101; i++ {
		fmt.Fprintf(&subs, "class TestSub%d(Base):\n    pass\n", i)
	}
	write(t, dir, "base.py", base.String())
	write(t, dir, "test_subs.py", subs.String())
	write(t, dir, "test_ok.py", "from base import Base\nclass TestOne(Base):\n    pass\n")
	run(t, dir, nil, "add", "-A")
	run(t, dir, nil, "commit", "-q", "-m", "files")
	c := count(t, Options{Dir: dir, Mode: WorkTree, ParseTimeout: time.Hour})
	var skipped []string
	for _, s := range c.Skipped {
		skipped = append(skipped, s.Path+": "+s.Reason)
	}
	want := "test_subs.py: more than 100000 tests in one file; split it into smaller files"
	if len(skipped) != 1 || skipped[0] != want {
		t.Errorf("skipped %q, want %q", skipped, want)
	}
	if total := c.Total(); total.Tests != 1000 {
		t.Errorf("counted %d tests, want test_ok.py's 1000", total.Tests)
	}
}
