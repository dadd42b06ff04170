package gitconfig

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"
)

// samples cover each piece of the syntax once; they seed the fuzz test.
var samples = []string{
	"",
	"[trailer \"Sign\"]\n\tKey = Signed-off-by\n",
	"[Trailer.Sign]\nKEY=v\n",
	"[core]\n\tcommentChar = ;\n\tcommentString = \"// \"\n",
	"[trailer]\n\tseparators = \":#\"\n\twhere = after # comment\n\tifexists ; comment\n",
	"[trailer \"a\\\"b\\\\c\\x]\"]\n\tkey = \"  spaced  \"  tail  \n",
	"[a]\nb = one\\\n two\\\n\tthree\n",
	"[a]\nb = \\n\\t\\b\\\\\\\"\n",
	"[a]\nb\nc=\nd =  \n",
	"\xef\xbb\xbf[a]\r\nb = c\r\n",
	"[a] b = c ; d\n[e \"f\"] g",
	"[a]\nb = \"unterminated\n",
	"[a]\nb = \\q\n",
	"[a \"b\"x]\n",
	"[]\n",
	"[a\n",
	"key = toplevel\n",
	"[a]\n1 = x\n",
	"\xef\xbb[a]\n",
	"[a]\nb = x\r",
	"[a]\nb = \"x\\\ny\"\n",
	"[ \"x\"]\nk = v\n",
	"[a]\nb = \"\" c\n",
	"[a]\nb = #\\\nc = d\n",
}

// gitList is `git config -z --file path --list`, parsed; err is git's
// failure.
func gitList(t testing.TB, path string) ([]Entry, error) {
	out, err := exec.Command("git", "config", "-z", "--file", path, "--list").Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return nil, fmt.Errorf("%w: %s", err, ee.Stderr)
	}
	if err != nil {
		t.Fatal(err)
	}
	var entries []Entry
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		k, v, ok := bytes.Cut(rec, []byte{'\n'})
		entries = append(entries, Entry{Key: string(k), Value: string(v), Implicit: !ok})
	}
	return entries, nil
}

var badLine = regexp.MustCompile(`bad config line (\d+) in file`)

// compareWithGit parses data in-process and with git, and fails on any
// difference: entries, or refusal and the line git names.
func compareWithGit(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Parse(path, data)
	want, gitErr := gitList(t, path)
	var se *SyntaxError
	switch {
	case gitErr != nil && err == nil:
		t.Fatalf("%q: git refused (%v), Parse read %+v", data, gitErr, got)
	case gitErr == nil && err != nil:
		if errors.As(err, &se) && se.Msg == "NUL byte in configuration" {
			return
		}
		t.Fatalf("%q: git read %+v, Parse failed: %v", data, want, err)
	case gitErr != nil:
		if !errors.As(err, &se) {
			t.Fatalf("%q: error %v is not a *SyntaxError", data, err)
		}
		if bytes.IndexByte(data, 0) >= 0 {
			return
		}
		if m := badLine.FindStringSubmatch(gitErr.Error()); m == nil || m[1] != fmt.Sprint(se.Line) {
			t.Fatalf("%q: git said %v, Parse %v", data, gitErr, err)
		}
	case !reflect.DeepEqual(got, want):
		t.Fatalf("%q:\n got %+v\nwant %+v", data, got, want)
	}
}

func TestParseSamples(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	path := filepath.Join(t.TempDir(), "config")
	for _, s := range samples {
		compareWithGit(t, path, []byte(s))
	}
}

func TestParseEntries(t *testing.T) {
	got, err := Parse("f", []byte("[Trailer \"Sign\"]\n\tKey = \" a \"\\tb ; c\n[Core.X]\nflag\n"))
	want := []Entry{{Key: "trailer.Sign.key", Value: " a \tb"}, {Key: "core.x.flag", Implicit: true}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Parse = %+v, %v; want %+v", got, err, want)
	}
}

func TestParseErrorPosition(t *testing.T) {
	_, err := Parse("cfg", []byte("[a]\n\tb = \\q\n"))
	if err == nil || err.Error() != `cfg:2:7: unknown escape \q` {
		t.Fatalf("err = %v", err)
	}
}

// FuzzParse compares Parse with git's own reading of the same file: the
// same entries, or both refuse at the same line. Without git it checks
// only that Parse does not panic.
func FuzzParse(f *testing.F) {
	for _, s := range samples {
		f.Add([]byte(s))
	}
	_, noGit := exec.LookPath("git")
	f.Fuzz(func(t *testing.T, data []byte) {
		if noGit != nil {
			Parse("fuzz", data)
			return
		}
		compareWithGit(t, filepath.Join(t.TempDir(), "config"), data)
	})
}
