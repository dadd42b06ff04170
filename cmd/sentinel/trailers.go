//go:build !sentinel_front

package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gitsentinel/sentinel/trailers"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"
)

func trailersCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "trailers",
		Usage: "parse, add and check commit message trailers",
		Subcommands: []*cli.Command{
			trailersParseCommand(e),
			trailersAddCommand(e),
			trailersCheckCommand(e),
			trailersAttestCommand(e),
		},
	}
}

// oneFileArg returns the single FILE|- argument, "-" when absent.
func oneFileArg(c *cli.Context) (string, error) {
	switch c.NArg() {
	case 0:
		return "-", nil
	case 1:
		return c.Args().First(), nil
	}
	return "", &usageError{fmt.Errorf("%s takes one FILE or -, got %d arguments", c.Command.FullName(), c.NArg())}
}

// readInput reads FILE, or standard input for "-", up to the size of
// message sentinel reads (a *trailers.MessageTooLargeError above it). A
// terminal on standard input is refused rather than waited on in silence:
// cmd names the command for the example of a pipe.
func readInput(e *env, name, cmd string) ([]byte, error) {
	if name == "-" {
		if f, ok := e.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
			return nil, &usageError{fmt.Errorf("%s reads a message from FILE or standard input, and standard input is a terminal: name a FILE, or pipe a message in, such as `git log -1 --format=%%B | sentinel %s -`", cmd, cmd)}
		}
		b, err := trailers.ReadMessage(e.stdin)
		if err != nil {
			return nil, fmt.Errorf("read standard input: %w", err)
		}
		return b, nil
	}
	b, err := trailers.ReadMessageFile(e.path(name))
	if err != nil {
		return nil, fmt.Errorf("read message: %w", err)
	}
	return b, nil
}

// path resolves a command-line path against the working directory.
func (e *env) path(name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(e.dir, name)
}
