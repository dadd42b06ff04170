//go:build !sentinel_front

package main

import (
	"fmt"

	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/internal/jsonout"
	"github.com/gitsentinel/sentinel/internal/sarif"
	"github.com/urfave/cli/v2"
)

// checkOptions are the flags of `sentinel check`.
type checkOptions struct {
	staged bool
	rev    string
	update bool
	format string
}

// checkFormats are the forms of check's report.
var checkFormats = []string{"text", "json", "sarif"}

func checkCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "check",
		Usage: "compare the test counts with the peaks of the baseline (the work tree, --staged, or --rev)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "staged", Usage: "check the index being committed (honours GIT_INDEX_FILE)"},
			&cli.StringFlag{Name: "rev", Usage: "check a commit's tree against its own baseline"},
			&cli.BoolFlag{Name: "update", Usage: "raise the peaks that the counts are above"},
			formatFlag(checkFormats...),
			colorFlag(),
		},
		Action: func(c *cli.Context) error {
			f, err := checkFormat(c, checkFormats...)
			if err != nil {
				return err
			}
			o := checkOptions{staged: c.Bool("staged"), rev: c.String("rev"), update: c.Bool("update"), format: f}
			return reportIn(e, f, func(e *env) error {
				if o.staged && o.rev != "" {
					return &usageError{errorf("--rev and --staged name different snapshots; pick one")}
				}
				if o.update && o.rev != "" {
					return &usageError{errorf("--update writes the work tree's baseline; it cannot go with --rev")}
				}
				return runCheck(c, e, o)
			})
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
	// The peaks are raised before the report, so that the JSON report can
	// say so; a refusal raises nothing.
	raised := false
	if o.update && res.OK() && res.Raised != nil {
		if raised, err = raisePeaks(c, o, res); err != nil {
			return err
		}
	}
	switch o.format {
	case "json":
		err = jsonout.Write(e.stdout, struct {
			OK bool `json:"ok"`
			*coverage.CheckResult
			Updated bool `json:"updated"`
		}{res.OK(), res, raised})
	case "sarif":
		err = sarif.Write(e.stdout, res.SARIF(version))
	default:
		w := e.stdout
		if !res.OK() {
			w = e.stderr
		}
		if res.Style, err = e.styleFor(c, w); err != nil {
			return err
		}
		err = res.WriteText(w)
		if err == nil && raised {
			_, err = fmt.Fprintf(e.stdout, "raised the peaks in %s; commit it\n", coverage.BaselinePath)
		}
	}
	if err != nil {
		return err
	}
	if !res.OK() {
		return &policyError{"below a peak"}
	}
	return nil
}

// raisePeaks writes the baseline with the peaks the counts are above
// raised to them, under the repository's lock, and reports whether it
// raised any: a raise that landed meanwhile may have done it already.
func raisePeaks(c *cli.Context, o checkOptions, res *coverage.CheckResult) (bool, error) {
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
	return raised, err
}
