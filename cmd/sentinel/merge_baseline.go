//go:build !sentinel_front

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/githooks"
	"github.com/gitsentinel/sentinel/internal/atomicfile"
	"github.com/gitsentinel/sentinel/internal/quote"
	"github.com/urfave/cli/v2"
)

func mergeBaselineCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "merge-baseline",
		Usage:     "git's merge driver for .sentinel/baseline.json (registered by sentinel init)",
		ArgsUsage: "BASE OURS THEIRS",
		Action: func(c *cli.Context) error {
			if c.NArg() != 3 {
				return &usageError{fmt.Errorf("merge-baseline takes the three files git passes: %%O %%A %%B")}
			}
			files := c.Args().Slice()
			err := githooks.CheckMergeDriver(c.Context, e.dir, files, e.agentEnv())
			var refused *githooks.DriverRefusal
			if errors.As(err, &refused) {
				// The files stay as git wrote them: git takes that as a
				// conflict, for a person to resolve.
				fmt.Fprintf(e.stderr, "sentinel: %s\n", quote.Text(refused.Reason))
				return &policyError{"merge driver refused"}
			}
			if err != nil {
				return err
			}
			return runMergeBaseline(e, files[0], files[1], files[2])
		},
	}
}

// runMergeBaseline writes the merge into OURS. A side that is not a valid
// baseline leaves a conflict for a person: the driver never writes a guess.
func runMergeBaseline(e *env, basePath, oursPath, theirsPath string) error {
	read := func(p string, optional bool) (*coverage.Baseline, error) {
		data, err := os.ReadFile(e.path(p))
		if optional && (errors.Is(err, fs.ErrNotExist) || err == nil && len(data) == 0) {
			return nil, nil // the base had no baseline
		}
		if err != nil {
			return nil, err
		}
		return coverage.ParseBaseline(p, data)
	}
	base, err := read(basePath, true)
	if err != nil {
		return mergeConflict(e, err)
	}
	ours, err := read(oursPath, false)
	if err != nil {
		return mergeConflict(e, err)
	}
	theirs, err := read(theirsPath, false)
	if err != nil {
		return mergeConflict(e, err)
	}
	merged := coverage.MergeBaselines(base, ours, theirs)
	return atomicfile.WriteFile(e.path(oursPath), merged.Marshal(), 0o666)
}

func mergeConflict(e *env, err error) error {
	fmt.Fprintf(e.stderr, "sentinel: cannot merge %s: %v\nsentinel: resolve the conflict by hand, then check it with `sentinel check`\n", coverage.BaselinePath, quote.Text(err.Error()))
	return &policyError{"merge conflict"}
}
