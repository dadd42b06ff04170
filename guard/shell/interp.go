package shell

import (
	"errors"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/gitsentinel/sentinel/guard/script"
)

// InterpreterProgram returns the language and the program an interpreter
// command line runs inline (python -c, node -e, perl -e, ruby -e, php -r,
// deno eval, awk's program), or reads from stdin (python3 -, a bare
// python3). ok is false for a run of a script file or a module. Other
// interpreters with an inline program (lua -e, Rscript -e, osascript -e,
// pwsh -c) have no reader here: their program is "other".
func InterpreterProgram(argv []string) (lang, code string, stdin, ok bool) {
	if lang, code, stdin, ok = script.Invocation(argv); ok || lang != "" {
		return lang, code, stdin, ok
	}
	name := strings.TrimRight(path.Base(argv[0]), "0123456789.")
	flags := map[string][]string{"lua": {"-e"}, "luajit": {"-e"}, "Rscript": {"-e"}, "julia": {"-e", "--eval"}, "osascript": {"-e"},
		"pwsh": {"-c", "-Command", "-command"}, "powershell": {"-c", "-Command", "-command"}, "tclsh": nil}[name]
	args := argv[1:]
	for i, a := range args {
		if slices.Contains(flags, a) && i+1 < len(args) {
			return "other", strings.Join(args[i+1:], " "), false, true
		}
	}
	if name == "tclsh" && len(args) == 0 {
		return "other", "", true, true
	}
	return "", "", false, false
}

// interpreter turns what an interpreter's program would do into commands
// the rules already read: a shell line is parsed, a program run is a
// command, a removal is an rm, a read a cat, a write a write. What the
// guard cannot compute becomes a computed command, which it asks about.
func (d *decomposer) interpreter(c *Command, depth int) error {
	lang, code, fromStdin, ok := InterpreterProgram(c.Argv)
	if !ok {
		// A program file this line wrote: its text is the program.
		if l, file, _, isFile := script.ScriptFile(c.Argv); isFile {
			if text, written := d.written[path.Clean(file)]; written {
				c.ScriptRead = true
				return d.program(c, l, text, depth, append(append([]string(nil), c.Via...), c.Name()+" "+file))
			}
		}
		return nil
	}
	if fromStdin {
		if c.Stdin == "" || c.StdinDynamic {
			return nil // the rule on code arriving on stdin asks
		}
		code = c.Stdin
	}
	c.Inline = lang
	return d.program(c, lang, code, depth, append(append([]string(nil), c.Via...), c.Name()+" program"))
}

// program turns what a program in lang would do into commands, each
// carried by c and read through via.
func (d *decomposer) program(c *Command, lang, code string, depth int, via []string) error {
	unknown := func(api string) error {
		d.out = append(d.out, &Command{Argv: []string{"$(" + api + ")"}, Computed: true, Env: map[string]string{}, Via: via, Text: c.Text})
		return nil
	}
	if lang == "other" {
		// No reader for the language: its string literals that read as
		// shell commands are checked as such, and the program is asked
		// about.
		for _, lit := range quotedStrings(code) {
			d.parse(lit, depth+1, via) // a literal that does not parse is not a command
		}
		if otherAPIs().MatchString(code) {
			return unknown(c.Name() + " program")
		}
		return nil
	}
	effects, err := script.Effects(lang, code)
	if errors.Is(err, script.ErrNeedsEngine) {
		d.needsEngine = true
		return err
	}
	if err != nil && len(effects) == 0 {
		return unknown(lang + " code the guard cannot read")
	}
	for _, ef := range effects {
		holes := !ef.Known || len(ef.Args) == 0
		for _, a := range ef.Args {
			if strings.Contains(a, script.Hole) {
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

// otherAPIs are the words through which the languages without a reader
// here run programs or touch files: a program that names none of them is
// let be.
var otherAPIs = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(execute|exec|system|shell|popen|spawn|run|remove|unlink|delete|rm|rmdir|rmtree|write|open|file|io\.|os\.|readlines|read|eval|load|require|dofile|curl|download)\b|Remove-Item|Set-Content|Invoke-|Start-Process|do shell script`)
})

// quotedStrings returns the contents of the '…' and "…" literals in code.
func quotedStrings(code string) []string {
	var out []string
	for i := 0; i < len(code); i++ {
		q := code[i]
		if q != '\'' && q != '"' {
			continue
		}
		j := strings.IndexByte(code[i+1:], q)
		if j < 0 {
			break
		}
		if j > 0 {
			out = append(out, code[i+1:i+1+j])
		}
		i += j + 1
	}
	return out
}
