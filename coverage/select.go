package coverage

import (
	"context"

	"github.com/gitsentinel/sentinel/coverage/runners"
	"github.com/gitsentinel/sentinel/gitrepo"
)

// snapshotTree is entries of a snapshot (its own, or the whole tree they
// are a part of) as the runners read them.
type snapshotTree struct {
	s       *snapshot
	entries []entry
}

// Len is the number of entries.
func (t snapshotTree) Len() int { return len(t.entries) }

// File is the i-th entry's path, and whether its mode is a regular file's.
func (t snapshotTree) File(i int) (string, bool) {
	e := &t.entries[i]
	return e.path, e.mode == "" || e.mode == "100644" || e.mode == "100755"
}

// Read reads the i-th entry.
func (t snapshotTree) Read(ctx context.Context, i int) ([]byte, error) {
	return t.s.read(ctx, &t.entries[i])
}

// newSelection reads the snapshot's package.json files and runner configs.
func newSelection(ctx context.Context, s *snapshot) *runners.Selection {
	return runners.New(ctx, snapshotTree{s, s.entries})
}

// selectionAt returns the selection of the revision's whole tree for a
// snapshot that lists only the files a change touches, since the configs
// that decide are seldom among them. It is nil, for the snapshot's own,
// when no file needs it or the tree cannot be listed.
func selectionAt(ctx context.Context, s *snapshot, rev string) *runners.Selection {
	need := false
	for _, e := range s.entries {
		need = need || runners.Selected(e.path)
	}
	if !need || rev == "" {
		return nil
	}
	es, err := gitrepo.TreeEntries(ctx, s.root, rev)
	if err != nil {
		return nil
	}
	full := &snapshot{root: s.root, info: s.info, objects: s.objects}
	for _, e := range es {
		full.entries = append(full.entries, entry{path: e.Path, blob: e.Blob, mode: e.Mode})
	}
	return newSelection(ctx, full)
}
