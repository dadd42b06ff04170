//go:build !sentinel_front

package main

import (
	"github.com/gitsentinel/sentinel/trailers"
	"github.com/urfave/cli/v2"
)

// trailersParseOptions are the arguments of `sentinel trailers parse`.
type trailersParseOptions struct {
	file string
}

func trailersParseCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "parse",
		Usage:     "print a message's trailers exactly as `git interpret-trailers --parse` does",
		ArgsUsage: "[FILE|-]",
		Action: func(c *cli.Context) error {
			f, err := oneFileArg(c)
			if err != nil {
				return err
			}
			return runTrailersParse(c, e, trailersParseOptions{file: f})
		},
	}
}

func runTrailersParse(c *cli.Context, e *env, o trailersParseOptions) error {
	msg, err := readInput(e, o.file, "trailers parse")
	if err != nil {
		return err
	}
	s, err := trailers.LoadSettings(c.Context, e.dir)
	if err != nil {
		return err
	}
	_, err = e.stdout.Write(s.Syntax.Format(s.Syntax.Parse(msg)))
	return err
}
