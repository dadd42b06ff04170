//go:build !sentinel_front

package main

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/gitsentinel/sentinel/internal/quote"
	"github.com/gitsentinel/sentinel/internal/suggest"
	"github.com/urfave/cli/v2"
)

// The categories of the top-level commands, in the order the help lists
// them: what a person runs while working, what they run once to set a
// repository or a machine up, what CI runs, and what hooks and git run.
const (
	catEveryday = "everyday"
	catSetup    = "set-up"
	catCI       = "CI"
	catPlumbing = "plumbing"
)

// categoryOrder is the order of the categories in the help.
var categoryOrder = []string{catEveryday, catSetup, catCI, catPlumbing}

// commandCategory places each top-level command. agent changes nothing
// and answers a question asked while working (what would this commit
// say?), so it is everyday. guard on its own is plumbing, run only by
// agents' hooks; its subcommands are listed where people look for them
// (extraEntries): install and uninstall with the set-up, explain and log
// with the everyday commands. completion is run once per machine: set-up.
var commandCategory = map[string]string{
	"status": catEveryday, "run": catEveryday, "check": catEveryday, "count": catEveryday, "accept": catEveryday, "agent": catEveryday, "history": catEveryday,
	"init": catSetup, "install": catSetup, "uninstall": catSetup, "doctor": catSetup, "completion": catSetup, "version": catSetup,
	"ci":   catCI,
	"hook": catPlumbing, "merge-baseline": catPlumbing, "trailers": catPlumbing, "guard": catPlumbing,
}

// extraEntries are subcommands the help lists in a category of their own,
// beside the top-level commands, as people look for them there.
var extraEntries = map[string][]string{
	catEveryday: {"guard explain", "guard log"},
	catSetup:    {"guard install", "guard uninstall"},
}

// completeValues completes a leaf command's line: after a flag whose values
// are known (--format, --agent, --hook), those values; otherwise the flags,
// as urfave/cli does. The word before the completion flag is read from the
// command line itself, since urfave/cli parses "--agent" without its
// value as no flag at all.
func completeValues(c *cli.Command, args []string) cli.BashCompleteFunc {
	return func(ctx *cli.Context) {
		if n := len(args); n >= 2 && args[n-1] == completionFlag {
			prev := strings.TrimLeft(args[n-2], "-")
			if strings.HasPrefix(args[n-2], "-") {
				for _, f := range c.Flags {
					for _, name := range f.Names() {
						if name == prev && flagChoices[f] != nil {
							for _, v := range flagChoices[f] {
								fmt.Fprintln(ctx.App.Writer, v)
							}
							return
						}
					}
				}
			}
		}
		cli.DefaultCompleteWithFlags(c)(ctx)
	}
}

// shapeApp gives every command the same help and the same answer to a
// mistake: categories, help at every level, flags' defaults shown only
// where they say something, and a usage error printed once with the
// command that shows the right usage.
func shapeApp(app *cli.App, args []string) {
	for _, c := range app.Commands {
		if cat, ok := commandCategory[c.Name]; ok {
			c.Category = cat
		}
		shapeCommand(c, c.Name, args)
	}
	app.CustomAppHelpTemplate = appHelpTemplate(app)
}

// shapeCommand shapes c, whose name below sentinel is name, and its
// subcommands.
func shapeCommand(c *cli.Command, name string, args []string) {
	if strings.Contains(name, " ") {
		// urfave/cli names a top-level command after the application
		// itself, and a subcommand after its parent's HelpName, which for
		// the front's engine would be sentinel-engine.
		c.HelpName = "sentinel " + name
	}
	c.OnUsageError = func(ctx *cli.Context, err error, _ bool) error {
		return flagError(err, c.Flags, name)
	}
	var required []string
	for _, f := range c.Flags {
		switch f := f.(type) {
		case *cli.BoolFlag:
			// "(default: false)" says nothing, and contradicts a usage
			// that names the default ("the default").
			f.DisableDefaultText = true
		case *cli.StringFlag:
			// A flag the command cannot run without is checked here, not
			// by urfave/cli, which prints the whole help before the
			// error.
			if f.Required {
				f.Required = false
				required = append(required, f.Name)
			}
		}
	}
	if len(required) > 0 {
		before := c.Before
		c.Before = func(ctx *cli.Context) error {
			for _, r := range required {
				if !ctx.IsSet(r) {
					return &usageError{fmt.Errorf("%s needs --%s; run `sentinel %s --help`", name, r, name)}
				}
			}
			if before != nil {
				return before(ctx)
			}
			return nil
		}
	}
	if len(c.Subcommands) == 0 {
		// A leaf takes arguments of its own (a path, a hook's name): a
		// "help" there is an argument, and the help is --help.
		c.HideHelpCommand = true
		c.BashComplete = completeValues(c, args)
		if c.ArgsUsage == "" {
			// A command that names no arguments takes none, every one
			// alike: a stray word is a mistake, not ignored.
			before := c.Before
			c.Before = func(ctx *cli.Context) error {
				if ctx.NArg() > 0 {
					return &usageError{fmt.Errorf("%s takes no arguments, got %s; run `sentinel %s --help`", name, quote.Name(ctx.Args().First()), name)}
				}
				if before != nil {
					return before(ctx)
				}
				return nil
			}
		}
		return
	}
	for _, s := range c.Subcommands {
		shapeCommand(s, name+" "+s.Name, args)
	}
	// A word after a command with subcommands names one of them: an
	// unknown one is a mistake, never an argument for the command's own
	// action (guard would wait for an event on standard input).
	action := c.Action
	c.Action = func(ctx *cli.Context) error {
		if ctx.Args().Present() {
			return unknownCommand(ctx.Args().First(), c.Subcommands, name)
		}
		if action == nil {
			return cli.ShowSubcommandHelp(ctx)
		}
		return action(ctx)
	}
}

// unknownCommand is the error for a word that names no command among
// cmds, the subcommands of parent (empty for the top level).
func unknownCommand(word string, cmds []*cli.Command, parent string) error {
	var names []string
	for _, c := range cmds {
		if !c.Hidden {
			names = append(names, c.Names()...)
		}
	}
	return &usageError{fmt.Errorf("unknown command %q%s; run `%s --help`", word, suggest.DidYouMean(word, names, nil), strings.TrimSpace("sentinel "+parent))}
}

// undefinedFlag and flagWithoutValue read the flag's name from the
// errors of Go's flag package, which spells every flag with one dash.
var (
	undefinedFlag    = regexp.MustCompile(`^flag provided but not defined: -+(.+)$`)
	flagWithoutValue = regexp.MustCompile(`^flag needs an argument: -+(.+)$`)
)

// flagError is the error for a mistake in the flags of the command name
// (empty for the top level): the mistake, the flag that was probably
// meant, and how to see the usage, on one line.
func flagError(err error, flags []cli.Flag, name string) error {
	prefix, help := "", "sentinel"
	if name != "" {
		prefix, help = name+": ", "sentinel "+name
	}
	if m := flagWithoutValue.FindStringSubmatch(err.Error()); m != nil {
		return &usageError{fmt.Errorf("%s--%s needs a value; run `%s --help`", prefix, m[1], help)}
	}
	m := undefinedFlag.FindStringSubmatch(err.Error())
	if m == nil {
		return &usageError{fmt.Errorf("%s%w; run `%s --help`", prefix, err, help)}
	}
	var names []string
	for _, f := range flags {
		for _, n := range f.Names() {
			if len(n) > 1 {
				names = append(names, n)
			}
		}
	}
	hint := suggest.DidYouMean(m[1], append(names, "help"), func(s string) string { return "--" + s })
	return &usageError{fmt.Errorf("%sunknown flag --%s%s; run `%s --help`", prefix, m[1], hint, help)}
}

// appHelpTemplate is urfave/cli's help for the application with the
// commands listed by category in categoryOrder (urfave/cli sorts
// categories by name).
func appHelpTemplate(app *cli.App) string {
	var b strings.Builder
	b.WriteString(`NAME:
   {{template "helpNameTemplate" .}}

USAGE:
   {{.HelpName}} COMMAND [command options] [arguments...]

VERSION:
   {{.Version}}
`)
	width := 0
	entries := map[string][][2]string{}
	for _, cat := range categoryOrder {
		for _, c := range app.Commands {
			if c.Category == cat && !c.Hidden {
				entries[cat] = append(entries[cat], [2]string{c.Name, c.Usage})
			}
		}
		for _, path := range extraEntries[cat] {
			if c := findCommand(app.Commands, strings.Fields(path)); c != nil {
				entries[cat] = append(entries[cat], [2]string{path, c.Usage})
			}
		}
		sort.Slice(entries[cat], func(i, j int) bool { return entries[cat][i][0] < entries[cat][j][0] })
		for _, e := range entries[cat] {
			width = max(width, len(e[0]))
		}
	}
	for _, cat := range categoryOrder {
		if len(entries[cat]) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s COMMANDS:\n", strings.ToUpper(cat))
		for _, e := range entries[cat] {
			fmt.Fprintf(&b, "   %-*s  %s\n", width, e[0], templateText(e[1]))
		}
	}
	b.WriteString(`
GLOBAL OPTIONS:
   {{range $index, $option := .VisibleFlags}}{{if $index}}
   {{end}}{{$option}}{{end}}

Run '{{.HelpName}} help COMMAND' or '{{.HelpName}} COMMAND --help' for a command's options.
`)
	return b.String()
}

// templateText keeps text out of the template's reach.
func templateText(s string) string {
	return strings.ReplaceAll(s, "{{", `{{"{{"}}`)
}

// findCommand returns the command at path among cmds, or nil.
func findCommand(cmds []*cli.Command, path []string) *cli.Command {
	var c *cli.Command
	for _, p := range path {
		c = nil
		for _, s := range cmds {
			if s.HasName(p) {
				c = s
			}
		}
		if c == nil {
			return nil
		}
		cmds = c.Subcommands
	}
	return c
}

// helpArgs turns `sentinel help COMMAND…` into `sentinel COMMAND… --help`,
// so that help for a command is one thing however it is asked for, at any
// depth. A bare `sentinel help` is the application's help.
func helpArgs(args []string) []string {
	if len(args) < 2 || args[1] != "help" {
		return args
	}
	if len(args) == 2 {
		return []string{args[0], "--help"}
	}
	out := append([]string{args[0]}, args[2:]...)
	return append(out, "--help")
}
