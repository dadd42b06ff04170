//go:build !sentinel_front

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/guard"
	"github.com/gitsentinel/sentinel/guard/hostrun"
	"github.com/gitsentinel/sentinel/guard/install"
	"github.com/gitsentinel/sentinel/internal/jsonout"
	"github.com/gitsentinel/sentinel/internal/quote"
	"github.com/urfave/cli/v2"
)

// guardSelfTestOptions are the flags of `sentinel guard test`.
type guardSelfTestOptions struct {
	agents []string
	format string
	live   bool
}

func guardSelfTestCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "test",
		Usage: "prove that each installed guard enforces: run the hook as its host runs it, with a call it must refuse and an everyday one",
		Flags: []cli.Flag{
			withChoices(&cli.StringSliceFlag{Name: "agent", Usage: "only this agent's guard (repeatable): " + strings.Join(install.TargetNames(), ", ")}, install.TargetNames()),
			&cli.BoolFlag{Name: "live", Usage: "also run each host's CLI on PATH for a live turn against a fake model on loopback, in a throwaway repository with the guard installed"},
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
			return runGuardSelfTest(c, e, guardSelfTestOptions{agents: c.StringSlice("agent"), format: f, live: c.Bool("live")})
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
	var live []*hostrun.CheckResult
	var skipped map[string]string
	if o.live {
		agents := o.agents
		if len(agents) == 0 {
			for _, r := range res {
				if !slices.Contains(agents, r.Agent) {
					agents = append(agents, r.Agent)
				}
			}
		}
		self, err := os.Executable()
		if err != nil {
			return fmt.Errorf("find sentinel's own binary: %w", err)
		}
		// The engine runs this; the throwaway repositories install the
		// front beside it, the program people run.
		if front := filepath.Join(filepath.Dir(self), "sentinel"); filepath.Base(self) != "sentinel" {
			if _, err := os.Stat(front); err == nil {
				self = front
			}
		}
		live, skipped, err = guard.LiveTest(c.Context, guard.LiveTestOptions{Agents: agents, Sentinel: self,
			LookPath: exec.LookPath, Path: filepath.SplitList(e.getenv("PATH"))})
		if err != nil {
			return err
		}
		for _, r := range live {
			if !r.Holds() {
				failed++
			}
		}
	}
	if o.format == "json" {
		if res == nil {
			res = []guard.SelfTestResult{}
		}
		out := struct {
			OK      bool                   `json:"ok"`
			Results []guard.SelfTestResult `json:"results"`
			Live    []*hostrun.CheckResult `json:"live,omitempty"`
			Skipped map[string]string      `json:"live_skipped,omitempty"`
		}{failed == 0 && len(res) > 0, res, live, skipped}
		if err := jsonout.Write(e.stdout, out); err != nil {
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
		writeLive(&b, live, skipped)
		if _, err := fmt.Fprint(e.stdout, b.String()); err != nil {
			return err
		}
	}
	switch {
	case failed > 0:
		fmt.Fprintf(e.stderr, "sentinel guard test: %d of %d checks failed: fix what is said above, then run `sentinel guard test` again\n", failed, len(res)+len(live))
		return &policyError{"guard does not enforce"}
	case len(res) == 0:
		return &policyError{"no guard installed"}
	}
	return nil
}

// writeLive reports the live turns: per host, the CLI that ran and what
// held.
func writeLive(b *strings.Builder, live []*hostrun.CheckResult, skipped map[string]string) {
	for _, r := range live {
		mark := "enforces, live"
		if !r.Holds() {
			mark = "FAILS, live"
		}
		fmt.Fprintf(b, "%-8s %s (%s, %.1f s)\n", r.Agent, mark, quote.Path(r.Program), float64(r.Elapsed)/1000)
		if r.Refused {
			fmt.Fprintf(b, "  refused %s: %s\n", quote.Text(hostrun.CheckRefused), quote.Text(abbreviateLine(r.Reason, 160)))
		}
		if r.Allowed {
			fmt.Fprintf(b, "  ran %s\n", quote.Text(hostrun.CheckAllowed))
		}
		if r.Problem != "" {
			fmt.Fprintf(b, "  %s\n", quote.Text(r.Problem))
		}
	}
	names := make([]string, 0, len(skipped))
	for a := range skipped {
		names = append(names, a)
	}
	sort.Strings(names)
	for _, a := range names {
		fmt.Fprintf(b, "%-8s not run live: %s\n", a, skipped[a])
	}
}

// abbreviateLine is s on one line, cut to n bytes.
func abbreviateLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
