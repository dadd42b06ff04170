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
	cmd := exec.Command(jest, "--config", `{"rootDir": `+jsonString(dir)+`}`, "--json", "--outputFile", out, "--ci")
	cmd.Dir = dir
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("jest: %v\n%s", err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var report struct {
		TestResults []struct {
			AssertionResults []struct {
				AncestorTitles []string `json:"ancestorTitles"`
				Title          string   `json:"title"`
				Status         string   `json:"status"`
			} `json:"assertionResults"`
		} `json:"testResults"`
	}
	if err := json.Unmarshal(data, &report); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, file := range report.TestResults {
		for _, a := range file.AssertionResults {
			status := "active"
			if a.Status == "pending" || a.Status == "todo" || a.Status == "skipped" {
				status = "skipped"
			}
			want = append(want, strings.Join(append(a.AncestorTitles, a.Title), " > ")+" "+status)
		}
	}
	sort.Strings(want)
	got := countedNames(t, dir, true)
	// Jest names each row of test.each; sentinel counts the table once,
	// under its template.
	got = expandRows(got, "row %i active", "row 1 active", "row 2 active")
	sort.Strings(got)
	if len(want) < 10 || !reflect.DeepEqual(got, want) {
		t.Errorf("sentinel and Jest differ\n got %q\nwant %q", got, want)
	}
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
