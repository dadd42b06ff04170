package coverage

import (
	"context"
	"strings"
	"sync"

	"github.com/gitsentinel/sentinel/gitrepo"
)

// distrusted returns which blobs the cache may not answer for under
// o.Verify: both sides of every file that differs between the trusted
// revision and the snapshot, as git lists the changes between the two. The listing runs beside the
// count, and the first question waits for it; an error, or a revision
// that does not exist, trusts nothing, and so does a work-tree count, whose
// changed files git lists without their blob ids.
func distrusted(ctx context.Context, root string, o Options) func(blob string) bool {
	if o.Verify == "-" {
		return func(string) bool { return true }
	}
	run := o.changes
	if o.Mode != Index || o.Verify != "HEAD" || run == nil {
		run = &changesRun{done: make(chan struct{})}
		go func() {
			defer close(run.done)
			switch o.Mode {
			case Index:
				if o.Verify != "HEAD" {
					run.noRef = true // only HEAD is compared with the index
					return
				}
				run.changes, run.err = gitrepo.Changes(ctx, root, gitrepo.ArgvChangesStaged)
			case Rev:
				run.changes, run.err = gitrepo.Changes(ctx, root, gitrepo.ArgvChangesCommit, o.Verify, o.Rev)
			default:
				run.noRef = true
			}
		}()
	}
	var once sync.Once
	var all bool
	var fresh map[string]bool
	return func(blob string) bool {
		once.Do(func() {
			changes, _, err := run.wait()
			if err != nil || run.noRef {
				all = true
				return
			}
			// Both sides of a changed file: the new side's count decides the
			// figures, and the old side's which of its tests were lost, so a
			// forged count of the old blob without a test would hide its
			// removal.
			fresh = make(map[string]bool, 2*len(changes))
			for _, ch := range changes {
				for _, b := range []string{ch.NewBlob, ch.OldBlob} {
					if strings.Trim(b, "0") != "" {
						fresh[b] = true
					}
				}
			}
		})
		return all || fresh[blob]
	}
}
