// Package pathguard knows what a tool call must not touch: git's approval
// machinery (hooks, config, the index's own files), sentinel's own files and
// binaries, its configuration and audit trail, the agents' settings, system
// directories, and secrets (keys, credentials, .env files). It resolves a
// path the way the shell would and says which protection, if any, it meets.
package pathguard

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/gitsentinel/sentinel/guard/shell"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

// Env is where a tool call runs: the shell's view, and the locations and
// settings the path guard protects.
type Env struct {
	shell.Env
	// UserConfig is the user's sentinel configuration directory.
	UserConfig string
	// XDGConfig is the user's configuration directory ($XDG_CONFIG_HOME or
	// ~/.config), where git's own global configuration may live.
	XDGConfig string
	// Self is the running sentinel binary, which an agent must not replace.
	Self string
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

// Undecided is the verdict for what the guard cannot read: asked at the standard
// level, denied above it.
func (e *Env) Undecided() verdict.Verdict {
	if e.Level >= verdict.Strict {
		return verdict.Deny
	}
	return verdict.Ask
}

// SystemDirs are never written, and never removed recursively.
var SystemDirs = []string{"/etc", "/usr", "/boot", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}

func hasAnySuffix(s string, suffixes ...string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

// NewEnv builds the environment of a tool call from its working directory
// and the process environment.
func NewEnv(cwd string, getenv func(string) string) *Env {
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	e := &Env{Env: shell.Env{Cwd: filepath.Clean(cwd), Home: getenv("HOME"), Temp: []string{"/tmp", "/var/tmp"}}}
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
	for _, name := range shell.LocatingVars {
		if v := getenv(name); v != "" {
			if e.Vars == nil {
				e.Vars = map[string]string{}
			}
			e.Vars[name] = v
		}
	}
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

// UserConfigPath is the user's own configuration, the only place an allow
// rule can come from.
func UserConfigPath(getenv func(string) string) string {
	dir := getenv("XDG_CONFIG_HOME")
	if dir == "" {
		if home := getenv("HOME"); home != "" {
			dir = filepath.Join(home, ".config")
		}
	}
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "sentinel", "config.toml")
}

// LogPath is the audit trail: $XDG_STATE_HOME/sentinel/guard.jsonl, or
// ~/.local/state/sentinel/guard.jsonl. It is "" when neither variable
// gives an absolute directory.
func LogPath(getenv func(string) string) string {
	dir := getenv("XDG_STATE_HOME")
	if !filepath.IsAbs(dir) {
		// The XDG specification: a relative path is invalid and ignored.
		dir = ""
		if home := getenv("HOME"); filepath.IsAbs(home) {
			dir = filepath.Join(home, ".local", "state")
		}
	}
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "sentinel", "guard.jsonl")
}
