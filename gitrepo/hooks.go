package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

var (
	// ArgvHooksDir prints whether the repository is bare, then where git
	// looks for hooks (core.hooksPath, worktrees and submodules honoured).
	ArgvHooksDir = []string{"rev-parse", "--is-bare-repository", "--git-path", "hooks"}
	// ArgvHooksPath reads core.hooksPath as configured.
	ArgvHooksPath = []string{"config", "--get", "core.hooksPath"}
	// ArgvConfigGet reads one key of the local configuration; the key is appended.
	ArgvConfigGet = []string{"config", "--local", "--get"}
	// ArgvConfigSet writes one key of the local configuration; the key and
	// value are appended.
	ArgvConfigSet = []string{"config", "--local"}
)

// ErrBare is returned where a work tree is needed and the repository is bare.
var ErrBare = errors.New("this is a bare repository: it has no commits made here to check; install sentinel's hooks in a clone with a work tree")

// Hooks is where a repository's hooks live.
type Hooks struct {
	// Dir is the absolute hooks directory.
	Dir string
	// HooksPath is core.hooksPath as configured, or empty.
	HooksPath string
}

// HooksDir asks git where the hooks of the repository containing dir go.
func HooksDir(ctx context.Context, dir string) (*Hooks, error) {
	g := &Git{Dir: dir}
	out, err := g.run(ctx, nil, ArgvHooksDir)
	if err != nil {
		var ee *ExitError
		if errors.As(err, &ee) && strings.Contains(ee.Stderr, "not a git repository") {
			return nil, ErrNotRepository
		}
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 2 {
		return nil, fmt.Errorf("git rev-parse: unexpected output %q", out)
	}
	if lines[0] == "true" {
		return nil, ErrBare
	}
	h := &Hooks{Dir: lines[1]}
	if !filepath.IsAbs(h.Dir) {
		h.Dir = filepath.Join(dir, h.Dir)
	}
	h.Dir = filepath.Clean(h.Dir)
	if hp, err := g.run(ctx, nil, ArgvHooksPath); err == nil {
		h.HooksPath = strings.TrimSpace(string(hp))
	}
	return h, nil
}

// LocalConfig reads a key of the repository's own configuration; ok is
// false when it is not set.
func LocalConfig(ctx context.Context, dir, key string) (value string, ok bool, err error) {
	out, err := (&Git{Dir: dir}).run(ctx, nil, ArgvConfigGet, key)
	var ee *ExitError
	if errors.As(err, &ee) && ee.Code == 1 {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return strings.TrimRight(string(out), "\n"), true, nil
}

// SetLocalConfig writes a key of the repository's own configuration.
func SetLocalConfig(ctx context.Context, dir, key, value string) error {
	_, err := (&Git{Dir: dir}).run(ctx, nil, ArgvConfigSet, key, value)
	return err
}
