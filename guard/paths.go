package guard

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
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
	// Strict denies what would otherwise be asked ([guard] strict).
	Strict bool
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

// PathFinding is a protected path and why.
type PathFinding struct {
	// ID is the rule's id.
	ID string
	// Critical marks system paths, which no configuration opens.
	Critical bool
	// Reason says what the path is.
	Reason string
}

// CheckPath says whether writing the path is protected, and why.
func (e *Env) CheckPath(raw string) *PathFinding {
	if isWindowsPath(raw) {
		if strings.HasPrefix(strings.ToLower(strings.ReplaceAll(raw, "/", "\\")), `c:\windows`) {
			return &PathFinding{ID: "path.system", Critical: true, Reason: "a write into C:\\Windows"}
		}
		return nil
	}
	p := e.Resolve(raw)
	for _, d := range systemDirs {
		if within(p, d) {
			return &PathFinding{ID: "path.system", Critical: true, Reason: "a write into " + d + ", a system directory"}
		}
	}
	base := filepath.Base(p)
	slash := filepath.ToSlash(p)
	home := e.Home
	for _, d := range []string{".ssh", ".aws", ".gnupg", ".kube", ".docker", ".config/gcloud", ".config/gh"} {
		if within(p, filepath.Join(home, d)) {
			return &PathFinding{ID: "path.credentials-dir", Reason: "a write into ~/" + d + ", which holds credentials"}
		}
	}
	switch {
	case (base == ".env" || strings.HasPrefix(base, ".env.")) && !hasAnySuffix(base, ".example", ".sample", ".template"):
		return &PathFinding{ID: "path.credentials", Reason: "a write to " + base + ", which holds secrets"}
	case sshKeyName().MatchString(base) && !strings.HasSuffix(base, ".pub"),
		hasAnySuffix(base, ".pem", ".key", ".p12", ".pfx"),
		base == "credentials.json", strings.HasPrefix(base, "secrets."),
		base == ".netrc", base == ".git-credentials", base == ".pypirc":
		return &PathFinding{ID: "path.credentials", Reason: "a write to " + base + ", a credential file"}
	case base == ".npmrc" && filepath.Dir(p) == home:
		return &PathFinding{ID: "path.credentials", Reason: "a write to ~/.npmrc, which holds registry tokens"}
	}
	switch {
	case strings.Contains(slash, "/.claude/") && strings.HasPrefix(base, "settings") && strings.HasSuffix(base, ".json"),
		within(p, filepath.Join(home, ".codex")),
		strings.HasSuffix(slash, "/.gemini/settings.json"),
		strings.HasSuffix(slash, "/.cursor/hooks.json"):
		return &PathFinding{ID: "path.agent-settings", Reason: "a write to an agent's settings, where its hooks and permissions live"}
	case strings.Contains(slash+"/", "/.git/hooks/"), strings.HasSuffix(slash, "/.git/config"):
		return &PathFinding{ID: "path.git-control", Reason: "a write to git's hooks or configuration"}
	case strings.Contains(slash+"/", "/.husky/"), base == "lefthook.yml", base == ".lefthook.yml", base == ".pre-commit-config.yaml":
		return &PathFinding{ID: "path.hook-manager", Reason: "a write to a hook manager's configuration"}
	case strings.Contains(slash+"/", "/.sentinel/"), e.UserConfig != "" && within(p, e.UserConfig):
		return &PathFinding{ID: "path.sentinel", Reason: "a write to sentinel's own files; a person changes them"}
	}
	return nil
}

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
	e := &Env{Cwd: filepath.Clean(cwd), Home: getenv("HOME"), Temp: []string{"/tmp", "/var/tmp"}}
	if t := getenv("TMPDIR"); t != "" {
		e.Temp = append(e.Temp, filepath.Clean(t))
	}
	if uc := UserConfigPath(getenv); uc != "" {
		e.UserConfig = filepath.Dir(uc)
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
	return regexp.MustCompile(`^id_(rsa|dsa|ecdsa|ed25519)(_sk)?([-_.][A-Za-z0-9_.-]*)?$`)
})
