package gitrepo

import (
	"bytes"
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
	ArgvHooksPath = []string{"config", "-z", "--get", "core.hooksPath"}
	// ArgvConfigGet reads one key of the local configuration; the key is appended.
	ArgvConfigGet = []string{"config", "-z", "--local", "--get"}
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
	out, err := g.revParse(ctx, ArgvHooksDir)
	if err != nil {
		return nil, err
	}
	bare, path, err := splitFirst(out)
	if err != nil {
		return nil, err
	}
	if bare == "true" {
		return nil, ErrBare
	}
	h := &Hooks{Dir: path}
	if !filepath.IsAbs(h.Dir) {
		h.Dir = filepath.Join(dir, h.Dir)
	}
	h.Dir = filepath.Clean(h.Dir)
	if hp, err := g.run(ctx, nil, ArgvHooksPath); err == nil {
		h.HooksPath = string(bytes.TrimSuffix(hp, []byte{0}))
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
	return string(bytes.TrimSuffix(out, []byte{0})), true, nil
}

// SetLocalConfig writes a key of the repository's own configuration.
func SetLocalConfig(ctx context.Context, dir, key, value string) error {
	_, err := (&Git{Dir: dir}).run(ctx, nil, ArgvConfigSet, key, value)
	return err
}

var (
	// ArgvHashObject writes a blob from stdin and prints its id.
	ArgvHashObject = []string{"hash-object", "-w", "--stdin"}
	// ArgvUpdateIndex stages a blob at a path (GIT_INDEX_FILE honoured); the
	// "mode,id,path" is appended.
	ArgvUpdateIndex = []string{"update-index", "--add", "--cacheinfo"}
	// ArgvAuthorIdent reads the author identity git would record.
	ArgvAuthorIdent = []string{"var", "GIT_AUTHOR_IDENT"}
)

// Stage writes content as a blob and puts it at path in the index that is
// being committed.
func Stage(ctx context.Context, root, path string, content []byte) error {
	g := &Git{Dir: root}
	out, err := g.run(ctx, content, ArgvHashObject)
	if err != nil {
		return fmt.Errorf("stage %s: %w", path, err)
	}
	id := strings.TrimSpace(string(out))
	if _, err := g.run(ctx, nil, ArgvUpdateIndex, "100644,"+id+","+path); err != nil {
		return fmt.Errorf("stage %s: %w", path, err)
	}
	return nil
}

// AuthorIdent returns "Name <email>" of the author git would record.
func AuthorIdent(ctx context.Context, dir string) (string, error) {
	out, err := (&Git{Dir: dir}).run(ctx, nil, ArgvAuthorIdent)
	if err != nil {
		return "", fmt.Errorf("who you are (git config user.name and user.email): %w", err)
	}
	line := strings.TrimSpace(string(out))
	if i := strings.LastIndexByte(line, '>'); i >= 0 {
		line = line[:i+1]
	}
	return line, nil
}
