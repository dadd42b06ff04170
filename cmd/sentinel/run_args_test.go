//go:build !sentinel_front

package main

import (
	"context"
	"io"
	"slices"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestRunArgsAsTheEngineReadsThem holds the front's reading of `sentinel
// run`'s arguments to the engine's: each shape the front takes is read
// the same by the engine's parser, and what it leaves goes to the engine.
func TestRunArgsAsTheEngineReadsThem(t *testing.T) {
	for _, args := range [][]string{
		{"--", "claude"}, {"claude", "-p", "x"}, {"--agent", "Claude:opus", "--", "sh", "-c", "exit 3"},
		{"--agent=codex", "codex", "--yolo"}, {"-agent", "x", "--", "--weird"}, {"--", "--help"},
		{"--help"}, {"-h"}, {}, {"--agent"}, {"--agent", "x"}, {"--nosuch", "x"}, {"--"},
	} {
		front, ok := runArgs(args)
		var engine *runOptions
		cmd := runCommand(&env{getenv: func(string) string { return "" }})
		cmd.Action = func(c *cli.Context) error {
			engine = &runOptions{agent: c.String("agent"), command: c.Args().Slice()}
			return nil
		}
		app := &cli.App{Name: "sentinel", Commands: []*cli.Command{cmd}, Writer: io.Discard, ErrWriter: io.Discard,
			ExitErrHandler: func(*cli.Context, error) {}}
		_ = app.RunContext(context.Background(), append([]string{"sentinel", "run"}, args...))
		switch {
		case !ok:
			// The engine answers: help, a usage error, or an empty command.
			if engine != nil && len(engine.command) > 0 && !slices.Contains(args, "--help") && !slices.Contains(args, "-h") {
				t.Errorf("%q: the front leaves to the engine a command the engine would run: %+v", args, *engine)
			}
		case engine == nil:
			t.Errorf("%q: the front runs %+v; the engine would not run it", args, front)
		case engine.agent != front.agent || !slices.Equal(engine.command, front.command):
			t.Errorf("%q: the front reads %+v, the engine %+v", args, front, *engine)
		}
	}
}
