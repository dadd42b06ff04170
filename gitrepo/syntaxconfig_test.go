package gitrepo

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/internal/gitconfig"
	"github.com/gitsentinel/sentinel/internal/gittest"
)

// configGen writes random configuration files that use every piece of
// git's syntax, and now and then break it.
type configGen struct {
	r *rand.Rand
	// bad is the chance, in percent, of a deliberate syntax error per line.
	bad int
}

func (g *configGen) pick(s ...string) string { return s[g.r.Intn(len(s))] }

func (g *configGen) chance(percent int) bool { return g.r.Intn(100) < percent }

func (g *configGen) randCase(s string) string {
	b := []byte(s)
	for i := range b {
		if g.chance(30) {
			if b[i] >= 'a' && b[i] <= 'z' {
				b[i] -= 'a' - 'A'
			}
		}
	}
	return string(b)
}

func (g *configGen) space() string {
	return g.pick("", "", " ", "\t", "  ", " \t ")
}

func (g *configGen) section() string {
	name := g.randCase(g.pick("trailer", "trailer", "trailer", "core", "core", "user", "trailer-x", "tr4iler"))
	switch g.r.Intn(6) {
	case 0, 1:
		return "[" + name + "]"
	case 2:
		// The legacy [section.sub] form: the subsection is lower-cased.
		return "[" + name + "." + g.randCase(g.pick("sign", "Fixes", "a.b", "x-1")) + "]"
	default:
		var sub strings.Builder
		for n := g.r.Intn(6); n >= 0; n-- {
			switch g.r.Intn(9) {
			case 0:
				sub.WriteString(`\"`)
			case 1:
				sub.WriteString(`\\`)
			case 2:
				sub.WriteString(`\` + g.pick("x", "n", "t", "]", "a"))
			case 3:
				sub.WriteString(g.pick(" ", "\t", "]", "[", "#", ";", "=", "."))
			case 4:
				sub.WriteString(g.pick("é", "日本"))
			default:
				sub.WriteString(g.randCase(g.pick("sign", "Fixes", "co-authored-by", "x", "Ack")))
			}
		}
		sep := g.pick(" ", " ", "\t", "  ")
		return "[" + name + sep + `"` + sub.String() + `"]`
	}
}

func (g *configGen) key() string {
	return g.randCase(g.pick("key", "ifexists", "ifmissing", "where", "separators", "command", "cmd",
		"commentchar", "commentstring", "commentChar", "k-1", "a", "x9"))
}

func (g *configGen) value() string {
	var v strings.Builder
	quoted := false
	for n := g.r.Intn(7); n > 0; n-- {
		switch g.r.Intn(14) {
		case 0:
			v.WriteString(`"`)
			quoted = !quoted
		case 1:
			v.WriteString(g.pick(`\n`, `\t`, `\b`, `\\`, `\"`))
		case 2:
			v.WriteString(g.pick(" ", "\t", "   ", " \t"))
		case 3:
			if !quoted {
				// A continuation line.
				v.WriteString("\\\n" + g.space())
			}
		case 4:
			v.WriteString(g.pick("#", ";", "; not a comment", " # nor this"))
		case 5:
			v.WriteString(g.pick("=", "[x]", "a=b", "Assisted-by:", "ünï"))
		default:
			v.WriteString(g.pick("v", "Signed-off-by", "end", "add", "doNothing", "after", ":", "#", "x y", "12"))
		}
	}
	if quoted {
		v.WriteString(`"`)
	}
	if g.chance(15) {
		v.WriteString(g.space() + g.pick("# comment", "; comment", "#", ";;x \\"))
	}
	return v.String()
}

func (g *configGen) broken() string {
	return g.pick(
		"key = \\q",
		"key = \"open",
		"ke_y = 1",
		"key ; comment",
		"key: v",
		"[trailer \"open",
		"[trailer\"x\"]",
		"[trailer \"x\" ]",
		"[trailer x]",
		"[]",
		"[tr_ailer]",
		"[trailer",
		"1key = v",
		"key = v\\",
		"= v",
		"[trailer \"a\\\n\"]",
	)
}

// file returns a whole random configuration file.
func (g *configGen) file() string {
	var b strings.Builder
	eol := "\n"
	if g.chance(10) {
		eol = "\r\n"
	}
	if g.chance(5) {
		b.WriteString("\xef\xbb\xbf")
	}
	for n := g.r.Intn(12); n >= 0; n-- {
		if g.chance(g.bad) {
			b.WriteString(g.space() + g.broken() + eol)
			continue
		}
		switch g.r.Intn(10) {
		case 0:
			b.WriteString(g.space() + g.pick("# a comment", "; another", "#", ";[trailer] key = no") + eol)
		case 1:
			b.WriteString(g.space() + eol)
		case 2, 3:
			b.WriteString(g.space() + g.section() + g.space())
			if g.chance(30) {
				b.WriteString(g.key() + g.space() + "=" + g.space() + g.value())
			} else if g.chance(10) {
				b.WriteString("# comment")
			}
			b.WriteString(eol)
		default:
			line := g.space() + g.key()
			switch g.r.Intn(8) {
			case 0:
				// A boolean with no value.
				line += g.pick("", " ", "\t")
			case 1:
				line += g.space() + "=" + g.space()
			default:
				line += g.space() + "=" + g.space() + g.value()
			}
			b.WriteString(line + eol)
		}
	}
	s := b.String()
	if g.chance(10) {
		s = strings.TrimSuffix(s, eol)
	}
	return s
}

// badLine is git's message for a syntax error.
var badLine = regexp.MustCompile(`bad config line (\d+) in file (.*)`)

// gitSyntaxConfig is what git config prints, or its error.
func gitSyntaxConfig(t *testing.T, dir string) ([]ConfigEntry, error) {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, ArgvConfigSyntax...)...).Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() != 1 {
		return nil, fmt.Errorf("%w: %s", err, ee.Stderr)
	}
	if errors.As(err, &ee) && ee.ExitCode() == 1 && len(ee.Stderr) == 0 {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return parseConfigZ(out), nil
}

// TestSyntaxConfigMatchesGit compares the in-process reading with git's
// over random configuration files in the repository, the global file and
// (a third of the cases) the system file.
func TestSyntaxConfigMatchesGit(t *testing.T) {
	gittest.Isolate(t)
	dir := t.TempDir()
	if err := exec.Command("git", "init", "-q", dir).Run(); err != nil {
		t.Fatal(err)
	}
	localPath := filepath.Join(dir, ".git", "config")
	head, err := os.ReadFile(localPath)
	if err != nil {
		t.Fatal(err)
	}
	globalPath := filepath.Join(t.TempDir(), "global")
	systemPath := filepath.Join(t.TempDir(), "system")
	t.Setenv("GIT_CONFIG_GLOBAL", globalPath)
	cases := 600
	if testing.Short() {
		cases = 100
	}
	g := &configGen{r: rand.New(rand.NewSource(20261201)), bad: 1}
	var agreed, refused, nonEmpty int
	for i := 0; i < cases; i++ {
		system := i%3 == 2
		if system {
			t.Setenv("GIT_CONFIG_SYSTEM", systemPath)
			os.Unsetenv("GIT_CONFIG_NOSYSTEM")
		} else {
			t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
		}
		files := map[string]string{localPath: string(head) + g.file(), globalPath: g.file()}
		if system {
			files[systemPath] = g.file()
		}
		for path, text := range files {
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, gitErr := gitSyntaxConfig(t, dir)
		got, err := SyntaxConfigInProcess(dir, os.LookupEnv)
		describe := func() string {
			var b strings.Builder
			for path, text := range files {
				fmt.Fprintf(&b, "--- %s\n%q\n", filepath.Base(path), text)
			}
			return b.String()
		}
		switch {
		case gitErr != nil && err == nil:
			t.Errorf("case %d: git refused (%v) but the reader read %q\n%s", i, gitErr, got, describe())
		case gitErr != nil:
			var se *gitconfig.SyntaxError
			if !errors.As(err, &se) || !errors.Is(err, gitconfig.ErrUnsupported) {
				t.Errorf("case %d: git refused, the reader's error is %v, want a syntax error", i, err)
			} else if m := badLine.FindStringSubmatch(gitErr.Error()); m == nil || m[1] != fmt.Sprint(se.Line) || !strings.HasSuffix(se.File, m[2]) {
				t.Errorf("case %d: git said %v, the reader %v\n%s", i, gitErr, err, describe())
			}
			refused++
		case err != nil:
			t.Errorf("case %d: git read %q, the reader failed: %v\n%s", i, want, err, describe())
		case !reflect.DeepEqual(got, want):
			t.Errorf("case %d:\n got %q\nwant %q\n%s", i, got, want, describe())
		default:
			agreed++
			if len(want) > 0 {
				nonEmpty++
			}
		}
	}
	t.Logf("%d cases: %d agreed (%d with entries), %d refused by both", cases, agreed, nonEmpty, refused)
	if refused == 0 || nonEmpty < cases/2 {
		t.Errorf("the generator is too tame: %d refused, %d with entries", refused, nonEmpty)
	}
}
