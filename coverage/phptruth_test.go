package coverage

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestPHPMatchesPHPUnit compares sentinel's PHP test names with
// phpunit --list-tests on fixtures/accuracy/php, and their statuses with
// what PHPUnit reports when it runs them: a skipped or incomplete test is
// skipped.
func TestPHPMatchesPHPUnit(t *testing.T) {
	phpunit, err := exec.LookPath("phpunit")
	if err != nil {
		t.Skip("phpunit is not installed")
	}
	dir, _ := filepath.Abs(filepath.Join("..", "fixtures", "accuracy", "php"))
	file := filepath.Join(dir, "tests", "TruthTest.php")
	out, err := exec.Command(phpunit, "--list-tests", file).CombinedOutput()
	if err != nil {
		t.Skipf("phpunit did not run: %v\n%s", err, out)
	}
	var want []string
	for _, line := range strings.Split(string(out), "\n") {
		if name, ok := strings.CutPrefix(line, " - "); ok {
			want = append(want, strings.TrimSpace(name))
		}
	}
	// The projects in the other subdirectories have suites of their own
	// (TestPHPMatchesSuites).
	got := namesUnder(t, dir, "tests/", false)
	sort.Strings(want)
	if len(want) < 4 || !reflect.DeepEqual(got, want) {
		t.Errorf("sentinel and PHPUnit differ\n got %q\nwant %q", got, want)
	}

	log := filepath.Join(t.TempDir(), "junit.xml")
	cmd := exec.Command(phpunit, "--log-junit", log, file)
	cmd.Dir = t.TempDir()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("phpunit: %v\n%s", err, out)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var report struct {
		Cases []struct {
			Name    string    `xml:"name,attr"`
			Class   string    `xml:"class,attr"`
			Skipped *struct{} `xml:"skipped"`
		} `xml:"testsuite>testcase"`
	}
	if err := xml.Unmarshal(data, &report); err != nil {
		t.Fatal(err)
	}
	var wantStatus []string
	for _, c := range report.Cases {
		st := "active"
		if c.Skipped != nil {
			st = "skipped"
		}
		wantStatus = append(wantStatus, c.Class+"::"+c.Name+" "+st)
	}
	sort.Strings(wantStatus)
	gotStatus := namesUnder(t, dir, "tests/", true)
	if len(wantStatus) < 4 || !reflect.DeepEqual(gotStatus, wantStatus) {
		t.Errorf("sentinel and PHPUnit differ on statuses\n got %q\nwant %q", gotStatus, wantStatus)
	}
}
