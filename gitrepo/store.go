//go:build !sentinel_front

package gitrepo

import (
	"errors"
	"fmt"
	"io"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// store reads objects in-process through go-git's storage, which spares a
// count or a range of many commits a git process and a pipe per object.
type store struct {
	st *filesystem.Storage
}

// openStore opens the object store of a SHA-1 repository's common dir.
func openStore(commonDir string) *store {
	return &store{st: filesystem.NewStorageWithOptions(osfs.New(commonDir), cache.NewObjectLRU(16<<20), filesystem.Options{})}
}

// readBlob returns a blob's content; found is false when go-git cannot
// find the object, which git may still get.
func (s *store) readBlob(id string) (b []byte, found bool, err error) {
	obj, err := s.st.EncodedObject(plumbing.BlobObject, plumbing.NewHash(id))
	if err != nil {
		return nil, false, nil
	}
	r, err := obj.Reader()
	if err != nil {
		return nil, false, nil
	}
	defer r.Close()
	if b, err = io.ReadAll(r); err != nil {
		return nil, true, fmt.Errorf("read blob %s: %w", id, err)
	}
	return b, true, nil
}

// blobSize returns an object's size from its header, without its
// content; found is false when go-git cannot tell.
func (s *store) blobSize(id string) (size int64, found bool) {
	size, err := s.st.EncodedObjectSize(plumbing.NewHash(id))
	return size, err == nil
}

// commitStorage opens a common dir's objects for reading commits. An
// object larger than readCommit reads whole comes back unread, as a
// stream: go-git would otherwise inflate a commit of any size into memory
// before readCommit could bound the read.
func commitStorage(commonDir string) *filesystem.Storage {
	return filesystem.NewStorageWithOptions(osfs.New(commonDir), cache.NewObjectLRUDefault(),
		filesystem.Options{LargeObjectThreshold: MaxMessage + maxCommitHeader})
}

// rangeStore lists the commits of hashes[0] minus hashes[1:] in-process.
func rangeStore(commonDir string, hashes []string) ([]Commit, error) {
	return rangeStorage(commitStorage(commonDir), hashes)
}

// commitsStore reads the given commits in-process, in the order given.
func commitsStore(commonDir string, ids []string) ([]Commit, error) {
	st := commitStorage(commonDir)
	out := make([]Commit, 0, len(ids))
	for _, id := range ids {
		c, err := readStored(st, plumbing.NewHash(id))
		if err != nil {
			return nil, err
		}
		out = append(out, c.Commit)
	}
	return out, nil
}

// readStored reads one commit from go-git's storage, bounded as
// readCommit bounds it.
func readStored(st storer.EncodedObjectStorer, h plumbing.Hash) (*rawCommit, error) {
	obj, err := st.EncodedObject(plumbing.CommitObject, h)
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", h, err)
	}
	r, err := obj.Reader()
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", h, err)
	}
	defer r.Close()
	return readCommit(h.String(), r, obj.Size())
}

// rangeStorage lists hashes[0] minus hashes[1:] with go-git's storage.
func rangeStorage(st storer.EncodedObjectStorer, hashes []string) ([]Commit, error) {
	exclude := map[plumbing.Hash]bool{}
	for _, h := range hashes[1:] {
		if err := walk(st, plumbing.NewHash(h), nil, func(c *rawCommit) { exclude[plumbing.NewHash(c.Hash)] = true }); err != nil {
			return nil, err
		}
	}
	var out []Commit
	err := walk(st, plumbing.NewHash(hashes[0]), exclude, func(c *rawCommit) { out = append(out, c.Commit) })
	if err != nil {
		return nil, err
	}
	// walk visits children before parents; reports read oldest first.
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

// walk visits every commit reachable from start and not in stop, each once.
// A shallow clone's missing parents end the walk quietly, as in git.
func walk(st storer.EncodedObjectStorer, start plumbing.Hash, stop map[plumbing.Hash]bool, visit func(*rawCommit)) error {
	seen := map[plumbing.Hash]bool{}
	stack := []plumbing.Hash{start}
	for len(stack) > 0 {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[h] || stop[h] {
			continue
		}
		seen[h] = true
		c, err := readStored(st, h)
		if errors.Is(err, plumbing.ErrObjectNotFound) && h != start {
			continue
		}
		if err != nil {
			return err
		}
		visit(c)
		for i := len(c.Parents) - 1; i >= 0; i-- {
			stack = append(stack, plumbing.NewHash(c.Parents[i]))
		}
	}
	return nil
}
