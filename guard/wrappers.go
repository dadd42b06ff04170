package guard

import (
	"path"
	"strings"
)

// wrapperOptions lists, per wrapper, the options that take a value, so that
// the value is not mistaken for the wrapped command.
var wrapperOptions = map[string]map[string]bool{
	"sudo":    {"-u": true, "-g": true, "-h": true, "-p": true, "-C": true, "-D": true, "-r": true, "-t": true, "-U": true, "-T": true, "-R": true},
	"doas":    {"-u": true, "-C": true},
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

// unwrap strips wrappers (sudo, env, timeout, nice, xargs, …) until the
// command they run is at the front, recording them in Via and the variables
// they set in Env.
func unwrap(c *Command) error {
	for guard := 0; guard < 32 && len(c.Argv) > 0; guard++ {
		name := path.Base(c.Argv[0])
		var rest []string
		switch name {
		case "env":
			rest = unwrapEnv(c)
		case "timeout":
			rest = skipOptions(c.Argv[1:], wrapperOptions["timeout"])
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
			if len(rest) > 0 && !strings.HasPrefix(c.Argv[1], "-c") && !strings.HasPrefix(c.Argv[1], "--cpu-list") {
				rest = rest[1:] // the mask
			} else if len(rest) > 0 {
				rest = rest[1:] // the cpu list after -c
			}
		case "sudo", "doas", "nice", "ionice", "stdbuf", "time", "nohup", "command", "builtin", "exec", "xargs":
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

// unwrapEnv strips env's options and VAR=value words.
func unwrapEnv(c *Command) []string {
	args := c.Argv[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return args[i+1:]
		case a == "-u" || a == "--unset" || a == "-C" || a == "--chdir":
			i++
		case a == "-S" || a == "--split-string":
			// env -S 'cmd args': the string is the command line.
			if i+1 < len(args) {
				return append(strings.Fields(args[i+1]), args[i+2:]...)
			}
			return nil
		case strings.HasPrefix(a, "-S"):
			return append(strings.Fields(a[2:]), args[i+1:]...)
		case len(a) > 1 && a[0] == '-':
		case strings.Contains(a, "=") && !strings.HasPrefix(a, "="):
			k, v, _ := strings.Cut(a, "=")
			c.Env[k] = v
		default:
			return args[i:]
		}
	}
	return nil
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
