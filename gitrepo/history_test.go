package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/internal/gittest"
)

func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := (Exec{}).Run(context.Background(), dir, nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// historyRepo builds a repository with a merge, so that a range has commits
// on two lines of history.
func historyRepo(t *testing.T, initArgs ...string) string {
	t.Helper()
	gittest.Isolate(t)
	dir := t.TempDir()
	gitT(t, dir, append([]string{"init", "-q", "-b", "main"}, initArgs...)...)
	gitT(t, dir, "commit", "-q", "--allow-empty", "-m", "root")
	gitT(t, dir, "tag", "root")
	gitT(t, dir, "checkout", "-q", "-b", "topic")
	gitT(t, dir, "commit", "-q", "--allow-empty", "-m", "topic one", "-m", "Body.\n\nSigned-off-by: Jane Doe <jane@example.com>")
	gitT(t, dir, "commit", "-q", "--allow-empty", "-m", "topic two")
	gitT(t, dir, "checkout", "-q", "main")
	gitT(t, dir, "commit", "-q", "--allow-empty", "-m", "main one")
	gitT(t, dir, "merge", "-q", "--no-ff", "-m", "merge topic", "topic")
	return dir
}

func hashes(cs []Commit) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Hash)
	}
	sort.Strings(out)
	return out
}

func revList(t *testing.T, dir, spec string) []string {
	out := strings.Fields(gitT(t, dir, "rev-list", spec))
	sort.Strings(out)
	return out
}

// TestRangeMatchesRevList checks both readers against git rev-list.
func TestRangeMatchesRevList(t *testing.T) {
	dir := historyRepo(t)
	ctx := context.Background()
	for _, spec := range []string{"HEAD", "root..HEAD", "root..topic", "topic..main", "main..topic", "HEAD~1..HEAD"} {
		want := revList(t, dir, spec)
		got, err := Range(ctx, dir, spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if g := hashes(got); strings.Join(g, " ") != strings.Join(want, " ") {
			t.Errorf("go-git %s: %v, want %v", spec, g, want)
		}
		cli, err := rangeCLI(ctx, &Git{Dir: dir}, spec)
		if err != nil {
			t.Fatalf("cli %s: %v", spec, err)
		}
		if g := hashes(cli); strings.Join(g, " ") != strings.Join(want, " ") {
			t.Errorf("cli %s: %v, want %v", spec, g, want)
		}
		byHash := map[string]Commit{}
		for _, c := range cli {
			byHash[c.Hash] = c
		}
		for _, c := range got {
			o := byHash[c.Hash]
			if string(o.Message) != string(c.Message) || o.Author != c.Author || o.Committer != c.Committer {
				t.Errorf("%s: go-git and cli disagree on %s:\n%+v\n%+v", spec, c.Hash, c, o)
			}
			if c.Author != "Jane Doe <jane@example.com>" || c.Committer != "Rob Roe <rob@example.com>" {
				t.Errorf("identities %q %q", c.Author, c.Committer)
			}
		}
	}
	got, _ := Range(ctx, dir, "root..HEAD")
	if first := strings.TrimSpace(string(got[0].Message)); first == "merge topic" {
		t.Errorf("range is not oldest first: %q", first)
	}
}

// TestRangeFallsBackToGit covers repositories go-git cannot read: SHA-256
// objects. A worktreeConfig extension, which go-git's PlainOpen refuses,
// must still be read in-process.
func TestRangeFallsBackToGit(t *testing.T) {
	for _, tc := range []struct {
		name   string
		init   []string
		config [][2]string
	}{
		{"sha256", []string{"--object-format=sha256"}, nil},
		{"worktreeConfig", nil, [][2]string{{"core.repositoryformatversion", "1"}, {"extensions.worktreeConfig", "true"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := historyRepo(t, tc.init...)
			for _, kv := range tc.config {
				gitT(t, dir, "config", kv[0], kv[1])
			}
			got, err := Range(context.Background(), dir, "root..HEAD")
			if err != nil {
				t.Fatal(err)
			}
			if g, want := hashes(got), revList(t, dir, "root..HEAD"); strings.Join(g, " ") != strings.Join(want, " ") {
				t.Fatalf("got %v, want %v", g, want)
			}
			var msgs []string
			for _, c := range got {
				msgs = append(msgs, strings.TrimSpace(string(c.Message)))
			}
			if !strings.Contains(strings.Join(msgs, "|"), "topic one\n\nBody.\n\nSigned-off-by: Jane Doe <jane@example.com>") {
				t.Errorf("messages %q", msgs)
			}
		})
	}
}

func TestRangeErrors(t *testing.T) {
	dir := historyRepo(t)
	for _, spec := range []string{"nosuch..HEAD", "HEAD..nosuch", "a...b"} {
		if _, err := Range(context.Background(), dir, spec); err == nil {
			t.Errorf("%s: no error", spec)
		}
	}
}

func TestFindRoot(t *testing.T) {
	dir := historyRepo(t)
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	root, err := FindRoot(context.Background(), sub)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(dir)
	if got, _ := filepath.EvalSymlinks(root); got != want {
		t.Errorf("root %q, want %q", got, want)
	}
	// A linked worktree has a .git file, not a directory.
	wt := filepath.Join(t.TempDir(), "wt")
	gitT(t, dir, "worktree", "add", "-q", wt, "topic")
	root, err = FindRoot(context.Background(), wt)
	if err != nil || root != wt {
		t.Errorf("worktree root %q, %v; want %q", root, err, wt)
	}
	if _, err := FindRoot(context.Background(), "/"); err != ErrNotRepository {
		t.Errorf("root of /: %v", err)
	}
}

func TestParseConfigZ(t *testing.T) {
	got := parseConfigZ([]byte("core.commentchar\n;\x00trailer.sign.key\nSigned-off-by: \x00trailer.flag\x00"))
	want := []ConfigEntry{{"core.commentchar", ";"}, {"trailer.sign.key", "Signed-off-by: "}, {"trailer.flag", ""}}
	if len(got) != len(want) {
		t.Fatalf("%v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestRangeShallow reads a shallow clone, whose oldest commits have parents
// that are not there.
func TestRangeShallow(t *testing.T) {
	dir := historyRepo(t)
	clone := filepath.Join(t.TempDir(), "shallow")
	gitT(t, dir, "clone", "-q", "--depth", "2", "file://"+dir, clone)
	got, err := Range(context.Background(), clone, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if g, want := hashes(got), revList(t, clone, "HEAD"); strings.Join(g, " ") != strings.Join(want, " ") {
		t.Fatalf("got %v, want %v", g, want)
	}
}
