//go:build !sentinel_front

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/gitsentinel/sentinel/contain"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/urfave/cli/v2"
)

// runOptions are the flags and arguments of `sentinel run`.
type runOptions struct {
	agent   string
	command []string
}

func runCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run an agent host, or any command, in a sandbox that keeps sentinel's hooks, configuration and binaries, and your secrets, out of its reach",
		ArgsUsage: "[--] COMMAND [ARGS…]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "agent", Usage: "the agent to mark the sandbox with, as `NAME[:MODEL]`, where the command's program does not name one"},
		},
		Action: func(c *cli.Context) error {
			return runRun(c, e, runOptions{agent: c.String("agent"), command: c.Args().Slice()})
		},
	}
}

func runRun(c *cli.Context, e *env, o runOptions) error {
	if len(o.command) == 0 {
		return &usageError{errors.New("sentinel run needs a command: sentinel run -- COMMAND [ARGS…]")}
	}
	user, project, err := contain.LoadRun(c.Context, pathguard.UserConfigPath(e.getenv), e.dir)
	if err != nil {
		return err
	}
	exe, _ := os.Executable()
	p, err := contain.Build(c.Context, contain.Options{Dir: e.dir, Command: o.command, Agent: o.agent, Getenv: e.getenv,
		Executable: exe, Self: brokerBinary(), User: user, Project: project})
	if err != nil {
		return err
	}
	code, err := contain.Run(c.Context, p, contain.Stdio{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, e.getenv)
	if errors.Is(err, contain.ErrUnavailable) {
		fmt.Fprintf(e.stderr, "sentinel run: %s\n", err)
		return &hostExit{code: exitUnconfined}
	}
	if err != nil {
		return err
	}
	if code != 0 {
		return &hostExit{code: code}
	}
	return nil
}

// brokerBinary is the sentinel the broker runs for the hooks inside: this
// one, by the name it was started under, found now, outside the sandbox,
// before the agent can put anything on PATH.
func brokerBinary() string {
	if filepath.IsAbs(os.Args[0]) {
		return os.Args[0]
	}
	if p, err := exec.LookPath(os.Args[0]); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
	}
	exe, _ := os.Executable()
	return exe
}
