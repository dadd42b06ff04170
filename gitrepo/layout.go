package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
)

// ArgvCommonDir prints the repository's common git dir, which a linked
// work tree shares with the main one.
var ArgvCommonDir = []string{"rev-parse", "--path-format=absolute", "--git-common-dir"}

// Layout is where git keeps a work tree's repository, as git itself
// reports it: what containment makes writable, and what it protects.
type Layout struct {
	// Top is the root of the work tree.
	Top string
	// GitDir is the work tree's own git dir (.git, or a linked work
	// tree's .git/worktrees/NAME).
	GitDir string
	// CommonDir is the git dir the work trees share: objects, refs,
	// config, hooks.
	CommonDir string
	// Hooks is where git looks for hooks (core.hooksPath honoured).
	Hooks *Hooks
}

// ArgvLayout prints, in one process, whether the repository is bare, and
// the work tree's root, its git dir, the common git dir and the hooks
// directory, each an absolute path on a line of its own.
var ArgvLayout = []string{"rev-parse", "--is-bare-repository", "--path-format=absolute",
	"--show-toplevel", "--absolute-git-dir", "--git-common-dir", "--git-path", "hooks"}

// Locate asks git for the layout of the work tree containing dir: in one
// rev-parse when no path holds a newline (its output is then exactly five
// lines), else each path from a rev-parse of its own.
func Locate(ctx context.Context, dir string) (*Layout, error) {
	g := &Git{Dir: dir}
	if out, err := g.revParse(ctx, ArgvLayout); err == nil && bytes.Count(out, []byte{'\n'}) == 5 && bytes.HasSuffix(out, []byte{'\n'}) {
		v := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if v[0] == "true" {
			return nil, ErrBare
		}
		if v[0] == "false" && allAbs(v[1:]) {
			h := &Hooks{Dir: filepath.Clean(v[4])}
			if hp, err := g.run(ctx, nil, ArgvHooksPath); err == nil {
				h.HooksPath = string(bytes.TrimSuffix(hp, []byte{0}))
			}
			return &Layout{Top: filepath.Clean(v[1]), GitDir: filepath.Clean(v[2]), CommonDir: filepath.Clean(v[3]), Hooks: h}, nil
		}
	} else if errors.Is(err, ErrNotRepository) || errors.Is(err, ErrNoWorkTree) {
		return nil, err
	}
	top, err := g.Toplevel(ctx)
	if err != nil {
		return nil, err
	}
	gitDir, err := g.GitDir(ctx)
	if err != nil {
		return nil, err
	}
	out, err := g.revParse(ctx, ArgvCommonDir)
	if err != nil {
		return nil, err
	}
	common, err := oneValue(out)
	if err != nil {
		return nil, err
	}
	hooks, err := HooksDir(ctx, dir)
	if err != nil {
		return nil, err
	}
	return &Layout{Top: filepath.Clean(top), GitDir: filepath.Clean(gitDir), CommonDir: filepath.Clean(common), Hooks: hooks}, nil
}

func allAbs(paths []string) bool {
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			return false
		}
	}
	return true
}
