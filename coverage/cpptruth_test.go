package coverage

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
)

// TestCPPMatchesGoogleTest builds fixtures/accuracy/cpp with GoogleTest,
// runs it, and compares sentinel's test names and statuses with what the
// binary reports: run, skipped (GTEST_SKIP) or not run (DISABLED_).
func TestCPPMatchesGoogleTest(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("compiles a GoogleTest binary")
	}
	gxx, err := exec.LookPath("g++")
	if err != nil {
		t.Skip("g++ is not installed")
	}
	dir, _ := filepath.Abs(filepath.Join("..", "fixtures", "accuracy", "cpp"))
	bin := filepath.Join(t.TempDir(), "truth")
	out, err := exec.Command(gxx, "-std=c++17", "-o", bin, filepath.Join(dir, "truth_test.cc"), "-lgtest", "-lgtest_main", "-pthread").CombinedOutput()
	if err != nil {
		t.Skipf("GoogleTest is not installed (libgtest-dev): %v\n%s", err, out)
	}
	// Run it: GoogleTest reports each test it lists as run (COMPLETED or
	// SKIPPED) or not run (a DISABLED_ one).
	report := filepath.Join(t.TempDir(), "report.json")
	if out, err := exec.Command(bin, "--gtest_output=json:"+report).CombinedOutput(); err != nil {
		t.Fatalf("the GoogleTest binary failed: %v\n%s", err, out)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		TestSuites []struct {
			Name      string `json:"name"`
			TestSuite []struct {
				Name   string `json:"name"`
				Status string `json:"status"`
				Result string `json:"result"`
			} `json:"testsuite"`
		} `json:"testsuites"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, s := range r.TestSuites {
		for _, tc := range s.TestSuite {
			st := "active"
			if tc.Status == "NOTRUN" || tc.Result == "SKIPPED" {
				st = "skipped"
			}
			want = append(want, s.Name+"."+tc.Name+" "+st)
		}
	}
	got := countedNamesAt(t, dir, true, "truth_test.cc")
	sort.Strings(want)
	if len(want) < 8 || !reflect.DeepEqual(got, want) {
		t.Errorf("sentinel and GoogleTest differ\n got %q\nwant %q", got, want)
	}
}

// countedNamesAt is countedNames restricted to some paths of dir.
func countedNamesAt(t *testing.T, dir string, withStatus bool, paths ...string) []string {
	t.Helper()
	c, err := Count(context.Background(), Options{Mode: Plain, Dir: dir, Paths: paths})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range c.Files {
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
