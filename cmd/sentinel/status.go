//go:build !sentinel_front

package main

import (
	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/internal/jsonout"
	"github.com/urfave/cli/v2"
)

func statusCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "print each row's counts beside its peaks and the margin",
		Flags: []cli.Flag{formatFlag("text", "json")},
		Action: func(c *cli.Context) error {
			sweepTemps(c.Context, e.dir)
			f, err := checkFormat(c, "text", "json")
			if err != nil {
				return err
			}
			return reportIn(e, f, func(e *env) error { return runStatus(c, e, f) })
		},
	}
}

func runStatus(c *cli.Context, e *env, format string) error {
	opts, _, err := coverage.ProjectOptions(c.Context, e.dir, coverage.WorkTree, "")
	if err != nil {
		return err
	}
	res, err := coverage.Check(c.Context, opts)
	if err != nil {
		return err
	}
	if format == "json" {
		return jsonout.Write(e.stdout, struct {
			Rows []coverage.Row `json:"rows"`
		}{res.Rows})
	}
	return coverage.WriteStatus(e.stdout, res.Counts, res.Baseline)
}
