//go:build !sentinel_front

package main

import (
	"encoding/json"
	"fmt"

	"github.com/gitsentinel/sentinel/coverage"
	"github.com/urfave/cli/v2"
)

// checkOptions are the flags of `sentinel check`.
type checkOptions struct {
	staged bool
	rev    string
	update bool
	format string
}

func checkCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "check",
		Usage: "compare the test counts with the peaks of the baseline (the work tree, --staged, or --rev)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "staged", Usage: "check the index being committed (honours GIT_INDEX_FILE)"},
			&cli.StringFlag{Name: "rev", Usage: "check a commit's tree against its own baseline"},
			&cli.BoolFlag{Name: "update", Usage: "raise the peaks that the counts are above"},
			formatFlag("text", "json"),
		},
		Action: func(c *cli.Context) error {
			f, err := checkFormat(c, "text", "json")
			if err != nil {
				return err
			}
			o := checkOptions{staged: c.Bool("staged"), rev: c.String("rev"), update: c.Bool("update"), format: f}
			if o.staged && o.rev != "" {
				return &usageError{errorf("--rev and --staged name different snapshots; pick one")}
			}
			if o.update && o.rev != "" {
				return &usageError{errorf("--update writes the work tree's baseline; it cannot go with --rev")}
			}
			return runCheck(c, e, o)
		},
	}
}

func runCheck(c *cli.Context, e *env, o checkOptions) error {
	mode := coverage.WorkTree
	switch {
	case o.staged:
		mode = coverage.Index
	case o.rev != "":
		mode = coverage.Rev
	}
	opts, _, err := coverage.ProjectOptions(c.Context, e.dir, mode, o.rev)
	if err != nil {
		return err
	}
	res, err := coverage.Check(c.Context, opts)
	if err != nil {
		return err
	}
	if o.format == "json" {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		out := struct {
			OK bool `json:"ok"`
			*coverage.CheckResult
		}{res.OK(), res}
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		w := e.stdout
		if !res.OK() {
			w = e.stderr
		}
		if err := res.WriteText(w); err != nil {
			return err
		}
	}
	if !res.OK() {
		return &policyError{"below a peak"}
	}
	if o.update && res.Raised != nil {
		raised := false
		_, err := coverage.UpdateBaseline(c.Context, coverage.UpdateOptions{Root: res.Counts.Root, CommonDir: res.Counts.CommonDir, FromIndex: o.staged, Stage: o.staged},
			func(cur *coverage.Baseline) (*coverage.Baseline, error) {
				if cur == nil {
					return nil, coverage.ErrNoBaseline
				}
				next, ok := cur.Raise(res.Rows)
				if !ok {
					return nil, nil
				}
				raised = true
				return next, nil
			})
		if err != nil {
			return err
		}
		if raised {
			fmt.Fprintf(e.stdout, "raised the peaks in %s; commit it\n", coverage.BaselinePath)
		}
	}
	return nil
}
