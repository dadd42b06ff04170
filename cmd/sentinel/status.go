//go:build !sentinel_front

package main

import (
	"encoding/json"

	"github.com/gitsentinel/sentinel/coverage"
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
			opts, _, err := coverage.ProjectOptions(c.Context, e.dir, coverage.WorkTree, "")
			if err != nil {
				return err
			}
			res, err := coverage.Check(c.Context, opts)
			if err != nil {
				return err
			}
			if f == "json" {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(struct {
					Rows []coverage.Row `json:"rows"`
				}{res.Rows})
			}
			return coverage.WriteStatus(e.stdout, res.Counts, res.Baseline)
		},
	}
}
