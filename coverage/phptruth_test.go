package coverage

import (
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestPHPMatchesPHPUnit compares sentinel's PHP test names with
// phpunit --list-tests on fixtures/accuracy/php.
func TestPHPMatchesPHPUnit(t *testing.T) {
	phpunit, err := exec.LookPath("phpunit")
	if err != nil {
		t.Skip("phpunit is not installed")
	}
	dir, _ := filepath.Abs(filepath.Join("..", "fixtures", "accuracy", "php"))
	out, err := exec.Command(phpunit, "--list-tests", filepath.Join(dir, "tests", "TruthTest.php")).CombinedOutput()
	if err != nil {
		t.Skipf("phpunit did not run: %v\n%s", err, out)
	}
	var want []string
	for _, line := range strings.Split(string(out), "\n") {
		if name, ok := strings.CutPrefix(line, " - "); ok {
			want = append(want, strings.TrimSpace(name))
		}
	}
	got := countedNames(t, dir, false)
	sort.Strings(want)
	if len(want) < 4 || !reflect.DeepEqual(got, want) {
		t.Errorf("sentinel and PHPUnit differ\n got %q\nwant %q", got, want)
	}
}
