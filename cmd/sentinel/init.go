//go:build !sentinel_front

package main

import (
	"fmt"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/gitsentinel/sentinel/githooks"
	"github.com/urfave/cli/v2"
)

func initCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "init",
		Usage: "set sentinel up in this repository: configuration, merge driver and hooks (safe to run again)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "force", Usage: "install the hooks even where another hook manager owns them"},
		},
		Action: func(c *cli.Context) error {
			sweepTemps(c.Context, e.dir)
			if c.NArg() > 0 {
				return &usageError{fmt.Errorf("init takes no arguments")}
			}
			opts, err := hookInstallOptions(c, e, installOptions{force: c.Bool("force")})
			if err != nil {
				return err
			}
			io := githooks.InitOptions{Install: opts}
			// The first count of a large repository takes a while: a bar
			// on a terminal, as count shows.
			if f, ok := e.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
				io.Progress = &progress{w: f}
			}
			res, err := githooks.Init(c.Context, io)
			if res != nil {
				for _, d := range res.Done {
					fmt.Fprintln(e.stdout, d)
				}
				printActions(e, res.Hooks)
				if res.Manager != nil {
					fmt.Fprintln(e.stdout, res.Manager.Error())
				}
				for _, a := range res.Advice {
					fmt.Fprintln(e.stdout, a)
				}
				if err == nil {
					if len(res.Commit) > 0 {
						fmt.Fprintf(e.stdout, "commit the set-up: git add %s && git commit -m \"Set up sentinel\"\n", strings.Join(res.Commit, " "))
					} else {
						fmt.Fprintln(e.stdout, "nothing new to commit")
					}
				}
			}
			return err
		},
	}
}
