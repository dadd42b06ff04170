package pathguard

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/gitsentinel/sentinel/guard/shell"
)

// ProtectedWithin reports a protected location that writing files of
// names the guard cannot know below dir could reach: dir is inside one,
// or holds one. The locations held are the real ones, not every name the
// path guard would refuse: the project's .git and .sentinel and its
// agents' settings, the home directory (its shell startup files, keys and
// settings), sentinel's configuration, audit trail and cache, the system
// directories, and the .git of a repository rooted at dir. A temporary
// directory of its own holds none of them.
func (e *Env) ProtectedWithin(dir string) *PathFinding {
	d := e.Resolve(dir)
	if f := e.CheckPath(filepath.Join(d, "x")); f != nil {
		return f
	}
	type root struct {
		path string
		f    PathFinding
	}
	git := PathFinding{ID: "path.git-control", Reason: "git's hooks and configuration"}
	var roots []root
	if e.Project != "" {
		roots = append(roots, root{filepath.Join(e.Project, ".git"), git},
			root{filepath.Join(e.Project, ".sentinel"), PathFinding{ID: "path.sentinel", Reason: "sentinel's own files"}})
		for _, rel := range agentSettings() {
			roots = append(roots, root{filepath.Join(e.Project, strings.TrimSuffix(rel, "/")), PathFinding{ID: "path.agent-settings", Reason: "an agent's settings"}})
		}
	}
	if e.Home != "" {
		roots = append(roots, root{e.Home, PathFinding{ID: "path.shell-startup", Reason: "the home directory, its shell startup files, keys and settings"}})
	}
	for _, p := range append([]string{e.UserConfig, e.StateDir}, e.CacheDirs...) {
		if p != "" {
			roots = append(roots, root{p, PathFinding{ID: "path.sentinel", Reason: "sentinel's configuration and state"}})
		}
	}
	for _, p := range append(SystemDirs, "/proc", "/sys", "/dev") {
		roots = append(roots, root{p, PathFinding{ID: "path.system", Reason: "a system directory"}})
	}
	for _, r := range roots {
		if shell.Within(r.path, d) {
			f := r.f
			f.Reason += " (" + r.path + ")"
			return &f
		}
	}
	if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
		f := git
		f.Reason += " (" + filepath.Join(d, ".git") + ")"
		return &f
	}
	return nil
}
