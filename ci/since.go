package ci

import (
	"context"
	"fmt"

	"github.com/gitsentinel/sentinel/config"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/quote"
)

// sinceAt reads [ci] since as the configuration of rev's tree holds it; ""
// when it holds none.
func sinceAt(ctx context.Context, root, rev string) (string, error) {
	spec := rev + ":" + config.File
	blobs, err := gitrepo.ReadSpecs(ctx, root, []string{spec})
	if err != nil {
		return "", err
	}
	if blobs[spec] == nil {
		return "", nil
	}
	return config.ReadSince(gitrepo.ShortID(rev)+":"+config.File, blobs[spec])
}

// judged returns the commits of a range that [ci] since, as head holds it,
// leaves to judge: those after it. History before the commit sentinel was
// adopted at is never held to rules it did not have; the acceptances and
// peaks of the commits after it are, as their parents' baselines say. It
// also returns the setting and how many commits it left out. A since that
// is not in head's history is an error: it would judge nothing, or
// something else than the branch.
func judged(ctx context.Context, root, head string, commits []gitrepo.Commit) (kept []gitrepo.Commit, since string, skipped int, err error) {
	if since, err = sinceAt(ctx, root, head); err != nil || since == "" {
		return commits, since, 0, err
	}
	ok, err := gitrepo.IsAncestor(ctx, root, since, head)
	if err != nil {
		return nil, "", 0, fmt.Errorf("%s: [ci] since names %s, which this clone does not have: run `git fetch --unshallow` (or `git fetch origin %s`)", config.File, gitrepo.ShortID(since), since)
	}
	if !ok {
		return nil, "", 0, fmt.Errorf("%s: [ci] since names %s, which is not in the history of %s: set it to a commit of this branch (`git rev-parse HEAD`), in a commit of your own", config.File, gitrepo.ShortID(since), quote.Name(gitrepo.ShortID(head)))
	}
	after, err := gitrepo.Range(ctx, root, since+".."+head)
	if err != nil {
		return nil, "", 0, err
	}
	in := make(map[string]bool, len(after))
	for _, c := range after {
		in[c.Hash] = true
	}
	for _, c := range commits {
		if in[c.Hash] {
			kept = append(kept, c)
		}
	}
	return kept, since, len(commits) - len(kept), nil
}

// sinceMoved says how a commit moves [ci] since later, which judges less:
// from nothing (every commit) to a commit, or to one that is not an
// ancestor of where it was. Moving it earlier, or removing it, judges more
// and is anyone's; a merge that keeps one parent's setting changes nothing.
func sinceMoved(ctx context.Context, root string, trusts map[string]trust, c gitrepo.Commit) (string, error) {
	if len(c.Parents) == 0 {
		return "", nil
	}
	cur := trusts[c.Hash].since
	for _, p := range c.Parents {
		if trusts[p].since == cur {
			return "", nil
		}
	}
	if cur == "" {
		return "", nil
	}
	before := trusts[c.Parents[0]].since
	if before == "" {
		return fmt.Sprintf("it sets [ci] since to %s, so that the commits before it are not judged", gitrepo.ShortID(cur)), nil
	}
	earlier, err := gitrepo.IsAncestor(ctx, root, cur, before)
	if err != nil || earlier {
		// A since the clone does not have cannot be judged earlier.
		return "", err
	}
	return fmt.Sprintf("it moves [ci] since from %s to %s, so that fewer commits are judged", gitrepo.ShortID(before), gitrepo.ShortID(cur)), nil
}
