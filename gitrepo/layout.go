package gitrepo

import (
	"context"
	"path/filepath"
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

// Locate asks git for the layout of the work tree containing dir. Each
// path comes from a rev-parse of its own, since a path may hold a newline.
func Locate(ctx context.Context, dir string) (*Layout, error) {
	g := &Git{Dir: dir}
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
