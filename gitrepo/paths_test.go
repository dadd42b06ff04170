package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gitsentinel/sentinel/internal/gittest"
)

// TestAwkwardRepositoryPaths runs every rev-parse sentinel makes in
// repositories whose directories hold newlines, spaces, tabs, quotes and
// backslashes, from the root and from a subdirectory (where git prints the
// common dir as an absolute path), and in a linked worktree of such a
// repository.
func TestAwkwardRepositoryPaths(t *testing.T) {
	gittest.Isolate(t)
	ctx := context.Background()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"plain", "my repo", "new\nline", "ends\n", "tab\tq\"b\\", "two\n\nlines\n-- \nsha1"} {
		root := filepath.Join(base, name)
		if err := os.MkdirAll(filepath.Join(root, "sub\ndir"), 0o755); err != nil {
			t.Fatal(err)
		}
		gitT(t, root, "init", "-q", "-b", "main")
		gitT(t, root, "commit", "-q", "--allow-empty", "-m", "root")
		wt := filepath.Join(base, name+" wt\n")
		gitT(t, root, "worktree", "add", "-q", "--detach", wt)
		common := filepath.Join(root, ".git")
		for _, c := range []struct{ dir, root string }{
			{root, root}, {filepath.Join(root, "sub\ndir"), root}, {wt, wt},
		} {
			info, err := RepoInfo(ctx, c.dir)
			if err != nil {
				t.Fatalf("%q: RepoInfo: %v", c.dir, err)
			}
			if info.Root != c.root || info.CommonDir != common || info.ObjectFormat != "sha1" {
				t.Errorf("%q: RepoInfo = %q, %q, %q; want %q, %q, sha1", c.dir, info.Root, info.CommonDir, info.ObjectFormat, c.root, common)
			}
			top, err := (&Git{Dir: c.dir}).Toplevel(ctx)
			if err != nil || top != c.root {
				t.Errorf("%q: Toplevel = %q, %v", c.dir, top, err)
			}
			h, err := HooksDir(ctx, c.dir)
			if err != nil || h.Dir != filepath.Join(common, "hooks") {
				t.Errorf("%q: HooksDir = %+v, %v", c.dir, h, err)
			}
			commits, err := Range(ctx, c.dir, "HEAD")
			if err != nil || len(commits) != 1 {
				t.Errorf("%q: Range = %d commits, %v", c.dir, len(commits), err)
			}
		}
	}
}

// TestAwkwardFileNames lists the index and a tree whose file names hold
// newlines, tabs, quotes, backslashes and an escape sequence.
func TestAwkwardFileNames(t *testing.T) {
	gittest.Isolate(t)
	ctx := context.Background()
	dir := t.TempDir()
	gitT(t, dir, "init", "-q", "-b", "main")
	names := []string{"a\nb_test.go", "tab\t_test.go", `q"uote_test.go`, `back\slash_test.go`, "\x1b[31mred_test.go", " lead space"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitT(t, dir, "add", "-A")
	staged, ok := StagedFiles(ctx, dir)
	if ok {
		t.Errorf("StagedFiles on an unborn branch: %v, want not ok", staged)
	}
	gitT(t, dir, "commit", "-q", "-m", "names")
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	idx, err := IndexEntriesGit(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	info, err := RepoInfo(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	own, err := ReadIndex(info)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := TreeEntries(ctx, dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	for what, es := range map[string][]Entry{"index": idx, "index read in-process": own.Entries, "tree": tree} {
		if len(es) != len(names) {
			t.Errorf("%s: %d entries, want %d", what, len(es), len(names))
		}
		for _, e := range es {
			if !want[e.Path] {
				t.Errorf("%s: unexpected path %q", what, e.Path)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "a\nb_test.go"), []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	mod, err := ModifiedFiles(ctx, dir)
	if err != nil || len(mod) != 1 || !mod["a\nb_test.go"] {
		t.Errorf("ModifiedFiles = %v, %v", mod, err)
	}
	gitT(t, dir, "add", "-A")
	staged, ok = StagedFiles(ctx, dir)
	if !ok || len(staged) != 1 || !staged["a\nb_test.go"] {
		t.Errorf("StagedFiles = %v, %v", staged, ok)
	}
}
