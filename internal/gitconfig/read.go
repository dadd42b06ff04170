package gitconfig

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
)

// ErrUnsupported is returned when reading the configuration in-process
// might give another answer than git: the caller must ask git.
var ErrUnsupported = errors.New("configuration needs git to read it")

// maxFileSize bounds every configuration file read.
const maxFileSize = 4 << 20

// Env looks up an environment variable, like os.LookupEnv.
type Env func(key string) (string, bool)

// Read returns every entry of git's configuration as `git config` run in
// dir would see it: the system, global, local and worktree files, in that
// order. dir empty means the current directory. It returns an error
// wrapping ErrUnsupported wherever git's answer might differ (includes,
// settings given on git's command line, a file it cannot read or parse, a
// system file whose path it cannot know), and never guesses.
func Read(dir string, env Env) ([]Entry, error) {
	if env == nil {
		env = os.LookupEnv
	}
	files, err := Files(dir, env)
	if err != nil {
		return nil, err
	}
	var all []Entry
	for _, f := range files {
		entries, err := readFile(f.Path)
		if err != nil {
			return nil, err
		}
		if f.Scope == ScopeLocal {
			// The worktree file is read only when the local file enables
			// it; Files cannot know that before the local file is read.
			wt, err := worktreeConfig(entries)
			if err != nil {
				return nil, err
			}
			all = append(all, entries...)
			if wt {
				entries, err := readFile(f.worktree)
				if err != nil {
					return nil, err
				}
				all = append(all, entries...)
			}
			continue
		}
		all = append(all, entries...)
	}
	return all, nil
}

// Scope is where a configuration file belongs.
type Scope int

// The scopes, in the order git reads them.
const (
	// ScopeSystem is the system-wide file.
	ScopeSystem Scope = iota
	// ScopeGlobal is one of the user's files.
	ScopeGlobal
	// ScopeLocal is the repository's file, with its worktree file.
	ScopeLocal
)

// File is one configuration file git would read.
type File struct {
	// Path is the file's path.
	Path string
	// Scope is where the file belongs.
	Scope Scope
	// worktree is the path of config.worktree beside a local file.
	worktree string
}

// unsupported wraps ErrUnsupported with the reason.
func unsupported(format string, args ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), ErrUnsupported)
}

// Files lists the configuration files git would read in dir, in git's
// order, leaving out those that do not exist. The worktree file is not
// listed: it depends on the local file's contents.
func Files(dir string, env Env) ([]File, error) {
	for _, k := range []string{"GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CEILING_DIRECTORIES"} {
		if _, ok := env(k); ok {
			return nil, unsupported("%s is set", k)
		}
	}
	// git may have moved to the top of the work tree before it opens
	// these: a relative path could name another file.
	for _, k := range []string{"GIT_CONFIG_SYSTEM", "GIT_CONFIG_GLOBAL", "HOME", "XDG_CONFIG_HOME", "GIT_COMMON_DIR"} {
		if v, ok := env(k); ok && v != "" && !filepath.IsAbs(v) {
			return nil, unsupported("%s is a relative path", k)
		}
	}
	var files []File
	add := func(path string, scope Scope) error {
		ok, err := exists(path)
		if ok {
			files = append(files, File{Path: path, Scope: scope})
		}
		return err
	}

	noSystem := false
	if v, ok := env("GIT_CONFIG_NOSYSTEM"); ok {
		b, err := parseBool(v, false)
		if err != nil {
			return nil, unsupported("GIT_CONFIG_NOSYSTEM=%q", v)
		}
		noSystem = b
	}
	if !noSystem {
		path, err := systemPath(env)
		if err != nil {
			return nil, err
		}
		if err := add(path, ScopeSystem); err != nil {
			return nil, err
		}
	}

	if v, ok := env("GIT_CONFIG_GLOBAL"); ok {
		if v == "" {
			return nil, unsupported("GIT_CONFIG_GLOBAL is empty")
		}
		if err := add(v, ScopeGlobal); err != nil {
			return nil, err
		}
	} else if home, ok := env("HOME"); ok && home != "" {
		xdg := filepath.Join(home, ".config")
		if v, ok := env("XDG_CONFIG_HOME"); ok && v != "" {
			xdg = v
		}
		if err := add(filepath.Join(xdg, "git", "config"), ScopeGlobal); err != nil {
			return nil, err
		}
		if err := add(filepath.Join(home, ".gitconfig"), ScopeGlobal); err != nil {
			return nil, err
		}
	} else {
		return nil, unsupported("HOME is not set")
	}

	gitDir, commonDir, err := locate(dir, env)
	if err != nil {
		return nil, err
	}
	if gitDir != "" {
		local := filepath.Join(commonDir, "config")
		ok, err := exists(local)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, unsupported("%s does not exist", local)
		}
		files = append(files, File{Path: local, Scope: ScopeLocal, worktree: filepath.Join(gitDir, "config.worktree")})
	}
	return files, nil
}

// exists reports whether git would read path: a missing file is left out,
// any other failure to reach it is unsupported.
func exists(path string) (bool, error) {
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.Mode().IsRegular():
		return true, nil
	case err == nil && path == os.DevNull:
		return false, nil
	case err == nil:
		return false, unsupported("%s is not a regular file", path)
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return false, nil
	default:
		return false, unsupported("stat %s: %v", path, err)
	}
}

// systemPath returns the system file's path: GIT_CONFIG_SYSTEM, or the
// path compiled into a git installed under /usr on Linux.
func systemPath(env Env) (string, error) {
	if v, ok := env("GIT_CONFIG_SYSTEM"); ok {
		if v == "" {
			return "", unsupported("GIT_CONFIG_SYSTEM is empty")
		}
		return v, nil
	}
	if runtime.GOOS != "linux" {
		return "", unsupported("git's system configuration path is not known on %s", runtime.GOOS)
	}
	git, err := exec.LookPath("git")
	if err != nil {
		return "", unsupported("git not found: %v", err)
	}
	real, err := filepath.EvalSymlinks(git)
	if err != nil {
		return "", unsupported("resolve %s: %v", git, err)
	}
	// A git whose prefix is /usr reads /etc/gitconfig. git's own directory
	// of programs is first on PATH in a hook.
	switch real {
	case "/usr/bin/git", "/usr/lib/git-core/git", "/usr/libexec/git-core/git":
		return "/etc/gitconfig", nil
	}
	return "", unsupported("the system configuration path of %s is not known", real)
}

// readFile reads and parses one file; an include or any failure is
// unsupported.
func readFile(path string) ([]Entry, error) {
	if path == os.DevNull {
		return nil, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, unsupported("open %s: %v", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, unsupported("read %s: %v", path, err)
	}
	if len(data) > maxFileSize {
		return nil, unsupported("%s is larger than %d bytes", path, maxFileSize)
	}
	entries, err := Parse(path, data)
	if err != nil {
		return nil, fmt.Errorf("%w (%w)", err, ErrUnsupported)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Key, "include.") || strings.HasPrefix(e.Key, "includeif.") {
			return nil, unsupported("%s includes other files", path)
		}
	}
	return entries, nil
}

// parseBool is git's git_config_bool, limited to the spellings that need
// no unit suffix; implicit is a key written without '='.
func parseBool(v string, implicit bool) (bool, error) {
	if implicit {
		return true, nil
	}
	switch strings.ToLower(v) {
	case "true", "yes", "on":
		return true, nil
	case "", "false", "no", "off":
		return false, nil
	}
	// git reads numbers with strtoimax in base 0: "010" is octal and
	// "08" an error, so only plain decimals are taken here.
	n, err := strconv.ParseInt(v, 10, 32)
	if err == nil && v[0] == '0' && v != "0" || err == nil && (v[0] == '+' || v[0] == '-') {
		err = strconv.ErrSyntax
	}
	if err != nil {
		return false, fmt.Errorf("bad boolean %q: %w", v, err)
	}
	return n != 0, nil
}

// knownExtensions are the repository extensions git 2.39 knows; with any
// other, git may refuse the repository.
var knownExtensions = map[string]bool{
	"extensions.noop": true, "extensions.noop-v1": true, "extensions.objectformat": true,
	"extensions.preciousobjects": true, "extensions.partialclone": true, "extensions.worktreeconfig": true,
}

// worktreeConfig reports whether the local file's entries make git read
// config.worktree, checking the repository format git would check.
func worktreeConfig(local []Entry) (bool, error) {
	wt := false
	for _, e := range local {
		switch {
		case e.Key == "core.repositoryformatversion":
			if e.Implicit || (e.Value != "0" && e.Value != "1") {
				return false, unsupported("core.repositoryformatversion = %q", e.Value)
			}
		case e.Key == "extensions.worktreeconfig":
			b, err := parseBool(e.Value, e.Implicit)
			if err != nil {
				return false, unsupported("extensions.worktreeConfig: %v", err)
			}
			wt = b
		case strings.HasPrefix(e.Key, "extensions.") && !knownExtensions[e.Key]:
			return false, unsupported("unknown repository extension %s", e.Key)
		}
	}
	return wt, nil
}
