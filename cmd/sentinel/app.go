//go:build !sentinel_front

package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"
)

// run builds the application and runs it on args.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) error {
	if err := checkFront(getenv); err != nil {
		return err
	}
	e, err := newEnv(args, stdin, stdout, stderr, getenv)
	if err != nil {
		return err
	}
	app := &cli.App{
		Name:            "sentinel",
		Usage:           "keep AI-assisted changes to a git repository honest",
		Version:         version,
		Reader:          stdin,
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		// Errors are returned to main, which alone decides the exit code.
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return &usageError{err}
		},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return &usageError{fmt.Errorf("unknown command %q; run `sentinel --help`", c.Args().First())}
			}
			return cli.ShowAppHelp(c)
		},
		Commands: []*cli.Command{
			acceptCommand(e),
			agentCommand(e),
			checkCommand(e),
			ciCommand(e),
			doctorCommand(e),
			guardCommand(e),
			historyCommand(e),
			countCommand(e),
			trailersCommand(e),
			hookCommand(e),
			initCommand(e),
			installCommand(e),
			mergeBaselineCommand(e),
			statusCommand(e),
			uninstallCommand(e),
		},
	}
	return app.Run(args)
}

// formatFlag is the --format flag of commands that report.
func formatFlag(choices ...string) *cli.StringFlag {
	return &cli.StringFlag{Name: "format", Value: choices[0], Usage: fmt.Sprintf("output format: %v", choices)}
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

func checkFormat(c *cli.Context, choices ...string) (string, error) {
	f := c.String("format")
	for _, ch := range choices {
		if f == ch {
			return f, nil
		}
	}
	return "", &usageError{fmt.Errorf("--format %q: want one of %v", f, choices)}
}
