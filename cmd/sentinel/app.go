//go:build !sentinel_front

package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/gitsentinel/sentinel/internal/style"
	"github.com/gitsentinel/sentinel/internal/suggest"
	"github.com/urfave/cli/v2"
)

// run builds the application and runs it on args.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) error {
	if err := checkFront(getenv); err != nil {
		return err
	}
	tuneGC(getenv)
	e, err := newEnv(args, stdin, stdout, stderr, getenv)
	if err != nil {
		return err
	}
	cli.VersionPrinter = func(c *cli.Context) { io.WriteString(c.App.Writer, versionText()) }
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Aliases: []string{"v", "V"}, Usage: "print the version, the commit, the Go version and the platform", DisableDefaultText: true}
	if versionArgs(args[1:]) {
		_, err := io.WriteString(stdout, versionText())
		return err
	}
	app := &cli.App{
		Name: "sentinel",
		// The name in help and errors is the command people type, also
		// when the front hands the line to sentinel-engine.
		HelpName:             "sentinel",
		EnableBashCompletion: true,
		Usage:                "keep AI-assisted changes to a git repository honest",
		Version:              version,
		Reader:               stdin,
		Writer:               stdout,
		ErrWriter:            stderr,
		HideHelpCommand:      true,
		// Errors are returned to main, which alone decides the exit code.
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return flagError(err, c.App.Flags, "")
		},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return unknownCommand(c.Args().First(), c.App.Commands, "")
			}
			return cli.ShowAppHelp(c)
		},
		Commands: []*cli.Command{
			acceptCommand(e),
			agentCommand(e),
			checkCommand(e),
			ciCommand(e),
			completionCommand(e),
			doctorCommand(e),
			guardCommand(e),
			historyCommand(e),
			countCommand(e),
			trailersCommand(e),
			versionCommand(e),
			hookCommand(e),
			initCommand(e),
			installCommand(e),
			runCommand(e),
			mergeBaselineCommand(e),
			statusCommand(e),
			uninstallCommand(e),
		},
	}
	shapeApp(app, args)
	return app.Run(helpArgs(args))
}

// formatFlag is the --format flag of commands that report.
func formatFlag(choices ...string) *cli.StringFlag {
	return withChoices(&cli.StringFlag{Name: "format", Value: choices[0], Usage: fmt.Sprintf("output format: %v", choices)}, choices)
}

// colorFlag is --color, for the commands whose text reports a verdict.
func colorFlag() *cli.StringFlag {
	return withChoices(&cli.StringFlag{Name: "color", Value: "auto", Usage: "colour the verdict: auto (on a terminal, without NO_COLOR), always or never"}, style.Modes)
}

// styleFor is the style of text written to w, as --color (when the
// command has it) and NO_COLOR say.
func (e *env) styleFor(c *cli.Context, w io.Writer) (style.Style, error) {
	mode := ""
	if c != nil {
		mode = c.String("color")
	}
	s, err := style.For(w, e.getenv, mode)
	if err != nil {
		return s, &usageError{err}
	}
	return s, nil
}

// flagChoices are the values a flag takes, for completion.
var flagChoices = map[cli.Flag][]string{}

// withChoices records the values f takes, which completion offers after it.
func withChoices[F cli.Flag](f F, choices []string) F {
	flagChoices[f] = choices
	return f
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

func checkFormat(c *cli.Context, choices ...string) (string, error) {
	f := c.String("format")
	for _, ch := range choices {
		if f == ch {
			return f, nil
		}
	}
	return "", &usageError{fmt.Errorf("--format %q: want one of %v%s; run `%s --help`", f, choices, suggest.DidYouMean(f, choices, nil), c.Command.HelpName)}
}

// tuneGC collects no garbage until the Go runtime holds firstGCAt, then
// lets the heap grow to five times what is live before each collection,
// within a limit. A hook's run is short, and at Go's default a warm count
// of 1,700 cached files spent an eighth of its time collecting garbage it
// would have dropped at exit anyway; most runs (a hook, a warm count) now
// end before their first collection. A cold count's Go heap holds only the
// small wrappers of the nodes read from tree-sitter's trees, which live
// outside it, and was collected every few megabytes. GOGC or GOMEMLIMIT,
// when set, win.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" && getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(-1)
		debug.SetMemoryLimit(firstGCAt)
		afterFirstGC(func() {
			debug.SetGCPercent(400)
			debug.SetMemoryLimit(1 << 30)
		})
	}
}

// firstGCAt is the memory at which the first collection runs.
const firstGCAt = 64 << 20

// gcMark is an object nothing keeps, whose finalizer runs after the first
// collection that finds it unreachable.
type gcMark struct{ _ *int }

// afterFirstGC calls f once, after the process's first garbage collection.
func afterFirstGC(f func()) {
	runtime.SetFinalizer(&gcMark{}, func(*gcMark) { f() })
}
