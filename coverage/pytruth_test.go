package coverage

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
)

// pytestRun is what `pytest --collect-only -q -rs` says of a directory:
// the test names of each file (Class.test_x, parametrisation dropped), and
// the files it could not collect (an error) or skipped while collecting (a
// pytest.importorskip or a unittest.SkipTest of a dependency missing here).
type pytestRun struct {
	names     map[string]map[string]bool
	errors    map[string]bool
	skipped   map[string]bool
	collected int
	// conftestError is pytest's report of a conftest.py it could not
	// import; nothing was collected.
	conftestError string
}

var pytestSkipped = regexp.MustCompile(`^SKIPPED \[\d+\] ([^:]+\.py):`)

// pytestCollect runs pytest's collection in dir on args, writing no byte
// code and no cache.
func pytestCollect(t *testing.T, py, dir string, args ...string) *pytestRun {
	t.Helper()
	cmd := exec.Command(py, append([]string{"-m", "pytest", "--collect-only", "-q", "-rsE", "-p", "no:cacheprovider"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	// Exit 2 is a collection error in some file, 5 no test at all: the
	// listing is still there.
	r := &pytestRun{names: map[string]map[string]bool{}, errors: map[string]bool{}, skipped: map[string]bool{}}
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || (ee.ExitCode() != 2 && ee.ExitCode() != 5)) {
		// A conftest.py that imports what is not installed here (numpy's
		// needs hypothesis) stops pytest before it collects anything:
		// there is no truth to compare with.
		if _, after, found := strings.Cut(out.String(), "ImportError while loading conftest"); found && ee != nil && ee.ExitCode() == 4 {
			r.conftestError = strings.TrimSpace(after)
			return r
		}
		t.Fatalf("pytest in %s: %v\n%s", dir, err, out.String())
	}
	sc := bufio.NewScanner(&out)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := pytestSkipped.FindStringSubmatch(line); m != nil {
			r.skipped[m[1]] = true
			continue
		}
		if rest, ok := strings.CutPrefix(line, "ERROR "); ok {
			file, _, _ := strings.Cut(strings.Fields(rest + " ")[0], "::")
			r.errors[file] = true
			continue
		}
		file, node, ok := strings.Cut(line, "::")
		if !ok || strings.Contains(file, " ") || !strings.HasSuffix(file, ".py") {
			continue
		}
		if i := strings.IndexByte(node, '['); i >= 0 {
			node = node[:i]
		}
		if r.names[file] == nil {
			r.names[file] = map[string]bool{}
		}
		r.names[file][strings.ReplaceAll(node, "::", ".")] = true
		r.collected++
	}
	return r
}

// sentinelNames counts dir as plain files: the test names of each Python
// file, by its path below dir with prefix before it.
func sentinelNames(t *testing.T, dir, prefix string) map[string]map[string]bool {
	t.Helper()
	c, err := Count(context.Background(), Options{Mode: Plain, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]bool{}
	for _, f := range c.Files {
		if f.Language != "python" || len(f.Tests) == 0 {
			continue
		}
		names := map[string]bool{}
		for _, tt := range f.Tests {
			names[tt.Name] = true
		}
		out[prefix+f.Path] = names
	}
	return out
}

// pyComparison is how sentinel's names compare with pytest's, by file.
type pyComparison struct {
	files, same, runner, sentinel int
	differ                        map[string]string
}

func comparePython(run *pytestRun, got map[string]map[string]bool) pyComparison {
	c := pyComparison{differ: map[string]string{}}
	files := map[string]bool{}
	for f := range run.names {
		files[f] = true
	}
	for f := range got {
		files[f] = true
	}
	for f := range files {
		if run.errors[f] || run.skipped[f] {
			continue // pytest could not say, on this machine
		}
		c.files++
		c.runner += len(run.names[f])
		c.sentinel += len(got[f])
		if reflect.DeepEqual(run.names[f], got[f]) || len(run.names[f])+len(got[f]) == 0 {
			c.same++
			continue
		}
		c.differ[f] = "only pytest: " + strings.Join(setDiff(run.names[f], got[f]), ", ") +
			"; only sentinel: " + strings.Join(setDiff(got[f], run.names[f]), ", ")
	}
	return c
}

func setDiff(a, b map[string]bool) []string {
	var out []string
	for k := range a {
		if !b[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	if len(out) > 8 {
		out = append(out[:8], "…")
	}
	return out
}

// pyImportable reports whether py can import the module.
func pyImportable(py, module string) bool {
	return exec.Command(py, "-c", "import "+module).Run() == nil
}

// TestPythonMatchesPytest compares, file by file, the tests sentinel
// counts in fixtures/accuracy/python with what pytest collects there:
// modules of NetworkX, Tornado and pyflakes as Debian packages them, each
// project with a pytest configuration of its own, collected against the
// package installed (python3-networkx, python3-tornado, python3-pyflakes).
func TestPythonMatchesPytest(t *testing.T) {
	t.Parallel()
	py := pytestPython()
	if py == "" {
		t.Skip("pytest is not installed")
	}
	root, _ := filepath.Abs(filepath.Join("..", "fixtures", "accuracy", "python"))
	for _, project := range []string{"networkx", "tornado", "pyflakes"} {
		t.Run(project, func(t *testing.T) {
			if !pyImportable(py, project) {
				t.Skipf("%s is not installed (Debian's python3-%s)", project, project)
			}
			dir := filepath.Join(root, project)
			run := pytestCollect(t, py, dir)
			c := comparePython(run, sentinelNames(t, dir, ""))
			for f, d := range c.differ {
				t.Errorf("%s: %s", f, d)
			}
			if c.files < 3 || run.collected < 100 || len(run.errors)+len(run.skipped) > 0 {
				t.Errorf("pytest collected %d tests in %d files, with errors in %v and skips in %v", run.collected, c.files, run.errors, run.skipped)
			}
			t.Logf("%s: %d of %d files identical; %d test names per pytest, %d per sentinel", project, c.same, c.files, c.runner, c.sentinel)
		})
	}
}

// pyMadeAtRunTime are the files of the packages below whose test classes
// or methods are made by code as the module loads (type(), setattr, exec,
// globals().update, a class per reactor or per CPU feature), which no
// reading of the source can list; and files whose tests pytest sees only
// on another platform, or with an environment variable or an optional
// package this machine lacks: sentinel counts those as active, as it
// counts a Go test for another platform.
// pyOnCondition starts the reason of a file whose tests are defined under
// a condition that does not hold here.
const pyOnCondition = "on condition: "

var pyMadeAtRunTime = map[string]string{
	"numpy/core/tests/test_simd.py":                   "a class per CPU feature, made with type()",
	"numpy/distutils/tests/test_ccompiler_opt.py":     "a class per architecture and compiler, made with type()",
	"psutil/tests/test_memleaks.py":                   "tests under `if WINDOWS:` in a class body",
	"pyfakefs/tests/performance_test.py":              "classes under `if os.environ.get('TEST_PERFORMANCE')`",
	"pyfakefs/tests/patched_packages_test.py":         "a test under `if xlrd is not None`",
	"twisted/conch/test/test_insults.py":              "methods made with exec()",
	"twisted/conch/test/test_scripts.py":              "methods made with setattr()",
	"twisted/scripts/test/test_scripts.py":            "methods made with setattr()",
	"twisted/test/test_adbapi.py":                     "classes made with type() per database",
	"twisted/internet/test/test_core.py":              "a class per reactor: globals().update(makeTestCaseClasses())",
	"twisted/internet/test/test_fdset.py":             "a class per reactor",
	"twisted/internet/test/test_newtls.py":            "a class per reactor",
	"twisted/internet/test/test_process.py":           "a class per reactor",
	"twisted/internet/test/test_socket.py":            "a class per reactor",
	"twisted/internet/test/test_stdio.py":             "a class per reactor",
	"twisted/internet/test/test_tcp.py":               "a class per reactor",
	"twisted/internet/test/test_threads.py":           "a class per reactor",
	"twisted/internet/test/test_time.py":              "a class per reactor",
	"twisted/internet/test/test_tls.py":               "a class per reactor",
	"twisted/internet/test/test_udp.py":               "a class per reactor",
	"twisted/internet/test/test_unix.py":              "a class per reactor",
	"twisted/internet/test/test_win32events.py":       "a class per reactor",
	"zope/interface/common/tests/test_builtins.py":    "methods made per interface at import",
	"zope/interface/common/tests/test_collections.py": "methods made per interface at import",
	"zope/interface/common/tests/test_io.py":          "methods made per interface at import",
	"zope/interface/common/tests/test_numbers.py":     "methods made per interface at import",
}

// TestPythonMatchesPytestOnPackages compares sentinel with pytest on the
// whole test suites that Debian's Python packages install with them, for
// each one installed here (.ci/run installs them): every file must match
// but those whose tests only exist at run time.
func TestPythonMatchesPytestOnPackages(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("collects whole test suites")
	}
	py := pytestPython()
	if py == "" {
		t.Skip("pytest is not installed")
	}
	// pytest uses one core: the packages are collected side by side, and
	// the figures added up once all are done.
	var mu sync.Mutex
	total := pyComparison{}
	made, onCondition := 0, 0
	t.Run("packages", func(t *testing.T) {
		for _, pkg := range []string{"networkx", "tornado", "pyflakes", "jsonschema", "toolz", "psutil", "simplejson",
			"pyfakefs", "fixtures", "ecdsa", "testtools", "twisted", "numpy", "zope.interface"} {
			t.Run(pkg, func(t *testing.T) {
				t.Parallel()
				out, err := exec.Command(py, "-c", "import os, "+pkg+"; print(os.path.dirname("+pkg+".__file__))").Output()
				if err != nil {
					t.Logf("%s: not installed", pkg)
					return
				}
				dir := strings.TrimSpace(string(out))
				top := dir
				for range strings.Split(pkg, ".") {
					top = filepath.Dir(top)
				}
				rel, _ := filepath.Rel(top, dir)
				rel = filepath.ToSlash(rel)
				// pytest from the directory above the package, as Python
				// imports it: the package is the one installed, its
				// conftest.py included.
				run := pytestCollect(t, py, top, "--rootdir", top, rel)
				if run.conftestError != "" {
					t.Logf("%s: skipped, pytest cannot load its conftest.py here: %s", pkg, firstLine([]byte(run.conftestError)))
					return
				}
				c := comparePython(run, sentinelNames(t, dir, rel+"/"))
				n, conditional := 0, 0
				for f, d := range c.differ {
					switch why := pyMadeAtRunTime[f]; {
					case strings.HasPrefix(why, pyOnCondition):
						conditional++
					case why != "":
						n++
					default:
						t.Errorf("%s: %s", f, d)
					}
				}
				t.Logf("%s: %d of %d files identical (%d with tests made at run time); %d test names per pytest, %d per sentinel; %d files pytest could not collect here",
					pkg, c.same, c.files, n, c.runner, c.sentinel, len(run.errors)+len(run.skipped))
				mu.Lock()
				defer mu.Unlock()
				made += n
				onCondition += conditional
				total.files += c.files
				total.same += c.same
				total.runner += c.runner
				total.sentinel += c.sentinel
			})
		}
	})
	if total.files > 0 {
		t.Logf("in all: %d of %d files identical (%.1f%%); %d of the %d files whose tests exist before run time (%.1f%%), the other %d defining tests under a condition that does not hold here",
			total.same, total.files, 100*float64(total.same)/float64(total.files),
			total.same, total.files-made, 100*float64(total.same)/float64(total.files-made), onCondition)
	}
}
