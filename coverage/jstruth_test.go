package coverage

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestJSMatchesJest compares sentinel's JavaScript test names and statuses
// with what Jest runs and skips in fixtures/accuracy/javascript, focused
// tests (.only, fit, fdescribe) included. It needs jest: on PATH, or named
// by SENTINEL_JEST.
func TestJSMatchesJest(t *testing.T) {
	jest := os.Getenv("SENTINEL_JEST")
	if jest == "" {
		var err error
		if jest, err = exec.LookPath("jest"); err != nil {
			t.Skip("jest is not installed (set SENTINEL_JEST to its path)")
		}
	}
	dir, _ := filepath.Abs(filepath.Join("..", "fixtures", "accuracy", "javascript"))
	out := filepath.Join(t.TempDir(), "jest.json")
	// The third-party projects in the subdirectories are not Jest's: only
	// the files directly in dir are its fixtures.
	cmd := exec.Command(jest, "--config", `{"rootDir": `+jsonString(dir)+`, "testPathIgnorePatterns": ["/node_modules/", "<rootDir>/[^/]+/"]}`,
		"--json", "--outputFile", out, "--ci")
	cmd.Dir = dir
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("jest: %v\n%s", err, msg)
	}
	// Jest runs these and reports them passed, yet they check nothing: one
	// returns first, the other hides its failure (test.failing). sentinel
	// counts them skipped by design.
	want := runnerNames(t, out, map[string]bool{"returns first": true, "hides a failure": true})
	// The projects in its subdirectories are run by their own runners
	// (TestJSMatchesRunners).
	got := topLevelNames(t, dir)
	// Jest names each row of test.each; sentinel counts the table once,
	// under its template.
	got = expandRows(got, "row %i active", "row 1 active", "row 2 active")
	sort.Strings(got)
	if len(want) < 10 || !reflect.DeepEqual(got, want) {
		t.Errorf("sentinel and Jest differ\n got %q\nwant %q", got, want)
	}
}

// TestJSMatchesVitest compares sentinel's JavaScript test names and
// statuses with what Vitest runs, skips and lists as todo in
// fixtures/accuracy/vitest: skipIf, runIf, the test context's skip, the
// skip and todo options. It needs vitest: on PATH, or named by
// SENTINEL_VITEST.
func TestJSMatchesVitest(t *testing.T) {
	vitest := os.Getenv("SENTINEL_VITEST")
	if vitest == "" {
		var err error
		if vitest, err = exec.LookPath("vitest"); err != nil {
			t.Skip("vitest is not installed (set SENTINEL_VITEST to its path)")
		}
	}
	dir, _ := filepath.Abs(filepath.Join("..", "fixtures", "accuracy", "vitest"))
	// Vitest keeps a cache under its root: run it on a copy.
	run := t.TempDir()
	src, err := os.ReadFile(filepath.Join(dir, "forms.test.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(run, "forms.test.mjs"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "vitest.json")
	cmd := exec.Command(vitest, "run", "--root", run, "--globals", "--reporter=json", "--outputFile="+out)
	cmd.Dir = run
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("vitest: %v\n%s", err, msg)
	}
	want := runnerNames(t, out, map[string]bool{"returns first": true, "hides a failure": true, "fails option": true})
	got := countedNames(t, dir, true)
	if len(want) < 10 || !reflect.DeepEqual(got, want) {
		t.Errorf("sentinel and Vitest differ\n got %q\nwant %q", got, want)
	}
}

// runnerNames reads a Jest-style JSON report (Jest's, Vitest's) into
// "outer > name status" lines, sorted: a test reported pending, skipped or
// todo is skipped, and so is one of checkNothing, which the runner reports
// passed although it checks nothing.
func runnerNames(t *testing.T, report string, checkNothing map[string]bool) []string {
	t.Helper()
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		TestResults []struct {
			AssertionResults []struct {
				AncestorTitles []string `json:"ancestorTitles"`
				Title          string   `json:"title"`
				Status         string   `json:"status"`
			} `json:"assertionResults"`
		} `json:"testResults"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, file := range r.TestResults {
		for _, a := range file.AssertionResults {
			status := "active"
			if a.Status == "pending" || a.Status == "todo" || a.Status == "skipped" || checkNothing[a.Title] {
				status = "skipped"
			}
			names = append(names, strings.Join(append(a.AncestorTitles, a.Title), " > ")+" "+status)
		}
	}
	sort.Strings(names)
	return names
}

func expandRows(names []string, template string, rows ...string) []string {
	var out []string
	for _, n := range names {
		if n == template {
			out = append(out, rows...)
			continue
		}
		out = append(out, n)
	}
	return out
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
