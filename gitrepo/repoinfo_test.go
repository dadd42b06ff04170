package gitrepo

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gitsentinel/sentinel/internal/gitconfig"
	"github.com/gitsentinel/sentinel/internal/gittest"
)

// TestRepoInfoMatchesGit compares the in-process discovery with git
// rev-parse in every layout sentinel meets: where Discover answers, its
// answer must be git's; where it steps aside, RepoInfo must still give
// git's answer or git's error.
func TestRepoInfoMatchesGit(t *testing.T) {
	gittest.Isolate(t)
	ctx := context.Background()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(base, "main")
	gitT(t, base, "init", "-q", "-b", "main", main)
	if err := os.MkdirAll(filepath.Join(main, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	gitT(t, main, "commit", "-q", "--allow-empty", "-m", "root")
	wt := filepath.Join(base, "wt")
	gitT(t, main, "worktree", "add", "-q", "-b", "side", wt)
	if err := os.MkdirAll(filepath.Join(wt, "sub dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	sha256 := filepath.Join(base, "sha256")
	gitT(t, base, "init", "-q", "--object-format=sha256", sha256)
	bare := filepath.Join(base, "bare.git")
	gitT(t, base, "init", "-q", "--bare", bare)
	link := filepath.Join(base, "link")
	if err := os.Symlink(main, link); err != nil {
		t.Fatal(err)
	}
	moved := filepath.Join(base, "moved")
	gitT(t, base, "init", "-q", moved)
	gitT(t, moved, "config", "core.worktree", base)
	sm := filepath.Join(base, "withsub")
	gitT(t, base, "init", "-q", sm)
	gitT(t, sm, "-c", "protocol.file.allow=always", "submodule", "add", "-q", main, "mod")
	outside := filepath.Join(base, "plain")
	if err := os.Mkdir(outside, 0o755); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name, dir string
		inProcess bool
	}{
		{"root", main, true},
		{"subdirectory", filepath.Join(main, "a", "b"), true},
		{"linked worktree", wt, true},
		{"linked worktree subdirectory", filepath.Join(wt, "sub dir"), true},
		{"sha256", sha256, true},
		{"submodule", filepath.Join(sm, "mod"), false},
		{"bare", bare, false},
		{"inside the git dir", filepath.Join(main, ".git", "refs"), false},
		{"through a symbolic link", filepath.Join(link, "a"), false},
		{"core.worktree", moved, false},
		{"no repository", outside, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, derr := gitconfig.Discover(c.dir, os.LookupEnv)
			if c.inProcess != (derr == nil) {
				t.Fatalf("Discover: %v; want in-process %v", derr, c.inProcess)
			}
			if derr != nil && !errors.Is(derr, gitconfig.ErrUnsupported) {
				t.Fatalf("Discover: %v, not ErrUnsupported", derr)
			}
			want, wantErr := repoInfoGit(ctx, c.dir)
			got, err := RepoInfo(ctx, c.dir)
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("RepoInfo error %v; git's %v", err, wantErr)
			}
			if err != nil {
				return
			}
			// git prints a relative common dir from the root; both are
			// made absolute and compared as the same directory.
			for _, i := range []*Info{got, want} {
				if i.CommonDir, err = filepath.EvalSymlinks(i.CommonDir); err != nil {
					t.Fatal(err)
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("RepoInfo = %+v, git %+v", got, want)
			}
		})
	}
	t.Run("GIT_DIR", func(t *testing.T) {
		t.Setenv("GIT_DIR", filepath.Join(main, ".git"))
		if _, err := gitconfig.Discover(main, os.LookupEnv); !errors.Is(err, gitconfig.ErrUnsupported) {
			t.Fatalf("Discover with GIT_DIR: %v", err)
		}
	})
}
