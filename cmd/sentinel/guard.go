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
			&cli.StringFlag{Name: "agent", Usage: "the agent's hook dialect: claude, codex, gemini, cursor or copilot (default: recognised from the event)"},
		},
		Subcommands: []*cli.Command{guardExplainCommand(e)},
		Action: func(c *cli.Context) error {
			o := guardOptions{agent: c.String("agent")}
			if _, ok := guard.Dialects[o.agent]; o.agent != "" && !ok {
				return &usageError{fmt.Errorf("--agent %q: sentinel speaks claude, codex, gemini, cursor and copilot", o.agent)}
			}
			return runGuard(c, e, o)
		},
	}
}

// runGuard answers one event in the agent's format. The answer is the
// verdict: a crash would let the call through on most hosts.
func runGuard(c *cli.Context, e *env, o guardOptions) error {
	input, err := io.ReadAll(io.LimitReader(e.stdin, guard.MaxInput+1))
	dialect := guard.Dialects[o.agent]
	if dialect == nil {
		dialect = guard.Detect(input)
	}
	policy, perr := loadGuardPolicy(e)
	if err != nil {
		perr = fmt.Errorf("cannot read the event: %w", err)
	}
	d := guard.Decide(c.Context, input, dialect, func(cwd string) *guard.Env { return guard.NewEnv(cwd, e.getenv) }, policy, perr)
	a := dialect.Answer(d)
	if _, err := e.stdout.Write(a.Stdout); err != nil {
		return err
	}
	if a.Stderr != "" {
		io.WriteString(e.stderr, a.Stderr)
	}
	if a.Exit != 0 {
		return &hostExit{code: a.Exit}
	}
	return nil
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
