package trailers

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/gittest"
)

// gitConfigs are the configurations the differential tests run under: each
// changes how git finds or prints trailers.
var gitConfigs = []struct {
	name string
	kv   [][2]string
}{
	{"default", nil},
	{"comment-semicolon", [][2]string{{"core.commentChar", ";"}}},
	{"separators-hash", [][2]string{{"trailer.separators", ":#"}}},
	{"alias", [][2]string{
		{"trailer.sign.key", "Signed-off-by"},
		{"trailer.fix.key", "Fixes: "},
		{"trailer.Assisted-by.ifexists", "addIfDifferent"},
		{"trailer.co-authored-by.where", "end"},
	}},
}

// isolateGit keeps the user's and the system's git configuration out of the
// tests, so that only the configuration a test sets applies.
func isolateGit(t testing.TB) { gittest.Isolate(t) }

// gitRepoWith makes a repository with the given configuration and returns
// its directory and the syntax sentinel reads from it through git.
func gitRepoWith(t testing.TB, kv [][2]string) (string, Syntax) {
	t.Helper()
	dir := t.TempDir()
	mustGit(t, dir, nil, "init", "-q")
	for _, p := range kv {
		mustGit(t, dir, nil, "config", p[0], p[1])
	}
	entries, err := (&gitrepo.Git{Dir: dir}).SyntaxConfig(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	syn, err := SyntaxFromConfig(entries)
	if err != nil {
		t.Fatal(err)
	}
	return dir, syn
}

func mustGit(t testing.TB, dir string, stdin []byte, args ...string) []byte {
	t.Helper()
	out, err := (gitrepo.Exec{}).Run(context.Background(), dir, stdin, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// errGitHung marks an input on which git does not terminate.
var errGitHung = errors.New("git did not finish")

// gitInterpret runs git interpret-trailers with args on msg. git 2.39 loops
// forever on some inputs (a scissors line below a "---" divider), so it
// runs under a deadline.
func gitInterpret(dir string, msg []byte, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := (gitrepo.Exec{}).Run(ctx, dir, msg, append([]string{"interpret-trailers"}, args...)...)
	if ctx.Err() != nil {
		return nil, errGitHung
	}
	return out, err
}

func corpus(t testing.TB) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "fixtures", "trailers", "messages", "*.msg"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 200 {
		t.Fatalf("corpus has %d messages, want at least 200", len(files))
	}
	m := make(map[string][]byte, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m[filepath.Base(f)] = b
	}
	return m
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestParseMatchesGit compares Parse and Format with `git interpret-trailers
// --parse` on every message of the corpus, under several configurations.
func TestParseMatchesGit(t *testing.T) {
	isolateGit(t)
	msgs := corpus(t)
	for _, cfg := range gitConfigs {
		t.Run(cfg.name, func(t *testing.T) {
			dir, syn := gitRepoWith(t, cfg.kv)
			compared := 0
			for _, name := range sortedKeys(msgs) {
				msg := msgs[name]
				want, err := gitInterpret(dir, msg, "--parse")
				if errors.Is(err, errGitHung) {
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got := syn.Format(syn.Parse(msg))
				if !bytes.Equal(got, want) {
					t.Errorf("%s: parse differs from git\n got: %q\nwant: %q", name, got, want)
				}
				compared++
			}
			if compared < 200 {
				t.Errorf("compared %d messages with git, want at least 200", compared)
			}
		})
	}
}
