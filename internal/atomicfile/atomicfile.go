// Package atomicfile replaces files atomically: the new content goes to a
// temporary file in the same directory, which is synced and renamed over the
// old one, so a crash leaves either the old file or the new one, never half
// of either.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile replaces the file at path with data, durably: the data reaches
// the disk before the rename. An existing file keeps its mode; a new one
// gets perm. A symbolic link is followed, so the link stays a link and its
// target is replaced. On error the original is untouched.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return write(path, data, perm, true)
}

// WriteTransient replaces a file as WriteFile does, atomically, but without
// waiting for the disk. It is for files that live only as long as one git
// command, such as the commit message a hook edits: git does not sync them
// either, and a power cut loses the commit they belong to anyway.
func WriteTransient(path string, data []byte, perm fs.FileMode) error {
	return write(path, data, perm, false)
}

// WriteFileMode replaces a file as WriteFile does, with exactly the given
// mode rather than the old file's: for hooks, which must be executable.
func WriteFileMode(path string, data []byte, mode fs.FileMode) error {
	return writeMode(path, data, mode, true, true)
}

func write(path string, data []byte, perm fs.FileMode, durable bool) error {
	return writeMode(path, data, perm, durable, false)
}

func writeMode(path string, data []byte, perm fs.FileMode, durable, force bool) (err error) {
	target := path
	if resolved, rerr := filepath.EvalSymlinks(path); rerr == nil {
		target = resolved
	} else if !errors.Is(rerr, fs.ErrNotExist) {
		return fmt.Errorf("write %s: %w", path, rerr)
	}
	mode := perm
	if st, serr := os.Stat(target); serr == nil {
		if !st.Mode().IsRegular() {
			return fmt.Errorf("write %s: not a regular file", path)
		}
		if !force {
			mode = st.Mode().Perm()
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".sentinel-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Chmod(mode); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if durable {
		if err = tmp.Sync(); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), target); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
