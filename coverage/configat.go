package coverage

import (
	"context"
	"fmt"

	"github.com/gitsentinel/sentinel/config"
	"github.com/gitsentinel/sentinel/gitrepo"
)

// countingAt reads what the configuration of rev's tree counts; a tree
// without a configuration counts with the defaults. Each side of a change
// is counted with its own configuration, so that a commit that adds an
// exclude pattern is compared with the tests its parent counted.
func countingAt(ctx context.Context, root, rev string) (config.Counting, error) {
	spec, name := rev+":"+config.File, gitrepo.ShortID(rev)+":"+config.File
	blobs, err := gitrepo.ReadSpecs(ctx, root, []string{spec})
	if err != nil {
		return config.Counting{}, err
	}
	data := blobs[spec]
	if data == nil {
		return config.Counting{}, nil
	}
	return config.ReadCounting(name, data)
}

// OptionsAt returns o with what the configuration of rev's tree counts:
// its excludes and scopes. A check of a commit (the pre-push hook, ci)
// counts it with its own configuration, not the work tree's. o.Dir is a
// directory of the repository, as ProjectOptions sets it.
func OptionsAt(ctx context.Context, o Options, rev string) (Options, error) {
	c, err := countingAt(ctx, o.Dir, rev)
	if err != nil {
		return o, fmt.Errorf("%w: the commit's configuration decides what it counts; fix it in a new commit", err)
	}
	o.Excludes, o.Scopes = c.Exclude, c.Scope
	return o, nil
}

// counting is what o counts, as a configuration says it.
func (o *Options) counting() config.Counting {
	return config.Counting{Exclude: o.Excludes, Scope: o.Scopes}
}

// stagedCounting sets o to count with the configuration the index holds,
// read from the snapshot's own entry: an exclude pattern written in the
// work tree and not staged does not change what the commit counts.
func stagedCounting(ctx context.Context, s *snapshot, o *Options) error {
	for i := range s.entries {
		e := &s.entries[i]
		if e.path != config.File {
			continue
		}
		data, err := s.read(ctx, e)
		if err != nil {
			return fmt.Errorf("read the index's %s: %w", config.File, err)
		}
		c, err := config.ReadCounting("the index's "+config.File, data)
		if err != nil {
			return err
		}
		o.Excludes, o.Scopes = c.Exclude, c.Scope
		return nil
	}
	o.Excludes, o.Scopes = nil, nil
	return nil
}
