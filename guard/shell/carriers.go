package shell

import (
	"encoding/base64"
	"path"
	"slices"
	"strings"

	"github.com/gitsentinel/sentinel/guard/internal/argspec"
	"mvdan.cc/sh/v3/syntax"
)

// The carriers: commands that run other commands (xargs, parallel, find
// -exec, git's aliases and --exec, ssh, docker exec) and the filters whose
// output the guard can compute. Each hands what it carries back to the
// decomposer, so that the same rules read it.

// listedPaths returns the directories below which a find, ls or git
// ls-files lists files, or nil for any other producer.
func (d *decomposer) listedPaths(st *syntax.Stmt) []string {
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return nil
	}
	var argv []string
	for _, w := range call.Args {
		s, lit := d.scope.render(w)
		if !lit {
			return nil
		}
		argv = append(argv, s)
	}
	switch path.Base(argv[0]) {
	case "find":
		f := ReadFind(argv[1:])
		if !f.Filtered {
			return append([]string{""}, f.Starts...)
		}
		return f.Found()
	case "git":
		g := argspec.ParseGit(argv[1:])
		switch {
		case g.Sub == "ls-files" && len(g.Args.Operands) == 0:
			return []string{"", "."} // every tracked file: the work tree
		case g.Sub == "ls-files" || g.Sub == "diff" && g.Args.On("--name-only"):
			return []string{"."}
		}
	case "ls":
		// ls lists the entries of its operands (the cwd without any):
		// acting on them all is acting on the directories themselves. A
		// pattern lists what it matches.
		var dirs, matches []string
		for _, a := range argv[1:] {
			switch {
			case strings.HasPrefix(a, "-"):
			case strings.ContainsAny(a, "*?["):
				matches = append(matches, a)
			default:
				dirs = append(dirs, a)
			}
		}
		if len(matches) > 0 && len(dirs) == 0 {
			return matches
		}
		if len(dirs) == 0 {
			dirs = []string{"."}
		}
		return append([]string{""}, dirs...)
	case "fd", "rg", "grep":
		return []string{"."}
	}
	return nil
}

// gitCarriers parses the commands git itself would run: a "!" alias given
// with -c, rebase --exec, bisect run, submodule foreach and difftool's
// --extcmd.
func (d *decomposer) gitCarriers(c *Command, depth int) error {
	g := c.Git()
	sub := func(src, how string) error {
		return d.parse(src, depth+1, append(append([]string(nil), c.Via...), how))
	}
	if len(g.Global.Operands) > 0 {
		if alias, ok := g.Config["alias."+strings.ToLower(g.Global.Operands[0])]; ok && strings.HasPrefix(alias, "!") {
			return sub(alias[1:]+" "+strings.Join(g.Global.Operands[1:], " "), "git alias")
		}
	}
	// Programs git runs from its settings and variables: read them too.
	for k, v := range g.Config {
		if GitConfigRuns(k) && !strings.HasPrefix(k, "alias.") && v != "" && v != "$env" {
			if err := sub(strings.TrimPrefix(v, "!"), "git -c "+k); err != nil {
				return err
			}
		}
	}
	for _, k := range []string{"GIT_SSH_COMMAND", "GIT_SSH", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER", "GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "GIT_PROXY_COMMAND"} {
		if v := c.Env[k]; v != "" {
			if err := sub(v, k); err != nil {
				return err
			}
		}
	}
	switch g.Sub {
	case "rebase":
		for _, x := range g.Args.Values("exec") {
			if err := sub(x, "git rebase --exec"); err != nil {
				return err
			}
		}
	case "bisect":
		if ops := g.Args.Operands; len(ops) > 1 && ops[0] == "run" {
			return d.add(&Command{Argv: append([]string(nil), ops[1:]...), Env: map[string]string{}, Via: append(c.Via, "git bisect run"), Text: c.Text}, depth+1)
		}
	case "submodule":
		// foreach's command is everything after it, options included.
		raw := g.Global.Operands
		for i, op := range raw {
			if op == "foreach" {
				rest := raw[i+1:]
				for len(rest) > 0 && (rest[0] == "--recursive" || rest[0] == "-q" || rest[0] == "--quiet") {
					rest = rest[1:]
				}
				if len(rest) > 0 {
					return sub(strings.Join(rest, " "), "git submodule foreach")
				}
			}
		}
	case "difftool", "mergetool":
		if x, ok := g.Args.Value("extcmd"); ok {
			return sub(x, "git difftool --extcmd")
		}
	}
	return nil
}

// tarCarriers reads the commands tar runs: --to-command for each
// entry, the compressor of -I/--use-compress-program, the volume script
// of -F/--info-script, the remote shell, and --checkpoint-action=exec=.
// GNU tar runs each through the shell.
func (d *decomposer) tarCarriers(c *Command, depth int) error {
	p := c.Opts()
	var cmds []string
	for _, id := range []string{"to-command", "use-compress-program", "info-script", "rsh-command", "rmt-command"} {
		cmds = append(cmds, p.Values(id)...)
	}
	for _, v := range p.Values("checkpoint-action") {
		if cmd, ok := strings.CutPrefix(v, "exec="); ok {
			cmds = append(cmds, cmd)
		}
	}
	for _, cmd := range cmds {
		if err := d.parse(cmd, depth+1, append(append([]string(nil), c.Via...), "tar")); err != nil {
			return err
		}
	}
	return nil
}

// xargs runs its command with words from stdin. With literal input, the
// words are spliced in as xargs would: appended, or put in place of the
// -I string, one command per line. With input the guard cannot read, the
// command is marked so that the rules treat its arguments as unknown.
func (d *decomposer) xargs(c *Command, depth int) error {
	p := argspec.For("xargs").Parse(c.Args())
	argv := p.Operands
	if len(argv) == 0 {
		argv = []string{"echo"}
	}
	via := append(append([]string(nil), c.Via...), "xargs")
	mk := func(a []string) *Command {
		return &Command{Argv: a, Env: c.Env, Via: via, Text: c.Text, Writes: c.Writes, Reads: c.Reads}
	}
	replace, hasReplace := p.Value("I")
	if !hasReplace {
		if r, ok := p.Value("replace"); ok {
			replace, hasReplace = r, true
			if replace == "" {
				replace = "{}"
			}
		}
	}
	if (c.Stdin == "" || c.StdinDynamic) && c.pipedPaths != nil && !hasReplace {
		// find P | xargs rm: the words are files below P.
		a := append([]string(nil), argv...)
		whole := len(c.pipedPaths) > 0 && c.pipedPaths[0] == ""
		if whole && path.Base(a[0]) == "rm" {
			// rm of every file below a directory is rm -r of it.
			a = append([]string{a[0], "-r"}, a[1:]...)
		}
		for _, p := range c.pipedPaths {
			switch {
			case p == "":
			case whole:
				a = append(a, p)
			case strings.Contains(p, "…"), strings.ContainsAny(p, "*?["):
				a = append(a, p)
			default:
				a = append(a, strings.TrimSuffix(p, "/")+"/…")
			}
		}
		return d.add(mk(a), depth+1)
	}
	if c.Stdin == "" || c.StdinDynamic {
		a := append([]string(nil), argv...)
		if hasReplace {
			// -I{}: each input line goes where {} is; unknown there.
			for i := range a {
				a[i] = strings.ReplaceAll(a[i], replace, "$(…)")
			}
		}
		cmd := mk(a)
		cmd.ArgsUnknown = true
		return d.add(cmd, depth+1)
	}
	if hasReplace {
		for _, line := range strings.Split(strings.TrimRight(c.Stdin, "\n"), "\n") {
			a := make([]string, len(argv))
			for i, w := range argv {
				a[i] = strings.ReplaceAll(w, replace, strings.TrimSpace(line))
			}
			if err := d.add(mk(a), depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	var words []string
	switch {
	case p.On("null"):
		words = strings.Split(strings.TrimRight(c.Stdin, "\x00"), "\x00")
	default:
		if delim, ok := p.Value("delimiter"); ok && delim != "" {
			words = strings.Split(strings.TrimRight(c.Stdin, "\n"), unescapeANSIC(delim))
		} else {
			words = xargsWords(c.Stdin)
		}
	}
	return d.add(mk(append(append([]string(nil), argv...), words...)), depth+1)
}

// xargsWords splits input as xargs does without -0 or -d: blanks separate,
// quotes and backslashes group.
func xargsWords(in string) []string {
	var out []string
	var cur strings.Builder
	inWord := false
	var quote byte
	for i := 0; i < len(in); i++ {
		ch := in[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			} else {
				cur.WriteByte(ch)
			}
		case ch == '\\' && i+1 < len(in):
			i++
			cur.WriteByte(in[i])
			inWord = true
		case ch == '"' || ch == '\'':
			quote, inWord = ch, true
		case ch == ' ' || ch == '\t' || ch == '\n':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}

// parallel runs its command once per argument after :::, with {} replaced
// or the argument appended; with no command, each argument is a command
// line. Without :::, its input is stdin, as for xargs.
func (d *decomposer) parallel(c *Command, depth int) error {
	args := c.Args()
	var cmd, inputs []string
	sep := -1
	for i, a := range args {
		if a == ":::" || a == ":::+" || a == "::::" || a == "::::+" {
			sep = i
			break
		}
	}
	head := args
	if sep >= 0 {
		head = args[:sep]
		for _, a := range args[sep+1:] {
			if !strings.HasPrefix(a, ":::") {
				inputs = append(inputs, a)
			}
		}
	}
	// Options before the command: those that take a value are skipped
	// with it.
	for i := 0; i < len(head); i++ {
		a := head[i]
		if !strings.HasPrefix(a, "-") {
			cmd = head[i:]
			break
		}
		switch a {
		case "-j", "--jobs", "-S", "--sshlogin", "--joblog", "--results", "--tmpdir", "-a", "--arg-file", "-d", "--delimiter", "-I", "--timeout", "--retries", "-N", "-n", "--max-args", "-L", "--colsep", "-C":
			i++
		}
	}
	via := append(append([]string(nil), c.Via...), "parallel")
	known := sep >= 0 && !strings.HasPrefix(args[sep], "::::")
	if !known {
		if c.Stdin != "" && !c.StdinDynamic {
			inputs, known = strings.Split(strings.TrimRight(c.Stdin, "\n"), "\n"), true
		}
	}
	if !known {
		if len(cmd) == 0 {
			cmd = []string{"sh", "-c", "$(…)"}
		}
		x := &Command{Argv: append([]string(nil), cmd...), Env: c.Env, Via: via, Text: c.Text, ArgsUnknown: true}
		if len(cmd) == 0 {
			x.Computed = true
		}
		return d.add(x, depth+1)
	}
	for _, in := range inputs {
		if len(cmd) == 0 {
			if err := d.parse(in, depth+1, via); err != nil {
				return err
			}
			continue
		}
		a := make([]string, 0, len(cmd)+1)
		replaced := false
		for _, w := range cmd {
			if strings.Contains(w, "{}") {
				replaced = true
			}
			a = append(a, strings.ReplaceAll(w, "{}", in))
		}
		if !replaced {
			a = append(a, in)
		}
		if err := d.add(&Command{Argv: a, Env: c.Env, Via: via, Text: c.Text}, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// findExec turns find's -exec/-execdir/-ok commands into commands of their
// own.
func (d *decomposer) findExec(c *Command, depth int) error {
	args := c.Args()
	f := ReadFind(args)
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(args) && args[j] != ";" && args[j] != "\\;" && args[j] != "+" {
				j++
			}
			if j > i+1 {
				for _, found := range f.Found() {
					argv := make([]string, 0, j-i)
					for _, a := range args[i+1 : j] {
						argv = append(argv, strings.ReplaceAll(a, "{}", found))
					}
					if !f.Filtered && path.Base(argv[0]) == "rm" {
						// Every file below the start paths, one by one:
						// the tree itself goes.
						argv = append([]string{argv[0], "-r"}, argv[1:]...)
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

// findReading is a find command line as find reads it: its start paths,
// whether a test selects what it acts on, and the name it selects.
type findReading struct {
	Starts   []string
	Filtered bool
	name     string
}

// findSelecting are find's tests that select some files and not others;
// -type f or -mindepth 1 alone still reach every file.
var findSelecting = map[string]bool{"-name": true, "-iname": true, "-path": true, "-ipath": true, "-regex": true, "-iregex": true,
	"-wholename": true, "-iwholename": true, "-lname": true, "-ilname": true, "-newer": true, "-mtime": true, "-mmin": true, "-atime": true,
	"-amin": true, "-ctime": true, "-cmin": true, "-size": true, "-user": true, "-group": true, "-perm": true, "-empty": true, "-inum": true,
	"-links": true, "-samefile": true, "-uid": true, "-gid": true, "-used": true, "-context": true, "-newermt": true, "-nouser": true, "-nogroup": true}

// ReadFind reads find's arguments: leading -H/-L/-P/-O/-D options, the
// start paths up to the first expression word, and the expression.
func ReadFind(args []string) findReading {
	var f findReading
	i := 0
	for i < len(args) && (args[i] == "-H" || args[i] == "-L" || args[i] == "-P" || strings.HasPrefix(args[i], "-O") || args[i] == "-D") {
		if args[i] == "-D" {
			i++
		}
		i++
	}
	for ; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") || a == "!" || a == "(" {
			break
		}
		f.Starts = append(f.Starts, a)
	}
	if len(f.Starts) == 0 {
		f.Starts = []string{"."}
	}
	// A test selects only within its branch: in -path ./.git -prune -o
	// -delete, the -delete branch has none and takes everything else.
	if j := lastOr(args[i:]); j >= 0 {
		i += j + 1
	}
	names := 0
	for ; i < len(args); i++ {
		if findSelecting[args[i]] {
			f.Filtered = true
			if (args[i] == "-name" || args[i] == "-iname") && i+1 < len(args) && (i == 0 || args[i-1] != "-not" && args[i-1] != "!") {
				if names == 0 {
					f.name = args[i+1]
				}
				names++
			}
		}
	}
	return f
}

// found is what {} stands for: below each start path, the selected name
// (start/…/NAME), or any file (start/…); without a selecting test, the
// start paths themselves, since everything below them is reached.
func (f findReading) Found() []string {
	var out []string
	for _, s := range f.Starts {
		switch {
		case !f.Filtered:
			out = append(out, s)
		case f.name != "":
			// …/ is any depth, the start path's own child included.
			out = append(out, strings.TrimSuffix(s, "/")+"/"+f.name, strings.TrimSuffix(s, "/")+"/…/"+f.name)
		default:
			out = append(out, strings.TrimSuffix(s, "/")+"/…")
		}
	}
	return out
}

// noteFetch records the file a curl or wget writes its download to.
func (d *decomposer) noteFetch(c *Command) {
	if len(c.Argv) == 0 {
		return
	}
	args := c.Argv[1:]
	switch path.Base(c.Argv[0]) {
	case "curl":
		for i, a := range args {
			switch {
			case (a == "-o" || a == "--output") && i+1 < len(args):
				d.fetchedTo[path.Clean(args[i+1])] = true
			case strings.HasPrefix(a, "--output="):
				d.fetchedTo[path.Clean(strings.TrimPrefix(a, "--output="))] = true
			case a == "-O" || a == "--remote-name":
				for _, u := range args {
					if strings.Contains(u, "://") {
						d.fetchedTo[path.Base(u)] = true
					}
				}
			}
		}
	case "wget":
		named := false
		for i, a := range args {
			if (a == "-O" || a == "--output-document") && i+1 < len(args) {
				d.fetchedTo[path.Clean(args[i+1])] = true
				named = true
			}
		}
		if !named {
			for _, u := range args {
				if strings.Contains(u, "://") {
					d.fetchedTo[path.Base(u)] = true
				}
			}
		}
	}
}

// remote reads what ssh, docker/podman exec and kubectl exec run on the
// other side: the same rules hold there (rm -rf / is rm -rf / on a
// server too).
func (d *decomposer) remote(c *Command, depth int) error {
	via := append(append([]string(nil), c.Via...), c.Name())
	args := c.Args()
	var argv []string
	switch c.Name() {
	case "ssh":
		p := argspec.For("ssh").Parse(args)
		if len(p.Operands) < 2 {
			return nil
		}
		remote := strings.Join(p.Operands[1:], " ")
		if IsShell(path.Base(p.Operands[1])) && len(p.Operands) == 2 && c.Stdin != "" && !c.StdinDynamic {
			remote = c.Stdin
		}
		return d.parse(remote, depth+1, via)
	case "docker", "podman":
		if len(args) == 0 || args[0] != "exec" && args[0] != "run" {
			return nil
		}
		p := argspec.For("docker-" + args[0]).Parse(args[1:])
		if len(p.Operands) < 2 {
			return nil
		}
		argv = p.Operands[1:]
		if args[0] == "run" {
			// A host directory mounted into the container is the same
			// directory: the command's paths are read as the host's.
			argv = mountedPaths(argv, p.Values("volume"))
		}
	case "kubectl", "oc":
		for i, a := range args {
			if a == "--" && len(args) > 0 && slices.Contains(args[:i], "exec") {
				argv = args[i+1:]
				break
			}
		}
	}
	if len(argv) == 0 {
		return nil
	}
	inner := &Command{Argv: append([]string(nil), argv...), Env: map[string]string{}, Via: via, Text: c.Text, Stdin: c.Stdin, StdinDynamic: c.StdinDynamic}
	return d.add(inner, depth+1)
}

// filterText is what a filter writes for known input: base64 -d, rev,
// cat, tr -d.
func filterText(argv []string, in string) (string, bool) {
	switch path.Base(argv[0]) {
	case "cat":
		if len(argv) == 1 || len(argv) == 2 && argv[1] == "-" {
			return in, true
		}
	case "base64", "b64":
		for _, a := range argv[1:] {
			if a == "-d" || a == "--decode" || a == "-D" || a == "-di" || a == "-id" {
				out, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(in), ""))
				if err != nil {
					out, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(strings.Join(strings.Fields(in), ""), "="))
				}
				return string(out), err == nil
			}
		}
	case "rev":
		var lines []string
		for _, l := range strings.Split(strings.TrimSuffix(in, "\n"), "\n") {
			r := []rune(l)
			for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
				r[i], r[j] = r[j], r[i]
			}
			lines = append(lines, string(r))
		}
		return strings.Join(lines, "\n") + "\n", true
	}
	return "", false
}

// lastOr returns the index of the last -o or -or before find's action
// (-delete, -exec), or -1.
func lastOr(expr []string) int {
	last := -1
	for i, a := range expr {
		switch a {
		case "-o", "-or":
			last = i
		case "-delete", "-exec", "-execdir", "-ok", "-okdir":
			return last
		}
	}
	return -1
}

// mountedPaths rewrites a container command's paths that lie under a
// bind mount (-v HOST:CONTAINER) into the host's paths, so that rm -rf
// /host/home under -v /:/host is read as rm -rf /home.
func mountedPaths(argv, volumes []string) []string {
	out := make([]string, len(argv))
	copy(out, argv)
	for _, v := range volumes {
		parts := strings.Split(v, ":")
		if len(parts) < 2 || !strings.HasPrefix(parts[1], "/") {
			continue
		}
		host, inside := parts[0], strings.TrimSuffix(parts[1], "/")
		for i, a := range out {
			if a == inside || strings.HasPrefix(a, inside+"/") {
				out[i] = host + strings.TrimPrefix(a, inside)
			}
		}
	}
	return out
}
