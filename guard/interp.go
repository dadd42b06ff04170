package guard

import (
	"path"
	"strings"
)

// interpreterProgram returns the language and the program an interpreter
// command line runs inline (python -c, node -e, perl -e, ruby -e, php -r,
// deno eval, awk's program), or reads from stdin (python3 -, a bare
// python3). ok is false for a run of a script file or a module.
func interpreterProgram(argv []string) (lang, code string, stdin, ok bool) {
	name := path.Base(argv[0])
	base := strings.TrimRight(name, "0123456789.")
	args := argv[1:]
	flagged := func(flags string) (string, bool, bool) {
		for i := 0; i < len(args); i++ {
			a := args[i]
			if a == "--" {
				break
			}
			if v, ok := strings.CutPrefix(a, "--eval="); ok {
				return v, true, true
			}
			if v, ok := strings.CutPrefix(a, "--print="); ok {
				return v, true, true
			}
			if (a == "--eval" || a == "--print") && i+1 < len(args) {
				return args[i+1], true, true
			}
			if len(a) > 1 && a[0] == '-' && a[1] != '-' {
				if j := strings.IndexAny(a[1:], flags); j >= 0 {
					if rest := a[j+2:]; rest != "" {
						return rest, true, true
					}
					if i+1 < len(args) {
						return args[i+1], true, true
					}
					return "", true, false
				}
				continue
			}
			if !strings.HasPrefix(a, "-") {
				return "", false, a == "-"
			}
		}
		return "", false, true
	}
	switch base {
	case "python", "pypy":
		for _, a := range args {
			if a == "-m" || strings.HasPrefix(a, "-m") && len(a) > 2 && !strings.Contains(a, "c") {
				return "", "", false, false
			}
		}
		code, inline, st := flagged("c")
		if inline {
			return "python", code, false, true
		}
		return "python", "", true, st
	case "node", "nodejs", "bun":
		code, inline, st := flagged("ep")
		if inline {
			return "javascript", code, false, true
		}
		return "javascript", "", true, st && len(args) == 0 || st && contains(args, "-")
	case "deno":
		if len(args) > 1 && args[0] == "eval" {
			return "javascript", args[len(args)-1], false, true
		}
	case "perl":
		code, inline, st := flagged("eE")
		if inline {
			return "perl", code, false, true
		}
		return "perl", "", true, st
	case "ruby":
		code, inline, st := flagged("e")
		if inline {
			return "ruby", code, false, true
		}
		return "ruby", "", true, st
	case "php":
		code, inline, _ := flagged("r")
		if inline {
			return "php", code, false, true
		}
	case "awk", "gawk", "mawk", "nawk":
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "-f" || strings.HasPrefix(a, "--file"):
				return "", "", false, false
			case a == "-F" || a == "-v" || a == "--assign" || a == "--field-separator":
				i++
			case a == "--":
				if i+1 < len(args) {
					return "awk", args[i+1], false, true
				}
			case strings.HasPrefix(a, "-") && len(a) > 1:
			default:
				return "awk", a, false, true
			}
		}
	}
	return "", "", false, false
}

// interpreter turns what an interpreter's program would do into commands
// the rules already read: a shell line is parsed, a program run is a
// command, a removal is an rm, a read a cat, a write a write. What the
// guard cannot compute becomes a computed command, which it asks about.
func (d *decomposer) interpreter(c *Command, depth int) error {
	lang, code, fromStdin, ok := interpreterProgram(c.Argv)
	if !ok {
		return nil
	}
	if fromStdin {
		if c.Stdin == "" || c.StdinDynamic {
			return nil // the rule on code arriving on stdin asks
		}
		code = c.Stdin
	}
	c.Inline = lang
	via := append(append([]string(nil), c.Via...), c.Name()+" program")
	unknown := func(api string) error {
		d.out = append(d.out, &Command{Argv: []string{"$(" + api + ")"}, Computed: true, Env: map[string]string{}, Via: via, Text: c.Text})
		return nil
	}
	effects, err := ScriptEffects(lang, code)
	if err != nil && len(effects) == 0 {
		return unknown(lang + " code the guard cannot read")
	}
	for _, ef := range effects {
		holes := !ef.Known || len(ef.Args) == 0
		for _, a := range ef.Args {
			if strings.Contains(a, ScriptHole) {
				holes = true
			}
		}
		switch ef.Kind {
		case "exec":
			if holes {
				unknown(ef.API)
				continue
			}
			if ef.Shell {
				if err := d.parse(ef.Args[0], depth+1, via); err != nil {
					return err
				}
				continue
			}
			if err := d.add(&Command{Argv: append([]string(nil), ef.Args...), Env: map[string]string{}, Via: via, Text: c.Text}, depth+1); err != nil {
				return err
			}
		case "remove":
			if holes {
				unknown(ef.API)
				continue
			}
			argv := []string{"rm"}
			if ef.Recursive {
				argv = append(argv, "-r")
			}
			d.out = append(d.out, &Command{Argv: append(append(argv, "--"), ef.Args...), Env: map[string]string{}, Via: via, Text: c.Text})
		case "read":
			if !holes {
				d.out = append(d.out, &Command{Argv: []string{"(read)"}, Reads: ef.Args, Env: map[string]string{}, Via: via, Text: c.Text})
			}
		case "write", "chmod":
			if !holes {
				d.out = append(d.out, &Command{Argv: []string{"(write)"}, Writes: ef.Args, Env: map[string]string{}, Via: via, Text: c.Text})
			}
		case "rename":
			if !holes {
				d.out = append(d.out, &Command{Argv: append([]string{"mv", "--"}, ef.Args...), Env: map[string]string{}, Via: via, Text: c.Text})
			}
		}
	}
	return nil
}
