//go:build !sentinel_front

package main

import (
	"os/exec"

	"github.com/gitsentinel/sentinel/doctor"
	"github.com/urfave/cli/v2"
)

func doctorCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "doctor",
		Usage: "report what protects this repository and user: git hooks, the baseline, the guard in each agent; and what fixes each gap",
		Description: "Each line is ok, missing, broken (there, and does nothing) or advice, and the gaps end with the exact\n" +
			"commands or edits that fix them. An agent's guard is missing only where it was installed and is gone,\n" +
			"or where [guard] expect names the agent; an agent whose settings directory exists without it is advice.\n\n" +
			"Exit status: 0 nothing is missing or broken (advice may remain), 1 something to fix, 2 doctor could not check.",
		Flags: []cli.Flag{formatFlag("text", "json")},
		Action: func(c *cli.Context) error {
			o := doctorOptions{}
			f, err := checkFormat(c, "text", "json")
			if err != nil {
				return err
			}
			o.format = f
			return reportIn(e, f, func(e *env) error { return runDoctor(c, e, o) })
		},
	}
}

// doctorOptions are the flags of `sentinel doctor`.
type doctorOptions struct {
	format string
}

func runDoctor(c *cli.Context, e *env, o doctorOptions) error {
	r, err := doctor.Check(c.Context, doctor.Options{Dir: e.dir, Getenv: e.getenv, LookPath: exec.LookPath})
	if err != nil {
		return err
	}
	write := r.WriteText
	if o.format == "json" {
		write = r.WriteJSON
	}
	if err := write(e.stdout); err != nil {
		return err
	}
	if !r.Healthy() {
		return &policyError{"gaps"}
	}
	return nil
}
