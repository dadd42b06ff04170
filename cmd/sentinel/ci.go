//go:build !sentinel_front

package main

import (
	"github.com/gitsentinel/sentinel/ci"
	"github.com/gitsentinel/sentinel/internal/sarif"
	"github.com/urfave/cli/v2"
)

// ciOptions are the flags of `sentinel ci`.
type ciOptions struct {
	base   string
	format string
	// summary is a file to append a markdown summary to, such as
	// $GITHUB_STEP_SUMMARY.
	summary string
	// results are the runners' reports for HEAD: files, directories or
	// globs.
	results []string
}

// ciFormats are the forms of ci's report.
var ciFormats = []string{"text", "json", "github", "sarif"}

func ciCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "ci",
		Usage: "check BASE..HEAD: counts at HEAD, the baseline commit by commit, and attribution",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "base", Usage: "check the commits after this one (default: all of HEAD's history)"},
			formatFlag(ciFormats...),
			colorFlag(),
			&cli.StringFlag{Name: "summary", Usage: "also append a markdown summary (counts, peaks, what was refused) to `FILE`, such as $GITHUB_STEP_SUMMARY"},
			&cli.StringSliceFlag{Name: "results", Usage: "the test runners' own reports of HEAD (JUnit XML, go test -json): a file, a directory or a glob, repeatable; every test the count sees as active must be in them as run"},
		},
		Action: func(c *cli.Context) error {
			f, err := checkFormat(c, ciFormats...)
			if err != nil {
				return err
			}
			return reportIn(e, f, func(e *env) error {
				return runCI(c, e, ciOptions{base: c.String("base"), format: f, summary: c.String("summary"), results: c.StringSlice("results")})
			})
		},
	}
}

func runCI(c *cli.Context, e *env, o ciOptions) error {
	r, err := ci.Run(c.Context, e.dir, o.base, ci.Options{Results: o.results})
	if o.summary != "" {
		if serr := ci.AppendSummary(o.summary, r, err); serr != nil && err == nil {
			return serr
		}
	}
	if err != nil {
		return err
	}
	switch o.format {
	case "json":
		err = r.WriteJSON(e.stdout)
	case "github":
		err = r.WriteGitHub(e.stdout)
	case "sarif":
		err = sarif.Write(e.stdout, r.SARIF(version))
	default:
		w := e.stdout
		if !r.OK() {
			w = e.stderr
		}
		if r.Style, err = e.styleFor(c, w); err != nil {
			return err
		}
		err = r.WriteText(w)
	}
	if err != nil {
		return err
	}
	if !r.OK() {
		return &policyError{"ci refused"}
	}
	return nil
}
