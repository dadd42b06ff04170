package githooks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gitsentinel/sentinel/ci"
	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/gitrepo"
)

// PrePushFailure is a pushed ref whose commits fail the checks.
type PrePushFailure struct {
	// LocalRef and RemoteRef are the ref being pushed and its destination.
	LocalRef, RemoteRef string
	// Report is the verdict on the commits the remote does not have.
	Report *ci.Report
}

// PrePush reads git's pre-push protocol (one "<local ref> <local sha>
// <remote ref> <remote sha>" line per ref) and runs the CI checks on the
// commits of each ref that the remote does not have yet, as the pre-commit
// framework computes them; deletions pass. It works the same for a new
// branch, an update, and a remote without a default branch.
func PrePush(ctx context.Context, dir, remote string, stdin io.Reader) ([]PrePushFailure, error) {
	data, err := io.ReadAll(stdin)
	if err != nil {
		return nil, fmt.Errorf("read the refs git pushes: %w", err)
	}
	opts, _, err := coverage.ProjectOptions(ctx, dir, coverage.Rev, "")
	if err != nil {
		return nil, err
	}
	var failures []PrePushFailure
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(line)
		if len(f) != 4 {
			continue
		}
		localRef, localSHA, remoteRef := f[0], f[1], f[2]
		if strings.Trim(localSHA, "0") == "" {
			continue // a deletion
		}
		ids, err := gitrepo.NotOnRemote(ctx, opts.Dir, localSHA, remote)
		if err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			continue
		}
		commits, err := gitrepo.CommitsByID(ctx, opts.Dir, ids)
		if err != nil {
			return nil, err
		}
		rep, err := ci.RunCommits(ctx, opts, localSHA, commits, false)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", localRef, err)
		}
		if !rep.OK() {
			failures = append(failures, PrePushFailure{LocalRef: localRef, RemoteRef: remoteRef, Report: rep})
		}
	}
	return failures, nil
}

// PreCommitResult is what the pre-commit hook decided.
type PreCommitResult struct {
	// Check is the ratchet's verdict, nil when the repository has no
	// baseline yet.
	Check *coverage.CheckResult
	// Lowered are the peaks the staged baseline holds below HEAD's without
	// an acceptance: a hand edit, or a revert of the commit that raised
	// them.
	Lowered []coverage.Lowering
	// Deleted reports that the commit removes the baseline HEAD has.
	Deleted bool
	// Raised reports that the hook raised peaks and staged the baseline.
	Raised bool
	// Temps are temporary files a killed sentinel left that the commit
	// would add; the commit is refused until they are unstaged.
	Temps []string
	// Unstaged are acceptances the work tree's baseline holds and the
	// index lacks, found when the commit is refused: an accept stopped
	// before it staged its work.
	Unstaged []coverage.Acceptance
	// Uncountable are the test files this commit stages that cannot be
	// counted for what they hold (binary, not text in their encoding, too
	// large): their tests are in the commit and not in the counts, which
	// a person should hear of even when the commit passes.
	Uncountable []coverage.SkippedFile
}

// PreCommit checks the index that is being committed (GIT_INDEX_FILE
// honoured) against the baseline it holds, and that baseline against
// HEAD's, by the rule sentinel ci applies to every commit: a peak falls
// only with an acceptance the same commit adds. Without the second check a
// test removed together with a hand-lowered peak would pass here and be
// caught only after the push. Counts above a peak raise it and stage the
// baseline into the same index, unless [ratchet] auto_raise is off, so the
// peak moves with the commit that earned it.
func PreCommit(ctx context.Context, dir string) (*PreCommitResult, error) {
	opts, cfg, err := coverage.ProjectOptions(ctx, dir, coverage.Index, "")
	if err != nil {
		return nil, err
	}
	// The cache is trusted here (Options.Verify is unset): a commit tried
	// again after a refusal would parse every staged test file again, and
	// sentinel ci, which counts changed files from their content, is where
	// a forged cache is caught.
	// HEAD's baseline is read by git beside the count.
	var head *coverage.Baseline
	var headErr error
	headRead := make(chan struct{})
	go func() {
		defer close(headRead)
		head, headErr = coverage.BaselineAt(ctx, dir, "HEAD")
	}()
	res, err := coverage.Check(ctx, opts)
	<-headRead
	if headErr != nil {
		// A broken baseline at HEAD is no reference; ci reports the commit
		// that broke it.
		var pe *coverage.BaselineError
		if !errors.As(headErr, &pe) {
			return nil, headErr
		}
		head = nil
	}
	if errors.Is(err, coverage.ErrNoBaseline) {
		return &PreCommitResult{Deleted: head != nil}, nil
	}
	if err != nil {
		return nil, err
	}
	out := &PreCommitResult{Check: res, Temps: res.Counts.Temps, Uncountable: stagedUncountable(ctx, res.Counts)}
	if len(out.Temps) > 0 {
		return out, nil
	}
	if !res.OK() {
		if out.Unstaged, err = coverage.UnstagedAcceptances(ctx, res.Counts.Root); err != nil {
			return nil, err
		}
	}
	staged := res.Baseline
	raise := res.OK() && res.Raised != nil && cfg.Ratchet.AutoRaise
	if raise {
		staged = res.Raised
	}
	if head != nil {
		out.Lowered = coverage.Lowered(head, staged)
	}
	if raise && len(out.Lowered) == 0 {
		// Raise what is staged now, read under the lock: an accept that
		// staged an acceptance since the check keeps it.
		_, err := coverage.UpdateBaseline(ctx, coverage.UpdateOptions{Root: res.Counts.Root, CommonDir: res.Counts.CommonDir, FromIndex: true, Stage: true},
			func(cur *coverage.Baseline) (*coverage.Baseline, error) {
				if cur == nil {
					return nil, nil
				}
				next, ok := cur.Raise(res.Rows)
				if !ok {
					return nil, nil
				}
				out.Raised = true
				return next, nil
			})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// stagedUncountable returns the files of an index's count skipped for what
// they hold that the commit changes; a file that was skipped before is the
// concern of the commit that staged it. Without HEAD to compare with, every
// such file is new.
func stagedUncountable(ctx context.Context, c *coverage.Counts) []coverage.SkippedFile {
	var out []coverage.SkippedFile
	for _, sf := range c.Skipped {
		if sf.Content {
			out = append(out, sf)
		}
	}
	if len(out) == 0 {
		return nil
	}
	changed, ok := gitrepo.StagedFiles(ctx, c.Root)
	if !ok {
		return out
	}
	kept := out[:0]
	for _, sf := range out {
		if changed[sf.Path] {
			kept = append(kept, sf)
		}
	}
	return kept
}
