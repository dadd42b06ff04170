package pathguard

import (
	"debug/buildinfo"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"

	"github.com/gitsentinel/sentinel/guard/install"
	"github.com/gitsentinel/sentinel/guard/shell"
	"github.com/gobwas/glob"
)

// PathFinding is a protected path and why.
type PathFinding struct {
	// ID is the rule's id.
	ID string
	// Critical marks system paths, which no configuration opens.
	Critical bool
	// Reason says what the path is.
	Reason string
}

// agentSettings are the files `sentinel guard install` writes (install
// says which), and the agents' own settings and hook directories beside
// them, relative to the project or the home directory, in lower case:
// whoever rewrites them switches the guard off.
var agentSettings = sync.OnceValue(func() []string {
	out := []string{
		".codex/config.toml", ".copilot/config.json", ".copilot/settings.json", ".github/hooks/", ".github/copilot/",
		".copilot/hooks/", ".config/opencode/", ".opencode/", ".config/kilo/", ".kilo/", ".kilocode/", ".pi/", ".factory/hooks/", ".factory/settings.local.json",
		".codeium/hooks.json", ".kiro/hooks/", ".kiro/agents/", ".kiro/settings/", ".clinerules/hooks/",
		".agents/plugins/", ".augment/", ".amp/", ".config/amp/", ".config/goose/", "documents/cline/hooks/",
		"documents/cline/rules/hooks/",
		// The Cline CLI 3 also runs every hook file in .cline/hooks (the
		// project's and ~/.cline's), whose input rewrite overrides the
		// call the guard allowed, and every plugin in .cline/plugins and
		// ~/Documents/Cline/Plugins, unasked.
		".cline/hooks/", ".cline/plugins/", "documents/cline/plugins/",
	}
	for _, rel := range install.Written() {
		out = append(out, strings.ToLower(rel))
	}
	return out
})

// slashedAgentSettings are agentSettings with a leading slash, as they
// are looked for inside a path.
var slashedAgentSettings = sync.OnceValue(func() []string {
	out := make([]string, 0, len(agentSettings()))
	for _, rel := range agentSettings() {
		out = append(out, "/"+rel)
	}
	return out
})

// shellStartup are the files a shell runs as it starts, relative to home.
var shellStartup = []string{".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv", ".zprofile",
	".zlogin", ".config/fish", ".kshrc", ".mkshrc", ".bash_aliases"}

// charDevOK reports the character devices a command may write to.
func charDevOK(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/ptmx":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/dev/pts/")
}

// CheckPath says whether writing the path is protected, and why. Paths
// are compared in lower case, so that .GIT/hooks on a case-insensitive
// file system is .git/hooks; a file hard-linked to a protected one is that
// file.
func (e *Env) CheckPath(raw string) *PathFinding {
	if shell.IsWindowsPath(raw) {
		if strings.HasPrefix(strings.ToLower(strings.ReplaceAll(raw, "/", "\\")), `c:\windows`) {
			return &PathFinding{ID: "path.system", Critical: true, Reason: "a write into C:\\Windows"}
		}
		return nil
	}
	p := e.Resolve(raw)
	if f := e.checkResolved(p); f != nil {
		return f
	}
	if other := e.hardLinkedTo(p); other != "" {
		if f := e.checkResolved(other); f != nil {
			f.Reason += " (through a hard link)"
			return f
		}
	}
	return nil
}

// CheckResolved is CheckPath for a path already resolved, whose last
// component a write replaces rather than follows: an archive's entry, which
// the archiver unlinks and creates anew.
func (e *Env) CheckResolved(p string) *PathFinding {
	return e.checkResolved(p)
}

func (e *Env) checkResolved(p string) *PathFinding {
	if strings.HasPrefix(p, "/dev/") && (BlockDevice().MatchString(p) || IsDevice(p, e) && !charDevOK(p)) {
		return &PathFinding{ID: "path.device", Critical: true, Reason: "a write to " + p + ", a disk device"}
	}
	if shell.Within(p, "/proc") || shell.Within(p, "/sys") {
		return &PathFinding{ID: "path.system", Critical: true, Reason: "a write into " + p + ", the kernel's own state"}
	}
	for _, d := range SystemDirs {
		if shell.Within(p, d) {
			return &PathFinding{ID: "path.system", Critical: true, Reason: "a write into " + d + ", a system directory"}
		}
	}
	lower := strings.ToLower(filepath.ToSlash(p))
	home := strings.ToLower(filepath.ToSlash(e.Home))
	base := path.Base(lower)
	// The path relative to the home directory, once: this runs for every
	// entry of an archive, so it allocates nothing per name it compares.
	homeRel, inHome := "", false
	if home != "" {
		homeRel, inHome = strings.CutPrefix(lower, strings.TrimSuffix(home, "/")+"/")
	}
	underHome := func(rel string) bool {
		return inHome && (homeRel == rel || len(homeRel) > len(rel) && homeRel[len(rel)] == '/' && strings.HasPrefix(homeRel, rel))
	}
	lowerSlash := lower + "/"
	for _, rc := range shellStartup {
		if underHome(rc) {
			return &PathFinding{ID: "path.shell-startup", Reason: "a write to ~/" + rc + ", which every later shell runs (an alias there can switch git or sentinel off)"}
		}
	}
	if underHome(".ssh") {
		return &PathFinding{ID: "path.credentials-dir", Reason: "a write into ~/.ssh, which holds keys and who may log in"}
	}
	if s := e.secret(p); s != nil {
		s.Reason = "a write to " + s.Reason
		return s
	}
	for _, rel := range slashedAgentSettings() {
		if strings.Contains(lowerSlash, rel) || strings.Contains(lower, rel) && !strings.HasSuffix(rel, "/") {
			return &PathFinding{ID: "path.agent-settings", Reason: "a write to an agent's settings, where its hooks and permissions live"}
		}
	}
	if strings.HasSuffix(base, ".sentinel-backup") || underHome(".codex") {
		return &PathFinding{ID: "path.agent-settings", Reason: "a write to an agent's settings, where its hooks and permissions live"}
	}
	switch {
	case strings.Contains(lowerSlash, "/.git/hooks/"), strings.HasSuffix(lower, "/.git/config"), strings.HasSuffix(lower, "/.git/config.worktree"),
		strings.HasSuffix(lower, "/.git/info/attributes"), strings.Contains(lowerSlash, "/.git/sentinel/"),
		underHome(".gitconfig"), e.XDGConfig != "" && shell.Within(lower, strings.ToLower(filepath.ToSlash(e.XDGConfig))+"/git"), underHome(".config/git"):
		return &PathFinding{ID: "path.git-control", Reason: "a write to git's hooks, configuration or sentinel's state in it"}
	case strings.Contains(lowerSlash, "/.husky/"), base == "lefthook.yml", base == ".lefthook.yml", base == "lefthook-local.yml", base == ".pre-commit-config.yaml":
		return &PathFinding{ID: "path.hook-manager", Reason: "a write to a hook manager's configuration"}
	case strings.Contains(lowerSlash, "/.sentinel/"), e.UserConfig != "" && shell.Within(lower, strings.ToLower(filepath.ToSlash(e.UserConfig))),
		e.StateDir != "" && shell.Within(lower, strings.ToLower(filepath.ToSlash(e.StateDir))):
		return &PathFinding{ID: "path.sentinel", Reason: "a write to sentinel's own files; a person changes them"}
	case e.inCacheDir(lower):
		return &PathFinding{ID: "path.sentinel", Reason: "a write to sentinel's count cache, which the ratchet trusts"}
	case e.IsSentinelBinary(p):
		return &PathFinding{ID: "path.sentinel", Reason: "a write to the sentinel binary itself"}
	}
	return nil
}

// inCacheDir reports a lower-cased slash path in one of the count cache's
// directories.
func (e *Env) inCacheDir(lower string) bool {
	for _, d := range e.CacheDirs {
		if shell.Within(lower, strings.ToLower(filepath.ToSlash(d))) {
			return true
		}
	}
	return false
}

// IsSentinelBinary reports the running binary, and a program named
// sentinel in a directory of $PATH: replacing either switches every check
// off.
func (e *Env) IsSentinelBinary(p string) bool {
	if e.Self != "" && (p == e.Self || p == filepath.Join(filepath.Dir(e.Self), "sentinel-engine") || p == filepath.Join(filepath.Dir(e.Self), "sentinel")) {
		// The front binary and the engine it runs are installed together:
		// replacing either switches the checks off.
		return true
	}
	if b := filepath.Base(p); b != "sentinel" && b != "sentinel-engine" && (e.Self == "" || b != filepath.Base(e.Self)) {
		return false
	}
	dir := filepath.Dir(p)
	for _, d := range e.Path {
		if d != "" && filepath.Clean(d) == dir {
			return true
		}
	}
	// Directories a login shell puts on PATH once they exist (Debian's and
	// most distributions' ~/.profile add ~/bin and ~/.local/bin): a
	// sentinel planted there now is the one a later shell, and a project's
	// hook entry that looks sentinel up on PATH, runs.
	if e.Home != "" && (dir == filepath.Join(e.Home, "bin") || dir == filepath.Join(e.Home, ".local", "bin")) {
		return true
	}
	// go install's destination, which is on most users' PATH.
	return strings.HasSuffix(dir, "/go/bin") || strings.HasSuffix(dir, "$GOBIN")
}

// hardLinkedTo returns a protected file that p is a second name of, or "".
// Only a regular file with more than one link is looked at, against the
// files whose loss or change switches a check off.
func (e *Env) hardLinkedTo(p string) string {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st.Nlink < 2 {
		return ""
	}
	var candidates []string
	for _, root := range []string{e.Project, e.Home} {
		if root == "" {
			continue
		}
		for _, rel := range []string{".sentinel/config.toml", ".sentinel/baseline.json", ".git/config", ".gitconfig"} {
			candidates = append(candidates, filepath.Join(root, rel))
		}
		for _, rel := range agentSettings() {
			if !strings.HasSuffix(rel, "/") {
				candidates = append(candidates, filepath.Join(root, rel))
			}
		}
		if entries, err := os.ReadDir(filepath.Join(root, ".git", "hooks")); err == nil {
			for _, en := range entries {
				candidates = append(candidates, filepath.Join(root, ".git", "hooks", en.Name()))
			}
		}
	}
	if e.Self != "" {
		candidates = append(candidates, e.Self, filepath.Join(filepath.Dir(e.Self), "sentinel-engine"))
	}
	for _, c := range candidates {
		if c == p {
			continue
		}
		if ci, err := os.Stat(c); err == nil && os.SameFile(fi, ci) {
			return c
		}
	}
	return ""
}

// secret says whether a path holds credentials, and which. Reading its
// contents puts them in the agent's transcript; writing it destroys or
// plants them.
func (e *Env) secret(p string) *PathFinding {
	lower := strings.ToLower(filepath.ToSlash(p))
	base := path.Base(lower)
	home := strings.ToLower(filepath.ToSlash(e.Home))
	rel := ""
	if home != "" && shell.Within(lower, home) {
		rel = strings.TrimPrefix(strings.TrimPrefix(lower, home), "/")
	}
	for _, d := range []string{".aws", ".gnupg", ".kube", ".docker", ".config/gcloud", ".azure", ".config/gh/hosts.yml", ".config/hub", ".password-store", ".vault-token", ".terraform.d/credentials.tfrc.json", ".cargo/credentials", ".cargo/credentials.toml", ".gem/credentials", ".claude/.credentials.json", ".codex/auth.json", ".gemini/oauth_creds.json", ".config/github-copilot", ".local/share/keyrings"} {
		if rel == d || strings.HasPrefix(rel, d+"/") {
			return &PathFinding{ID: "path.credentials-dir", Reason: "~/" + d + ", which holds credentials"}
		}
	}
	if rel == ".ssh" || strings.HasPrefix(rel, ".ssh/") {
		switch {
		case strings.HasSuffix(base, ".pub"), strings.HasPrefix(base, "known_hosts"), base == "config", base == "authorized_keys":
		default:
			return &PathFinding{ID: "path.credentials-dir", Reason: "~/.ssh/" + path.Base(p) + ", an ssh key"}
		}
	}
	switch {
	case (base == ".env" || strings.HasPrefix(base, ".env.")) && !strings.Contains(base, ".example") && !strings.Contains(base, ".sample") && !strings.Contains(base, ".template") && !hasAnySuffix(base, ".dist", ".defaults", ".schema"):
		return &PathFinding{ID: "path.credentials", Reason: base + ", which holds secrets"}
	case sshKeyName().MatchString(base) && !strings.HasSuffix(base, ".pub"),
		hasAnySuffix(base, ".pem", ".key", ".p12", ".pfx", ".keystore", ".jks", ".ovpn", ".kdbx"),
		base == "credentials.json", strings.HasPrefix(base, "secrets."), base == ".netrc", base == "_netrc", base == ".git-credentials", base == ".pypirc", base == "hosts.yml" && strings.Contains(lower, "/gh/"):
		return &PathFinding{ID: "path.credentials", Reason: base + ", a credential file"}
	case base == ".npmrc" && rel == ".npmrc":
		return &PathFinding{ID: "path.credentials", Reason: "~/.npmrc, which holds registry tokens"}
	}
	for _, g := range e.Secrets {
		pattern := g
		if !filepath.IsAbs(pattern) && e.Project != "" {
			pattern = filepath.Join(e.Project, pattern)
		}
		if globMatch(pattern, p) {
			return &PathFinding{ID: "path.credentials", Reason: "a path the configuration marks secret (" + g + ")"}
		}
	}
	return nil
}

// globMatch matches a path against a configured glob, * staying within one
// directory and ** crossing them.
func globMatch(pattern, p string) bool {
	g, err := glob.Compile(filepath.ToSlash(pattern), '/')
	return err == nil && g.Match(filepath.ToSlash(p))
}

// maxGlobMatches bounds how many files one pattern is expanded to.
const maxGlobMatches = 256

// SecretReads returns the secrets that reading raw would read: the path
// itself, what a glob in it matches on disk (as the shell would expand
// it) and, for a pattern, whether it could name a secret even where none
// exists yet.
func (e *Env) SecretReads(raw string) []*PathFinding {
	if raw == "" {
		return nil
	}
	if !strings.ContainsAny(raw, "*?[") {
		if f := e.secret(e.Resolve(raw)); f != nil {
			return []*PathFinding{f}
		}
		return nil
	}
	pattern := e.Resolve(raw)
	var out []*PathFinding
	if matches, err := filepath.Glob(pattern); err == nil {
		for i, m := range matches {
			if i == maxGlobMatches {
				break
			}
			if f := e.secret(m); f != nil {
				return []*PathFinding{f}
			}
		}
	}
	// The file may not exist yet, or the glob crosses directories: try the
	// pattern against the secrets' own names in its directory.
	dir, base := filepath.Split(pattern)
	if !strings.HasPrefix(base, ".") && e.secret(filepath.Join(dir, "x")) == nil {
		// The shell passes a pattern that matches nothing as it is; only
		// a hidden-file pattern (.e*, .*) is read as naming a secret that
		// is not there yet.
		return out
	}
	for _, name := range []string{".env", ".env.local", ".env.production", "id_rsa", "id_ed25519", "credentials", "config", "server.key", "key.pem"} {
		if ok, _ := filepath.Match(base, name); ok {
			if f := e.secret(filepath.Join(dir, name)); f != nil {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// IsSentinelProgram reports a program that is sentinel under any name: the
// running binary, or a Go binary built from sentinel's module. The build
// information is read only for a path that exists, and only when a
// command asks sentinel to lower its guard.
func (e *Env) IsSentinelProgram(argv0 string) bool {
	if argv0 == "" {
		return false
	}
	p := argv0
	if !strings.Contains(p, "/") {
		p = e.LookPath(p)
		if p == "" {
			return false
		}
	}
	p = e.Resolve(p)
	if e.Self != "" && p == e.Self {
		return true
	}
	info, err := buildinfo.ReadFile(p)
	return err == nil && (info.Main.Path == sentinelModule || strings.HasPrefix(info.Path, sentinelModule+"/"))
}

// sentinelModule is the module sentinel is built from.
const sentinelModule = "github.com/gitsentinel/sentinel"

var (
	// The patterns compile on first use: a hook run pays for none it
	// does not use.
	BlockDevice = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^/dev/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|md\d|dm-\d|mapper/)`)
	})
)

// IsDevice reports a path that is a disk device: under /dev, or a block
// device on this machine.
func IsDevice(p string, e *Env) bool {
	if strings.HasPrefix(p, "/dev/") {
		return true
	}
	fi, err := os.Stat(e.Resolve(p))
	return err == nil && fi.Mode()&os.ModeDevice != 0
}
