//go:build !sentinel_front

package main

import (
	"os"

	"github.com/gitsentinel/sentinel/coverage"
	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"
)

// countOptions are the flags and arguments of `sentinel count`.
type countOptions struct {
	paths  []string
	rev    string
	staged bool
	list   bool
	format string
}

func countCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "count",
		Usage:     "count tests and assertions in the work tree, the index (--staged) or a commit (--rev)",
		ArgsUsage: "[PATH…]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "rev", Usage: "count the tree of this commit"},
			&cli.BoolFlag{Name: "staged", Usage: "count the index being committed (honours GIT_INDEX_FILE)"},
			&cli.BoolFlag{Name: "list", Usage: "print one test per line: path:line, language, name, status (with --format json, every test as an object, with its platforms and notes)"},
			formatFlag("text", "json"),
		},
		Action: func(c *cli.Context) error {
			f, err := checkFormat(c, "text", "json")
			if err != nil {
				return err
			}
			o := countOptions{paths: c.Args().Slice(), rev: c.String("rev"), staged: c.Bool("staged"), list: c.Bool("list"), format: f}
			return reportIn(e, f, func(e *env) error {
				if o.rev != "" && o.staged {
					return &usageError{errorf("--rev and --staged name different snapshots; pick one")}
				}
				return runCount(c, e, o)
			})
		},
	}
}

func runCount(c *cli.Context, e *env, o countOptions) error {
	opts := coverage.Options{Mode: coverage.WorkTree}
	switch {
	case o.rev != "":
		opts.Mode, opts.Rev = coverage.Rev, o.rev
	case o.staged:
		opts.Mode = coverage.Index
	}
	if f, ok := e.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		opts.Progress = &progress{w: f}
	}
	counts, err := coverage.CountTargets(c.Context, e.dir, o.paths, opts)
	if err != nil {
		return err
	}
	switch {
	case o.list && o.format == "json":
		return counts.WriteListJSON(e.stdout)
	case o.list:
		return counts.WriteList(e.stdout)
	case o.format == "json":
		return counts.WriteJSON(e.stdout)
	}
	return counts.WriteText(e.stdout)
}

// progress shows a bar on a terminal's stderr.
type progress struct {
	w   *os.File
	bar *progressbar.ProgressBar
}

func (p *progress) Start(total int) {
	p.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(p.w), progressbar.OptionSetDescription("counting"),
		progressbar.OptionClearOnFinish(), progressbar.OptionShowCount())
}
func (p *progress) Step()   { p.bar.Add(1) }
func (p *progress) Finish() { p.bar.Finish() }
