// Package atomicfile reads and replaces files without surprises. A write
// goes to a temporary file in the same directory, which is synced and
// renamed over the old one, so a crash leaves either the old file or the
// new one, never half of either. A repository is content from someone
// else, so writes and reads below a root never follow a symbolic link in
// any part of the path: a link where a file or directory is expected is an
// error that names it. A temporary file is locked while it is written, so
// that a later run can tell one left by a killed process from one being
// written right now, and remove it.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/gitsentinel/sentinel/internal/sharedperm"
)

// TempMarker is part of the name of every temporary file this package
// creates: "." + the target's name + TempMarker + a random suffix.
const TempMarker = ".sentinel-tmp-"

// Options say how a file is replaced.
type Options struct {
	// Perm is the mode a new file is created with, as open(2) takes it:
	// the umask (or the directory's default ACL) trims it, so that the
	// file ends with the mode a plain create would give it. An existing
	// file keeps its own unless ForceMode is set.
	Perm fs.FileMode
	// ForceMode gives the file exactly Perm, even if it existed and
	// whatever the umask: hooks must be executable.
	ForceMode bool
	// Shared is core.sharedRepository, for a file below the git
	// directory: the mode the rules above give is adjusted as git
	// adjusts its own files' (sharedperm.Shared.File), and a directory
	// MkdirAll creates as git's (sharedperm.Shared.Dir).
	Shared sharedperm.Shared
	// Transient skips waiting for the disk: for files that live only as
	// long as one git command, such as the commit message a hook edits,
	// and for caches. git does not sync them either.
	Transient bool
	// MkdirAll creates the missing directories below the root.
	MkdirAll bool
	// ReplaceLink replaces a symbolic link at the target with the file,
	// rather than refusing it; the link's target is never touched. For a
	// git hook that a link provided, which the caller has kept aside.
	ReplaceLink bool
}

// LinkError is a symbolic link, or another non-regular file, where sentinel
// expects a regular file or a directory it may write into.
type LinkError struct {
	// Path is the offending path, as the caller named it.
	Path string
	// What says what was found there.
	What string
}

// Error names the path and what is there.
func (e *LinkError) Error() string {
	return fmt.Sprintf("%s is %s; sentinel reads and writes only regular files there, and follows no links", e.Path, e.What)
}

// ErrTooLarge is returned by reads of a file over the caller's limit.
var ErrTooLarge = errors.New("file is larger than sentinel reads")

// WriteFile replaces the file at path with data, durably, keeping an
// existing file's mode (a new one gets perm, less the umask). A symbolic
// link at path is an error: sentinel never writes through a link it did
// not make. The directories above path are taken as they are.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return WriteIn(filepath.Dir(path), filepath.Base(path), data, Options{Perm: perm})
}

// WriteTransient replaces a file as WriteFile does, without waiting for
// the disk.
func WriteTransient(path string, data []byte, perm fs.FileMode) error {
	return WriteIn(filepath.Dir(path), filepath.Base(path), data, Options{Perm: perm, Transient: true})
}

// WriteFileMode replaces a file as WriteFile does, with exactly the given
// mode rather than the old file's.
func WriteFileMode(path string, data []byte, mode fs.FileMode) error {
	return WriteIn(filepath.Dir(path), filepath.Base(path), data, Options{Perm: mode, ForceMode: true})
}

// ReadFile reads the regular file at path, refusing a symbolic link at
// path and a file over limit bytes (limit <= 0 means no limit).
func ReadFile(path string, limit int64) ([]byte, error) {
	return ReadIn(filepath.Dir(path), filepath.Base(path), limit)
}

// splitRel cleans a slash- or OS-separated path relative to a root and
// refuses one that leaves it.
func splitRel(rel string) ([]string, error) {
	clean := filepath.ToSlash(filepath.Clean(filepath.FromSlash(rel)))
	if clean == "." || clean == "" || strings.HasPrefix(clean, "/") || clean == ".." || strings.HasPrefix(clean, "../") {
		return nil, fmt.Errorf("%s is not a file below the root", rel)
	}
	return strings.Split(clean, "/"), nil
}

// IsTemp reports whether name (a base name) is a temporary file of this
// package, or of the sentinel releases that named them
// ".NAME.sentinel-DIGITS".
func IsTemp(name string) bool {
	if !strings.HasPrefix(name, ".") {
		return false
	}
	if strings.Contains(name, TempMarker) {
		return true
	}
	i := strings.LastIndex(name, ".sentinel-")
	if i <= 0 {
		return false
	}
	digits := name[i+len(".sentinel-"):]
	if digits == "" {
		return false
	}
	for _, r := range digits {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
