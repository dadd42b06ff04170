//go:build !sentinel_front

package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

func hookCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "hook",
		Usage:     "the entry point sentinel's git hook scripts call",
		ArgsUsage: "NAME ARGS…",
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return &usageError{fmt.Errorf("hook needs the hook's name, as in `sentinel hook commit-msg FILE`")}
			}
			// Git passes a hook file names, never --help: a --help here
			// is a person asking, as anywhere else.
			if wantsHelp(c.Args().Slice()) {
				return cli.ShowCommandHelp(c.Lineage()[1], "hook")
			}
			o := hookOptions{name: c.Args().First(), args: c.Args().Tail()}
			if handled, err := messageHook(c.Context, e, o); handled {
				return err
			}
			return ratchetHook(c, e, o)
		},
	}
}
