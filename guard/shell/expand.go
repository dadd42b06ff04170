package shell

import (
	"os"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// scope is what the guard knows while it reads one command line: the
// variables assigned a literal earlier in it (a=/; rm -rf $a), and the
// environment, for the command substitutions it can compute.
type scope struct {
	vars map[string]string
	// multi are variables that take several values in turn: a for loop's
	// variable over a literal list, "$@" after set --.
	multi map[string][]string
	// aliases are the shell aliases defined earlier in the line.
	aliases map[string][]string
	env     *Env
}

// positional records set -- a b: $1, $2 … and "$@".
func (s *scope) positional(args []string) {
	if s.vars == nil {
		return
	}
	if s.multi == nil {
		s.multi = map[string][]string{}
	}
	s.multi["@"], s.multi["*"] = args, args
	for i := 1; i <= 9; i++ {
		if i <= len(args) {
			s.vars[string(rune('0'+i))] = args[i-1]
		} else {
			s.vars[string(rune('0'+i))] = ""
		}
	}
}

// loop records a for loop's variable over literal words; a loop over
// anything else makes it unknown.
func (s *scope) loop(name string, items []*syntax.Word) {
	if s.vars == nil {
		return
	}
	var vals []string
	for _, w := range items {
		for _, bw := range braceWords(w) {
			v, lit := s.render(bw)
			if !lit {
				delete(s.vars, name)
				delete(s.multi, name)
				return
			}
			vals = append(vals, v)
		}
	}
	if s.multi == nil {
		s.multi = map[string][]string{}
	}
	s.multi[name] = vals
	delete(s.vars, name)
}

// words expands a word that is one variable taking several values ($d in
// for d in a b; "$@" after set -- a b) into those values.
func (s *scope) words(w *syntax.Word) ([]string, bool) {
	if s.multi == nil || len(w.Parts) != 1 {
		return nil, false
	}
	p, ok := w.Parts[0].(*syntax.ParamExp)
	if !ok {
		if dq, isDq := w.Parts[0].(*syntax.DblQuoted); isDq && len(dq.Parts) == 1 {
			p, ok = dq.Parts[0].(*syntax.ParamExp)
		}
	}
	if !ok || p.Param == nil || p.Exp != nil || p.Index != nil || p.Length {
		return nil, false
	}
	v, ok := s.multi[p.Param.Value]
	return v, ok
}

// fields splits an unquoted expansion's value as the shell would: on
// $IFS when the command line set it, else on blanks.
func (s *scope) fields(v string) []string {
	if ifs, ok := s.vars["IFS"]; ok {
		return strings.FieldsFunc(v, func(r rune) bool { return strings.ContainsRune(ifs, r) })
	}
	return strings.Fields(v)
}

// set records an assignment; a value that is not literal makes the
// variable unknown again.
func (s *scope) set(name, value string, literal bool) {
	if s.vars == nil {
		return
	}
	if literal {
		s.vars[name] = value
	} else {
		delete(s.vars, name)
	}
}

// render turns a word into a string: literal parts as they are, known
// variables and computable substitutions by their value, other expansions
// as $NAME, $(…) or <(…). literal is false when any part stays unknown.
func (s *scope) render(w *syntax.Word) (string, bool) {
	out, lit, _ := s.renderWord(w)
	return out, lit
}

// renderWord is render, and also reports an unquoted substitution whose
// value the shell would split into words.
func (s *scope) renderWord(w *syntax.Word) (string, bool, bool) {
	var b strings.Builder
	literal, split := true, false
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
			if v, ok := s.param(p); ok {
				b.WriteString(v)
				split = split || !quoted
				return
			}
			literal = false
			if p.Param != nil {
				b.WriteString("$" + p.Param.Value)
			} else {
				b.WriteString("$?")
			}
		case *syntax.CmdSubst:
			if v, ok := s.subst(p); ok {
				b.WriteString(v)
				split = split || !quoted
				return
			}
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
	return b.String(), literal, split
}

// param is the value of a plain $a or ${a} assigned a literal earlier,
// $PWD, $HOME and the guard's own locating variables (Env.Vars), or, for ${a:-word} of a variable the guard does not
// know, the word: the guard reads the value that can do harm.
func (s *scope) param(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 {
		return "", false
	}
	v, ok := s.vars[p.Param.Value]
	if !ok && s.env != nil {
		switch p.Param.Value {
		case "PWD":
			v, ok = s.env.Cwd, s.env.Cwd != ""
		case "HOME":
			v, ok = s.env.Home, s.env.Home != ""
		case "TMPDIR":
			v, ok = s.env.tmpDir(), true
		default:
			v, ok = s.env.Vars[p.Param.Value]
		}
	}
	if p.Exp == nil {
		return v, ok
	}
	switch p.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull:
		if ok && (v != "" || p.Exp.Op == syntax.DefaultUnset) {
			return v, true
		}
		if p.Exp.Word == nil {
			return "", true
		}
		return s.render(p.Exp.Word)
	}
	return "", false
}

// subst computes a command substitution made of one simple command the
// guard can run in its head: echo and printf of literals, pwd, dirname,
// basename, realpath, readlink -f, command -v / which / type -P of a
// program, and git rev-parse --show-toplevel. Anything else is unknown.
func (s *scope) subst(cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	if _, pipe := cs.Stmts[0].Cmd.(*syntax.BinaryCmd); pipe {
		out, ok := s.produced(cs.Stmts[0])
		return strings.TrimRight(out, "\n"), ok
	}
	call, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 || len(cs.Stmts[0].Redirs) > 0 {
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
	argv[0] = filepath.Base(argv[0])
	e := s.env
	ops := argv[1:]
	switch argv[0] {
	case "echo", "printf":
		out, ok := echoOutput(argv)
		return strings.TrimRight(out, "\n"), ok
	case "true", "false", ":":
		return "", true
	case "mktemp":
		if e != nil {
			// A new name in the temporary directory (or under the -p
			// directory or template given).
			dir := e.tmpDir()
			for i, a := range ops {
				if (a == "-p" || a == "--tmpdir") && i+1 < len(ops) {
					dir = ops[i+1]
				} else if strings.HasPrefix(a, "--tmpdir=") {
					dir = strings.TrimPrefix(a, "--tmpdir=")
				} else if strings.Contains(a, "XXX") {
					if strings.Contains(a, "/") {
						return e.Resolve(strings.ReplaceAll(a, "X", "x")), true
					}
					return filepath.Join(dir, strings.ReplaceAll(a, "X", "x")), true
				}
			}
			return filepath.Join(dir, "tmp.mktemp"), true
		}
	case "pwd":
		if e != nil {
			return e.Cwd, true
		}
	case "dirname":
		if len(ops) == 1 {
			return filepath.Dir(ops[0]), true
		}
	case "basename":
		if len(ops) == 1 {
			return filepath.Base(ops[0]), true
		}
	case "realpath", "readlink":
		if e != nil && len(ops) > 0 {
			return e.Resolve(ops[len(ops)-1]), true
		}
	case "command", "which", "type":
		if e != nil && len(ops) > 0 {
			if p := e.LookPath(ops[len(ops)-1]); p != "" {
				return p, true
			}
		}
	case "git":
		if e != nil && len(ops) == 2 && ops[0] == "rev-parse" {
			switch ops[1] {
			case "--show-toplevel":
				return e.Project, true
			case "--git-dir", "--git-common-dir", "--absolute-git-dir":
				return filepath.Join(e.Project, ".git"), true
			}
		}
	}
	return "", false
}

// LookPath finds a program in the environment's $PATH, as command -v
// would, or "".
func (e *Env) LookPath(name string) string {
	if strings.Contains(name, "/") {
		return e.Resolve(name)
	}
	for _, dir := range e.Path {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// echoOutput is what echo or printf print for literal arguments, when the
// guard can tell: printf's format with %s, %b and %q filled in order, and
// its escapes; echo's -n and -e.
func echoOutput(argv []string) (string, bool) {
	switch argv[0] {
	case "echo":
		args, newline, escapes := argv[1:], true, false
		for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
			newline = newline && !strings.Contains(args[0], "n")
			escapes = escapes || strings.Contains(args[0], "e")
			args = args[1:]
		}
		out := strings.Join(args, " ")
		if escapes {
			out = unescapeANSIC(out)
		}
		if newline {
			out += "\n"
		}
		return out, true
	case "printf":
		args := argv[1:]
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		if len(args) == 0 {
			return "", false
		}
		format, rest := args[0], args[1:]
		var b strings.Builder
		for first := true; first || len(rest) > 0; first = false {
			consumed := 0
			for i := 0; i < len(format); i++ {
				c := format[i]
				switch {
				case c == '%' && i+1 < len(format):
					i++
					switch format[i] {
					case '%':
						b.WriteByte('%')
					case 's', 'b', 'q', 'd', 'i', 'u', 'c':
						if consumed < len(rest) {
							v := rest[consumed]
							if format[i] == 'b' {
								v = unescapeANSIC(v)
							}
							b.WriteString(v)
						}
						consumed++
					default:
						return "", false
					}
				case c == '\\' && i+1 < len(format):
					j := i + 2
					if format[i+1] == 'x' || format[i+1] >= '0' && format[i+1] <= '7' {
						for j < len(format) && j < i+5 && strings.IndexByte("0123456789abcdefABCDEF", format[j]) >= 0 {
							j++
						}
					}
					b.WriteString(unescapeANSIC(format[i:j]))
					i = j - 1
				default:
					b.WriteByte(c)
				}
			}
			if consumed == 0 || consumed >= len(rest) {
				break
			}
			rest = rest[consumed:]
		}
		return b.String(), true
	}
	return "", false
}
