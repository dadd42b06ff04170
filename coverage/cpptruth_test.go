package coverage

import (
	"context"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestCPPMatchesGoogleTest builds fixtures/accuracy/cpp with GoogleTest and
// compares sentinel's test names with what the binary lists itself.
func TestCPPMatchesGoogleTest(t *testing.T) {
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
	out, err = exec.Command(bin, "--gtest_list_tests").Output()
	if err != nil {
		t.Fatal(err)
	}
	// "Suite.\n  Name\n  Name\n"
	var want []string
	suite := ""
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case line == "":
		case !strings.HasPrefix(line, " "):
			suite = strings.TrimSpace(line)
		default:
			name := strings.Fields(line)[0]
			want = append(want, suite+name)
		}
	}
	c, err := Count(context.Background(), Options{Mode: Plain, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range c.Files {
		for _, tt := range f.Tests {
			got = append(got, tt.Name)
			if strings.Contains(tt.Name, "DISABLED_") != (tt.Status == "skipped") && !strings.Contains(tt.Name, "SkippedAtRuntime") {
				t.Errorf("%s: status %s", tt.Name, tt.Status)
			}
		}
	}
	sort.Strings(got)
	sort.Strings(want)
	if len(want) < 8 || !reflect.DeepEqual(got, want) {
		t.Errorf("sentinel and GoogleTest differ\n got %q\nwant %q", got, want)
	}
}
