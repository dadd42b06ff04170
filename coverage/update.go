package coverage

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/atomicfile"
)

// MaxBaselineSize bounds a read of the baseline: a file far past any real
// project's baseline is not one, and reading it whole could exhaust memory.
const MaxBaselineSize = 16 << 20

// StagedBaselineName names the index's copy of the baseline in messages.
const StagedBaselineName = BaselinePath + " (staged)"

// UpdateOptions say which baseline an update reads and where it writes.
type UpdateOptions struct {
	// Root is the work tree's root; CommonDir the git common directory,
	// which holds the lock.
	Root, CommonDir string
	// FromIndex starts from the staged baseline rather than the work
	// tree's: the pre-commit hook raises what is being committed.
	FromIndex bool
	// Stage puts the result in the index as well as the work tree.
	Stage bool
	// Create writes a baseline only where there is none; an existing one
	// is left as it is and passed to update, which should return nil.
	Create bool
}

// UpdateBaseline is the one read-modify-write of the baseline. Under the
// repository's lock it reads the current baseline (nil when there is
// none), passes it to update, and writes what update returns to the work
// tree and, with Stage, the index; nil means nothing to write. Reading
// inside the lock is what keeps two updates at once from losing one.
func UpdateBaseline(ctx context.Context, o UpdateOptions, update func(*Baseline) (*Baseline, error)) (*Baseline, error) {
	unlock, err := gitrepo.LockRepository(ctx, o.Root, o.CommonDir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	cur, err := readBaseline(ctx, o.Root, o.FromIndex)
	if err != nil {
		return nil, err
	}
	next, err := update(cur)
	if err != nil || next == nil {
		return cur, err
	}
	data := next.Marshal()
	if err := atomicfile.WriteIn(o.Root, BaselinePath, data, atomicfile.Options{Perm: 0o666, MkdirAll: true}); err != nil {
		return nil, err
	}
	if o.Stage {
		if err := gitrepo.Stage(ctx, o.Root, BaselinePath, data); err != nil {
			return nil, err
		}
	}
	return next, nil
}

// readBaseline reads and parses the work tree's or the index's baseline;
// nil, nil when there is none.
func readBaseline(ctx context.Context, root string, fromIndex bool) (*Baseline, error) {
	data, name, err := baselineBytes(ctx, root, fromIndex)
	if err != nil || data == nil {
		return nil, err
	}
	return ParseBaseline(name, data)
}

func baselineBytes(ctx context.Context, root string, fromIndex bool) ([]byte, string, error) {
	if fromIndex {
		spec := ":" + BaselinePath
		blobs, err := gitrepo.ReadSpecs(ctx, root, []string{spec})
		if err != nil {
			return nil, "", err
		}
		return blobs[spec], StagedBaselineName, nil
	}
	data, err := ReadWorkTreeBaseline(root)
	return data, BaselinePath, err
}

// ReadWorkTreeBaseline reads the work tree's baseline without following a
// link and within MaxBaselineSize; nil, nil when there is none.
func ReadWorkTreeBaseline(root string) ([]byte, error) {
	data, err := atomicfile.ReadIn(root, BaselinePath, MaxBaselineSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w; restore it: run `git checkout HEAD -- %s`", err, BaselinePath)
	}
	return data, nil
}

// unstagedAcceptances returns the acceptances the work tree's baseline b
// holds that the staged one lacks: what an accept that was stopped before
// it staged its work left behind.
func unstagedAcceptances(ctx context.Context, root string, b *Baseline) ([]Acceptance, error) {
	staged, err := readBaseline(ctx, root, true)
	if err != nil {
		var be *BaselineError
		if errors.As(err, &be) {
			return nil, nil
		}
		return nil, err
	}
	have := map[string]bool{}
	if staged != nil {
		for _, a := range staged.Accepted {
			have[a.key()] = true
		}
	}
	var out []Acceptance
	for _, a := range b.Accepted {
		if !have[a.key()] {
			out = append(out, a)
		}
	}
	return out, nil
}

// UnstagedAcceptances reports the acceptances in the work tree's baseline
// that are not staged, so that a refused commit can say to stage them.
func UnstagedAcceptances(ctx context.Context, root string) ([]Acceptance, error) {
	b, err := readBaseline(ctx, root, false)
	if err != nil || b == nil {
		return nil, err
	}
	return unstagedAcceptances(ctx, root, b)
}
