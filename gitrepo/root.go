package gitrepo

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// ArgvIsBare prints whether the repository is bare.
var ArgvIsBare = []string{"rev-parse", "--is-bare-repository"}

// ErrNotRepository is returned when a directory is not inside a git work tree.
var ErrNotRepository = errors.New("not inside a git work tree: cd into a repository, or create one with `git init`")

// ErrNoWorkTree is returned where a work tree is needed and the directory
// is in a bare repository, which has none.
var ErrNoWorkTree = errors.New("a bare repository has no work tree, and count, check, status and ci read one: here, `sentinel trailers check --range BASE..HEAD` checks attribution; a clone checks the rest (`git clone REPO work && cd work && sentinel ci --base BASE`)")

// FindRoot returns the root of the work tree that contains dir. It looks for
// ".git" upwards, which costs no process on the hot path of a hook, and asks
// git only when GIT_DIR or GIT_WORK_TREE redirect it.
func FindRoot(ctx context.Context, dir string) (string, error) {
	if wt := os.Getenv("GIT_WORK_TREE"); wt != "" {
		return filepath.Abs(wt)
	}
	if os.Getenv("GIT_DIR") != "" {
		top, err := (&Git{Dir: dir}).Toplevel(ctx)
		if err != nil || top == "" {
			return "", ErrNotRepository
		}
		return top, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			// Only on the way to an error: a bare repository deserves
			// its own answer.
			if out, err := (&Git{Dir: dir}).run(ctx, nil, ArgvIsBare); err == nil && strings.TrimSpace(string(out)) == "true" {
				return "", ErrNoWorkTree
			}
			return "", ErrNotRepository
		}
		d = parent
	}
}
