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
		{"--call", "--agent", "claude", "--", "/bin/bash", "-c", "ls"}, {"--agent", "claude", "--call", "--", "x"},
		{"--call", "--", "x"}, {"--call", "--call", "--", "x"}, {"--agent=", "x"},
		{"--help"}, {"-h"}, {}, {"--agent"}, {"--agent", "x"}, {"--nosuch", "x"}, {"--"},
	} {
		front, ok := runArgs(args)
		var engine *runOptions
		cmd := runCommand(&env{getenv: func(string) string { return "" }})
		cmd.Action = func(c *cli.Context) error {
			engine = &runOptions{agent: c.String("agent"), call: c.Bool("call"), command: c.Args().Slice()}
			return nil
		}
		app := &cli.App{Name: "sentinel", Commands: []*cli.Command{cmd}, Writer: io.Discard, ErrWriter: io.Discard,
			ExitErrHandler: func(*cli.Context, error) {}}
		_ = app.RunContext(context.Background(), append([]string{"sentinel", "run"}, args...))
		switch {
		case !ok:
			// The engine answers: help, a mistake, or a shape the front
			// leaves to it. The shapes people and the guard's rewrite use
			// are the front's.
			if len(args) > 1 && args[len(args)-2] != "--agent" && (args[0] == "--" || args[0] == "--call" && args[1] == "--agent") {
				t.Errorf("%q: the front leaves an everyday shape to the engine", args)
			}
		case engine == nil:
			t.Errorf("%q: the front runs %+v; the engine would not run it", args, front)
		case engine.agent != front.agent || engine.call != front.call || !slices.Equal(engine.command, front.command):
			t.Errorf("%q: the front reads %+v, the engine %+v", args, front, *engine)
		}
	}
}
