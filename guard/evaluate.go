package guard

import (
	"errors"
	"path"
	"strings"

	"github.com/gitsentinel/sentinel/guard/hosts"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/policy"
	"github.com/gitsentinel/sentinel/guard/rules"
	"github.com/gitsentinel/sentinel/guard/script"
	"github.com/gitsentinel/sentinel/guard/shell"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

// Decision is the guard's verdict on a tool call, with what led to it.
type Decision struct {
	verdict.Outcome
	Commands []*shell.Command
	// Call is the tool call decided on, when it came from an event.
	Call *hosts.Call
	// Raw is the event as the host sent it.
	Raw string
	// NeedsEngine says the front binary could not read code in the
	// command for want of a grammar: the verdict is a denial, and the
	// caller hands the event to the engine binary, which decides it.
	NeedsEngine bool
	// written are the paths the commands decided so far write, resolved:
	// a later command may read what an earlier one wrote. writtenDirs are
	// directories an archive whose entries are not known was extracted
	// into: anything below them may be new.
	written     map[string]bool
	writtenDirs []string
	// extractions are the archives' commands read so far, each once.
	extractions map[*shell.Command]*extraction
	// undecided marks the findings (by index) that are questions about
	// what the guard cannot compute, as opposed to what a command states.
	undecided map[int]bool
	// scripts is the reading of script files the commands run.
	scripts scriptState
}

// addUndecided records a finding about what the guard cannot compute: a
// question at the standard level, a denial above it.
func (d *Decision) addUndecided(e *pathguard.Env, f verdict.Finding) {
	f.Verdict = e.Undecided()
	if d.undecided == nil {
		d.undecided = map[int]bool{}
	}
	d.undecided[len(d.Findings)] = true
	d.Add(f)
}

// writtenBefore reports a path an earlier command of the line writes.
func (d *Decision) writtenBefore(p string) bool {
	if d.written[p] {
		return true
	}
	for _, dir := range d.writtenDirs {
		if shell.Within(p, dir) {
			return true
		}
	}
	return false
}

// extraction is what c extracts (readExtraction), read once per command.
func (d *Decision) extraction(c *shell.Command, e *pathguard.Env) *extraction {
	if x, ok := d.extractions[c]; ok {
		return x
	}
	x := readExtraction(c, e, d.writtenBefore)
	if d.extractions == nil {
		d.extractions = map[*shell.Command]*extraction{}
	}
	d.extractions[c] = x
	return x
}

func ruleFinding(r *rules.Rule, c *shell.Command, v verdict.Verdict) verdict.Finding {
	return verdict.Finding{RuleID: r.ID, Severity: r.Severity, Verdict: v, Command: c.Text,
		Reason: r.Severity.Reason(r.ID, r.Reason, r.Suggest)}
}

// EvaluateCommand decides on a shell command.
func EvaluateCommand(src string, e *pathguard.Env, p *policy.Policy) *Decision {
	d := &Decision{}
	cmds, err := shell.DecomposeIn(src, &e.Env)
	d.Commands = cmds
	if errors.Is(err, script.ErrNeedsEngine) {
		d.NeedsEngine = true
		d.Add(verdict.Finding{RuleID: "engine", Verdict: verdict.Deny, Command: src,
			Reason: verdict.Reason("engine", err.Error()+", which is not installed beside it", "run `make install` in sentinel's source")})
		return d
	}
	if err != nil {
		d.Add(verdict.Finding{RuleID: "parse", Verdict: verdict.Deny, Command: src,
			Reason: verdict.Reason("parse", err.Error(), "write the command so that a POSIX/Bash parser reads it")})
		return d
	}
	d.written = map[string]bool{}
	d.evaluateAll(cmds, e, p)
	return d
}

// evaluateAll decides on each command in turn, in the working directory
// the ones before it moved to, noting what each writes for those after it.
func (d *Decision) evaluateAll(cmds []*shell.Command, e *pathguard.Env, p *policy.Policy) {
	env := e
	for _, c := range cmds {
		ce := env
		if c.Dir != "" {
			// env -C DIR, sudo -D DIR: this command alone runs there.
			moved := *env
			moved.Cwd = env.Resolve(c.Dir)
			ce = &moved
		}
		evaluateOne(c, ce, p, d)
		evaluateScript(c, ce, p, d)
		for _, w := range commandWrites(c, ce) {
			d.written[ce.Resolve(w)] = true
		}
		if x := d.extraction(c, ce); x != nil {
			for _, w := range x.paths {
				d.written[w] = true
			}
			if x.unknown != "" {
				d.writtenDirs = append(d.writtenDirs, x.dirs...)
			}
		}
		env = after(env, c)
	}
}

// after is the environment of the commands that follow c: a cd or pushd
// moves their working directory, so that "cd / && rm -rf etc" is read as
// the removal of /etc. Every later command is taken to run there, even
// one a subshell would have kept out of it: the guard errs toward seeing
// more. A directory it cannot tell ("cd $DIR", "cd -") resolves later
// relative paths under /, so that they meet the strictest rules.
func after(e *pathguard.Env, c *shell.Command) *pathguard.Env {
	if c.Name() != "cd" && c.Name() != "pushd" {
		return e
	}
	next := *e
	ops := c.Operands()
	switch {
	case len(ops) == 0:
		next.Cwd = e.Home
	case ops[0] == "-" || strings.ContainsAny(ops[0], "$`*?["):
		next.Cwd = "/"
	default:
		next.Cwd = e.Resolve(ops[0])
	}
	if next.Cwd == "" {
		next.Cwd = "/"
	}
	return &next
}

func evaluateOne(c *shell.Command, e *pathguard.Env, p *policy.Policy, d *Decision) {
	evaluateBuiltin(c, e, p, d)
	tighten(d, p, "bash", c.Normalized(), c.Text)
}

// tighten adds the project's strictest rule on subject, after the built-in
// rules, the path guard and the user's rules have decided: the verdict is
// the strictest of its findings, so a project rule can only make it
// stricter.
func tighten(d *Decision, p *policy.Policy, tool, subject, command string) {
	if v, rule, ok := p.Tighten(tool, subject); ok && v != verdict.Allow {
		d.Add(configFinding(v, rule, command))
	}
}

// configFinding is a configured rule's verdict on a command or path.
func configFinding(v verdict.Verdict, rule, command string) verdict.Finding {
	return verdict.Finding{RuleID: "config", Verdict: v, Command: command, Reason: verdict.Reason("config", "the configured rule "+rule+" says "+v.String(), "")}
}

// evaluateBuiltin is the built-in rules, the user's rules and the path
// guard on one command.
func evaluateBuiltin(c *shell.Command, e *pathguard.Env, p *policy.Policy, d *Decision) {
	if args := c.Args(); len(args) == 1 && (args[0] == "--help" || args[0] == "--version" || args[0] == "-h") && !c.Computed && len(c.Writes) == 0 {
		return // it prints and runs nothing
	}
	for _, r := range rules.Catalogue() {
		if r.Severity == verdict.Critical && r.Match(c, e) {
			d.Add(ruleFinding(r, c, verdict.Deny))
			return
		}
	}
	for _, w := range commandWrites(c, e) {
		if pf := e.CheckPath(w); pf != nil && pf.Critical {
			d.Add(verdict.Finding{RuleID: pf.ID, Severity: verdict.Critical, Verdict: verdict.Deny, Command: c.Text,
				Reason: verdict.Critical.Reason(pf.ID, pf.Reason+" ("+w+")", "write inside the project")})
			return
		}
	}
	x := d.extraction(c, e)
	if x != nil {
		for _, h := range x.hits {
			if h.f.Critical {
				d.Add(verdict.Finding{RuleID: h.f.ID, Severity: verdict.Critical, Verdict: verdict.Deny, Command: c.Text,
					Reason: verdict.Critical.Reason(h.f.ID, h.f.Reason+" ("+h.path+", from the archive)", "extract it inside the project")})
				return
			}
		}
	}
	if v, rule, ok := p.Match("bash", c.Normalized()); ok {
		if v != verdict.Allow {
			d.Add(configFinding(v, rule, c.Text))
		}
		return
	}
	if _, applies, ok := patchWrites(c, e, d.writtenBefore); applies && !ok {
		// What the patch writes is not known: it could be git's hooks or
		// sentinel's own files.
		d.addUndecided(e, verdict.Finding{RuleID: "write.patch-unread", Severity: verdict.High, Command: c.Text,
			Reason: verdict.High.Reason("write.patch-unread", "applying a patch the guard cannot read, which could write git's hooks or sentinel's files", "write the patch to a file in the project, then apply that file")})
	}
	if x != nil && x.unknown != "" && x.reach != nil {
		// What the archive holds is not known, and it lands where git's
		// hooks or sentinel's files are.
		d.addUndecided(e, verdict.Finding{RuleID: "write.archive-unread", Severity: verdict.High, Command: c.Text,
			Reason: verdict.High.Reason("write.archive-unread", "extracting an archive whose entries the guard cannot list ("+x.unknown+") where they could write "+x.reach.Reason,
				"list it first (tar -tf, unzip -l), or extract it into a new temporary directory")})
	}
	if c.Computed {
		d.addUndecided(e, verdict.Finding{RuleID: "command.computed", Command: c.Text,
			Reason: verdict.High.Reason("command.computed", "the command's name is computed ("+c.Name()+"), so what runs cannot be checked", "write the command out")})
	}
	for _, r := range rules.Catalogue() {
		if r.Severity == verdict.Critical || r.Level > e.Level || !r.Match(c, e) {
			continue
		}
		switch {
		case r.Severity == verdict.Medium:
			d.Add(ruleFinding(r, c, verdict.Warn))
		case r.Asks:
			d.addUndecided(e, ruleFinding(r, c, verdict.Ask))
		default:
			d.Add(ruleFinding(r, c, verdict.Deny))
		}
	}
	// git rm --cached untracks a file and leaves it be: right for a
	// secret, a loss for sentinel's own files.
	untrack := c.Sub() == "rm" && c.Git().Args.On("cached")
	for _, w := range commandWrites(c, e) {
		if pf := e.CheckPath(w); pf != nil && !(untrack && strings.HasPrefix(pf.ID, "path.credentials")) {
			d.Add(verdict.Finding{RuleID: pf.ID, Severity: verdict.High, Verdict: verdict.Deny, Command: c.Text,
				Reason: verdict.High.Reason(pf.ID, pf.Reason+" ("+w+")", "ask a person to change it")})
		}
	}
	if x != nil {
		for _, h := range x.hits {
			d.Add(verdict.Finding{RuleID: h.f.ID, Severity: verdict.High, Verdict: verdict.Deny, Command: c.Text,
				Reason: verdict.High.Reason(h.f.ID, h.f.Reason+" ("+h.path+", from the archive)", "ask a person to change it")})
		}
	}
	for _, r := range shell.CommandReads(c) {
		for _, f := range e.SecretReads(r) {
			d.Add(verdict.Finding{RuleID: "secrets.read", Severity: verdict.High, Verdict: verdict.Deny, Command: c.Text,
				Reason: verdict.High.Reason("secrets.read", "reading "+f.Reason+" puts it in the transcript", "ask a person for the value you need")})
			break
		}
	}
}

// EvaluateWrite decides on a file tool's write to a path.
func EvaluateWrite(tool, path string, e *pathguard.Env, p *policy.Policy) *Decision {
	d := evaluateWrite(tool, path, e, p)
	tighten(d, p, tool, e.Resolve(path), tool+" "+path)
	return d
}

func evaluateWrite(tool, path string, e *pathguard.Env, p *policy.Policy) *Decision {
	d := &Decision{}
	pf := e.CheckPath(path)
	if pf != nil && pf.Critical {
		d.Add(verdict.Finding{RuleID: pf.ID, Severity: verdict.Critical, Verdict: verdict.Deny, Command: tool + " " + path,
			Reason: verdict.Critical.Reason(pf.ID, pf.Reason+" ("+path+")", "write inside the project")})
		return d
	}
	if v, rule, ok := p.Match(tool, e.Resolve(path)); ok {
		if v != verdict.Allow {
			d.Add(configFinding(v, rule, tool+" "+path))
		}
		return d
	}
	if pf != nil {
		d.Add(verdict.Finding{RuleID: pf.ID, Severity: verdict.High, Verdict: verdict.Deny, Command: tool + " " + path,
			Reason: verdict.High.Reason(pf.ID, pf.Reason+" ("+path+")", "ask a person to change it")})
	}
	return d
}

// EvaluateRead decides on a file tool's read or search of a path: the
// contents of a secret stay out of the agent's transcript.
func EvaluateRead(tool, path string, e *pathguard.Env, p *policy.Policy) *Decision {
	d := evaluateRead(tool, path, e, p)
	tighten(d, p, "read", e.Resolve(path), tool+" "+path)
	return d
}

func evaluateRead(tool, path string, e *pathguard.Env, p *policy.Policy) *Decision {
	d := &Decision{}
	if v, rule, ok := p.Match("read", e.Resolve(path)); ok {
		if v != verdict.Allow {
			d.Add(configFinding(v, rule, tool+" "+path))
		}
		return d
	}
	for _, f := range e.SecretReads(path) {
		d.Add(verdict.Finding{RuleID: "secrets.read", Severity: verdict.High, Verdict: verdict.Deny, Command: tool + " " + path,
			Reason: verdict.High.Reason("secrets.read", "reading "+f.Reason+" puts it in the transcript", "ask a person for the value you need")})
	}
	return d
}

// commandWrites are the files a command writes: its redirections, the
// destinations of the commands that write files, and the files that
// commands remove, move away or change the mode or owner of. Deleting a
// hook or the baseline, or making a hook unexecutable, switches the checks
// off as surely as overwriting it.
func commandWrites(c *shell.Command, e *pathguard.Env) []string {
	out := append([]string(nil), c.Writes...)
	out = append(out, archiveCreates(c)...)
	if paths, applies, _ := patchWrites(c, e, func(string) bool { return false }); applies {
		out = append(out, paths...)
	}
	ops := c.Operands()
	switch c.Name() {
	case "tee", "truncate", "touch", "rm", "unlink", "rmdir", "shred", "srm":
		out = append(out, ops...)
	case "chmod", "chown", "chgrp", "chattr":
		out = append(out, modeTargets(c)...)
	case "find":
		out = append(out, rules.RemovedBy(c, nil)...) // the start paths of find -delete
	case "git":
		if c.Sub() == "archive" {
			out = append(out, c.Git().Args.Values("output")...) // git archive -o FILE
		}
		if c.Sub() == "update-index" {
			// --cacheinfo MODE,SHA,PATH or MODE SHA PATH stages content
			// without touching the file: a write to it all the same.
			for _, op := range ops[min(1, len(ops)):] {
				if parts := strings.Split(op, ","); len(parts) == 3 {
					op = parts[2]
				}
				out = append(out, op)
			}
		}
		if sub := c.Sub(); (sub == "rm" || sub == "mv") && len(ops) > 1 {
			out = append(out, ops[1:]...)
		}
	case "cp", "mv", "install", "ln", "rsync", "scp":
		if c.Name() == "mv" {
			out = append(out, ops...) // the sources go away too
		}
		if c.Name() == "ln" && !c.Has("--symbolic") && len(ops) > 1 {
			// A hard link is a second name for the file: writing through
			// it writes the original.
			out = append(out, ops[:len(ops)-1]...)
		}
		args := c.Args()
		for i, a := range args {
			if (a == "-t" || a == "--target-directory") && i+1 < len(args) {
				return append(out, args[i+1])
			}
			if strings.HasPrefix(a, "--target-directory=") {
				return append(out, strings.TrimPrefix(a, "--target-directory="))
			}
		}
		if len(ops) > 1 {
			out = append(out, ops[len(ops)-1])
		}
	case "sed", "perl":
		if c.HasShort('i') || c.Has("--in-place") {
			if c.Name() == "sed" && len(ops) > 1 {
				out = append(out, ops[1:]...)
			} else if len(ops) > 0 {
				out = append(out, ops[len(ops)-1])
			}
		}
	case "dd":
		for _, a := range c.Args() {
			if strings.HasPrefix(a, "of=") {
				out = append(out, a[3:])
			}
		}
	case "go":
		// go build -o FILE writes FILE; go install PKG writes $GOBIN/NAME.
		args := c.Args()
		if len(args) > 0 && args[0] == "build" {
			for i, a := range args {
				if a == "-o" && i+1 < len(args) {
					out = append(out, args[i+1])
				} else if strings.HasPrefix(a, "-o=") {
					out = append(out, a[3:])
				}
			}
		}
		if len(args) > 0 && args[0] == "install" {
			for _, a := range args[1:] {
				if !strings.HasPrefix(a, "-") {
					pkg, _, _ := strings.Cut(a, "@")
					out = append(out, "$GOBIN/"+path.Base(strings.TrimSuffix(pkg, "/...")))
				}
			}
		}
	case "curl", "wget":
		out = append(out, downloadTargets(c)...)
	case "ssh-keygen":
		args := c.Args()
		reads := false
		for _, a := range args {
			reads = reads || a == "-l" || a == "-y" || a == "-F" || a == "-e" || a == "-i" || a == "-L" || a == "-Q" || a == "-B" || a == "-lf" || a == "-yf"
		}
		for i, a := range args {
			if a == "-f" && i+1 < len(args) && !reads {
				out = append(out, args[i+1])
			}
			if a == "-R" {
				out = append(out, "~/.ssh/known_hosts")
			}
		}
	}
	return out
}

// downloadTargets are the files curl and wget write: -o FILE and
// --output, -O (the URL's base name, in --output-dir), the header dump,
// cookie jar and trace files; wget's -O, its logs, and the URL's base name
// in the -P directory where no -O is given. Short options bundle (curl
// -sSLo FILE, wget -qO-).
func downloadTargets(c *shell.Command) []string {
	curl := c.Name() == "curl"
	// The short options that take a value, and what the value of each
	// that writes is.
	takes, writes := "AbcCdDeEFHKmoQrtTuUwxXyYz", map[byte]string{'o': "out", 'D': "file", 'c': "file"}
	long := map[string]string{"--output": "out", "--output-dir": "dir", "--dump-header": "file", "--cookie-jar": "file", "--trace": "file", "--trace-ascii": "file"}
	if !curl {
		takes, writes = "OoaeiBtTwQPUlARDIX", map[byte]string{'O': "out", 'P': "dir", 'o': "file", 'a': "file"}
		long = map[string]string{"--output-document": "out", "--directory-prefix": "dir", "--output-file": "file", "--append-output": "file"}
	}
	args := c.Args()
	var out, urls []string
	dir, named, remoteName := "", false, false
	take := func(kind, v string) {
		switch kind {
		case "out":
			named = true
			if v != "-" {
				out = append(out, v)
			}
		case "dir":
			dir = v
		case "file":
			if v != "-" {
				out = append(out, v)
			}
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case strings.Contains(a, "://"):
			urls = append(urls, a)
		case strings.HasPrefix(a, "--"):
			name, v, hasV := strings.Cut(a, "=")
			if curl && (name == "--remote-name" || name == "--remote-name-all") {
				remoteName = true
			}
			if kind, ok := long[name]; ok {
				if !hasV && i+1 < len(args) {
					i++
					v = args[i]
				}
				take(kind, v)
			}
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				if curl && a[j] == 'O' {
					remoteName = true
					continue
				}
				if strings.IndexByte(takes, a[j]) < 0 {
					continue
				}
				v := a[j+1:]
				if v == "" && i+1 < len(args) {
					i++
					v = args[i]
				}
				take(writes[a[j]], v)
				break
			}
		}
	}
	if !curl && !named || remoteName {
		for _, u := range urls {
			u, _, _ = strings.Cut(u, "?")
			if base := path.Base(strings.TrimRight(u, "/")); base != "" && !strings.Contains(base, ":") {
				out = append(out, path.Join(dir, base))
			}
		}
	}
	return out
}

// modeTargets are the files chmod, chown, chgrp or chattr change: every
// operand after the mode or owner, which --reference replaces. A mode may
// itself start with a dash (chmod -x, chattr -i), so only the options the
// tools define are skipped as options.
func modeTargets(c *shell.Command) []string {
	var words []string
	reference := false
	for _, a := range c.Args() {
		switch {
		case strings.HasPrefix(a, "--reference"):
			reference = true
		case strings.HasPrefix(a, "--"):
		case len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "RcfvhHLP") == "":
		default:
			words = append(words, a)
		}
	}
	if reference || len(words) == 0 {
		return words
	}
	return words[1:]
}
