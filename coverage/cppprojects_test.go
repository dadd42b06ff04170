package coverage

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

// cppProjectCopy copies a pinned project of fixtures/accuracy/cpp into a
// temporary directory, moving the files of moves (from → to) on the way:
// a test file renamed so that no test name or directory covers it must
// still be counted, since the binary still runs it.
func cppProjectCopy(t *testing.T, name string, moves map[string]string) string {
	t.Helper()
	src, _ := filepath.Abs(filepath.Join("..", "fixtures", "accuracy", "cpp", name))
	dst := filepath.Join(t.TempDir(), name)
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if to, ok := moves[filepath.ToSlash(rel)]; ok {
			rel = filepath.FromSlash(to)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// cppCompile compiles sources to objects in parallel and links them.
func cppCompile(t *testing.T, gxx, bin string, flags, sources, libs []string) {
	t.Helper()
	cppLink(t, gxx, bin, cppObjects(t, gxx, bin, flags, sources), libs)
}

// cppObjects compiles sources in parallel to objects named prefix.NAME.o,
// and returns them in the order of sources.
func cppObjects(t *testing.T, gxx, prefix string, flags, sources []string) []string {
	t.Helper()
	var wg sync.WaitGroup
	objs := make([]string, len(sources))
	errs := make([]string, len(sources))
	sem := make(chan struct{}, 4)
	for i, s := range sources {
		objs[i] = prefix + "." + filepath.Base(s) + ".o"
		wg.Add(1)
		go func(i int, s string) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			args := append(append([]string{"-c"}, flags...), "-o", objs[i], s)
			if out, err := exec.Command(gxx, args...).CombinedOutput(); err != nil {
				errs[i] = string(out)
			}
		}(i, s)
	}
	wg.Wait()
	for i, e := range errs {
		if e != "" {
			t.Skipf("%s does not compile here (is the framework installed?):\n%s", sources[i], e)
		}
	}
	return objs
}

// cppLink links objects into bin.
func cppLink(t *testing.T, gxx, bin string, objs, libs []string) {
	t.Helper()
	args := append(append(append([]string{"-o", bin}, objs...), libs...), "-pthread")
	if out, err := exec.Command(gxx, args...).CombinedOutput(); err != nil {
		t.Skipf("%s does not link here: %v\n%s", bin, err, out)
	}
}

// gtestListed reads --gtest_list_tests: "Suite." lines, then indented test
// names. A parameterised or typed test is listed once per instance
// ("Prefix/Suite/0.Name/1"); sentinel counts its definition once, so the
// instance parts are taken off and the names made unique.
func gtestListed(out []byte) []string {
	seen := map[string]bool{}
	var names []string
	suite := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, "  #"); i >= 0 {
			line = line[:i] // "# GetParam() = …", "# TypeParam = …"
		}
		switch {
		case line == "" || strings.HasPrefix(line, "Running main()"):
		case !strings.HasPrefix(line, " "):
			suite = strings.TrimSuffix(line, ".")
			parts := strings.Split(suite, "/")
			if len(parts) > 1 && regexp.MustCompile(`^[0-9]+$`).MatchString(parts[len(parts)-1]) {
				parts = parts[:len(parts)-1] // a typed test's type index
			}
			suite = parts[len(parts)-1]
		default:
			name := strings.TrimSpace(line)
			if i := strings.Index(name, "/"); i >= 0 {
				name = name[:i] // a parameter's index
			}
			if n := suite + "." + name; !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	sort.Strings(names)
	return names
}

// TestCPPMatchesGoogleTestSamples builds each of GoogleTest's own samples
// (pinned in fixtures/accuracy/cpp/googletest-samples) into its binary and
// compares what --gtest_list_tests lists with what sentinel counts, with
// one test file renamed so that no test name covers it.
func TestCPPMatchesGoogleTestSamples(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("compiles GoogleTest binaries")
	}
	gxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("g++ is not installed")
	}
	dir := cppProjectCopy(t, "googletest-samples", map[string]string{"samples/sample1_unittest.cc": "samples/sample1_checks.cc"})
	samples := filepath.Join(dir, "samples")
	tests, _ := filepath.Glob(filepath.Join(samples, "sample*_*.cc"))
	// The code the samples test is compiled once, and every test file at
	// once; each binary links its test with that code.
	code := []string{filepath.Join(samples, "sample1.cc"), filepath.Join(samples, "sample2.cc"), filepath.Join(samples, "sample4.cc")}
	build := t.TempDir()
	objs := cppObjects(t, gxx, filepath.Join(build, "obj"), []string{"-std=c++17", "-I", samples}, append(code, tests...))
	codeObjs := objs[:len(code)]
	var want []string
	for i, test := range tests {
		src, err := os.ReadFile(test)
		if err != nil {
			t.Fatal(err)
		}
		libs := []string{"-lgtest"}
		if !bytes.Contains(src, []byte("int main(")) {
			libs = append([]string{"-lgtest_main"}, libs...)
		}
		bin := filepath.Join(build, strings.TrimSuffix(filepath.Base(test), ".cc"))
		cppLink(t, gxx, bin, append([]string{objs[len(code)+i]}, codeObjs...), libs)
		out, err := exec.Command(bin, "--gtest_list_tests").Output()
		if err != nil {
			t.Fatalf("%s --gtest_list_tests: %v", bin, err)
		}
		want = append(want, gtestListed(out)...)
	}
	sort.Strings(want)
	got := countedNames(t, dir, false)
	if len(want) < 30 || !reflect.DeepEqual(got, want) {
		t.Errorf("sentinel and GoogleTest differ\n got %d %q\nwant %d %q", len(got), got, len(want), want)
	}
	t.Logf("GoogleTest samples: %d tests listed, %d counted, over %d binaries", len(want), len(got), len(tests))
}

// TestCPPMatchesDoctestArgparse builds argparse's doctest suite (pinned in
// fixtures/accuracy/cpp/argparse) against the system's doctest and compares
// --list-test-cases with sentinel's names, with one test file moved out of
// test/ under a name without "test".
func TestCPPMatchesDoctestArgparse(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("compiles a doctest binary")
	}
	gxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("g++ is not installed")
	}
	if _, err := os.Stat("/usr/include/doctest/doctest.h"); err != nil {
		t.Skip("doctest is not installed (doctest-dev)")
	}
	dir := cppProjectCopy(t, "argparse", map[string]string{"test/test_get.cpp": "src/get_checks.cpp"})
	// The project bundles doctest as test/doctest.hpp; the system's is
	// used instead, so the pin holds only the project's own files.
	shim := t.TempDir()
	if err := os.WriteFile(filepath.Join(shim, "doctest.hpp"), []byte("#include <doctest/doctest.h>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Its CMakeLists.txt compiles main.cpp with doctest's main.
	main := filepath.Join(shim, "main_with_doctest.cpp")
	if err := os.WriteFile(main, []byte("#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN\n#include \""+filepath.Join(dir, "test", "main.cpp")+"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sources, _ := filepath.Glob(filepath.Join(dir, "test", "test_*.cpp"))
	sources = append(sources, filepath.Join(dir, "src", "get_checks.cpp"), main)
	bin := filepath.Join(t.TempDir(), "argparse_tests")
	cppCompile(t, gxx, bin, []string{"-std=c++17", "-I", filepath.Join(dir, "include"), "-I", shim, "-I", filepath.Join(dir, "test")}, sources, nil)
	out, err := exec.Command(bin, "--list-test-cases", "--no-version").Output()
	if err != nil {
		t.Fatalf("%s --list-test-cases: %v\n%s", bin, err, out)
	}
	var want []string
	templates := 0
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case line == "" || strings.HasPrefix(line, "[doctest]") || strings.HasPrefix(line, "====="):
		case cppTemplateInstance(line):
			// TEST_CASE_TEMPLATE's instances ("name<int>"): its type list
			// does not parse in this grammar, so sentinel does not count
			// them; the figure is reported, not hidden.
			templates++
		default:
			want = append(want, line)
		}
	}
	sort.Strings(want)
	// doctest leaves the tests it skips out of its list; sentinel counts
	// them as skipped.
	var got, missed []string
	for _, n := range countedNames(t, dir, true) {
		if name, ok := strings.CutSuffix(n, " active"); ok {
			got = append(got, name)
		}
	}
	sort.Strings(got) // "a active" and "a, b active" sort apart from "a" and "a, b"
	// Two test cases of test_scan.cpp sit between TEST_CASE_TEMPLATEs whose
	// type lists this grammar cannot parse, and are lost in the error
	// nodes: the known misses, kept apart so that any other difference
	// fails.
	for _, w := range want {
		if argparseMissed[w] {
			missed = append(missed, w)
		}
	}
	want = slices.DeleteFunc(want, func(w string) bool { return argparseMissed[w] })
	if len(want) < 150 || !reflect.DeepEqual(got, want) {
		t.Errorf("sentinel and doctest differ: %d counted, %d listed\n%s", len(got), len(want), nameDiff(got, want))
	}
	t.Logf("argparse: %d test cases listed besides %d template instances, %d counted, %d known misses", len(want)+len(missed), templates, len(got), len(missed))
}

// argparseMissed are the listed test cases sentinel does not find.
var argparseMissed = map[string]bool{
	"Parse multiple hex numbers without prefix":      true,
	"Test that scan also works with a custom action": true,
}

// cppTemplateInstance reports a doctest listing of a TEST_CASE_TEMPLATE's
// instance: the name with the type right after it ("name<int>"), where a
// name that ends in a metavar ("nargs(2) and metavar <x> <y>") has a space.
func cppTemplateInstance(name string) bool {
	if !strings.HasSuffix(name, ">") {
		return false
	}
	depth := 0
	for i := len(name) - 1; i >= 0; i-- {
		switch name[i] {
		case '>':
			depth++
		case '<':
			depth--
			if depth == 0 {
				return i > 0 && name[i-1] != ' '
			}
		}
	}
	return false
}

// nameDiff lists the names only one side has, with their multiplicity.
func nameDiff(got, want []string) string {
	n := map[string]int{}
	for _, g := range got {
		n[g]++
	}
	for _, w := range want {
		n[w]--
	}
	var b strings.Builder
	keys := make([]string, 0, len(n))
	for k := range n {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch {
		case n[k] > 0:
			b.WriteString("  counted, not listed: " + k + "\n")
		case n[k] < 0:
			b.WriteString("  listed, not counted: " + k + "\n")
		}
	}
	return b.String()
}
