package coverage

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The runners' own verdicts on tests switched off in the ways sentinel
// reads (a skip under a constant condition, skipif(True), a non-strict
// xfail, a cfg that never holds), and on skips under real conditions,
// which must stay active. Two differences are by design, and the tests
// are named for them: a test that returns before doing anything
// ("Returns") passes in every runner, having run nothing, and sentinel
// counts it skipped; pytest reports a strict xfail and an
// expectedFailure as xfailed, and sentinel keeps them active, since an
// unexpected pass fails the run ("Strict").

const offGo = `package off

import (
	"runtime"
	"testing"
)

func TestIfTrue(t *testing.T) {
	if true {
		t.Skip("off")
	}
	t.Error("never")
}

func TestOneIsOne(t *testing.T) {
	if 1 == 1 {
		t.Skip()
	}
}

func TestNotFalse(t *testing.T) {
	if !false {
		t.Skip()
	}
}

func TestTrueOr(t *testing.T) {
	x := len(t.Name()) > 100
	if true || x {
		t.Skip()
	}
}

func TestElse(t *testing.T) {
	if "a" == "b" {
	} else {
		t.SkipNow()
	}
}

func TestReturns(t *testing.T) {
	return
	t.Error("never")
}

func TestIfTrueReturns(t *testing.T) {
	if true {
		return
	}
	t.Error("never")
}

func TestShort(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
}

func TestPlan9(t *testing.T) {
	if runtime.GOOS == "plan9" {
		t.Skip("not on plan9")
	}
}

func TestFalse(t *testing.T) {
	if false {
		t.Skip()
	}
}
`

const offPython = `import sys
import unittest

import pytest

HAS_NUMPY = True


@pytest.mark.skipif(True, reason="off")
def test_skipif_true():
    assert False


@pytest.mark.skipif(1, reason="off")
def test_skipif_one():
    assert False


@pytest.mark.skipif(reason="no condition")
def test_skipif_no_condition():
    assert False


@pytest.mark.skipif(sys.platform == "win32", reason="not on windows")
def test_skipif_platform():
    pass


@pytest.mark.skipif(not HAS_NUMPY, reason="needs numpy")
def test_skipif_numpy():
    pass


@pytest.mark.xfail
def test_xfail():
    assert False


@pytest.mark.xfail(reason="bug")
def test_xfail_passes():
    pass


@pytest.mark.xfail(strict=True)
def test_xfail_Strict():
    assert False


@pytest.mark.xfail(False, reason="never applies")
def test_xfail_false():
    pass


@pytest.mark.xfail(run=False)
def test_xfail_not_run():
    assert False


def test_if_true_skip():
    if True:
        pytest.skip("off")
    assert False


def test_skip_later():
    x = 1
    pytest.skip("off")


def test_xfail_call():
    pytest.xfail("off")


def test_Returns():
    return
    assert False


def test_if_false_skip():
    if False:
        pytest.skip()


class TestU(unittest.TestCase):
    @unittest.skipIf(True, "off")
    def test_skipif(self):
        self.fail()

    @unittest.skipUnless(False, "off")
    def test_skipunless(self):
        self.fail()

    @unittest.skipIf(sys.platform == "win32", "not on windows")
    def test_skipif_platform(self):
        pass

    @unittest.expectedFailure
    def test_expected_Strict(self):
        self.assertEqual(1, 2)

    def test_skiptest_if_true(self):
        if True:
            self.skipTest("off")
        self.fail()
`

const offRust = `pub fn add(a: i32, b: i32) -> i32 { a + b }

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real() { assert_eq!(add(1, 2), 3); }

    #[test]
    #[ignore]
    fn ignored() { assert_eq!(add(1, 2), 4); }

    #[test]
    #[allow(unreachable_code)]
    fn returns_first() {
        return;
        assert_eq!(add(1, 2), 4);
    }

    #[test]
    fn if_true_returns() {
        if true { return; }
        assert_eq!(add(1, 2), 4);
    }

    #[cfg(any())]
    #[test]
    fn cfg_any() { assert_eq!(add(1, 2), 4); }

    #[cfg(not(test))]
    #[test]
    fn cfg_not_test() { assert_eq!(add(1, 2), 4); }

    #[cfg(all(test, not(test)))]
    #[test]
    fn cfg_contradiction() { assert_eq!(add(1, 2), 4); }

    #[cfg(any(test, feature = "x"))]
    #[test]
    fn cfg_any_test() { assert_eq!(add(1, 2), 3); }

    #[cfg_attr(test, ignore)]
    #[test]
    fn cfg_attr_ignored() { assert_eq!(add(1, 2), 4); }

    #[cfg_attr(not(test), ignore)]
    #[test]
    fn cfg_attr_never() { assert_eq!(add(1, 2), 3); }

    #[cfg(any())]
    mod never {
        #[test]
        fn inside() { assert!(false); }
    }
}
`

// TestSwitchedOffMatchesRunners compares, test by test, sentinel's status
// with what go test, pytest and cargo test do with each test.
func TestSwitchedOffMatchesRunners(t *testing.T) {
	t.Parallel()
	t.Run("go", func(t *testing.T) {
		goBin, err := exec.LookPath("go")
		if err != nil {
			t.Skip("the Go toolchain is not installed")
		}
		dir := writeFiles(t, map[string]string{"go.mod": "module example.com/off\n\ngo 1.21\n", "off_test.go": offGo})
		cmd := exec.Command(goBin, "test", "-json", "-count=1", ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		out, _ := cmd.Output()
		runner := map[string]string{}
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			var ev struct{ Action, Test string }
			if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Test == "" {
				continue
			}
			switch ev.Action {
			case "skip":
				runner[ev.Test] = "skipped"
			case "pass", "fail":
				runner[ev.Test] = "active"
			}
		}
		compareRunner(t, dir, runner, "Returns", "")
	})
	t.Run("python", func(t *testing.T) {
		py := pytestPython()
		if py == "" {
			t.Skip("pytest is not installed")
		}
		dir := writeFiles(t, map[string]string{"test_off.py": offPython})
		cmd := exec.Command(py, "-m", "pytest", "-v", "-p", "no:cacheprovider", "test_off.py")
		cmd.Dir = dir
		out, _ := cmd.Output()
		runner := map[string]string{}
		line := regexp.MustCompile(`(?m)^test_off\.py::(\S+) (PASSED|FAILED|SKIPPED|XFAIL|XPASS)`)
		for _, m := range line.FindAllStringSubmatch(string(out), -1) {
			st := "active"
			if m[2] == "SKIPPED" || m[2] == "XFAIL" || m[2] == "XPASS" {
				st = "skipped"
			}
			runner[strings.ReplaceAll(m[1], "::", ".")] = st
		}
		compareRunner(t, dir, runner, "Returns", "Strict")
	})
	t.Run("rust", func(t *testing.T) {
		cargo, err := exec.LookPath("cargo")
		if err != nil {
			t.Skip("cargo is not installed")
		}
		dir := writeFiles(t, map[string]string{
			"Cargo.toml": "[package]\nname = \"off\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n",
			"src/lib.rs": offRust,
		})
		target := t.TempDir() // out of the counted tree
		list := func(extra ...string) []string {
			cmd := exec.Command(cargo, append([]string{"test", "--offline", "-q", "--lib", "--", "--list"}, extra...)...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "CARGO_TARGET_DIR="+target)
			out, err := cmd.Output()
			if err != nil {
				t.Skipf("cargo test cannot build here: %v", err)
			}
			var names []string
			for _, l := range strings.Split(string(out), "\n") {
				if name, ok := strings.CutSuffix(l, ": test"); ok {
					names = append(names, name)
				}
			}
			return names
		}
		runner := map[string]string{}
		for _, n := range list() {
			runner[n] = "active"
		}
		for _, n := range list("--ignored") {
			runner[n] = "skipped"
		}
		// What cargo compiles no test of is left out of its list: off.
		c, err := Count(context.Background(), Options{Mode: Plain, Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range c.Files {
			for _, tt := range f.Tests {
				if _, listed := runner[tt.Name]; !listed {
					runner[tt.Name] = "skipped"
				}
			}
		}
		compareRunner(t, dir, runner, "returns", "")
	})
}

// compareRunner compares sentinel's statuses in dir with the runner's, by
// test name; a name holding returns is active for the runner and skipped
// for sentinel, one holding strict the other way round.
func compareRunner(t *testing.T, dir string, runner map[string]string, returns, strict string) {
	t.Helper()
	if len(runner) == 0 {
		t.Fatal("the runner reported no tests")
	}
	var got, want []string
	for _, n := range countedNames(t, dir, true) {
		name, st, _ := strings.Cut(n, " ")
		got = append(got, name+" "+st)
		w := runner[name]
		switch {
		case strings.Contains(name, returns) && w == "active":
			w = "skipped"
		case strict != "" && strings.Contains(name, strict) && w == "skipped":
			w = "active"
		}
		want = append(want, name+" "+w)
	}
	sort.Strings(want)
	if len(got) != len(runner) {
		t.Errorf("sentinel found %d tests, the runner %d: %v", len(got), len(runner), runner)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("statuses differ\nsentinel: %q\nrunner:   %q", got, want)
	}
}

// pytestPython returns a python3 that has pytest, or "".
func pytestPython() string {
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(py, "-m", "pytest", "--version").Run() == nil {
			return py
		}
	}
	return ""
}

// writeFiles writes the files into a new temporary directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
