//go:build !sentinel_front

package main

import (
	"fmt"

	"github.com/gitsentinel/sentinel/githooks"
	"github.com/urfave/cli/v2"
)

func uninstallCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "uninstall",
		Usage: "remove sentinel's git hooks and put back the hooks that were there before",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return &usageError{fmt.Errorf("uninstall takes no arguments")}
			}
			actions, err := githooks.Uninstall(c.Context, e.dir)
			printActions(e, actions)
			if err == nil && len(actions) == 0 {
				fmt.Fprintln(e.stdout, "no sentinel hooks installed here")
			}
			return err
		},
	}
}
