package shell

import (
	"path"
	"strings"

	"github.com/gitsentinel/sentinel/guard/internal/argspec"
)

// wrapperOptions lists, per wrapper, the options that take a value, so that
// the value is not mistaken for the wrapped command.
var wrapperOptions = map[string]map[string]bool{
	"nice":    {"-n": true},
	"ionice":  {"-c": true, "-n": true, "-p": true, "-P": true, "-u": true},
	"stdbuf":  {"-i": true, "-o": true, "-e": true},
	"taskset": {},
	"chrt":    {},
	"time":    {"-f": true, "-o": true},
	"nohup":   {},
	"command": {},
	"builtin": {},
	"exec":    {"-a": true},
	"xargs":   {"-n": true, "-I": true, "-P": true, "-L": true, "-d": true, "-E": true, "-s": true, "-a": true, "-i": false},
	"timeout": {"-s": true, "-k": true},
}

// unwrap strips wrappers (sudo, env, timeout, nice, busybox, …) until the
// command they run is at the front, recording them in Via, the variables
// they set in Env, those they remove in Unset, and a directory they move
// to in Dir.
func unwrap(c *Command) error {
	for guard := 0; guard < 32 && len(c.Argv) > 0; guard++ {
		name := path.Base(c.Argv[0])
		var rest []string
		switch name {
		case "env":
			rest = unwrapEnv(c)
			if len(rest) == 0 {
				return nil // env alone prints the environment
			}
		case "timeout":
			rest = argspec.For("timeout").Parse(c.Argv[1:]).Operands
			if len(rest) > 0 {
				rest = rest[1:] // the duration
			}
		case "chrt":
			rest = skipOptions(c.Argv[1:], nil)
			if len(rest) > 0 {
				rest = rest[1:] // the priority
			}
		case "taskset":
			rest = skipOptions(c.Argv[1:], nil)
			if len(rest) > 0 {
				rest = rest[1:] // the mask or cpu list
			}
		case "go":
			// go run PKG ARGS runs the package's program: it is read as
			// that program (go run ./cmd/sentinel accept is sentinel).
			if len(c.Argv) < 3 || c.Argv[1] != "run" {
				return nil
			}
			args := c.Argv[2:]
			i := 0
			for i < len(args) && strings.HasPrefix(args[i], "-") {
				switch args[i] {
				case "-exec", "-o", "-tags", "-ldflags", "-gcflags", "-mod", "-C", "-p", "-overlay", "-pkgdir", "-toolexec", "-modfile":
					i++
				}
				i++
			}
			if i >= len(args) {
				return nil
			}
			pkg, _, _ := strings.Cut(args[i], "@")
			name := path.Base(strings.TrimSuffix(pkg, "/..."))
			if strings.HasSuffix(pkg, ".go") || pkg == "." {
				return nil // a file or the current package: its name is not in the path
			}
			rest = append([]string{name}, args[i+1:]...)
		case "su", "runuser":
			// su [-] [USER] -c CMD: the command runs in a shell.
			p := argspec.For("su").Parse(c.Argv[1:])
			if cmd, ok := p.Value("command"); ok {
				rest = []string{"sh", "-c", cmd}
			} else {
				rest = []string{"sh"}
			}
		case "script":
			p := argspec.For("script").Parse(c.Argv[1:])
			cmd, ok := p.Value("command")
			if !ok {
				return nil
			}
			rest = []string{"sh", "-c", cmd}
		case "busybox", "toybox":
			rest = c.Argv[1:] // the applet is the command
		case "sudo", "doas":
			p := argspec.For(name).Parse(c.Argv[1:])
			if dir, ok := p.Value("chdir"); ok {
				c.Dir = dir
			}
			if p.On("edit") {
				// sudo -e FILE edits the file as root: a write.
				c.Writes = append(c.Writes, p.Operands...)
				return nil
			}
			if p.On("shell") || p.On("login") {
				if len(p.Operands) == 0 {
					c.Via = append(c.Via, name)
					c.Argv = []string{"sh"}
					return nil
				}
				rest = append([]string{"sh", "-c"}, strings.Join(p.Operands, " "))
				break
			}
			rest = p.Operands
		case "nice", "ionice", "stdbuf", "time", "nohup", "setsid", "flock", "unbuffer":
			p := argspec.For(name).Parse(c.Argv[1:])
			rest = p.Operands
			if name == "flock" {
				if cmd, ok := p.Value("command"); ok {
					rest = []string{"sh", "-c", cmd}
				} else if len(rest) > 0 {
					rest = rest[1:] // the lock file
				}
			}
		case "command", "builtin", "exec":
			if name == "command" && len(c.Argv) > 1 && (c.Argv[1] == "-v" || c.Argv[1] == "-V") {
				return nil // a lookup, not a run
			}
			rest = skipOptions(c.Argv[1:], wrapperOptions[name])
		default:
			return nil
		}
		c.Via = append(c.Via, name)
		c.Argv = rest
		if len(rest) == 0 {
			return nil
		}
	}
	return nil
}

// skipOptions drops leading options (and the values of those in takesValue)
// and a "--".
func skipOptions(args []string, takesValue map[string]bool) []string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return args[i+1:]
		case len(a) > 1 && a[0] == '-':
			if takesValue[a] && i+1 < len(args) {
				i++
			}
			// -n10, -oL, --foo=bar: the value is in the word.
		default:
			return args[i:]
		}
	}
	return nil
}

// unwrapEnv strips env's options and VAR=value words, recording what it
// sets, removes (-u, -i) and where it moves (-C).
func unwrapEnv(c *Command) []string {
	p := argspec.For("env").Parse(c.Argv[1:])
	c.Unset = append(c.Unset, p.Values("unset")...)
	if p.On("ignore-environment") {
		c.ClearEnv = true
	}
	if dir, ok := p.Value("chdir"); ok {
		c.Dir = dir
	}
	rest := p.Operands
	if split, ok := p.Value("split-string"); ok {
		// env -S 'cmd args': the string is the command line.
		rest = append(strings.Fields(split), rest...)
	}
	for len(rest) > 0 && strings.Contains(rest[0], "=") && !strings.HasPrefix(rest[0], "=") {
		k, v, _ := strings.Cut(rest[0], "=")
		c.Env[k] = v
		rest = rest[1:]
	}
	if len(rest) > 0 && rest[0] == "-" { // the old spelling of -i
		c.ClearEnv = true
		rest = rest[1:]
	}
	return rest
}

// normalise makes commands comparable: /bin/rm and ./rm are rm, and
// git-reset is git reset. git's own options stay in place: parseGit reads
// them.
func normalise(c *Command) {
	if len(c.Argv) == 0 {
		return
	}
	c.Argv[0] = path.Base(c.Argv[0])
	if strings.HasPrefix(c.Argv[0], "git-") && len(c.Argv[0]) > 4 {
		c.Argv = append([]string{"git", c.Argv[0][4:]}, c.Argv[1:]...)
	}
}
