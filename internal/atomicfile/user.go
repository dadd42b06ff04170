package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// UserTarget returns the file to write for a user-level path such as
// ~/.claude/settings.json. A symbolic link there is followed only to a
// file the user owns that is not inside a git repository, where a
// repository's content could have put it; anything else is an error that
// names the link.
func UserTarget(path string) (string, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, nil
	}
	if err != nil {
		return "", err
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		if !fi.Mode().IsRegular() {
			return "", &LinkError{Path: path, What: "not a regular file"}
		}
		return path, nil
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", fmt.Errorf("%s is a symbolic link that does not resolve: %w", path, err)
	}
	owned := target
	if _, err := os.Stat(target); errors.Is(err, fs.ErrNotExist) {
		owned = filepath.Dir(target)
	}
	st, err := os.Stat(owned)
	if err != nil {
		return "", err
	}
	if uid, ok := ownerOf(st); ok && uid != os.Getuid() {
		return "", fmt.Errorf("%s links to %s, which another user owns; sentinel does not write through it: replace the link with a file", path, target)
	}
	for dir := filepath.Dir(target); ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return "", fmt.Errorf("%s links to %s, inside the git repository %s; sentinel does not write through it: replace the link with a file", path, target, dir)
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return target, nil
}
