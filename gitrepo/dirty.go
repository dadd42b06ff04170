package gitrepo

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gitsentinel/sentinel/internal/gitconfig"
)

// ErrDirtyUnknown says TrackedChanges could not tell whether the work tree
// holds changes: the repository, its index or a file is one it does not
// read, or telling would cost more than its bound.
var ErrDirtyUnknown = errors.New("whether the work tree holds changes is not known")

// TrackedChanges reports whether the work tree of the repository around
// dir holds work that `git merge --abort` and its kin would throw away: a
// tracked file whose content differs from the index, a file the index
// holds that is gone, a conflict not yet resolved, a file only intended to
// be added, or a conflict resolved and staged since the operation began
// (the index's resolve-undo records).
//
// It never runs git. A guard that asked `git status` would run whatever
// the repository's configuration names (core.fsmonitor, a clean filter)
// before it had decided anything: the repository is untrusted input. So
// the index is read in-process, a file's stat data is compared with the
// index's, and where they differ the file is hashed, as git hashes a blob
// without filters, against the index's blob id, reading at most maxHash
// bytes in all. A file a filter would change counts as changed: the answer
// errs toward changes. What it cannot read is ErrDirtyUnknown, wrapped.
//
// The index is not compared with HEAD: the front binary reads no objects,
// and a merge or rebase under way stages its own results there.
func TrackedChanges(dir string, maxHash int64) (bool, error) {
	if !canStat {
		return false, fmt.Errorf("%w: no stat cache reader on this system", ErrDirtyUnknown)
	}
	r, err := gitconfig.Discover(dir, os.LookupEnv)
	if err != nil {
		return false, fmt.Errorf("%w: %v", ErrDirtyUnknown, err)
	}
	ix, err := ReadIndex(&Info{Root: r.Root, CommonDir: r.CommonDir, ObjectFormat: r.ObjectFormat})
	if err != nil {
		return false, fmt.Errorf("%w: %v", ErrDirtyUnknown, err)
	}
	if ix.resolved {
		return true, nil
	}
	budget := maxHash
	for i := range ix.Entries {
		changed, err := ix.differs(i, &budget)
		if err != nil || changed {
			return changed, err
		}
	}
	return false, nil
}

// differs reports whether entry i's work-tree file differs from the
// index, hashing it where its stat data does not settle the question, and
// spending budget on the bytes hashed.
func (ix *Index) differs(i int, budget *int64) (bool, error) {
	e, st := &ix.Entries[i], &ix.stats[i]
	switch {
	case e.Mode == "160000":
		return false, nil // a submodule: git status --ignore-submodules
	case e.Stage != 0, ix.ext[i]&extIntentToAdd != 0:
		return true, nil
	}
	name := filepath.Join(ix.root, filepath.FromSlash(e.Path))
	now, ok := lstatData(name)
	if !ok {
		return ix.ext[i]&extSkipWorktree == 0, nil
	}
	if now.mode&modeTypeMask != st.mode&modeTypeMask || (now.mode^st.mode)&0o100 != 0 && st.mode&modeTypeMask == modeRegular {
		return true, nil // another type, or the executable bit changed
	}
	if sameStat(st, &now) && !ix.racy(st) {
		return false, nil
	}
	// The stat data differs (a file touched, copied back, checked out
	// again) or the entry is racily clean: the content decides.
	if int64(now.size) > *budget || now.size == ^uint32(0) {
		return false, fmt.Errorf("%w: %s is larger than the bytes left to hash", ErrDirtyUnknown, e.Path)
	}
	*budget -= int64(now.size)
	same, err := ix.hashMatches(e, name)
	return !same, err
}

// hashMatches hashes a work-tree file as git hashes a blob, without
// filters, and compares it with the entry's id. A file it cannot open the
// way it wants (a link where a file was, a FIFO) is ErrDirtyUnknown.
func (ix *Index) hashMatches(e *Entry, name string) (bool, error) {
	var h hash.Hash = sha1.New()
	if len(e.Blob) == 64 {
		h = sha256.New()
	}
	if e.Mode == "120000" {
		target, err := os.Readlink(name)
		if err != nil {
			return false, fmt.Errorf("%w: %v", ErrDirtyUnknown, err)
		}
		fmt.Fprintf(h, "blob %d\x00%s", len(target), target)
		return hex.EncodeToString(h.Sum(nil)) == e.Blob, nil
	}
	f, err := openRegular(name)
	if err != nil {
		return false, fmt.Errorf("%w: %s: %v", ErrDirtyUnknown, e.Path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return false, fmt.Errorf("%w: %v", ErrDirtyUnknown, err)
	}
	fmt.Fprintf(h, "blob %d\x00", fi.Size())
	if n, err := io.Copy(h, io.LimitReader(f, fi.Size())); err != nil || n != fi.Size() {
		return false, fmt.Errorf("%w: %s changed while it was read", ErrDirtyUnknown, e.Path)
	}
	return hex.EncodeToString(h.Sum(nil)) == e.Blob, nil
}

// TrackedUnchanged reports whether the file at p is one the repository
// around it tracks, unconflicted, with the content its index holds: what
// a person committed or staged, not changed since. Like TrackedChanges it
// never runs git, and what it cannot tell is ErrDirtyUnknown, wrapped.
func TrackedUnchanged(p string, maxHash int64) (bool, error) {
	if !canStat {
		return false, fmt.Errorf("%w: no stat cache reader on this system", ErrDirtyUnknown)
	}
	r, err := gitconfig.Discover(filepath.Dir(p), os.LookupEnv)
	if err != nil {
		return false, fmt.Errorf("%w: %v", ErrDirtyUnknown, err)
	}
	rel, err := filepath.Rel(r.Root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false, nil
	}
	rel = filepath.ToSlash(rel)
	ix, err := ReadIndex(&Info{Root: r.Root, CommonDir: r.CommonDir, ObjectFormat: r.ObjectFormat})
	if err != nil {
		return false, fmt.Errorf("%w: %v", ErrDirtyUnknown, err)
	}
	i := sort.Search(len(ix.Entries), func(i int) bool { return ix.Entries[i].Path >= rel })
	if i == len(ix.Entries) || ix.Entries[i].Path != rel || ix.Entries[i].Stage != 0 {
		return false, nil
	}
	changed, err := ix.differs(i, &maxHash)
	return !changed && err == nil, err
}
