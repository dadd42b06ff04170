package gitconfig

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
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
	data, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return gitDir, gitDir, nil
	case err != nil:
		return "", "", unsupported("read commondir: %v", err)
	}
	common := string(bytes.TrimRight(data, "\r\n"))
	if common == "" {
		return "", "", unsupported("%s/commondir is empty", gitDir)
	}
	if !filepath.IsAbs(common) {
		common = filepath.Join(gitDir, common)
	}
	return gitDir, common, nil
}

// discover walks up from dir as git does, looking for ".git". It returns
// ErrUnsupported for whatever git's discovery would weigh that it does
// not: a bare repository on the way, a file system boundary, a
// repository another user owns (git ignores it unless safe.directory
// says otherwise).
func discover(dir string) (string, error) {
	start, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", unsupported("%s: %v", dir, err)
	}
	dev, _, err := devOwner(start)
	if err != nil {
		return "", err
	}
	for d := start; ; {
		ddev, downer, err := devOwner(d)
		if err != nil {
			return "", err
		}
		if ddev != dev {
			return "", unsupported("%s is on another file system", d)
		}
		dotgit := filepath.Join(d, ".git")
		fi, err := os.Stat(dotgit)
		switch {
		case err == nil && fi.IsDir():
			if !isFile(filepath.Join(dotgit, "HEAD")) || !isDir(filepath.Join(dotgit, "objects")) || !isDir(filepath.Join(dotgit, "refs")) {
				return "", unsupported("%s is not a repository", dotgit)
			}
			return owned(dotgit, downer)
		case err == nil && fi.Mode().IsRegular():
			gitDir, err := readGitfile(dotgit)
			if err != nil {
				return "", err
			}
			if _, err := owned(dotgit, downer); err != nil {
				return "", err
			}
			return owned(gitDir, downer)
		case err == nil:
			return "", unsupported("%s is neither file nor directory", dotgit)
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			return "", unsupported("stat %s: %v", dotgit, err)
		}
		if isFile(filepath.Join(d, "HEAD")) {
			return "", unsupported("%s may be a bare repository", d)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", nil
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
