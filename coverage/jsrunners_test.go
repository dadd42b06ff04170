package coverage

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// jsRunnerProjects are the third-party projects pinned under
// fixtures/accuracy/javascript, each with the runner its package.json names.
var jsRunnerProjects = []struct{ name, runner string }{
	{"fast-json-stable-stringify", "tape"},
	{"fastify-error", "node:test"},
	{"minimist", "tape"},
	{"qs", "tape"},
	{"validator", "mocha"},
}

// TestJSMatchesRunners compares the test names sentinel counts in each
// pinned project, with the files chosen by the project's own package.json,
// with the names its runner lists: mocha's --dry-run JSON, the "# name"
// lines tape prints, the events node --test reports. A definition sentinel names with ${…} placeholders
// stands for each name the runner reports for it. The runners come from
// SENTINEL_MOCHA and SENTINEL_TAPE or PATH; a project whose runner is
// missing, or whose dependencies are not installed, is skipped.
func TestJSMatchesRunners(t *testing.T) {
	t.Parallel()
	for _, p := range jsRunnerProjects {
		t.Run(p.name, func(t *testing.T) {
			dir, _ := filepath.Abs(filepath.Join("..", "fixtures", "accuracy", "javascript", p.name))
			var want []string
			switch p.runner {
			case "mocha":
				want = mochaNames(t, dir)
			case "tape":
				want = tapeNames(t, dir)
			case "node:test":
				want = nodeTestNames(t, dir)
			}
			got := projectNames(t, dir)
			matched, missed, extra := matchNames(want, got)
			t.Logf("%s: runner %d, sentinel %d definitions, %d of the runner's names matched", p.name, len(want), len(got), matched)
			if len(want) < 10 || float64(matched) < 0.98*float64(len(want)) || len(extra) > 0 {
				t.Errorf("sentinel and %s differ\nmissed %q\nextra %q", p.runner, missed, extra)
			}
		})
	}
}

// projectNames counts the project as plain files and returns its test
// names, describes joined by spaces as mocha's fullTitle joins them.
func projectNames(t *testing.T, dir string) []string {
	t.Helper()
	c, err := Count(context.Background(), Options{Mode: Plain, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range c.Files {
		for _, tt := range f.Tests {
			out = append(out, strings.ReplaceAll(tt.Name, " > ", " "))
		}
	}
	sort.Strings(out)
	return out
}

// matchNames pairs the runner's names with sentinel's: exactly, or by a
// name whose ${…} placeholders match any text. A placeholder name may stand
// for many of the runner's names; any other is matched once.
func matchNames(want, got []string) (matched int, missed, extra []string) {
	exact := map[string]int{}
	var patterns []*regexp.Regexp
	var used []bool
	for _, g := range got {
		if !strings.Contains(g, "${…}") {
			exact[g]++
			continue
		}
		parts := strings.Split(g, "${…}")
		for i := range parts {
			parts[i] = regexp.QuoteMeta(parts[i])
		}
		patterns = append(patterns, regexp.MustCompile("^(?s)"+strings.Join(parts, ".*")+"$"))
		used = append(used, false)
	}
next:
	for _, w := range want {
		if exact[w] > 0 {
			exact[w]--
			matched++
			continue
		}
		for i, re := range patterns {
			if re.MatchString(w) {
				used[i] = true
				matched++
				continue next
			}
		}
		missed = append(missed, w)
	}
	for g, n := range exact {
		for ; n > 0; n-- {
			extra = append(extra, g)
		}
	}
	for i, u := range used {
		if !u {
			extra = append(extra, patterns[i].String())
		}
	}
	sort.Strings(extra)
	return matched, missed, extra
}

// runnerPath finds a runner: named by the environment variable, or on PATH.
func runnerPath(t *testing.T, env, name string) string {
	t.Helper()
	if p := os.Getenv(env); p != "" {
		return p
	}
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed (set %s to its path)", name, env)
	}
	return p
}

// mochaNames lists what mocha would run, without running it (mocha ≥ 9).
func mochaNames(t *testing.T, dir string) []string {
	mocha := runnerPath(t, "SENTINEL_MOCHA", "mocha")
	cmd := exec.Command(mocha, "--dry-run", "--reporter", "json")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("mocha: %v\n%s", err, stderr.Bytes())
	}
	var report struct {
		Tests, Pending []struct {
			FullTitle string `json:"fullTitle"`
		}
	}
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("mocha's report: %v", err)
	}
	var names []string
	for _, tt := range report.Tests {
		names = append(names, tt.FullTitle)
	}
	sort.Strings(names)
	return names
}

// tapeNames runs the project's tests with tape, found beside the tape
// command (its node_modules is put on NODE_PATH), and reads the names of
// the tests and subtests it prints.
func tapeNames(t *testing.T, dir string) []string {
	tape := runnerPath(t, "SENTINEL_TAPE", "tape")
	real, err := filepath.EvalSymlinks(tape)
	if err != nil {
		t.Skipf("tape: %v", err)
	}
	// .../node_modules/tape/bin/tape: node_modules is three levels up.
	modules := filepath.Dir(filepath.Dir(filepath.Dir(real)))
	var files []string
	for _, g := range []string{"test/*.js", "test/*/*.js"} {
		m, _ := filepath.Glob(filepath.Join(dir, g))
		files = append(files, m...)
	}
	cmd := exec.Command("node", append([]string{real}, files...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	out, err := cmd.CombinedOutput()
	if bytes.Contains(out, []byte("Cannot find module")) {
		t.Skipf("the project's test dependencies are not installed beside tape:\n%s", firstLines(out, 5))
	}
	if err != nil {
		t.Fatalf("tape: %v\n%s", err, firstLines(out, 20))
	}
	var names []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "# "); ok && !tapeSummary.MatchString(name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// tapeSummary matches the lines of tape's closing summary.
var tapeSummary = regexp.MustCompile(`^(tests|pass|fail|skip|todo) +\d+$|^ok$`)

func firstLines(b []byte, n int) string {
	lines := strings.SplitN(string(b), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// topLevelNames is countedNames, with status, for the files directly in dir.
func topLevelNames(t *testing.T, dir string) []string {
	t.Helper()
	c, err := Count(context.Background(), Options{Mode: Plain, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range c.Files {
		if strings.Contains(f.Path, "/") {
			continue
		}
		for _, tt := range f.Tests {
			got = append(got, tt.Name+" "+string(tt.Status))
		}
	}
	sort.Strings(got)
	return got
}

// nodeTestReporter is a node:test reporter that prints each finished test
// or suite, with its depth, as a line of JSON. Children finish before
// their parent.
const nodeTestReporter = `export default async function * reporter (source) {
  for await (const ev of source) {
    if (ev.type === 'test:pass' || ev.type === 'test:fail') {
      const d = ev.data
      yield JSON.stringify({ name: d.name, nesting: d.nesting, suite: d.details?.type === 'suite' }) + '\n'
    }
  }
}
`

// nodeTestNames runs node --test in dir, which picks the files by its own
// default patterns, and names each test as sentinel does: under its
// describes (suites) joined by " ", a subtest (t.test) by its own name.
func nodeTestNames(t *testing.T, dir string) []string {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	reporter := filepath.Join(t.TempDir(), "reporter.mjs")
	if err := os.WriteFile(reporter, []byte(nodeTestReporter), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "--test", "--test-reporter="+reporter)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		t.Skipf("node --test with a custom reporter (node >= 19.6): %v", err)
	}
	// pending[n] holds the names finished at depth n whose parent has not
	// finished yet.
	pending := map[int][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var ev struct {
			Name    string
			Nesting int
			Suite   bool
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		children := pending[ev.Nesting+1]
		delete(pending, ev.Nesting+1)
		if ev.Suite {
			for i := range children {
				children[i] = ev.Name + " " + children[i]
			}
		} else {
			children = append(children, ev.Name)
		}
		pending[ev.Nesting] = append(pending[ev.Nesting], children...)
	}
	names := pending[0]
	sort.Strings(names)
	return names
}
