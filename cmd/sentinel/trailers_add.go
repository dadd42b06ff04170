//go:build !sentinel_front

package main

import (
	"errors"
	"fmt"

	"github.com/gitsentinel/sentinel/internal/atomicfile"
	"github.com/gitsentinel/sentinel/trailers"
	"github.com/urfave/cli/v2"
)

// trailersAddOptions are the flags and arguments of `sentinel trailers add`.
type trailersAddOptions struct {
	value string
	file  string
}

func trailersAddCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "add",
		Usage:     "add an Assisted-by trailer, once: rewrites FILE in place, or reads - and writes stdout",
		ArgsUsage: "[FILE|-]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "assisted-by", Usage: "the value, AGENT:MODEL [TOOL…]; default: from the detected agent"},
		},
		Action: func(c *cli.Context) error {
			f, err := oneFileArg(c)
			if err != nil {
				return err
			}
			return runTrailersAdd(c, e, trailersAddOptions{value: c.String("assisted-by"), file: f})
		},
	}
}

func runTrailersAdd(c *cli.Context, e *env, o trailersAddOptions) error {
	msg, err := readInput(e, o.file, "trailers add")
	if err != nil {
		return err
	}
	s, err := trailers.LoadSettings(c.Context, e.dir)
	if err != nil {
		return err
	}
	value := o.value
	if value == "" {
		d := s.Detect(e.agentEnv())
		if d == nil {
			return errors.New("no coding agent detected; pass the value: run `sentinel trailers add --assisted-by AGENT:MODEL " + o.file + "`")
		}
		value = d.Value(s.Config.Trailers.Format, s.Config.Trailers.Tools)
	}
	out, changed, err := s.Syntax.AddAssistedBy(msg, value)
	if err != nil {
		return fmt.Errorf("%s: %w", o.file, err)
	}
	if o.file == "-" {
		_, err = e.stdout.Write(out)
		return err
	}
	if !changed {
		return nil
	}
	return atomicfile.WriteFile(e.path(o.file), out, 0o666)
}
