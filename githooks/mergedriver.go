package githooks

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/quote"
	"github.com/gitsentinel/sentinel/trailers"
)

// DriverRefusal is why the baseline's merge driver will not run: the
// driver takes each peak's maximum and the union of acceptances, so run by
// hand on a baseline and a file of one's own making it could lower peaks
// through a forged acceptance.
type DriverRefusal struct {
	// Reason says why, for people.
	Reason string
}

// Error returns the reason.
func (r *DriverRefusal) Error() string { return r.Reason }

// isMergeTemp reports whether name is one of the temporary files git writes
// for a merge driver's %O, %A and %B: ".merge_file_XXXXXX" in the directory
// it runs the driver in (merge-ll.c's create_temp), the X's mkstemp's
// letters and digits. No regexp: every sentinel run would compile it.
func isMergeTemp(name string) bool {
	rest, ok := strings.CutPrefix(name, ".merge_file_")
	if !ok || len(rest) != 6 {
		return false
	}
	for _, c := range []byte(rest) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// mergeStates are the files and directories of the git dir that show an
// operation that merges files is under way, for systems whose process
// tree sentinel cannot read. git holds index.lock while it merges for
// merge, cherry-pick, revert, stash apply and checkout -m (it writes
// MERGE_HEAD and CHERRY_PICK_HEAD only after a conflict); rebase and
// am -3 keep their directories.
var mergeStates = []string{"index.lock", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply", "sequencer"}

// gitDepth is how far above the driver git must be: git runs it directly
// or through `sh -c`; one wrapper script between is allowed.
const gitDepth = 3

// CheckMergeDriver refuses a call of the baseline's merge driver that git's
// merge machinery did not make: when an agent is running, when the files
// are not git's temporary ones in dir, or when no git process runs the
// driver (where the process tree cannot be read: when the git dir shows no
// operation that merges). Every git operation that merges files through
// drivers (merge, pull, rebase, cherry-pick, revert, am -3, stash apply,
// checkout -m, and merge-tree where the process tree can be read) passes.
// A refusal is a *DriverRefusal; the files are left as git wrote them.
func CheckMergeDriver(ctx context.Context, dir string, files []string, env trailers.Env) error {
	if d := trailers.Detect(env, nil); d != nil {
		return &DriverRefusal{fmt.Sprintf("the merge driver of %s merges for a person, and an AI agent is running (%s, from %s): the person merges, or resolves the conflict by hand and checks it with `sentinel check`", coverage.BaselinePath, d.Name, d.Source)}
	}
	for _, f := range files {
		if !isMergeTemp(f) {
			return &DriverRefusal{fmt.Sprintf("%s is not a file git wrote for a merge (.merge_file_XXXXXX): merge-baseline is git's merge driver for %s and is not run by hand; merge the branches with git, and it runs", quote.Path(f), coverage.BaselinePath)}
		}
		fi, err := os.Lstat(filepath.Join(dir, f))
		if err != nil || !fi.Mode().IsRegular() {
			return &DriverRefusal{fmt.Sprintf("%s is not a regular file git wrote for a merge: merge-baseline is git's merge driver and is not run by hand", quote.Path(f))}
		}
	}
	if parents := env.Processes.Parents(gitDepth); len(parents) > 0 {
		var names []string
		for _, p := range parents {
			if p.IsGit() {
				return nil
			}
			names = append(names, fmt.Sprintf("%d (%s)", p.PID, p.Name()))
		}
		return &DriverRefusal{fmt.Sprintf("no git process runs this merge driver (its parents: %s): merge-baseline runs only under git's merges (merge, rebase, cherry-pick, revert, am -3, stash apply, checkout -m)", strings.Join(names, ", "))}
	}
	gitDir, err := (&gitrepo.Git{Dir: dir}).GitDir(ctx)
	if err != nil {
		return fmt.Errorf("find the git dir: %w", err)
	}
	for _, s := range mergeStates {
		if _, err := os.Lstat(filepath.Join(gitDir, s)); err == nil {
			return nil
		}
	}
	return &DriverRefusal{"no git operation that merges is under way here (no index.lock, MERGE_HEAD, rebase or cherry-pick state): merge-baseline runs only under git's merges"}
}
