package coverage

import (
	"context"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// listed returns "path name status" for each test of a count, sorted, with
// " conditional" added to a conditional test.
func listed(c *Counts) []string {
	var out []string
	for _, f := range c.Files {
		for _, t := range f.Tests {
			s := f.Path + " " + t.Name + " " + string(t.Status)
			if t.Conditional != "" {
				s += " " + t.Conditional
			}
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

func writeAll(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		write(t, dir, name, content)
	}
}

// TestPythonCollection counts a project whose tests pytest finds through
// its configuration, its conftest.py files and bases in other modules.
func TestPythonCollection(t *testing.T) {
	dir := t.TempDir()
	writeAll(t, dir, map[string]string{
		// The project at the root: its own python_files and
		// python_classes, testpaths, an --ignore in addopts.
		"pytest.ini": "[pytest]\npython_files = check_*.py test_*.py\npython_classes = Check Test\n" +
			"testpaths = tests\naddopts = -ra --ignore=tests/legacy -p no:cacheprovider\n",
		"tests/__init__.py": "",
		"tests/base.py": "import unittest\nclass Base:\n    def test_inherited(self):\n        assert f()\n" +
			"class CaseBase(unittest.TestCase):\n    def test_case(self): pass\n",
		"tests/check_app.py": "from .base import Base\nfrom tests import base as b\n" +
			"class CheckApp(Base):\n    def test_own(self): pass\nclass Suite(b.CaseBase):\n    def testMore(self): pass\n" +
			"class Helper(Base):\n    pass\n",
		"tests/test_plain.py":       "def test_one(): pass\n",
		"tests/helpers.py":          "def test_not_collected():\n    assert f()\n",
		"tests/legacy/test_old.py":  "def test_old(): pass\n",
		"tests/build/test_built.py": "def test_built(): pass\n",
		"tests/conftest.py":         "collect_ignore = ['test_ignored.py']\ncollect_ignore_glob = ['*_py2.py']\n",
		"tests/test_ignored.py":     "def test_x(): pass\n",
		"tests/sub/test_x_py2.py":   "def test_y(): pass\n",
		"scripts/test_outside.py":   "def test_z(): pass\n",
		// A project of its own below: pytest run there reads its own
		// configuration, where a Test class is no test class.
		"sub/pyproject.toml":  "[tool.pytest.ini_options]\npython_classes = [\"Spec\"]\npython_functions = \"it_ test_\"\n",
		"sub/t/test_spec.py":  "import pytest\nnp = pytest.importorskip('numpy')\nclass SpecA:\n    def it_works(self): pass\n    def tester(self): pass\nclass TestB:\n    def test_b(self): pass\n",
		"sub/t/test_other.py": "def test_c():\n    pytest.importorskip('yaml')\n",
		// Tests defined, or a module skipped, under a run-time condition.
		"tests/test_platform.py": "import sys, unittest\nif sys.platform == 'win32':\n    def test_win(): pass\nelse:\n    class TestPosix:\n        def test_posix(self): pass\n" +
			"if sys.version_info < (3,):\n    def test_py2(): pass\n",
		"tests/test_optional.py": "import unittest\ntry:\n    import yaml\nexcept ImportError:\n    yaml = None\nif yaml is None:\n    raise unittest.SkipTest('no yaml')\ndef test_load(): pass\n",
		"other/pyproject.toml":   "[tool.black]\nline-length = 100\n",
		"other/test_o.py":        "def test_o(): pass\n",
	})
	c := count(t, Options{Mode: Plain, Dir: dir})
	want := []string{
		"sub/t/test_other.py test_c active importorskip",
		"sub/t/test_spec.py SpecA.it_works active importorskip",
		"tests/check_app.py CheckApp.test_inherited active",
		"tests/check_app.py CheckApp.test_own active",
		"tests/check_app.py Suite.testMore active",
		"tests/check_app.py Suite.test_case active",
		"tests/test_optional.py test_load active condition",
		"tests/test_plain.py test_one active",
		"tests/test_platform.py TestPosix.test_posix active condition",
		"tests/test_platform.py test_win active condition",
	}
	if got := listed(c); !reflect.DeepEqual(got, want) {
		t.Errorf("tests:\n got %q\nwant %q", got, want)
	}
	// The helper's assertion still counts; what pytest never reads does not.
	if got := c.Languages()["python"]; got.Assertions != 2 {
		t.Errorf("assertions %d, want 2 (the base's and the helper's)", got.Assertions)
	}
	for _, f := range c.Files {
		if f.Path == "tests/check_app.py" {
			for _, tt := range f.Tests {
				// A test defined in another file is listed at the class
				// that collects it.
				if tt.Name == "CheckApp.test_inherited" && (tt.Line != 3 || tt.Assertions != 1) {
					t.Errorf("%s: line %d, %d assertions; want the class's line 3 and the base's assertion", tt.Name, tt.Line, tt.Assertions)
				}
			}
		}
	}
}

// TestPythonConfigPrecedence follows pytest's order: in each directory
// from the file up, pytest.ini (even empty), then pyproject.toml with its
// table, tox.ini with [pytest], setup.cfg with [tool:pytest].
func TestPythonConfigPrecedence(t *testing.T) {
	const tests = "def test_a(): pass\ndef check_b(): pass\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"pytest.ini even empty", map[string]string{"pytest.ini": "", "tox.ini": "[pytest]\npython_functions = check_\n"}, "test_a"},
		{"pyproject without its table", map[string]string{"pyproject.toml": "[project]\nname = 'x'\n", "tox.ini": "[pytest]\npython_functions = check_\n"}, "check_b"},
		{"pyproject with its table", map[string]string{"pyproject.toml": "[tool.pytest.ini_options]\npython_functions = ['check_']\n", "setup.cfg": "[tool:pytest]\npython_functions = test\n"}, "check_b"},
		{"tox.ini before setup.cfg", map[string]string{"tox.ini": "[pytest]\npython_functions = check_\n", "setup.cfg": "[tool:pytest]\npython_functions = test\n"}, "check_b"},
		{"tox.ini without [pytest]", map[string]string{"tox.ini": "[tox]\nenvlist = py3\n", "setup.cfg": "[tool:pytest]\npython_functions = check_\n"}, "check_b"},
		{"setup.cfg's [pytest] is not read", map[string]string{"setup.cfg": "[pytest]\npython_functions = check_\n"}, "test_a"},
		{"nearest directory first", map[string]string{"setup.cfg": "[tool:pytest]\npython_functions = test\n", "p/tox.ini": "[pytest]\npython_functions = check_\n"}, "check_b"},
		{"an unreadable file is passed over", map[string]string{"p/pyproject.toml": "[tool.pytest.ini_options\n", "tox.ini": "[pytest]\npython_functions = check_\n"}, "check_b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeAll(t, dir, tc.files)
			write(t, dir, "p/test_p.py", tests)
			var got []string
			for _, f := range count(t, Options{Mode: Plain, Dir: dir}).Files {
				for _, tt := range f.Tests {
					got = append(got, tt.Name)
				}
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("tests %q, want %s", got, tc.want)
			}
		})
	}
}

// TestPythonConfigFromTheSnapshot reads the configuration of the snapshot
// counted: a commit's, the index's, the work tree's.
func TestPythonConfigFromTheSnapshot(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "b/test_c.py", "class CheckC:\n    def test_c(self): pass\n")
	run(t, dir, nil, "add", "-A")
	run(t, dir, nil, "commit", "-q", "-m", "c")
	write(t, dir, "pytest.ini", "[pytest]\npython_classes = Check\n")
	names := func(c *Counts) string {
		var out []string
		for _, f := range c.Files {
			if f.Language == "python" {
				for _, tt := range f.Tests {
					out = append(out, tt.Name)
				}
			}
		}
		return strings.Join(out, " ")
	}
	if got := names(count(t, Options{Dir: dir, Mode: WorkTree})); got != "test_b" {
		t.Errorf("work tree: %q, want test_b (pytest.ini is not tracked)", got)
	}
	run(t, dir, nil, "add", "pytest.ini")
	if got := names(count(t, Options{Dir: dir, Mode: Index})); got != "test_b CheckC.test_c" {
		t.Errorf("index: %q", got)
	}
	if got := names(count(t, Options{Dir: dir, Mode: Rev, Rev: "HEAD"})); got != "test_b" {
		t.Errorf("HEAD: %q", got)
	}
	run(t, dir, nil, "commit", "-q", "-m", "config")
	write(t, dir, "pytest.ini", "[pytest]\npython_classes = Nothing\n")
	if got := names(count(t, Options{Dir: dir, Mode: Rev, Rev: "HEAD"})); got != "test_b CheckC.test_c" {
		t.Errorf("HEAD, with the work tree's configuration changed: %q", got)
	}
}

// TestPythonLossesSeeTheProject matches the tests of a changed file with
// its reference through the whole project: the configuration and the
// base classes of the reference commit, not of the file alone.
func TestPythonLossesSeeTheProject(t *testing.T) {
	dir := newRepo(t)
	writeAll(t, dir, map[string]string{
		"pytest.ini":       "[pytest]\npython_classes = Check\n",
		"t/__init__.py":    "",
		"t/base.py":        "class Base:\n    def test_inherited(self):\n        assert f()\n",
		"t/test_checks.py": "from t.base import Base\nclass CheckA(Base):\n    def test_a(self): pass\nclass TestNot:\n    def test_q(self): pass\n",
		BaselinePath:       "{\n  \"accepted\": [],\n  \"peaks\": {},\n  \"version\": 1\n}\n",
	})
	run(t, dir, nil, "add", "-A")
	run(t, dir, nil, "commit", "-q", "-m", "checks")
	losses := func() []string {
		t.Helper()
		r, err := Check(context.Background(), Options{Dir: dir, Mode: Index})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, l := range r.Losses {
			out = append(out, l.Name+" "+l.Cause)
		}
		return out
	}
	// An edit that keeps every test: TestNot is no test class here, so
	// its test is not lost, whatever pytest's defaults would say.
	write(t, dir, "t/test_checks.py", "from t.base import Base\nclass CheckA(Base):\n    def test_a(self): pass\n    def test_b(self): pass\n")
	run(t, dir, nil, "add", "-A")
	if got := losses(); len(got) != 0 {
		t.Errorf("losses %q, want none", got)
	}
	// A test inherited from an unchanged file is lost when the class no
	// longer inherits it.
	write(t, dir, "t/test_checks.py", "class CheckA:\n    def test_a(self): pass\n")
	run(t, dir, nil, "add", "-A")
	if got := losses(); !reflect.DeepEqual(got, []string{"CheckA.test_inherited missing"}) {
		t.Errorf("losses %q, want CheckA.test_inherited missing", got)
	}
	// So is it when the base, in a file of its own, loses it.
	run(t, dir, nil, "checkout", "-q", "HEAD", "--", "t/test_checks.py")
	write(t, dir, "t/base.py", "class Base:\n    def helper(self): pass\n")
	run(t, dir, nil, "add", "-A")
	if got := losses(); !reflect.DeepEqual(got, []string{"CheckA.test_inherited missing"}) {
		t.Errorf("losses %q, want CheckA.test_inherited missing, in the file that did not change", got)
	}
}

// TestPythonBasesAcrossFiles follows bases through the ways Python binds
// names: a package's __init__.py re-exporting a class, `import a.b` and
// `a.b.Base`, star imports (the later one winning), a src layout, and a
// base that is itself a TestCase through another module.
func TestPythonBasesAcrossFiles(t *testing.T) {
	dir := t.TempDir()
	writeAll(t, dir, map[string]string{
		"pytest.ini":              "[pytest]\npythonpath = src\n",
		"src/helpers/__init__.py": "from .cases import DbCase\n",
		"src/helpers/cases.py":    "from .root import RootCase\nclass DbCase(RootCase):\n    def test_db(self): pass\n",
		"src/helpers/root.py":     "import unittest as u\nclass RootCase(u.TestCase):\n    def setUp(self): pass\n",
		"src/helpers/mixins.py":   "class Mixin:\n    def test_mixed(self): pass\n",
		"tests/test_a.py":         "import helpers.mixins\nfrom helpers import DbCase\nclass Orders(DbCase):\n    def test_order(self): pass\nclass TestM(helpers.mixins.Mixin):\n    pass\n",
		"tests/star1.py":          "class TestStar:\n    def test_one(self): pass\n",
		"tests/star2.py":          "class TestStar:\n    def test_two(self): pass\n",
		"tests/test_star.py":      "from star1 import *\nfrom star2 import *\n",
	})
	want := []string{
		"tests/test_a.py DbCase.test_db active",
		"tests/test_a.py Orders.test_db active",
		"tests/test_a.py Orders.test_order active",
		"tests/test_a.py TestM.test_mixed active",
		"tests/test_star.py TestStar.test_two active",
	}
	if got := listed(count(t, Options{Mode: Plain, Dir: dir})); !reflect.DeepEqual(got, want) {
		t.Errorf("tests:\n got %q\nwant %q", got, want)
	}
}
