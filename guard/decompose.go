// Package guard decides, before a coding agent's tool call runs, whether it
// may: it decomposes shell commands with a real POSIX/Bash parser, strips
// wrappers, checks every simple command and every write against a catalogue
// of rules and a path guard, and fails closed.
package guard

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// MaxDepth bounds how deep `bash -c`, `eval` and heredocs fed to a shell
// are parsed; deeper nesting is denied.
const MaxDepth = 8

// MaxNesting bounds how deep command and process substitutions and
// subshells nest; deeper is denied.
const MaxNesting = 64

// ErrTooDeep is returned for shell code nested past MaxDepth or MaxNesting.
var ErrTooDeep = fmt.Errorf("shell code nested more than %d levels deep", MaxDepth)

// Command is one simple command, with its wrappers stripped.
type Command struct {
	// Argv is the command's words: the name normalised to its base name,
	// and non-literal words rendered as $NAME or $(…).
	Argv []string
	// Computed reports a command name that is not literal ($CMD,
	// $(printf rm)): what runs cannot be known.
	Computed bool
	// Env holds the variables set for the command (VAR=x cmd, env VAR=x).
	Env map[string]string
	// Via lists the wrappers that were stripped (sudo, env, xargs, bash -c).
	Via []string
	// Writes are the paths the command writes: redirections, and the
	// destinations of tee, cp, mv, install, sed -i, truncate, dd of=.
	Writes []string
	// Stdin is a heredoc's body fed to the command, for database clients.
	Stdin string
	// FetchedCode reports that the command runs code fetched from the
	// network: curl … | sh, or sh <(curl …).
	FetchedCode bool
	// Text is the command as written, for explanations.
	Text string

	gitc   *gitCall
	parsed *parsed
}

// Name returns the command's name, or "".
func (c *Command) Name() string {
	if len(c.Argv) == 0 {
		return ""
	}
	return c.Argv[0]
}

// Args returns the arguments after the name.
func (c *Command) Args() []string {
	if len(c.Argv) < 2 {
		return nil
	}
	return c.Argv[1:]
}

// decomposer walks shell code into simple commands.
type decomposer struct {
	out []*Command
	// fetched marks calls that read fetched code on stdin (curl … | sh).
	fetched map[*syntax.CallExpr]bool
}

// Decompose parses shell code (Bash dialect) and returns every simple
// command it would run, through lists, pipelines, subshells, blocks,
// functions, loops, conditionals, command and process substitutions,
// heredocs fed to a shell, and `bash -c`/`eval` strings.
func Decompose(src string) ([]*Command, error) {
	d := &decomposer{fetched: map[*syntax.CallExpr]bool{}}
	if err := d.parse(src, 0, nil); err != nil {
		return d.out, err
	}
	return d.out, nil
}

func (d *decomposer) parse(src string, depth int, via []string) error {
	if depth > MaxDepth {
		return ErrTooDeep
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(false)).Parse(strings.NewReader(src), "")
	if err != nil {
		return fmt.Errorf("the command does not parse: %w", err)
	}
	var walkErr error
	// Walk calls f(nil) after a node's children: a stack tracks how deep
	// substitutions and subshells nest.
	var stack []bool
	nesting := 0
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			if stack[len(stack)-1] {
				nesting--
			}
			stack = stack[:len(stack)-1]
			return true
		}
		if walkErr != nil {
			return false
		}
		nests := false
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.Subshell:
			nests = true
			nesting++
			if nesting > MaxNesting {
				walkErr = ErrTooDeep
				return false
			}
		}
		stack = append(stack, nests)
		switch n := n.(type) {
		case *syntax.FuncDecl:
			if isForkBomb(n) {
				d.out = append(d.out, &Command{Argv: []string{forkBomb}, Env: map[string]string{}, Via: via, Text: nodeText(src, n)})
			}
		case *syntax.DeclClause:
			// export/declare/typeset/readonly/local X=y: what they set.
			c := &Command{Argv: []string{n.Variant.Value}, Env: map[string]string{}, Via: via, Text: nodeText(src, n)}
			for _, a := range n.Args {
				switch {
				case a.Name != nil && a.Value != nil:
					v, _ := render(a.Value)
					c.Argv = append(c.Argv, a.Name.Value+"="+v)
				case a.Name != nil:
					c.Argv = append(c.Argv, a.Name.Value)
				case a.Value != nil:
					v, _ := render(a.Value)
					c.Argv = append(c.Argv, v)
				}
			}
			d.out = append(d.out, c)
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				d.markFetchPipe(n)
			}
		case *syntax.Stmt:
			writes := redirectWrites(n)
			if call, ok := n.Cmd.(*syntax.CallExpr); ok && len(call.Args) > 0 {
				if err := d.call(src, n, call, depth, via, writes); err != nil {
					walkErr = err
					return false
				}
			} else if len(writes) > 0 {
				// A compound command's redirection: a write of its own.
				d.out = append(d.out, &Command{Env: map[string]string{}, Via: via, Writes: writes, Text: nodeText(src, n)})
			}
		}
		return true
	})
	return walkErr
}

// fetchers download code; shells run it.
var (
	fetchers = map[string]bool{"curl": true, "wget": true, "fetch": true, "aria2c": true}
	shells   = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true,
		"python": true, "python3": true, "perl": true, "ruby": true, "node": true, "php": true}
)

// markFetchPipe flags the commands on the right of a pipe whose left side
// fetches code. The walk reaches the pipe before its sides, so the flag is
// there when the calls are decomposed.
func (d *decomposer) markFetchPipe(n *syntax.BinaryCmd) {
	left := false
	syntax.Walk(n.X, func(m syntax.Node) bool {
		if c, ok := m.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			if fetchers[path.Base(wordString(c.Args[0]))] {
				left = true
			}
		}
		return true
	})
	if !left {
		return
	}
	syntax.Walk(n.Y, func(m syntax.Node) bool {
		if c, ok := m.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			d.fetched[c] = true
		}
		return true
	})
}

// redirectWrites returns the files a statement's redirections write.
func redirectWrites(st *syntax.Stmt) []string {
	var out []string
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.ClbOut:
		default:
			continue
		}
		if r.Word == nil {
			continue
		}
		target, _ := render(r.Word)
		if strings.HasPrefix(target, "&") || target == "/dev/null" || target == "/dev/stdout" || target == "/dev/stderr" || target == "/dev/tty" {
			continue
		}
		out = append(out, target)
	}
	return out
}

// isForkBomb reports a function that pipes itself into itself: the shape
// of :(){ :|:& };: under any name.
func isForkBomb(f *syntax.FuncDecl) bool {
	if f.Name == nil {
		return false
	}
	name := f.Name.Value
	bomb := false
	syntax.Walk(f.Body, func(n syntax.Node) bool {
		b, ok := n.(*syntax.BinaryCmd)
		if !ok || (b.Op != syntax.Pipe && b.Op != syntax.PipeAll) {
			return true
		}
		calls := func(st *syntax.Stmt) bool {
			c, ok := st.Cmd.(*syntax.CallExpr)
			return ok && len(c.Args) > 0 && wordString(c.Args[0]) == name
		}
		if calls(b.X) && calls(b.Y) {
			bomb = true
		}
		return true
	})
	return bomb
}

func (d *decomposer) call(src string, st *syntax.Stmt, call *syntax.CallExpr, depth int, via []string, writes []string) error {
	c := &Command{Env: map[string]string{}, Via: append([]string(nil), via...), Text: nodeText(src, call), Writes: writes}
	for _, a := range call.Assigns {
		if a.Name != nil {
			v := ""
			if a.Value != nil {
				v, _ = render(a.Value)
			}
			c.Env[a.Name.Value] = v
		}
	}
	for i, w := range call.Args {
		s, literal := render(w)
		if i == 0 && !literal {
			c.Computed = true
		}
		c.Argv = append(c.Argv, s)
		for _, p := range w.Parts {
			if ps, ok := p.(*syntax.ProcSubst); ok && ps.Op == syntax.CmdIn {
				// sh <(curl …): the fetched code is the script.
				for _, inner := range ps.Stmts {
					syntax.Walk(inner, func(m syntax.Node) bool {
						if ic, ok := m.(*syntax.CallExpr); ok && len(ic.Args) > 0 && fetchers[path.Base(wordString(ic.Args[0]))] {
							c.FetchedCode = true
						}
						return true
					})
				}
			}
		}
	}
	if d.fetched[call] {
		c.FetchedCode = true
	}
	for _, r := range st.Redirs {
		if r.Hdoc != nil && (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) {
			c.Stdin, _ = render(r.Hdoc)
		}
		if r.Op == syntax.WordHdoc && r.Word != nil {
			c.Stdin, _ = render(r.Word)
		}
	}
	return d.add(c, depth)
}

// add strips wrappers from c, records it, and parses the shell code it
// carries (bash -c, eval, a heredoc fed to a shell, find -exec).
func (d *decomposer) add(c *Command, depth int) error {
	if err := unwrap(c); err != nil {
		return err
	}
	normalise(c)
	d.out = append(d.out, c)
	name := c.Name()
	switch {
	case shells[name] && name != "python" && name != "python3" && name != "perl" && name != "ruby" && name != "node" && name != "php":
		for i, a := range c.Args() {
			if isShortFlag(a, 'c') && i+2 < len(c.Argv) {
				return d.parse(c.Argv[i+2], depth+1, append(c.Via, name+" -c"))
			}
		}
		if c.Stdin != "" && len(c.Args()) == 0 {
			return d.parse(c.Stdin, depth+1, append(c.Via, name+" <<heredoc"))
		}
	case name == "eval":
		return d.parse(strings.Join(c.Args(), " "), depth+1, append(c.Via, "eval"))
	case name == "find":
		return d.findExec(c, depth)
	}
	return nil
}

// findExec turns find's -exec/-execdir/-ok commands into commands of their
// own.
func (d *decomposer) findExec(c *Command, depth int) error {
	args := c.Args()
	// {} stands for what find finds: below its start paths.
	var starts []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") || a == "!" || a == "(" {
			break
		}
		starts = append(starts, a)
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(args) && args[j] != ";" && args[j] != "\\;" && args[j] != "+" {
				j++
			}
			if j > i+1 {
				for _, start := range starts {
					argv := make([]string, 0, j-i-1)
					for _, a := range args[i+1 : j] {
						argv = append(argv, strings.ReplaceAll(a, "{}", start))
					}
					sub := &Command{Argv: argv, Env: map[string]string{}, Via: append(append([]string(nil), c.Via...), "find "+args[i]), Text: strings.Join(args[i+1:j], " ")}
					if err := d.add(sub, depth+1); err != nil {
						return err
					}
				}
			}
			i = j
		}
	}
	return nil
}

// render turns a word into a string: literal parts as they are, expansions
// as $NAME, $(…) or <(…). literal is false when any part is an expansion.
func render(w *syntax.Word) (string, bool) {
	var b strings.Builder
	literal := true
	var part func(p syntax.WordPart, quoted bool)
	part = func(p syntax.WordPart, quoted bool) {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(p.Value, quoted))
		case *syntax.SglQuoted:
			if p.Dollar {
				b.WriteString(unescapeANSIC(p.Value))
			} else {
				b.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				part(q, true)
			}
		case *syntax.ParamExp:
			literal = false
			if p.Param != nil {
				b.WriteString("$" + p.Param.Value)
			} else {
				b.WriteString("$?")
			}
		case *syntax.CmdSubst:
			literal = false
			b.WriteString("$(…)")
		case *syntax.ProcSubst:
			literal = false
			b.WriteString("<(…)")
		case *syntax.ArithmExp:
			literal = false
			b.WriteString("$((…))")
		default:
			literal = false
			b.WriteString("?")
		}
	}
	for _, p := range w.Parts {
		part(p, false)
	}
	return b.String(), literal
}

// unescape removes the shell's backslash escapes from a literal, as the
// shell does before running it: r\m is rm. Inside double quotes only \$,
// \`, \", \\ and a backslash-newline are escapes.
func unescape(s string, quoted bool) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		next := s[i+1]
		switch {
		case next == '\n':
			i++ // line continuation
		case !quoted || strings.IndexByte("$`\"\\", next) >= 0:
			b.WriteByte(next)
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// unescapeANSIC reads $'…' strings: \n, \t, \xHH, \0NNN and friends.
func unescapeANSIC(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	if u, err := strconv.Unquote(`"` + strings.ReplaceAll(s, `"`, `\"`) + `"`); err == nil {
		return u
	}
	return s
}

func wordString(w *syntax.Word) string {
	s, _ := render(w)
	return s
}

func nodeText(src string, n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(src) || start > end {
		return ""
	}
	return src[start:end]
}

// isShortFlag reports whether arg is a bundle of short options holding f:
// -f, -rf, -anm.
func isShortFlag(arg string, f byte) bool {
	if len(arg) < 2 || arg[0] != '-' || arg[1] == '-' {
		return false
	}
	return strings.IndexByte(arg[1:], f) >= 0
}
