//go:build !sentinel_front

package main

import (
	"fmt"

	"github.com/gitsentinel/sentinel/config"
	"github.com/gitsentinel/sentinel/githooks"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/quote"
	"github.com/urfave/cli/v2"
)

// installOptions are the flags of `sentinel install`.
type installOptions struct {
	hooks []string
	force bool
}

func installCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "install",
		Usage: "install sentinel's git hooks (commit-msg, pre-commit and pre-push by default)",
		Flags: []cli.Flag{
			withChoices(&cli.StringSliceFlag{Name: "hook", Usage: "a hook to install: commit-msg, pre-commit, pre-push or prepare-commit-msg (repeatable)"}, []string{"commit-msg", "pre-commit", "pre-push", "prepare-commit-msg"}),
			&cli.BoolFlag{Name: "force", Usage: "install even where another hook manager (husky, lefthook, pre-commit) owns the hooks"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return &usageError{fmt.Errorf("install takes no arguments; name hooks with --hook")}
			}
			return runInstall(c, e, installOptions{hooks: c.StringSlice("hook"), force: c.Bool("force")})
		},
	}
}

func runInstall(c *cli.Context, e *env, o installOptions) error {
	sweepTemps(c.Context, e.dir)
	opts, err := hookInstallOptions(c, e, o)
	if err != nil {
		return err
	}
	if root, err := gitrepo.FindRoot(c.Context, e.dir); err == nil {
		cfg, err := config.Load(root)
		if err != nil {
			return err
		}
		opts.FailOpen = cfg.Hooks.FailOpen
	}
	actions, err := githooks.Install(c.Context, opts)
	printActions(e, actions)
	return err
}

// hookInstallOptions turns the flags into install options, with the path of
// this very binary as the hooks' last resort.
func hookInstallOptions(_ *cli.Context, e *env, o installOptions) (githooks.InstallOptions, error) {
	bin, err := selfBinary()
	if err != nil {
		return githooks.InstallOptions{}, fmt.Errorf("find the sentinel binary: %w", err)
	}
	return githooks.InstallOptions{Dir: e.dir, Hooks: o.hooks, Force: o.force, Bin: bin}, nil
}

func printActions(e *env, actions []githooks.Action) {
	for _, a := range actions {
		fmt.Fprintf(e.stdout, "%-18s %s (%s)\n", a.Hook, a.What, quote.Path(a.Path))
	}
}
