package coverage

import (
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

// TestRubyMatchesMinitest compares sentinel's Ruby tests with the list
// Minitest itself prints when it runs fixtures/accuracy/ruby/test/test_truth.rb.
func TestRubyMatchesMinitest(t *testing.T) {
	ruby, err := exec.LookPath("ruby")
	if err != nil {
		t.Skip("ruby is not installed")
	}
	dir, _ := filepath.Abs(filepath.Join("..", "fixtures", "accuracy", "ruby"))
	file := filepath.Join(dir, "test", "test_truth.rb")
	out, err := exec.Command(ruby, file, "-v", "--seed", "1").CombinedOutput()
	if err != nil && !strings.Contains(string(out), " = ") {
		t.Skipf("minitest did not run: %v\n%s", err, out)
	}
	want := minitestNames(out, true)
	// The projects in the other subdirectories have runners of their own
	// (TestRubyMatchesRunners).
	got := namesUnder(t, dir, "test/", true)
	if len(want) < 10 || !reflect.DeepEqual(got, want) {
		t.Errorf("sentinel and minitest differ\n got %q\nwant %q", got, want)
	}
}

// minitestNames reads the "Class#test_name = 0.00 s = ." lines Minitest's
// -v prints, with the status after a space when withStatus is set, sorted.
func minitestNames(out []byte, withStatus bool) []string {
	var names []string
	for _, line := range strings.Split(string(out), "\n") {
		name, rest, ok := strings.Cut(line, " = ")
		if !ok || !strings.Contains(name, "#") {
			continue
		}
		if withStatus {
			st := "active"
			if strings.HasSuffix(strings.TrimSpace(rest), "= S") {
				st = "skipped"
			}
			name += " " + st
		}
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// namesUnder is countedNames for the files whose path starts with prefix.
func namesUnder(t *testing.T, dir, prefix string, withStatus bool) []string {
	t.Helper()
	c, err := Count(context.Background(), Options{Mode: Plain, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range c.Files {
		if !strings.HasPrefix(f.Path, prefix) {
			continue
		}
		for _, tt := range f.Tests {
			if withStatus {
				got = append(got, tt.Name+" "+string(tt.Status))
			} else {
				got = append(got, tt.Name)
			}
		}
	}
	sort.Strings(got)
	return got
}

// rubyRunnerProjects are the projects under fixtures/accuracy/ruby, each
// with the runner that runs it: three with RSpec (.rspec, default pattern),
// two through a Rakefile's Rake::TestTask.
// known are the differences each has, by name, with their cause.
var rubyRunnerProjects = []struct {
	name, runner string
	known        map[string]string
}{
	{"tty-which", "rspec", map[string]string{
		`spec/unit/which_spec.rb: handles path with executable file C:\\Program Files\\Git\\bin\\git`: "sentinel keeps a string's escapes as written",
		`spec/unit/which_spec.rb: handles path with executable file C:\Program Files\Git\bin\git`:     "RSpec names the example with the escapes read",
	}},
	{"tty-color", "rspec", nil},
	{"own-rspec", "rspec", nil},
	{"ostruct", "rake", map[string]string{
		"test/ostruct/test_ostruct.rb: TC_OpenStruct#test_performance_warning": "defined only under `if has_performance_warnings` (Ruby 3.3+); sentinel counts the definition",
	}},
	{"own-rake", "rake", nil},
}

// TestRubyMatchesRunners compares the files and tests sentinel counts in
// each project, through its runner selection, with what the runner itself
// runs: the examples of rspec --dry-run --format json, the tests rake test
// runs with -v. A test is its file and its own name (an RSpec example's
// description, a class and test method); a name sentinel keeps with #{…}
// stands for each the runner expands from it.
func TestRubyMatchesRunners(t *testing.T) {
	t.Parallel()
	for _, p := range rubyRunnerProjects {
		t.Run(p.name, func(t *testing.T) {
			dir, _ := filepath.Abs(filepath.Join("..", "fixtures", "accuracy", "ruby", p.name))
			var wantFiles, want []string
			switch p.runner {
			case "rspec":
				wantFiles, want = rspecExamples(t, dir)
			case "rake":
				wantFiles, want = rakeTests(t, dir)
			}
			gotFiles, got := rubyProjectTests(t, dir, p.runner == "rspec")
			if !reflect.DeepEqual(gotFiles, wantFiles) {
				t.Errorf("sentinel counts files %q, %s runs %q", gotFiles, p.runner, wantFiles)
			}
			matched, missed, extra := matchNames(want, got)
			missed, extra = withoutKnown(t, missed, p.known), withoutKnown(t, extra, p.known)
			t.Logf("%s: %s runs %d files, %d tests; sentinel counts %d files, %d definitions; %d of the runner's tests matched",
				p.name, p.runner, len(wantFiles), len(want), len(gotFiles), len(got), matched)
			if len(want) < 3 || len(missed) > 0 || len(extra) > 0 {
				t.Errorf("sentinel and %s differ\nmissed %q\nextra %q", p.runner, missed, extra)
			}
		})
	}
}

// withoutKnown leaves out of names the known differences, logging each.
func withoutKnown(t *testing.T, names []string, known map[string]string) []string {
	t.Helper()
	var out []string
	for _, n := range names {
		if cause, ok := known[n]; ok {
			t.Logf("known difference: %s (%s)", n, cause)
			continue
		}
		out = append(out, n)
	}
	return out
}

var rubyInterpolation = regexp.MustCompile(`#\{[^}]*\}`)

// rubyProjectTests counts the project as plain files and returns the files
// with tests and each test as "file: name": an RSpec example by its own
// description (the last part of its name) when lastPart is set.
func rubyProjectTests(t *testing.T, dir string, lastPart bool) (files, names []string) {
	t.Helper()
	c, err := Count(context.Background(), Options{Mode: Plain, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range c.Files {
		if len(f.Tests) == 0 {
			continue
		}
		files = append(files, f.Path)
		for _, tt := range f.Tests {
			name := tt.Name
			if i := strings.LastIndex(name, " > "); lastPart && i >= 0 {
				name = name[i+3:]
			}
			names = append(names, f.Path+": "+rubyInterpolation.ReplaceAllString(name, "${…}"))
		}
	}
	sort.Strings(files)
	sort.Strings(names)
	return files, names
}

// rspecExamples asks RSpec which examples `rspec` would run in dir.
func rspecExamples(t *testing.T, dir string) (files, names []string) {
	t.Helper()
	rspec, err := exec.LookPath("rspec")
	if err != nil {
		t.Skip("rspec is not installed")
	}
	cmd := exec.Command(rspec, "--dry-run", "--format", "json")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("rspec did not run: %v", err)
	}
	var report struct {
		Examples []struct {
			Description string `json:"description"`
			FilePath    string `json:"file_path"`
		} `json:"examples"`
	}
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("rspec's report: %v", err)
	}
	seen := map[string]bool{}
	for _, e := range report.Examples {
		f := strings.TrimPrefix(e.FilePath, "./")
		if !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
		names = append(names, f+": "+e.Description)
	}
	sort.Strings(files)
	sort.Strings(names)
	return files, names
}

// rakeTests runs `rake test TESTOPTS=-v` in dir and reads the tests
// Minitest or test-unit report running, with the file each is defined in
// found by its method name. ostruct's test helper requires core_assertions
// (from Ruby's own test suite, not packaged): a stub module stands for it.
func rakeTests(t *testing.T, dir string) (files, names []string) {
	t.Helper()
	rake, err := exec.LookPath("rake")
	if err != nil {
		t.Skip("rake is not installed")
	}
	stub := t.TempDir()
	if err := os.WriteFile(filepath.Join(stub, "core_assertions.rb"),
		[]byte("module Test; module Unit; module CoreAssertions; end; end; end\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(rake, "test", "TESTOPTS=-v")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "RUBYLIB="+stub)
	// A failing test fails the task; the names are printed all the same.
	out, _ := cmd.CombinedOutput()
	var tests []string // Class#test_name
	tests = append(tests, minitestNames(out, false)...)
	// test-unit: "Class: " then "  test_name:\t\t." under it.
	class := ""
	for _, line := range strings.Split(string(out), "\n") {
		if m := testUnitClass.FindStringSubmatch(line); m != nil {
			class = m[1]
		} else if m := testUnitTest.FindStringSubmatch(line); m != nil && class != "" {
			tests = append(tests, class+"#"+m[1])
		}
	}
	if len(tests) == 0 {
		t.Skipf("rake test ran no tests:\n%s", firstLines(out, 20))
	}
	// The runner names a test, not its file: the files are those of the
	// Rakefile's test tasks, as Rake lists them, and a test's is the one
	// that defines its method.
	list := exec.Command("ruby", "-rrake", "-rrake/testtask", "-e",
		`Rake.application.init("rake", []); Rake.application.load_rakefile; ObjectSpace.each_object(Rake::TestTask) { |t| puts t.file_list }`)
	list.Dir = dir
	list.Env = cmd.Env
	lout, err := list.Output()
	if err != nil {
		t.Fatalf("listing the Rakefile's test files: %v", err)
	}
	loaded := map[string]string{}
	for _, f := range strings.Fields(string(lout)) {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		loaded[strings.TrimPrefix(f, "./")] = string(b)
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		_, method, _ := strings.Cut(tt, "#")
		file := "?"
		for f, src := range loaded {
			if strings.Contains(src, "def "+method+"\n") || strings.Contains(src, "def "+method+"(") || strings.Contains(src, "def "+method+";") {
				file = f
			}
		}
		if !seen[file] {
			seen[file] = true
			files = append(files, file)
		}
		names = append(names, file+": "+tt)
	}
	sort.Strings(files)
	sort.Strings(names)
	return files, names
}

var (
	testUnitClass = regexp.MustCompile(`^(\w[\w:]*): *$`)
	testUnitTest  = regexp.MustCompile(`^  (test_\w+[?!]?):\s`)
)
