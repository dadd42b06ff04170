//go:build sentinel_front

package gitrepo

import "errors"

// errNoStore says that this binary reads objects only through git: the
// front binary links no object storage, and the few objects it reads go
// through git cat-file.
var errNoStore = errors.New("no in-process object store in this binary")

// store is absent from the front binary.
type store struct{}

func openStore(string) *store { return nil }

func (s *store) readBlob(string) ([]byte, bool, error) { return nil, false, nil }

func (s *store) blobSize(string) (int64, bool) { return 0, false }

func rangeStore(string, []string) ([]Commit, error) { return nil, errNoStore }

func commitsStore(string, []string) ([]Commit, error) { return nil, errNoStore }
