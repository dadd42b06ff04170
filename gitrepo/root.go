package gitrepo

import (
	"context"
	"errors"
	"os"
	"path/filepath"
)

// ErrNotRepository is returned when a directory is not inside a git work tree.
var ErrNotRepository = errors.New("not inside a git work tree: cd into a repository, or create one with `git init`")

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
			return "", ErrNotRepository
		}
		d = parent
	}
}
