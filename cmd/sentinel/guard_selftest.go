//go:build !sentinel_front

package main

import (
	"fmt"
	"strings"

	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/guard"
	"github.com/gitsentinel/sentinel/guard/install"
	"github.com/gitsentinel/sentinel/internal/jsonout"
	"github.com/gitsentinel/sentinel/internal/quote"
	"github.com/urfave/cli/v2"
)

// guardSelfTestOptions are the flags of `sentinel guard test`.
type guardSelfTestOptions struct {
	agents []string
	format string
}

func guardSelfTestCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "test",
		Usage: "prove that each installed guard enforces: run the hook as its host runs it, with a call it must refuse and an everyday one",
		Flags: []cli.Flag{
			withChoices(&cli.StringSliceFlag{Name: "agent", Usage: "only this agent's guard (repeatable): " + strings.Join(install.TargetNames(), ", ")}, install.TargetNames()),
			formatFlag("text", "json"),
		},
		Action: func(c *cli.Context) error {
			f, err := checkFormat(c, "text", "json")
			if err != nil {
				return err
			}
			for _, a := range c.StringSlice("agent") {
				if install.Targets[a] == nil {
					return &usageError{fmt.Errorf("--agent %q: sentinel guards %s", a, strings.Join(install.TargetNames(), ", "))}
				}
			}
			return runGuardSelfTest(c, e, guardSelfTestOptions{agents: c.StringSlice("agent"), format: f})
		},
	}
}

func runGuardSelfTest(c *cli.Context, e *env, o guardSelfTestOptions) error {
	root, _ := gitrepo.FindRoot(c.Context, e.dir)
	res, err := guard.SelfTest(c.Context, guard.SelfTestOptions{Root: root, Home: e.getenv("HOME"), Agents: o.agents})
	if err != nil {
		return err
	}
	failed := 0
	for _, r := range res {
		if !r.Enforcing || !r.Answered {
			failed++
		}
	}
	if o.format == "json" {
		if res == nil {
			res = []guard.SelfTestResult{}
		}
		if err := jsonout.Write(e.stdout, struct {
			OK      bool                   `json:"ok"`
			Results []guard.SelfTestResult `json:"results"`
		}{failed == 0 && len(res) > 0, res}); err != nil {
			return err
		}
	} else {
		var b strings.Builder
		for _, r := range res {
			mark := "enforces"
			if !r.Answered {
				mark = "refuses every call"
			}
			if !r.Enforcing {
				mark = "FAILS OPEN"
				if !strings.HasPrefix(r.Refused, "allow") {
					mark = "does not enforce"
				}
			}
			fmt.Fprintf(&b, "%-8s %s (%s, %s)\n", r.Agent, mark, quote.Path(r.Path), r.Event)
			fmt.Fprintf(&b, "  %s: %s\n  %s: %s\n", guard.SelfTestRefused, quote.Text(r.Refused), guard.SelfTestAllowed, quote.Text(r.Allowed))
			if r.Note != "" {
				fmt.Fprintf(&b, "  %s\n", r.Note)
			}
		}
		if len(res) == 0 {
			b.WriteString("no guard is installed here or in your settings: run `sentinel guard install --agent NAME`\n")
		}
		if _, err := fmt.Fprint(e.stdout, b.String()); err != nil {
			return err
		}
	}
	switch {
	case failed > 0:
		fmt.Fprintf(e.stderr, "sentinel guard test: %d of %d installed guards do not work as installed: fix what is said above, then run `sentinel guard test` again\n", failed, len(res))
		return &policyError{"guard does not enforce"}
	case len(res) == 0:
		return &policyError{"no guard installed"}
	}
	return nil
}
