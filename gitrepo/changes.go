package gitrepo

import (
	"bytes"
	"context"
	"fmt"
	"strings"
)

// The argv of the comparisons that say which files a snapshot changes
// from its reference, with both sides' blobs.
var (
	// ArgvChangesStaged compares the index (GIT_INDEX_FILE honoured) with
	// HEAD.
	ArgvChangesStaged = []string{"diff-index", "--cached", "-z", "--no-renames", "HEAD", "--"}
	// ArgvChangesWorkTree compares the work tree with HEAD.
	ArgvChangesWorkTree = []string{"diff-index", "-z", "--no-renames", "HEAD", "--"}
	// ArgvChangesCommit compares a commit with a parent; the two
	// revisions and "--" follow.
	ArgvChangesCommit = []string{"diff-tree", "-r", "-z", "--no-renames", "--no-commit-id"}
)

// Change is one file a snapshot changes from its reference.
type Change struct {
	// Path is the slash path.
	Path string
	// OldMode and OldBlob are the reference's; a zero mode is a file the
	// reference lacks.
	OldMode, OldBlob string
	// NewMode and NewBlob are the snapshot's; a zero blob is a work-tree
	// file git has not hashed.
	NewMode, NewBlob string
}

// Changes lists the files that differ between a snapshot and its
// reference: argv is one of the ArgvChanges values, and revs the
// revisions ArgvChangesCommit needs.
func Changes(ctx context.Context, root string, argv []string, revs ...string) ([]Change, error) {
	extra := revs
	if len(revs) > 0 {
		extra = append(append([]string(nil), revs...), "--")
	}
	out, err := (&Git{Dir: root}).run(ctx, nil, argv, extra...)
	if err != nil {
		return nil, err
	}
	return parseRaw(out)
}

// parseRaw reads git's raw diff format with -z: ":oldmode newmode old new
// status" NUL path NUL, for each file.
func parseRaw(out []byte) ([]Change, error) {
	var cs []Change
	fields := bytes.Split(out, []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		head := string(fields[i])
		if head == "" {
			break
		}
		f := strings.Fields(strings.TrimPrefix(head, ":"))
		if !strings.HasPrefix(head, ":") || len(f) < 5 {
			return nil, fmt.Errorf("git diff: unexpected output %q", head)
		}
		cs = append(cs, Change{Path: string(fields[i+1]), OldMode: f[0], NewMode: f[1], OldBlob: f[2], NewBlob: f[3]})
	}
	return cs, nil
}
