package main

import (
	"io"
	"os"

	"github.com/gitsentinel/sentinel/internal/agentmark"
	"github.com/gitsentinel/sentinel/trailers"
)

// version is set at build time with -ldflags "-X main.version=…", and
// commit, the source's commit id, with -X main.commit=….
var (
	version = "dev"
	commit  = ""
)

// env is what every command may touch of the outside world.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
	dir    string
	// args is the command line, which the front binary hands to the
	// engine as it is.
	args []string
	// procs walks the parent processes, where an agent is known by its
	// program.
	procs *trailers.Ancestry
	// mark is the agent mark of the sandbox `sentinel run` started this
	// process in, or nil outside one.
	mark *agentmark.Mark
}

// processes makes the walk up the process tree for a command run in dir;
// the tests stop it at the test binary.
var processes = trailers.SystemAncestry

// agentEnv is what agent detection reads.
func (e *env) agentEnv() trailers.Env {
	return trailers.Env{Getenv: e.getenv, Processes: e.procs, Mark: e.mark}
}

// newEnv is the environment of one run on args, in the working directory.
func newEnv(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) (*env, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv, dir: dir, args: args, procs: processes(dir)}
	if m, ok := agentmark.Read(agentmark.Path); ok {
		e.mark = &m
	}
	return e, nil
}
