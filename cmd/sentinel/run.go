//go:build !sentinel_front

package main

import (
	"github.com/urfave/cli/v2"
)

func runCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run an agent host, or any command, in a sandbox that keeps sentinel's hooks, configuration and binaries, and your secrets, out of its reach",
		ArgsUsage: "[--] COMMAND [ARGS…]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "agent", Usage: "the agent to mark the sandbox with, as `NAME[:MODEL]`, where the command's program does not name one"},
			&cli.BoolFlag{Name: "call", Usage: "run one tool call of a host that runs outside, as the guard's [guard] contain rewrites it: the same sandbox, with the host's state read-only and /tmp shared; needs --agent"},
		},
		Action: func(c *cli.Context) error {
			return runRun(c.Context, e, runOptions{agent: c.String("agent"), call: c.Bool("call"), command: c.Args().Slice()})
		},
	}
}
