package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/gitsentinel/sentinel/guard"
	"github.com/urfave/cli/v2"
)

// guardOptions are the flags of `sentinel guard`.
type guardOptions struct {
	agent string
}

func guardCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "guard",
		Usage: "the pre-tool hook for coding agents: reads the agent's event on stdin and answers in its format",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "agent", Value: "claude", Usage: "the agent's hook dialect: claude"},
		},
		Subcommands: []*cli.Command{guardExplainCommand(e)},
		Action: func(c *cli.Context) error {
			o := guardOptions{agent: c.String("agent")}
			if o.agent != "claude" {
				return &usageError{fmt.Errorf("--agent %q: this sentinel speaks claude", o.agent)}
			}
			return runGuard(c, e, o)
		},
	}
}

// runGuard answers one event. It always exits 0 with the answer on stdout:
// the host acts on the answer, and a crash would let the call through.
func runGuard(c *cli.Context, e *env, _ guardOptions) error {
	input, err := io.ReadAll(io.LimitReader(e.stdin, guard.MaxInput+1))
	policy, perr := loadGuardPolicy(e)
	var d *guard.Decision
	if err != nil {
		d = &guard.Decision{Verdict: guard.Deny}
		d.Findings = append(d.Findings, guard.Finding{RuleID: "input", Verdict: guard.Deny, Reason: "sentinel guard [input]: cannot read the event: " + err.Error()})
	} else {
		d = guard.Decide(c.Context, input, func(cwd string) *guard.Env { return guard.NewEnv(cwd, e.getenv) }, policy, perr)
	}
	_, err = e.stdout.Write(guard.ClaudeResponse(d))
	return err
}

func loadGuardPolicy(e *env) (*guard.Policy, error) {
	root := guard.NewEnv(e.dir, e.getenv).Project
	return guard.LoadPolicy(guard.UserConfigPath(e.getenv), root)
}

func guardExplainCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "explain",
		Usage: "show how the guard decomposes a command, and the verdict and rule of every part",
		Flags: []cli.Flag{&cli.StringFlag{Name: "command", Usage: "the shell command to explain", Required: true}},
		Action: func(c *cli.Context) error {
			policy, perr := loadGuardPolicy(e)
			if perr != nil {
				return perr
			}
			env := guard.NewEnv(e.dir, e.getenv)
			d := guard.EvaluateCommand(c.String("command"), env, policy)
			var b strings.Builder
			for i, cmd := range d.Commands {
				fmt.Fprintf(&b, "%d. %s\n", i+1, strings.Join(cmd.Argv, " "))
				if len(cmd.Via) > 0 {
					fmt.Fprintf(&b, "   via: %s\n", strings.Join(cmd.Via, ", "))
				}
				for _, w := range cmd.Writes {
					fmt.Fprintf(&b, "   writes: %s\n", w)
				}
			}
			for _, f := range d.Findings {
				fmt.Fprintf(&b, "%s: %s\n", f.Verdict, f.Reason)
			}
			fmt.Fprintf(&b, "verdict: %s\n", d.Verdict)
			_, err := io.WriteString(e.stdout, b.String())
			if err == nil && d.Verdict == guard.Deny {
				return &policyError{"denied"}
			}
			return err
		},
	}
}
