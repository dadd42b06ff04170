package main

import (
	"fmt"
	"io"
	"os"

	"github.com/gitsentinel/sentinel/trailers"
	"github.com/urfave/cli/v2"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

// env is what every command may touch of the outside world.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
	dir    string
	// procs walks the parent processes, where an agent is known by its
	// program.
	procs *trailers.Ancestry
}

// processes makes the walk up the process tree for a command run in dir;
// the tests stop it at the test binary.
var processes = trailers.SystemAncestry

// agentEnv is what agent detection reads.
func (e *env) agentEnv() trailers.Env {
	return trailers.Env{Getenv: e.getenv, Processes: e.procs}
}

// run builds the application and runs it on args.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) error {
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv, dir: dir, procs: processes(dir)}
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
