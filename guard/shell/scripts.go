package shell

import (
	"path"
	"strings"

	"github.com/gitsentinel/sentinel/guard/script"
)

// ScriptRun is a script file a command runs.
type ScriptRun struct {
	// File is the script as the command names it.
	File string
	// Lang is "sh" for shell code, or the language script.Effects reads
	// (python, javascript, ruby, perl, php, awk); "" for a file run as a
	// program (./x), whose first line says.
	Lang string
	// Args are the script's arguments: $1, $2… of a shell script.
	Args []string
	// Searched says a file named without a slash may be found on $PATH
	// (bash x.sh, source x.sh), as the shell looks for it.
	Searched bool
}

// RunsScript reports the script file a command runs: a shell's script
// operand (sh x.sh, bash x.sh a b), the file source and . read, a program
// named by a path (./x.sh, bin/deploy), or an interpreter's program file
// (python3 x.py, node x.js, ruby, perl, php, awk -f).
func RunsScript(c *Command) (ScriptRun, bool) {
	name := c.Name()
	switch {
	case name == "source" || name == ".":
		if ops := c.Args(); len(ops) > 0 {
			return ScriptRun{File: ops[0], Lang: "sh", Args: ops[1:], Searched: true}, true
		}
	case IsShell(name):
		p := c.Opts()
		if p.On("c") || p.On("s") || p.On("n") || len(p.Operands) == 0 || p.Operands[0] == "-" || p.Operands[0] == "/dev/stdin" {
			return ScriptRun{}, false
		}
		return ScriptRun{File: p.Operands[0], Lang: "sh", Args: p.Operands[1:], Searched: true}, true
	case IsInterpreter(name):
		if lang, file, args, ok := script.ScriptFile(c.Argv); ok {
			return ScriptRun{File: file, Lang: lang, Args: args}, true
		}
	case strings.Contains(c.Argv0, "/") && !c.Computed:
		return ScriptRun{File: c.Argv0, Args: c.Args()}, true
	}
	return ScriptRun{}, false
}

// ScriptLanguage is the language a file run as a program is in, by its
// first line: "#!/bin/sh", "#!/usr/bin/env python3", or none, which the
// calling shell runs as shell code. "" is a program whose language the
// guard does not read.
func ScriptLanguage(text string) string {
	first, _, _ := strings.Cut(text, "\n")
	if !strings.HasPrefix(first, "#!") {
		return "sh"
	}
	f := strings.Fields(first[2:])
	if len(f) == 0 {
		return "sh"
	}
	prog := path.Base(f[0])
	if prog == "env" {
		f = f[1:]
		for len(f) > 0 && strings.HasPrefix(f[0], "-") {
			f = f[1:] // env -S, env -i
		}
		if len(f) == 0 {
			return ""
		}
		prog = path.Base(f[0])
	}
	if IsShell(prog) && prog != "fish" {
		return "sh"
	}
	if lang, _, _, ok := script.ScriptFile([]string{prog, "x"}); ok {
		return lang
	}
	if strings.HasSuffix(prog, "awk") && len(f) > 1 && f[len(f)-1] == "-f" {
		return "awk"
	}
	return ""
}

// DecomposeScript decomposes a shell script file's text as the shell would
// run it: args are $1, $2… and "$@", name is $0, and its commands inherit
// the variables of vars (the command that runs it sets them, or the line
// did before it). Its commands are read through "run NAME".
func DecomposeScript(src, name string, args []string, vars map[string]string, e *Env) ([]*Command, error) {
	d := newDecomposer(e)
	d.carried = vars
	d.scope.positional(args)
	d.scope.set("0", name, true)
	err := d.parse(src, 1, []string{"run " + name})
	if d.needsEngine {
		return d.out, script.ErrNeedsEngine
	}
	return d.out, err
}

// DecomposeProgram reads a program file in one of script's languages
// for the commands it would run and the files it would touch, as an
// inline program of that language is read; vars are as DecomposeScript's.
func DecomposeProgram(lang, src, name string, vars map[string]string, e *Env) ([]*Command, error) {
	d := newDecomposer(e)
	d.carried = vars
	c := &Command{Argv: []string{name}, Env: map[string]string{}, Text: name}
	err := d.program(c, lang, src, 1, []string{"run " + name})
	if d.needsEngine {
		return d.out, script.ErrNeedsEngine
	}
	return d.out, err
}
