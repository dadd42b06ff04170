package quote

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/internal/gittest"
)

func TestPath(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a/b_test.go", "a/b_test.go"},
		{"with space.py", "with space.py"},
		{"tëst_ünïcode.py", "tëst_ünïcode.py"},
		{"\x1b[31mred_test.go", `"\033[31mred_test.go"`},
		{"a\nb", `"a\nb"`},
		{"tab\there", `"tab\there"`},
		{"cr\rbell\a\b\v\f", `"cr\rbell\a\b\v\f"`},
		{`q"uote`, `"q\"uote"`},
		{`back\slash`, `"back\\slash"`},
		{"del\x7f", `"del\177"`},
		{"nul\x00", `"nul\000"`},
		{"latin1-\xe9.py", `"latin1-\351.py"`},
		{"c1-\u0085", `"c1-\302\205"`},
		{"bidi-\u202eop.py", `"bidi-\342\200\256op.py"`},
		{"zw\u200bj", `"zw\342\200\213j"`},
		{"ls\u2028", `"ls\342\200\250"`},
		{"keep-\uFFFD", "keep-\uFFFD"},
		{"", ""},
	} {
		if got := Path(c.in); got != c.want {
			t.Errorf("Path(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"TestAdd", "TestAdd"},
		{`handles "quotes" and \ backslashes`, `handles "quotes" and \ backslashes`},
		{`""`, `""`},
		{"\x1b[31mred", `"\033[31mred"`},
		{"\x1b[2K\"x\\", `"\033[2K\"x\\"`},
		{"outer > ünïcode", "outer > ünïcode"},
	} {
		if got := Name(c.in); got != c.want {
			t.Errorf("Name(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestText(t *testing.T) {
	in := "read a\x1b[31m_test.go: failed\n\tsecond line \"kept\"\r"
	want := "read a\\033[31m_test.go: failed\n\tsecond line \"kept\"\\r"
	if got := Text(in); got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
	if got := Text("plain\nlines\n"); got != "plain\nlines\n" {
		t.Errorf("Text changed a safe message: %q", got)
	}
}

// TestMatchesGit checks Path against git's own quoting with core.quotePath
// off, for names whose only escapes git also makes, and that every quoted
// form reads back as the name with Go's unquoting of C escapes.
func TestMatchesGit(t *testing.T) {
	gittest.Isolate(t)
	dir := t.TempDir()
	names := []string{"plain_test.go", "\x1b[31mred_test.go", "new\nline", "tab\tname", `q"uote`, `back\slash`,
		"del\x7fx", "bell\a", "ünï code", "cr\rx", "\x01\x02\x1f"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	cmd := exec.Command("git", "-c", "core.quotePath=false", "ls-files")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, n := range names {
		got[Path(n)] = true
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		if !got[line] {
			t.Errorf("git prints %s; Path gives none such (%v)", line, got)
		}
	}
	for _, n := range names {
		q := Path(n)
		if !strings.HasPrefix(q, `"`) {
			continue
		}
		// Go's strconv reads \a \b \f \n \r \t \v \" \\ and \ooo as C does.
		back, err := strconv.Unquote(q)
		if err != nil || back != n {
			t.Errorf("%s reads back as %q (%v), want %q", q, back, err, n)
		}
	}
}
