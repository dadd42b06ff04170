package main

import (
	"github.com/gitsentinel/sentinel/coverage"
	"github.com/urfave/cli/v2"
)

func statusCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "print each row's counts beside its peaks and the margin",
		Action: func(c *cli.Context) error {
			opts, _, err := coverage.ProjectOptions(c.Context, e.dir, coverage.WorkTree, "")
			if err != nil {
				return err
			}
			res, err := coverage.Check(c.Context, opts)
			if err != nil {
				return err
			}
			return coverage.WriteStatus(e.stdout, res.Counts, res.Baseline)
		},
	}
}
