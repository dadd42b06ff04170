// Package shell decomposes a command line into the simple commands that
// would run, the way the shell would read it: a real POSIX/Bash parser,
// expansions the guard can compute, wrappers stripped (env, sudo, xargs,
// timeout…), code fed to interpreters and shells read in turn, and for each
// command what it reads, writes and runs. It knows nothing of rules or
// protected paths; it only says what a command line does.
package shell

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/gitsentinel/sentinel/guard/internal/argspec"
	"github.com/gitsentinel/sentinel/guard/script"
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
	// Inherited holds the variables the command inherits as this line
	// changes them: assigned by an earlier statement (PATH=/x; export
	// A=b), or set for the command that carries it (PATH=/x bash -c
	// '…'). Every assignment is taken to be exported, erring toward
	// seeing more; nil when the line changes none.
	Inherited map[string]string
	// Via lists the wrappers that were stripped (sudo, env, xargs, bash -c).
	Via []string
	// Writes are the paths the command writes: redirections, and the
	// destinations of tee, cp, mv, install, sed -i, truncate, dd of=.
	Writes []string
	// Stdin is what the command reads on stdin, when the guard knows it:
	// a heredoc, a here-string, or the output of a literal echo or printf
	// piped in.
	Stdin string
	// StdinDynamic marks a command fed by a pipe whose content the guard
	// cannot compute (cat script.sh | bash, base64 -d | sh).
	StdinDynamic bool
	// ArgsUnknown marks a command that xargs or parallel completes with
	// words from input the guard cannot read.
	ArgsUnknown bool
	// Reads are the files the command reads through redirections (< file).
	Reads []string
	// Dir is the directory the command runs in, when a wrapper moves it
	// (env -C, sudo -D).
	Dir string
	// Unset lists the variables the command's wrappers remove (env -u,
	// unset); ClearEnv marks env -i, which removes them all.
	Unset    []string
	ClearEnv bool
	// ScriptRead marks a run of a script whose text this line wrote (cat >
	// x.sh <<EOF … EOF; sh x.sh), which was read in its place.
	ScriptRead bool
	// Inline is the language of a program given on the command line or
	// stdin (python -c, node -e), which the guard read.
	Inline string
	// SetupEval marks eval "$(tool init)": a tool printing its own shell
	// set-up (direnv hook, pyenv init -, ssh-agent -s).
	SetupEval bool
	// FetchedCode reports that the command runs code fetched from the
	// network: curl … | sh, or sh <(curl …).
	FetchedCode bool
	// Text is the command as written, for explanations.
	Text string
	// Argv0 is the program as written, before its name was reduced to a
	// base name (./bin/s, /tmp/copy).
	Argv0 string

	gitc       *argspec.Git
	parsed     *argspec.Parsed
	pipedPaths []string
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
	// needsEngine records code left unread for want of a grammar, even
	// where a caller drops the error (a literal that may be a command).
	needsEngine bool
	// fetched marks calls that read fetched code on stdin (curl … | sh).
	fetched map[*syntax.CallExpr]bool
	// piped is what a literal producer pipes into a call; dynamic marks
	// calls fed by anything else.
	piped   map[*syntax.CallExpr]string
	dynamic map[*syntax.CallExpr]bool
	// pipedPaths are the directories whose files a find, ls or git
	// ls-files on the left of a pipe lists: what xargs then passes on lies
	// below them.
	pipedPaths map[*syntax.CallExpr][]string
	// written are files this command line writes with text the guard
	// knows (echo … > f, cat > f <<EOF); fetchedTo, files it downloads.
	// Running one later in the same line runs that text.
	written   map[string]string
	fetchedTo map[string]bool
	scope     *scope
	// assigned are the variables earlier statements of the line set;
	// carried, those the commands whose code is being read set for it.
	assigned, carried map[string]string
}

// Decompose parses shell code (Bash dialect) and returns every simple
// command it would run, through lists, pipelines, subshells, blocks,
// functions, loops, conditionals, command and process substitutions,
// heredocs fed to a shell, and `bash -c`/`eval` strings.
func Decompose(src string) ([]*Command, error) {
	return DecomposeIn(src, nil)
}

// DecomposeIn decomposes with an environment, which lets the guard compute
// the command substitutions that depend on it ($(pwd), $(command -v x)).
func DecomposeIn(src string, e *Env) ([]*Command, error) {
	d := newDecomposer(e)
	err := d.parse(src, 0, nil)
	if d.needsEngine {
		return d.out, script.ErrNeedsEngine
	}
	return d.out, err
}

func newDecomposer(e *Env) *decomposer {
	return &decomposer{fetched: map[*syntax.CallExpr]bool{}, piped: map[*syntax.CallExpr]string{},
		dynamic: map[*syntax.CallExpr]bool{}, pipedPaths: map[*syntax.CallExpr][]string{}, written: map[string]string{}, fetchedTo: map[string]bool{}, scope: &scope{vars: map[string]string{}, env: e}}
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
				d.out = append(d.out, &Command{Argv: []string{ForkBomb}, Env: map[string]string{}, Via: via, Text: nodeText(src, n)})
			}
		case *syntax.DeclClause:
			// export/declare/typeset/readonly/local X=y: what they set.
			c := &Command{Argv: []string{n.Variant.Value}, Env: map[string]string{}, Via: via, Text: nodeText(src, n)}
			for _, a := range n.Args {
				switch {
				case a.Name != nil && a.Value != nil:
					v, lit := d.scope.render(a.Value)
					d.scope.set(a.Name.Value, v, lit)
					d.assign(a.Name.Value, v)
					c.Argv = append(c.Argv, a.Name.Value+"="+v)
				case a.Name != nil && !a.Naked:
					c.Argv = append(c.Argv, a.Name.Value+"=")
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
				d.markPipe(n)
			}
		case *syntax.ForClause:
			if wi, ok := n.Loop.(*syntax.WordIter); ok && wi.Name != nil {
				if wi.InPos.IsValid() {
					d.scope.loop(wi.Name.Value, wi.Items)
				} else {
					d.scope.set(wi.Name.Value, "", false)
				}
			}
		case *syntax.ProcSubst:
			if n.Op == syntax.CmdOut {
				// tee >(bash): what runs inside reads data it cannot see.
				for _, st := range n.Stmts {
					if call, ok := st.Cmd.(*syntax.CallExpr); ok {
						d.dynamic[call] = true
					}
				}
			}
		case *syntax.Stmt:
			writes, reads := d.redirects(n)
			if len(writes) > 0 {
				if text, ok := d.producedText(n); ok {
					for _, w := range writes {
						d.written[path.Clean(w)] += text
					}
				}
			}
			if call, ok := n.Cmd.(*syntax.CallExpr); ok && len(call.Args) == 0 {
				// a=/ on its own: later words may use it.
				for _, a := range call.Assigns {
					if a.Name != nil {
						v, lit := "", true
						if a.Value != nil {
							v, lit = d.scope.render(a.Value)
						}
						d.scope.set(a.Name.Value, v, lit)
						d.assign(a.Name.Value, v)
					}
				}
			}
			if call, ok := n.Cmd.(*syntax.CallExpr); ok && len(call.Args) > 0 {
				if err := d.call(src, n, call, depth, via, writes, reads); err != nil {
					walkErr = err
					return false
				}
			} else if len(writes) > 0 || len(reads) > 0 {
				// A compound command's redirection: a write of its own.
				d.out = append(d.out, &Command{Env: map[string]string{}, Via: via, Writes: writes, Reads: reads, Text: nodeText(src, n)})
			}
		}
		return true
	})
	return walkErr
}

// fetchers download code; shells run it.
var (
	fetchers = map[string]bool{"curl": true, "wget": true, "fetch": true, "aria2c": true}
	Shells   = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true,
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

// redirects returns the files a statement's redirections write and read.
func (d *decomposer) redirects(st *syntax.Stmt) (writes, reads []string) {
	for _, r := range st.Redirs {
		if r.Word == nil {
			continue
		}
		target, _ := d.scope.render(r.Word)
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob:
			if strings.HasPrefix(target, "&") || target == "/dev/null" || target == "/dev/stdout" || target == "/dev/stderr" || target == "/dev/tty" {
				continue
			}
			writes = append(writes, target)
		case syntax.RdrIn:
			reads = append(reads, target)
		case syntax.RdrInOut:
			reads = append(reads, target)
			writes = append(writes, target)
		}
	}
	return writes, reads
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

func (d *decomposer) call(src string, st *syntax.Stmt, call *syntax.CallExpr, depth int, via []string, writes, reads []string) error {
	c := &Command{Env: map[string]string{}, Via: append([]string(nil), via...), Text: nodeText(src, call), Writes: writes, Reads: reads}
	for _, a := range call.Assigns {
		if a.Name != nil {
			v := ""
			if a.Value != nil {
				v, _ = d.scope.render(a.Value)
			}
			c.Env[a.Name.Value] = v
		}
	}
	for i, w := range call.Args {
		if vals, ok := d.scope.words(w); ok && i > 0 {
			c.Argv = append(c.Argv, vals...)
			continue
		}
		for _, bw := range braceWords(w) {
			s, literal, split := d.scope.renderWord(bw)
			if i == 0 && !literal {
				c.Computed = true
			}
			if split {
				c.Argv = append(c.Argv, d.scope.fields(s)...)
			} else {
				c.Argv = append(c.Argv, s)
			}
		}
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
	if len(c.Argv) == 0 {
		return nil
	}
	if c.Argv[0] == "set" {
		for i, a := range c.Argv {
			if a == "--" {
				d.scope.positional(c.Argv[i+1:])
			}
		}
	}
	if c.Argv[0] == "eval" && len(call.Args) > 1 {
		c.SetupEval = true
		for _, w := range call.Args[1:] {
			if cs := onlySubst(w); cs == nil || !setupGenerator(cs, &d.scope) {
				c.SetupEval = false
			}
		}
	}
	if (c.Argv[0] == "source" || c.Argv[0] == ".") && len(call.Args) == 2 && len(call.Args[1].Parts) == 1 {
		// source <(kubectl completion bash): a tool's own set-up.
		if ps, ok := call.Args[1].Parts[0].(*syntax.ProcSubst); ok && ps.Op == syntax.CmdIn && setupStmts(ps.Stmts, &d.scope) {
			c.SetupEval = true
		}
	}
	if paths, ok := d.pipedPaths[call]; ok {
		c.pipedPaths = paths
	}
	if d.fetched[call] {
		c.FetchedCode = true
	}
	if text, ok := d.piped[call]; ok {
		c.Stdin = text
	}
	c.StdinDynamic = d.dynamic[call]
	for _, r := range st.Redirs {
		if r.Hdoc != nil && (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) {
			c.Stdin, _ = d.scope.render(r.Hdoc)
			c.StdinDynamic = false
		}
		if r.Op == syntax.WordHdoc && r.Word != nil {
			var lit bool
			c.Stdin, lit = d.scope.render(r.Word)
			c.Stdin += "\n"
			c.StdinDynamic = !lit
		}
	}
	return d.add(c, depth)
}

// markPipe records what the left side of a pipe feeds the first command
// on its right: the text of a literal echo, printf or cat of a heredoc,
// or, for anything else, that the input is dynamic.
func (d *decomposer) markPipe(n *syntax.BinaryCmd) {
	right, ok := n.Y.Cmd.(*syntax.CallExpr)
	if !ok || len(right.Args) == 0 {
		return
	}
	if text, ok := d.producedText(n.X); ok {
		d.piped[right] = text
		return
	}
	if paths := d.listedPaths(n.X); paths != nil {
		d.pipedPaths[right] = paths
	}
	d.dynamic[right] = true
}

// onlySubst returns the command substitution a word consists of, quoted
// or not, or nil.
func onlySubst(w *syntax.Word) *syntax.CmdSubst {
	if len(w.Parts) != 1 {
		return nil
	}
	switch p := w.Parts[0].(type) {
	case *syntax.CmdSubst:
		return p
	case *syntax.DblQuoted:
		if len(p.Parts) == 1 {
			cs, _ := p.Parts[0].(*syntax.CmdSubst)
			return cs
		}
	}
	return nil
}

// setupGenerator reports a substitution that runs a tool printing its own
// shell set-up: "TOOL init|hook|env|shellenv|activate|completion …",
// ssh-agent, dircolors, keychain --eval. Such output is the tool's, and
// the tool itself is checked as a command of its own.
func setupGenerator(cs *syntax.CmdSubst, sc **scope) bool {
	return setupStmts(cs.Stmts, sc)
}

// setupStmts is setupGenerator for the statements of a substitution,
// $(…) or <(…).
func setupStmts(stmts []*syntax.Stmt, sc **scope) bool {
	if len(stmts) != 1 {
		return false
	}
	call, ok := stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return false
	}
	var argv []string
	for _, w := range call.Args {
		s, lit := (*sc).render(w)
		if !lit {
			return false
		}
		argv = append(argv, s)
	}
	name := path.Base(argv[0])
	switch name {
	case "ssh-agent", "dircolors", "gpg-agent":
		return true
	case "keychain":
		return slices.Contains(argv, "--eval")
	case "sh", "bash", "zsh", "eval", "echo", "printf", "cat", "curl", "wget", "base64", "xxd", "python", "python3", "perl", "ruby", "node":
		return false
	}
	for _, a := range argv[1:] {
		switch a {
		case "init", "hook", "env", "shellenv", "activate", "completion", "completions", "virtualenv-init", "shell-init":
			return true
		}
	}
	return strings.HasPrefix(name, "conda") && slices.Contains(argv, "hook")
}

// producedText is what a statement writes on stdout, when it is a literal
// echo or printf, or a cat of a heredoc or here-string.
func (d *decomposer) producedText(st *syntax.Stmt) (string, bool) {
	return d.scope.produced(st)
}

// produced is what a statement writes on stdout, when the guard can
// compute it: a literal echo or printf, a cat of a heredoc or
// here-string, and those piped through base64 -d, rev or cat. Encoding a
// command does not hide it.
func (s *scope) produced(st *syntax.Stmt) (string, bool) {
	if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) {
		in, ok := s.produced(b.X)
		if !ok {
			return "", false
		}
		call, ok := b.Y.Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return "", false
		}
		var argv []string
		for _, w := range call.Args {
			v, lit := s.render(w)
			if !lit {
				return "", false
			}
			argv = append(argv, v)
		}
		return filterText(argv, in)
	}
	d := &decomposer{scope: s}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return "", false
	}
	var argv []string
	for _, w := range call.Args {
		s, lit := d.scope.render(w)
		if !lit {
			return "", false
		}
		argv = append(argv, s)
	}
	if argv[0] == "cat" && len(argv) == 1 {
		for _, r := range st.Redirs {
			switch {
			case r.Hdoc != nil && (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc):
				return d.scope.render(r.Hdoc)
			case r.Op == syntax.WordHdoc && r.Word != nil:
				s, lit := d.scope.render(r.Word)
				return s + "\n", lit
			}
		}
		return "", false
	}
	return echoOutput(argv)
}

// add strips wrappers from c, records it, and parses the shell code it
// carries (bash -c, eval, code piped or fed to a shell, find -exec, xargs
// and parallel, watch, trap, git's aliases and --exec).
func (d *decomposer) add(c *Command, depth int) error {
	if depth > MaxDepth {
		return ErrTooDeep
	}
	if err := unwrap(c); err != nil {
		return err
	}
	d.noteFetch(c)
	if len(c.Argv) > 0 {
		c.Argv0 = c.Argv[0]
		if a, ok := d.scope.aliases[c.Argv[0]]; ok && len(a) > 0 {
			// alias gc='git commit --no-verify'; gc -m x
			c.Argv = append(append([]string(nil), a...), c.Argv[1:]...)
			c.Via = append(c.Via, "alias "+c.Argv0)
			c.Argv0 = c.Argv[0]
		}
	}
	if len(c.Argv) > 0 && strings.Contains(c.Argv[0], "/") {
		// ./x.sh, written or downloaded earlier in the line.
		if text, ok := d.written[path.Clean(c.Argv[0])]; ok {
			c.ScriptRead = true
			d.out = append(d.out, c)
			return d.parse(text, depth+1, append(append([]string(nil), c.Via...), "run "+c.Argv[0]))
		}
		if d.fetchedTo[path.Clean(c.Argv[0])] {
			c.FetchedCode = true
			c.Argv = append([]string{"sh"}, c.Argv...)
		}
	}
	normalise(c)
	c.Inherited = d.inherited()
	if len(c.Env) > 0 {
		// What the command sets, the code it carries inherits.
		saved := d.carried
		d.carried = mergeVars(d.carried, c.Env)
		defer func() { d.carried = saved }()
	}
	if c.Name() == "git" {
		// git -C DIR runs there, as env -C does: every path git reads or
		// writes (a patch's targets, the files it removes) is below DIR.
		for _, dir := range c.Git().Global.Values("C") {
			if dir != "" {
				c.Dir = path.Join(c.Dir, dir)
				if path.IsAbs(dir) {
					c.Dir = dir
				}
			}
		}
	}
	switch c.Name() {
	case "xargs":
		return d.xargs(c, depth)
	case "parallel":
		return d.parallel(c, depth)
	}
	d.out = append(d.out, c)
	name := c.Name()
	if name == "alias" {
		for _, a := range c.Args() {
			if k, v, ok := strings.Cut(a, "="); ok && !strings.HasPrefix(a, "-") {
				if d.scope.aliases == nil {
					d.scope.aliases = map[string][]string{}
				}
				d.scope.aliases[k] = strings.Fields(v)
				if err := d.parse(v, depth+1, append(append([]string(nil), c.Via...), "alias "+k)); err != nil {
					return err
				}
			}
		}
	}
	sub := func(src, how string) error {
		return d.parse(src, depth+1, append(append([]string(nil), c.Via...), how))
	}
	if name == "tee" && c.Stdin != "" && !c.StdinDynamic {
		for _, op := range c.Opts().Operands {
			d.written[path.Clean(op)] += c.Stdin
		}
	}
	switch {
	case name == "ansible":
		// ansible HOSTS -m shell -a 'CMD' runs CMD on every host.
		args := c.Args()
		for i, a := range args {
			if (a == "-a" || a == "--args") && i+1 < len(args) {
				return sub(args[i+1], "ansible -a")
			}
		}
	case name == "ssh" || name == "docker" || name == "podman" || name == "kubectl" || name == "oc":
		return d.remote(c, depth)
	case IsShell(name) || name == "source" || name == ".":
		// A script written or downloaded earlier in this command line.
		ops := c.Opts().Operands
		script := ""
		if len(ops) > 0 && !c.Opts().On("c") {
			script = ops[0]
		} else if len(c.Reads) > 0 && len(ops) == 0 {
			script = c.Reads[0]
		}
		if script != "" {
			if text, ok := d.written[path.Clean(script)]; ok {
				c.ScriptRead = true
				return sub(text, name+" "+script)
			}
			if d.fetchedTo[path.Clean(script)] {
				c.FetchedCode = true
				if !IsShell(name) {
					c.Argv = append([]string{"sh"}, c.Argv[1:]...)
				}
			}
		}
		if !IsShell(name) {
			return nil
		}
		p := c.Opts()
		switch {
		case p.On("n"):
			return nil // -n reads and runs nothing
		case p.On("c") && len(p.Operands) > 0:
			// sh -c SCRIPT NAME ARGS: $0 is NAME, $1… the ARGS.
			if len(p.Operands) > 1 {
				d.scope.positional(p.Operands[2:])
				d.scope.set("0", p.Operands[1], !strings.Contains(p.Operands[1], "$"))
			}
			return sub(p.Operands[0], name+" -c")
		case len(p.Operands) == 0 || p.On("s") || p.Operands[0] == "-" || p.Operands[0] == "/dev/stdin":
			if c.Stdin != "" && !c.StdinDynamic {
				return sub(c.Stdin, name+" <stdin")
			}
		}
	case IsInterpreter(name):
		return d.interpreter(c, depth)
	case name == "eval" && !c.SetupEval:
		return sub(strings.Join(c.Args(), " "), "eval")
	case name == "find":
		return d.findExec(c, depth)
	case name == "watch":
		p := c.Opts()
		if len(p.Operands) > 0 {
			if p.On("exec") {
				return d.add(&Command{Argv: p.Operands, Env: map[string]string{}, Via: append(c.Via, "watch"), Text: c.Text}, depth+1)
			}
			return sub(strings.Join(p.Operands, " "), "watch")
		}
	case name == "trap":
		ops := c.Operands()
		if len(ops) > 1 && ops[0] != "-" {
			return sub(ops[0], "trap")
		}
	case name == "git":
		return d.gitCarriers(c, depth)
	case name == "tar" || name == "gtar" || name == "bsdtar":
		return d.tarCarriers(c, depth)
	}
	return nil
}

// assign records a variable a statement of the line sets for the
// commands after it.
func (d *decomposer) assign(name, value string) {
	if d.assigned == nil {
		d.assigned = map[string]string{}
	}
	d.assigned[name] = value
}

// inherited is a copy of the variables the line has changed for the
// command about to be added, or nil.
func (d *decomposer) inherited() map[string]string {
	if len(d.assigned) == 0 && len(d.carried) == 0 {
		return nil
	}
	return mergeVars(d.assigned, d.carried)
}

// mergeVars is a new map of a's variables and b's, b's winning.
func mergeVars(a, b map[string]string) map[string]string {
	m := make(map[string]string, len(a)+len(b))
	for k, v := range a {
		m[k] = v
	}
	for k, v := range b {
		m[k] = v
	}
	return m
}

// IsShell reports a POSIX-family shell.
func IsShell(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox-sh":
		return true
	}
	return false
}
