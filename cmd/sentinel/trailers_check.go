//go:build !sentinel_front

package main

import (
	"errors"
	"fmt"

	"github.com/gitsentinel/sentinel/internal/atomicfile"
	"github.com/gitsentinel/sentinel/internal/quote"
	"github.com/gitsentinel/sentinel/trailers"
	"github.com/urfave/cli/v2"
)

// trailersCheckOptions are the flags and arguments of `sentinel trailers check`.
type trailersCheckOptions struct {
	fix    bool
	rng    string
	format string
	file   string
}

func trailersCheckCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "check a message, or every commit of a range, against the attribution policy",
		ArgsUsage: "[FILE|-]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "fix", Usage: "turn an agent's Co-authored-by into Assisted-by, and write the result"},
			&cli.StringFlag{Name: "range", Usage: "check the commits of A..B (or all commits reachable from REV)"},
			formatFlag("text", "json"),
		},
		Action: func(c *cli.Context) error {
			f, err := checkFormat(c, "text", "json")
			if err != nil {
				return err
			}
			o := trailersCheckOptions{fix: c.Bool("fix"), rng: c.String("range"), format: f}
			errorsIn := f
			if o.fix && c.NArg() == 1 && c.Args().First() == "-" {
				// A filter: stdout is for the message alone, and a
				// failure is reported on stderr only.
				errorsIn = "text"
			}
			return reportIn(e, errorsIn, func(e *env) error {
				if o.rng != "" {
					if c.NArg() > 0 || o.fix {
						return &usageError{fmt.Errorf("--range takes no FILE and no --fix")}
					}
				} else if o.file, err = oneFileArg(c); err != nil {
					return err
				}
				return runTrailersCheck(c, e, o)
			})
		},
	}
}

func runTrailersCheck(c *cli.Context, e *env, o trailersCheckOptions) error {
	var report *trailers.Report
	if o.rng != "" {
		s, err := trailers.LoadSettings(c.Context, e.dir)
		if err != nil {
			return err
		}
		if report, err = s.CheckRange(c.Context, e.dir, o.rng); err != nil {
			return err
		}
	} else {
		msg, err := readInput(e, o.file, "trailers check")
		var big *trailers.MessageTooLargeError
		if errors.As(err, &big) {
			// A check refuses what it cannot read, as the commit-msg
			// hook and sentinel ci do.
			report = trailers.TooLargeReport(o.file, big, "write a shorter message, and keep logs and data in files of the commit")
			return writeReport(e, report, o.format, o.fix && o.file == "-")
		}
		if err != nil {
			return err
		}
		s, err := trailers.LoadSettings(c.Context, e.dir)
		if err != nil {
			return err
		}
		var out trailers.Outcome
		report, out, err = s.CheckMessage(o.file, msg, s.Policy(s.Detect(e.agentEnv()), o.fix))
		if err != nil {
			return err
		}
		if o.fix && report.OK() {
			report.Edits = out.Edits
		}
		if o.fix && o.file == "-" {
			// A filter: the message, fixed or not, goes to stdout unless
			// it is refused; the report goes beside it.
			if report.OK() {
				if _, err := e.stdout.Write(out.Message); err != nil {
					return err
				}
			}
			return writeReport(e, report, o.format, true)
		}
		if o.fix && report.OK() && out.Changed {
			if err := atomicfile.WriteFile(e.path(o.file), out.Message, 0o666); err != nil {
				return err
			}
			if o.format == "text" {
				for _, ed := range out.Edits {
					fmt.Fprintf(e.stderr, "%s: %s\n", quote.Path(o.file), quote.Name(ed))
				}
			}
		}
	}
	return writeReport(e, report, o.format, false)
}

// writeReport prints a report and turns a refusal into exit status 1.
func writeReport(e *env, r *trailers.Report, format string, toStderr bool) error {
	w := e.stdout
	if toStderr || (!r.OK() && format == "text") {
		w = e.stderr
	}
	var err error
	if format == "json" {
		err = r.WriteJSON(w)
	} else {
		err = r.WriteText(w)
	}
	if err != nil {
		return err
	}
	if !r.OK() {
		return &policyError{"the attribution policy refused"}
	}
	return nil
}
