package hostrun

import (
	"maps"

	"github.com/gitsentinel/sentinel/internal/fakemodel"
)

// tools names a host's tools as data: the tool of each kind of call, the
// keys its arguments go under, and the arguments each needs besides.
type tools struct {
	// shell, write and read are the tools' names.
	shell, write, read string
	// command is the shell tool's key for the command line (default
	// "command"); path and content the file tools' keys.
	command, path, content string
	// shellArgs and readArgs are fixed arguments of the shell and read
	// calls (a description, a mode the tool requires).
	shellArgs, readArgs map[string]any
	// patch, when set, is a tool that takes an apply_patch patch as its
	// raw input, offered after write (some models get it in its stead).
	patch string
}

// call returns the calls of kind k with a's arguments.
func (t tools) call(k Kind, a Args) []fakemodel.Call {
	switch k {
	case Write:
		calls := []fakemodel.Call{{Name: t.write, Args: map[string]any{t.path: a.Path, t.content: a.Content}}}
		if t.patch != "" {
			calls = append(calls, fakemodel.Call{Name: t.patch, Input: addPatch(a.Path, a.Content)})
		}
		return calls
	case Read:
		args := map[string]any{t.path: a.Path}
		maps.Copy(args, t.readArgs)
		return one(t.read, args)
	}
	key := t.command
	if key == "" {
		key = "command"
	}
	args := map[string]any{key: a.Command}
	maps.Copy(args, t.shellArgs)
	return one(t.shell, args)
}
