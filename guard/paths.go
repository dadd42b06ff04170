package guard

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/gitsentinel/sentinel/guard/verdict"
)

// Env is where a tool call runs.
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
	// UserConfig is the user's sentinel configuration directory.
	UserConfig string
	// XDGConfig is the user's configuration directory ($XDG_CONFIG_HOME or
	// ~/.config), where git's own global configuration may live.
	XDGConfig string
	// Self is the running sentinel binary, which an agent must not replace.
	Self string
	// Path is the directories of $PATH, where `command -v` looks.
	Path []string
	// StateDir holds the guard's audit trail, which the agent must not
	// remove or rewrite.
	StateDir string
	// Level is how hard the guard is.
	Level verdict.Level
	// Secrets are the configured globs of more secret paths.
	Secrets []string
	// CacheDirs are the count cache's directories outside the git dir
	// (SENTINEL_CACHE_DIR, [coverage] cache_dir): sentinel's state, like
	// the git dir's sentinel/.
	CacheDirs []string
}

// ask is the verdict for what the guard cannot read: asked at the standard
// level, denied above it.
func (e *Env) ask() verdict.Verdict {
	if e.Level >= verdict.Strict {
		return verdict.Deny
	}
	return verdict.Ask
}

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
	if isWindowsPath(p) {
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

func isWindowsPath(p string) bool {
	return len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

// systemDirs are never written, and never removed recursively.
var systemDirs = []string{"/etc", "/usr", "/boot", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	if dir == "" {
		return false
	}
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

func hasAnySuffix(s string, suffixes ...string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

// Apply adds what the configuration says to the environment: the guard's
// level, more secret paths, the count cache's directory.
func (e *Env) Apply(p *Policy) {
	if p == nil {
		return
	}
	e.Level = max(e.Level, p.Level)
	e.Secrets = append(e.Secrets, p.Secrets...)
	e.CacheDirs = append(e.CacheDirs, p.CacheDirs...)
}

// NewEnv builds the environment of a tool call from its working directory
// and the process environment.
func NewEnv(cwd string, getenv func(string) string) *Env {
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	e := &Env{Cwd: filepath.Clean(cwd), Home: getenv("HOME"), Temp: []string{"/tmp", "/var/tmp"}}
	if t := getenv("TMPDIR"); t != "" {
		e.Temp = append(e.Temp, filepath.Clean(t))
	}
	if uc := UserConfigPath(getenv); uc != "" {
		e.UserConfig = filepath.Dir(uc)
		e.XDGConfig = filepath.Dir(e.UserConfig)
	}
	if self, err := os.Executable(); err == nil {
		if r, err := filepath.EvalSymlinks(self); err == nil {
			self = r
		}
		e.Self = self
	}
	e.Path = filepath.SplitList(getenv("PATH"))
	if d := getenv("SENTINEL_CACHE_DIR"); d != "" {
		e.CacheDirs = append(e.CacheDirs, e.Resolve(d))
	}
	if lp := LogPath(getenv); lp != "" {
		e.StateDir = filepath.Dir(lp)
	}
	e.Project = e.Cwd
	for d := e.Cwd; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			e.Project = d
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return e
}

// sshKeyName matches ssh-keygen's key file names (id_rsa, id_ed25519_sk,
// id_ecdsa-work) and not source files that merely start with "id_".
var sshKeyName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(id_(rsa|dsa|ecdsa|ed25519)(_sk)?([-_.][A-Za-z0-9_.-]*)?|[A-Za-z0-9_.-]+[_-](rsa|dsa|ecdsa|ed25519)(_sk)?)$`)
})

// exists reports whether a path names something on disk, as the command
// would see it from the working directory.
func (e *Env) exists(p string) bool {
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

// inTemp reports a path strictly inside a temporary directory.
func (e *Env) inTemp(p string) bool {
	for _, tmp := range e.Temp {
		if within(p, tmp) && p != tmp {
			return true
		}
	}
	return false
}
