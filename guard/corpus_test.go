package guard

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/guard/internal/guardtest"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

func readCorpus(t *testing.T, name string) [][2]string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "fixtures", "guard", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][2]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		verdict, cmd := "allow", line
		if name == "deny.txt" {
			var ok bool
			verdict, cmd, ok = strings.Cut(line, "\t")
			if !ok {
				t.Fatalf("%s: no verdict in %q", name, line)
			}
		}
		out = append(out, [2]string{verdict, strings.ReplaceAll(cmd, `\n`, "\n")})
	}
	return out
}

// TestCorpus checks the verdict on every command of fixtures/guard.
func TestCorpus(t *testing.T) {
	e := guardtest.CorpusEnv()
	total := 0
	for _, name := range []string{"deny.txt", "allow.txt"} {
		for _, c := range readCorpus(t, name) {
			total++
			d := EvaluateCommand(c[1], e, nil)
			if d.Verdict.String() != c[0] {
				t.Errorf("%s: %q: %s, want %s (%s)", name, c[1], d.Verdict, c[0], d.Reason())
			}
			if d.Verdict != verdict.Allow {
				if r := d.Reason(); r == "" || len(r) > 300 || strings.Contains(r, "\n") || !strings.Contains(r, "[") {
					t.Errorf("%q: the reason %q is not one line naming the rule", c[1], r)
				}
			}
		}
	}
	if total < 1600 {
		t.Errorf("the corpus holds %d commands, want at least 1600", total)
	}
}
