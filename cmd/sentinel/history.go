//go:build !sentinel_front

package main

import (
	"errors"
	"fmt"

	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/timeline"
	"github.com/urfave/cli/v2"
)

// historyOptions are the flags of sentinel history.
type historyOptions struct {
	since  string
	format string
}

func historyCommand(e *env) *cli.Command {
	formats := []string{"text", "json", "csv", "svg"}
	return &cli.Command{
		Name:  "history",
		Usage: "chart the ratchet over time: the peaks each commit on the first-parent line recorded, and the acceptances",
		Description: "Reads .sentinel/baseline.json from every commit on HEAD's first-parent line that changed it, oldest first.\n" +
			"The figures are the peaks each commit recorded (acceptances lower them); \"high\" is the highest reached.\n" +
			"--format svg writes a standalone chart: redirect it to a file.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "since", Usage: "start after `REV` (the commits it reaches are left out)"},
			formatFlag(formats...),
		},
		Action: func(c *cli.Context) error {
			f, err := checkFormat(c, formats...)
			if err != nil {
				return err
			}
			return reportIn(e, f, func(e *env) error { return runHistory(c, e, historyOptions{since: c.String("since"), format: f}) })
		},
	}
}

func runHistory(c *cli.Context, e *env, o historyOptions) error {
	t, err := timeline.Read(c.Context, e.dir, o.since)
	if errors.Is(err, gitrepo.ErrUnknownRevision) {
		return &usageError{fmt.Errorf("--since %q: %w; pick a commit from `git log --first-parent --oneline`", o.since, err)}
	}
	if err != nil {
		return err
	}
	switch o.format {
	case "json":
		return timeline.WriteJSON(e.stdout, t)
	case "csv":
		return timeline.WriteCSV(e.stdout, t)
	case "svg":
		return timeline.WriteSVG(e.stdout, t)
	}
	return timeline.WriteText(e.stdout, t)
}
