package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/gitsentinel/sentinel/contain"
	"github.com/gitsentinel/sentinel/guard/pathguard"
)

// runOptions are the flags and arguments of `sentinel run`.
type runOptions struct {
	agent string
	// call runs one tool call of a host that runs outside.
	call    bool
	command []string
}

// runArgs reads `sentinel run`'s arguments in the shapes the engine's
// parser reads the same way: `[--agent NAME] [--] COMMAND…`, with the
// command after a `--`, or a first word that is no option. Anything else
// (help, a mistake) is the engine's to answer.
func runArgs(args []string) (runOptions, bool) {
	var o runOptions
	for len(args) > 0 {
		if (args[0] == "--call" || args[0] == "-call") && !o.call {
			o.call, args = true, args[1:]
			continue
		}
		if o.agent != "" {
			break
		}
		if len(args) >= 2 && (args[0] == "--agent" || args[0] == "-agent") {
			o.agent, args = args[1], args[2:]
			continue
		}
		v, ok := strings.CutPrefix(args[0], "--agent=")
		if !ok {
			v, ok = strings.CutPrefix(args[0], "-agent=")
		}
		if !ok || v == "" {
			break
		}
		o.agent, args = v, args[1:]
	}
	switch {
	case len(args) >= 2 && args[0] == "--":
		o.command = args[1:]
	case len(args) >= 1 && !strings.HasPrefix(args[0], "-"):
		o.command = args
	default:
		return o, false
	}
	return o, true
}

func runRun(ctx context.Context, e *env, o runOptions) error {
	if len(o.command) == 0 {
		return &usageError{errors.New("sentinel run needs a command: sentinel run -- COMMAND [ARGS…]")}
	}
	if o.call && o.agent == "" {
		return &usageError{errors.New("sentinel run --call needs the host's name: sentinel run --call --agent NAME -- COMMAND [ARGS…]")}
	}
	user, project, lay, err := contain.LoadRun(ctx, pathguard.UserConfigPath(e.getenv), e.dir)
	if err != nil {
		return err
	}
	exe, _ := os.Executable()
	p, err := contain.Build(ctx, contain.Options{Dir: e.dir, Command: o.command, Agent: o.agent, Getenv: e.getenv,
		Executable: exe, Self: brokerBinary(), User: user, Project: project, Layout: lay, Call: o.call})
	if err != nil {
		return err
	}
	code, err := contain.Run(ctx, p, contain.Stdio{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, e.getenv)
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
func brokerBinary() string { return startedAs() }
