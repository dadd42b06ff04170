package coverage

import (
	"os/exec"
	"path/filepath"
	"reflect"
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
	var want []string
	for _, line := range strings.Split(string(out), "\n") {
		// "Shop::TestCart#test_empty = 0.00 s = ."
		name, rest, ok := strings.Cut(line, " = ")
		if !ok || !strings.Contains(name, "#") {
			continue
		}
		st := "active"
		if strings.HasSuffix(strings.TrimSpace(rest), "= S") {
			st = "skipped"
		}
		want = append(want, name+" "+st)
	}
	got := countedNames(t, dir, true)
	sort.Strings(want)
	if len(want) < 10 || !reflect.DeepEqual(got, want) {
		t.Errorf("sentinel and minitest differ\n got %q\nwant %q", got, want)
	}
}
