package shell

import (
	"os"
	"path/filepath"
	"strings"
)

// Env is where a command runs, as the shell sees it: what the
// decomposer needs to resolve words into paths and programs.
type Env struct {
	// Cwd is the hook event's working directory; paths resolve against it.
	Cwd string
	// Home is the user's home directory.
	Home string
	// Project is the root of the project (the git work tree around Cwd,
	// or Cwd).
	Project string
	// Temp are the temporary directories (/tmp, $TMPDIR).
	Temp []string
	// Path is the directories of $PATH, where `command -v` looks.
	Path []string
	// Vars are the values the guard's own environment gives the variables
	// that locate files (XDG_CONFIG_HOME, XDG_STATE_HOME…): the agent's
	// shell most likely has the same, and a path through them must meet the
	// protection of the file it names.
	Vars map[string]string
}

// LocatingVars are the variables Vars holds when the environment sets them.
var LocatingVars = []string{"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR",
	"SENTINEL_CACHE_DIR", "USER", "LOGNAME"}

// Resolve makes a path absolute the way the shell would see it: ~ and $HOME
// expanded, relative to Cwd, cleaned, and symlinks resolved on the part of
// the path that exists.
func (e *Env) Resolve(p string) string {
	switch {
	case p == "~" || p == "$HOME" || p == "${HOME}":
		p = e.Home
	case strings.HasPrefix(p, "~/"):
		p = filepath.Join(e.Home, p[2:])
	case strings.HasPrefix(p, "$HOME/"):
		p = filepath.Join(e.Home, p[6:])
	case strings.HasPrefix(p, "~"):
		// ~user: that user's home, beside ours (root's is /root).
		user, rest, _ := strings.Cut(p[1:], "/")
		home := filepath.Join(filepath.Dir(e.Home), user)
		if user == "root" {
			home = "/root"
		}
		p = filepath.Join(home, rest)
	}
	if IsWindowsPath(p) {
		return p
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(e.Cwd, p)
	}
	p = filepath.Clean(p)
	// Resolve symlinks on the longest prefix that exists, so that a link
	// into ~/.ssh is seen as ~/.ssh.
	existing, rest := p, ""
	for {
		if _, err := os.Lstat(existing); err == nil {
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			return p
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
	if r, err := filepath.EvalSymlinks(existing); err == nil {
		return filepath.Join(r, rest)
	}
	return p
}

// IsWindowsPath reports a drive-letter path (C:\\x, C:/x), which hosts
// on Windows send and which never resolves against a POSIX cwd.
func IsWindowsPath(p string) bool {
	return len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

// Within reports whether p is dir or below it.
func Within(p, dir string) bool {
	if dir == "" {
		return false
	}
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// Exists reports whether a path names something on disk, as the command
// would see it from the working directory.
func (e *Env) Exists(p string) bool {
	_, err := os.Lstat(e.Resolve(p))
	return err == nil
}

// tmpDir is $TMPDIR as the agent's shell most likely has it.
func (e *Env) tmpDir() string {
	if len(e.Temp) > 2 {
		return e.Temp[len(e.Temp)-1]
	}
	return "/tmp"
}

// InTemp reports a path strictly inside a temporary directory.
func (e *Env) InTemp(p string) bool {
	for _, tmp := range e.Temp {
		if Within(p, tmp) && p != tmp {
			return true
		}
	}
	return false
}
