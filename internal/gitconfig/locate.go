package gitconfig

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// locate finds the git dir and the common dir git would use in dir,
// or two empty strings outside a repository.
func locate(dir string, env Env) (gitDir, commonDir string, err error) {
	base := dir
	if base == "" {
		if base, err = os.Getwd(); err != nil {
			return "", "", unsupported("current directory: %v", err)
		}
	} else if base, err = filepath.Abs(base); err != nil {
		return "", "", unsupported("%s: %v", dir, err)
	}
	if v, ok := env("GIT_DIR"); ok {
		if v == "" {
			return "", "", unsupported("GIT_DIR is empty")
		}
		gitDir = v
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(base, gitDir)
		}
		if fi, err := os.Stat(gitDir); err != nil || !fi.IsDir() {
			return "", "", unsupported("GIT_DIR %s is not a directory", gitDir)
		}
	} else if gitDir, err = discover(base); err != nil || gitDir == "" {
		return "", "", err
	}
	if v, ok := env("GIT_COMMON_DIR"); ok {
		if v == "" {
			return "", "", unsupported("GIT_COMMON_DIR is empty")
		}
		if !filepath.IsAbs(v) {
			v = filepath.Join(base, v)
		}
		return gitDir, v, nil
	}
	common, err := commonDirOf(gitDir)
	if err != nil {
		return "", "", err
	}
	return gitDir, common, nil
}

// Repo is where git's discovery finds the repository of a directory.
type Repo struct {
	// Root is the top directory of the work tree.
	Root string
	// CommonDir is the git dir every worktree of the repository shares.
	CommonDir string
	// ObjectFormat is "sha1" or "sha256".
	ObjectFormat string
}

// Discover finds the repository containing dir, as `git rev-parse
// --show-toplevel --git-common-dir --show-object-format` would, without
// a process. It returns an error wrapping ErrUnsupported wherever git's
// answer might differ or git would refuse: the environment redirects git,
// dir is reached through a symbolic link or lies inside a git dir, the
// repository is bare, another user's, on another file system, or its
// configuration sets a work tree, a bare flag, an unknown extension or
// an include. Outside any repository it is ErrUnsupported too: git's own
// error is the one to show.
func Discover(dir string, env Env) (*Repo, error) {
	if env == nil {
		env = os.LookupEnv
	}
	for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM"} {
		if _, ok := env(k); ok {
			return nil, unsupported("%s is set", k)
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, unsupported("%s: %v", dir, err)
	}
	// git works from the physical directory; through a link, the paths it
	// prints would be spelt otherwise.
	if real, err := filepath.EvalSymlinks(abs); err != nil || real != abs {
		return nil, unsupported("%s is reached through a symbolic link", abs)
	}
	for _, part := range strings.Split(filepath.ToSlash(abs), "/") {
		if part == ".git" {
			return nil, unsupported("%s is inside a git dir", abs)
		}
	}
	gitDir, root, err := discoverRoot(abs)
	if err != nil {
		return nil, err
	}
	if gitDir == "" {
		return nil, unsupported("%s is not in a repository", abs)
	}
	common, err := commonDirOf(gitDir)
	if err != nil {
		return nil, err
	}
	local, err := readFile(filepath.Join(common, "config"))
	if err != nil {
		return nil, err
	}
	wt, err := worktreeConfig(local)
	if err != nil {
		return nil, err
	}
	if wt {
		if ok, _ := exists(filepath.Join(gitDir, "config.worktree")); ok {
			return nil, unsupported("%s has a worktree configuration", gitDir)
		}
	}
	format, version := "sha1", "0"
	for _, e := range local {
		switch e.Key {
		case "core.bare":
			// git init writes core.bare = false in every work tree.
			if b, err := parseBool(e.Value, e.Implicit); err != nil || b {
				return nil, unsupported("%s sets core.bare = %q", common, e.Value)
			}
		case "core.worktree":
			return nil, unsupported("%s sets %s", common, e.Key)
		case "core.repositoryformatversion":
			version = e.Value
		case "extensions.objectformat":
			format = strings.ToLower(e.Value)
			if e.Implicit || format != "sha1" && format != "sha256" {
				return nil, unsupported("extensions.objectFormat = %q", e.Value)
			}
		}
	}
	if format != "sha1" && version != "1" {
		return nil, unsupported("extensions.objectFormat in format version %s", version)
	}
	return &Repo{Root: root, CommonDir: filepath.Clean(common), ObjectFormat: format}, nil
}

// commonDirOf reads a git dir's commondir file, as a linked worktree has.
func commonDirOf(gitDir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return gitDir, nil
	case err != nil:
		return "", unsupported("read commondir: %v", err)
	}
	common := string(bytes.TrimRight(data, "\r\n"))
	if common == "" {
		return "", unsupported("%s/commondir is empty", gitDir)
	}
	if !filepath.IsAbs(common) {
		common = filepath.Join(gitDir, common)
	}
	return common, nil
}

// discover walks up from dir as git does, looking for ".git". It returns
// ErrUnsupported for whatever git's discovery would weigh that it does
// not: a bare repository on the way, a file system boundary, a
// repository another user owns (git ignores it unless safe.directory
// says otherwise).
func discover(dir string) (string, error) {
	gitDir, _, err := discoverRoot(dir)
	return gitDir, err
}

// discoverRoot is discover, also returning the directory that holds
// ".git": the work tree's root.
func discoverRoot(dir string) (gitDir, root string, err error) {
	start, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", "", unsupported("%s: %v", dir, err)
	}
	dev, _, err := devOwner(start)
	if err != nil {
		return "", "", err
	}
	for d := start; ; {
		ddev, downer, err := devOwner(d)
		if err != nil {
			return "", "", err
		}
		if ddev != dev {
			return "", "", unsupported("%s is on another file system", d)
		}
		dotgit := filepath.Join(d, ".git")
		fi, err := os.Stat(dotgit)
		switch {
		case err == nil && fi.IsDir():
			if !isFile(filepath.Join(dotgit, "HEAD")) || !isDir(filepath.Join(dotgit, "objects")) || !isDir(filepath.Join(dotgit, "refs")) {
				return "", "", unsupported("%s is not a repository", dotgit)
			}
			g, err := owned(dotgit, downer)
			return g, d, err
		case err == nil && fi.Mode().IsRegular():
			gitDir, err := readGitfile(dotgit)
			if err != nil {
				return "", "", err
			}
			if _, err := owned(dotgit, downer); err != nil {
				return "", "", err
			}
			g, err := owned(gitDir, downer)
			return g, d, err
		case err == nil:
			return "", "", unsupported("%s is neither file nor directory", dotgit)
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			return "", "", unsupported("stat %s: %v", dotgit, err)
		}
		if isFile(filepath.Join(d, "HEAD")) {
			return "", "", unsupported("%s may be a bare repository", d)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", nil
		}
		d = parent
	}
}

// owned returns path when it and the work tree (owner) belong to the
// current user, as git's ownership check requires.
func owned(path string, owner uint32) (string, error) {
	_, uid, err := devOwner(path)
	if err != nil {
		return "", err
	}
	me := uint32(os.Geteuid()) // -1 on Windows, never reached there
	if uid != me || owner != me {
		return "", unsupported("%s is owned by another user", path)
	}
	return path, nil
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// WorkTreeGitDir returns the git dir of the work tree whose top directory
// is root: root/.git when it is a directory, or the directory its "gitdir:"
// file names (a linked worktree, a submodule). Anything else wraps
// ErrUnsupported.
func WorkTreeGitDir(root string) (string, error) {
	dotgit := filepath.Join(root, ".git")
	fi, err := os.Lstat(dotgit)
	switch {
	case err != nil:
		return "", unsupported("%s: %v", dotgit, err)
	case fi.IsDir():
		return dotgit, nil
	case fi.Mode().IsRegular():
		return readGitfile(dotgit)
	}
	return "", unsupported("%s is neither file nor directory", dotgit)
}

// readGitfile reads a ".git" file: "gitdir: PATH", PATH relative to the
// file's directory.
func readGitfile(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", unsupported("read %s: %v", path, err)
	}
	rest, ok := bytes.CutPrefix(data, []byte("gitdir: "))
	if !ok {
		return "", unsupported("%s is not a gitfile", path)
	}
	dir := string(bytes.TrimRight(rest, "\r\n"))
	if dir == "" {
		return "", unsupported("%s names no git dir", path)
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(path), dir)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", unsupported("%s names %s, not a directory", path, dir)
	}
	return dir, nil
}
