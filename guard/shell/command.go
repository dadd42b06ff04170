package shell

import (
	"strings"

	"github.com/gitsentinel/sentinel/guard/internal/argspec"
)

// Git reads a git command against git's tables, once.
func (c *Command) Git() *argspec.Git {
	if c.Name() != "git" {
		return &argspec.Git{Global: &argspec.Parsed{AfterDash: -1}, Args: &argspec.Parsed{AfterDash: -1}, Config: map[string]string{}}
	}
	if c.gitc == nil {
		c.gitc = argspec.ParseGitEnv(c.Args(), c.Env)
	}
	return c.gitc
}

// Sub is git's subcommand, or "".
func (c *Command) Sub() string {
	if c.Name() != "git" {
		return ""
	}
	return c.Git().Sub
}

// Opts reads the command's arguments against its table, once. A command
// without a table is read the plain way: words with a dash are options,
// "--" ends them.
func (c *Command) Opts() *argspec.Parsed {
	if c.parsed == nil {
		spec := argspec.For(c.Name())
		if spec == nil {
			spec = &argspec.Spec{Short: map[byte]*argspec.Opt{}, Long: map[string]*argspec.Opt{}}
		}
		c.parsed = spec.Parse(c.Args())
	}
	return c.parsed
}

// Has reports whether any of the given options is in effect; flags are
// written as on the command line (--force, -f) and read through the
// command's table, so abbreviations and bundles count.
func (c *Command) Has(flags ...string) bool {
	p := c.Opts()
	if c.Name() == "git" {
		p = c.Git().Args
	}
	spec := argspec.For(c.Name())
	if c.Name() == "git" {
		spec = argspec.GitSubs().Get(c.Sub())
	}
	for _, f := range flags {
		id := strings.TrimLeft(f, "-")
		if spec != nil {
			if strings.HasPrefix(f, "--") {
				if o := spec.Long[id]; o != nil {
					id = o.ID
				}
			} else if o := spec.Short[id[0]]; o != nil && len(id) == 1 {
				id = o.ID
			}
		}
		if p.On(id) || p.On(f) {
			return true
		}
	}
	return false
}

// HasShort reports whether the one-letter option -f is in effect.
func (c *Command) HasShort(f byte) bool {
	return c.Has("-" + string(f))
}

// Operands are the arguments that are not options or their values.
func (c *Command) Operands() []string {
	if c.Name() == "git" {
		return append([]string{c.Sub()}, c.Git().Args.Operands...)
	}
	return c.Opts().Operands
}

// Recursive reports whether the command was given --recursive, or its
// short form in the command's table.
func (c *Command) Recursive() bool {
	return c.Has("--recursive")
}

// HasArg reports whether s is one of the command's words, as written.
func (c *Command) HasArg(s string) bool {
	for _, a := range c.Args() {
		if a == s {
			return true
		}
	}
	return false
}

// ForkBomb is the name given to a function that pipes itself into itself
// in the background.
const ForkBomb = "(fork-bomb)"

// FindPrimary reports a primary in find's expression, which follows the
// start paths; the values of tests (-name -delete) are not primaries.
func (c *Command) FindPrimary(p string) bool {
	args := c.Args()
	started := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !started && (strings.HasPrefix(a, "-") || a == "!" || a == "(") {
			started = true
		}
		if !started {
			continue
		}
		if a == p {
			return true
		}
		switch a {
		case "-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-wholename", "-iwholename", "-lname", "-ilname",
			"-newer", "-user", "-group", "-perm", "-type", "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin",
			"-maxdepth", "-mindepth", "-printf", "-fprint", "-fprintf", "-fls", "-inum", "-links", "-samefile", "-uid", "-gid", "-used", "-context", "-fstype", "-regextype":
			i++
		case "-exec", "-execdir", "-ok", "-okdir":
			for i++; i < len(args) && args[i] != ";" && args[i] != "+"; i++ {
			}
		}
	}
	return false
}

// Normalized is the command as rules' patterns see it: its words joined.
func (c *Command) Normalized() string {
	return strings.Join(c.Argv, " ")
}

// IsInterpreter reports a language interpreter that runs a program given
// on its command line or stdin.
func IsInterpreter(name string) bool {
	switch strings.TrimRight(name, "0123456789.") {
	case "python", "pypy", "node", "nodejs", "bun", "deno", "perl", "ruby", "php", "awk", "gawk", "mawk", "nawk", "lua", "luajit", "tclsh", "Rscript", "osascript", "pwsh", "powershell":
		return true
	}
	return false
}

// GitConfigRuns reports a git setting whose value is a program git runs.
func GitConfigRuns(key string) bool {
	switch key {
	case "core.sshcommand", "core.fsmonitor", "core.editor", "core.pager", "core.askpass", "core.gitproxy", "sequence.editor",
		"diff.external", "credential.helper", "gpg.program", "uploadpack.packobjectshook", "interactive.difffilter", "protocol.ext.allow":
		return true
	}
	last := key[strings.LastIndexByte(key, '.')+1:]
	switch {
	case strings.HasPrefix(key, "alias."):
		return true
	case strings.HasPrefix(key, "filter.") && (last == "clean" || last == "smudge" || last == "process"),
		strings.HasPrefix(key, "merge.") && last == "driver",
		strings.HasPrefix(key, "diff.") && (last == "textconv" || last == "command"),
		strings.HasPrefix(key, "gpg.") && last == "program",
		strings.HasPrefix(key, "remote.") && (last == "uploadpack" || last == "receivepack" || last == "proxy"),
		strings.HasPrefix(key, "pager."), strings.HasPrefix(key, "credential.") && last == "helper",
		strings.HasPrefix(key, "difftool.") && last == "cmd", strings.HasPrefix(key, "mergetool.") && last == "cmd":
		return true
	}
	return false
}
