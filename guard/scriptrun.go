package guard

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/policy"
	"github.com/gitsentinel/sentinel/guard/script"
	"github.com/gitsentinel/sentinel/guard/shell"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

// A script file a command runs (sh x.sh, ./x.sh, source x.sh, python3
// x.py, node x.js) is read from disk and its commands are decided on as if
// they were written out: whatever a command line could not do, a script
// it runs cannot do either. A script the same line writes is read as the
// text written, where the decomposer could compute it (cat > x.sh <<EOF),
// and is a question where it could not.
//
// What the guard cannot compute in a script (a command named by a
// variable, an rm of a computed path, a program run through eval) is a
// question only where the script may be the agent's own: a script git
// tracks, unchanged from the index, is the project's code, which a person
// committed or staged, and only what it states outright decides. A new or
// changed script is read as strictly as a command line.
//
// A script that cannot be read is what any program is: a missing file
// runs nothing, a binary is a program the guard does not read, and a
// script in a system directory is the system's. But a script that is text
// and is kept from the guard (larger than the bound, a link out of the
// project, not a regular file, nested past the bound) is a question,
// unless git tracks it unchanged: padding a script, or linking it from
// elsewhere, is how one would hide what it runs.

const (
	// maxScriptFile bounds a script file read.
	maxScriptFile = 512 << 10
	// maxScriptNesting bounds scripts that run scripts.
	maxScriptNesting = 4
	// maxScriptsRead bounds the script files one decision reads.
	maxScriptsRead = 16
	// maxScriptHash bounds the bytes hashed to tell a tracked script
	// unchanged.
	maxScriptHash = 4 << 20
)

// scriptState is the reading of script files for one decision.
type scriptState struct {
	depth int
	open  []string // the scripts being read, outermost first
	read  int
}

// evaluateScript reads the script file c runs, if any, and decides on
// what it runs.
func evaluateScript(c *shell.Command, e *pathguard.Env, p *policy.Policy, d *Decision) {
	run, ok := shell.RunsScript(c)
	if !ok || c.ScriptRead || c.FetchedCode || c.ArgsUnknown || strings.ContainsAny(run.File, "$`…*?[") {
		return
	}
	path := e.Resolve(run.File)
	if run.Searched && !strings.Contains(run.File, "/") {
		if _, err := os.Lstat(path); err != nil {
			if lp := e.LookPath(run.File); lp != "" {
				path = lp
			}
		}
	}
	ask := func(why string) {
		d.addUndecided(e, verdict.Finding{RuleID: "script.unread", Severity: verdict.High, Command: c.Text,
			Reason: verdict.High.Reason("script.unread", "running a script the guard cannot read ("+why+")", "write the script's commands out, or keep the script in the project, small and committed")})
	}
	if d.writtenBefore(path) {
		ask("this command line writes " + run.File + " first, with text the guard cannot compute")
		return
	}
	for _, s := range d.scripts.open {
		if s == path {
			return // a script that runs itself: its commands are being read
		}
	}
	text, why := readScript(run.File, path, e)
	switch {
	case why == "":
	case why == skipScript:
		return
	default:
		if !trackedUnchanged(path) {
			ask(why)
		}
		return
	}
	lang := run.Lang
	if lang == "" {
		if lang = shell.ScriptLanguage(text); lang == "" {
			return // a program in a language the guard does not read
		}
	}
	if d.scripts.depth >= maxScriptNesting || d.scripts.read >= maxScriptsRead {
		if !trackedUnchanged(path) {
			ask(fmt.Sprintf("scripts that run scripts past %d deep, or more than %d", maxScriptNesting, maxScriptsRead))
		}
		return
	}
	// The script inherits what its command sets (PATH=/x ./commit.sh).
	vars := map[string]string{}
	for k, v := range c.Inherited {
		vars[k] = v
	}
	for k, v := range c.Env {
		vars[k] = v
	}
	var cmds []*shell.Command
	var err error
	if lang == "sh" {
		cmds, err = shell.DecomposeScript(text, run.File, run.Args, vars, &e.Env)
	} else {
		cmds, err = shell.DecomposeProgram(lang, text, run.File, vars, &e.Env)
	}
	if errors.Is(err, script.ErrNeedsEngine) {
		d.NeedsEngine = true
		d.Add(verdict.Finding{RuleID: "engine", Verdict: verdict.Deny, Command: c.Text,
			Reason: verdict.Reason("engine", err.Error()+", which is not installed beside it", "run `make install` in sentinel's source")})
		return
	}
	start := len(d.Findings)
	if err != nil {
		ask(run.File + ": " + err.Error())
	}
	d.scripts.read++
	d.scripts.depth++
	d.scripts.open = append(d.scripts.open, path)
	d.Commands = append(d.Commands, cmds...)
	d.evaluateAll(cmds, e, p)
	d.scripts.open = d.scripts.open[:len(d.scripts.open)-1]
	d.scripts.depth--
	if d.undecidedSince(start) && trackedUnchanged(path) {
		d.dropUndecidedSince(start)
	}
	for i := start; i < len(d.Findings); i++ {
		d.Findings[i].Reason = verdict.Inside(d.Findings[i].Reason, run.File)
	}
}

// skipScript says a script is not read and its run is what it is today:
// missing, binary, a secret, or the system's.
const skipScript = "skip"

// readScript reads the script file at path (resolved from name). why is
// "" with the text, skipScript for a file the guard leaves be, or why it
// could not be read.
func readScript(name, path string, e *pathguard.Env) (text, why string) {
	for _, d := range pathguard.SystemDirs {
		if shell.Within(path, d) {
			return "", skipScript
		}
	}
	if len(e.SecretReads(path)) > 0 {
		return "", skipScript // reading it is a rule of its own
	}
	// A link named in the project that points out of it is not followed:
	// what it runs lies where the guard does not look.
	lexical := filepath.Clean(name)
	if !filepath.IsAbs(lexical) {
		lexical = filepath.Join(e.Cwd, lexical)
	}
	if fi, err := os.Lstat(lexical); err == nil && fi.Mode()&fs.ModeSymlink != 0 && e.Project != "" {
		project := e.Resolve(e.Project)
		if shell.Within(lexical, e.Project) && !shell.Within(path, project) {
			return "", "it is a link out of the project, to " + path
		}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return "", skipScript // nothing runs
	}
	if err != nil {
		return "", "it does not open"
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil || fi.IsDir():
		return "", skipScript
	case !fi.Mode().IsRegular():
		return "", "it is not a regular file"
	case fi.Size() > maxScriptFile:
		if binary(f) {
			return "", skipScript
		}
		return "", fmt.Sprintf("it is larger than %d KiB", maxScriptFile>>10)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxScriptFile+1))
	if err != nil {
		return "", "it does not read"
	}
	if len(b) > maxScriptFile {
		return "", fmt.Sprintf("it is larger than %d KiB", maxScriptFile>>10)
	}
	if bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0 {
		return "", skipScript // a binary: a program the guard does not read
	}
	return string(b), ""
}

// binary reports a file whose first bytes hold a NUL, as git tells text
// from binary.
func binary(f *os.File) bool {
	head := make([]byte, 8000)
	n, _ := f.ReadAt(head, 0)
	return bytes.IndexByte(head[:n], 0) >= 0
}

// trackedUnchanged reports a script git tracks whose content is what the
// index holds: a person's, not one the agent wrote since.
func trackedUnchanged(path string) bool {
	ok, err := gitrepo.TrackedUnchanged(path, maxScriptHash)
	return ok && err == nil
}

// undecidedSince reports a question among the findings from index start.
func (d *Decision) undecidedSince(start int) bool {
	for i := range d.undecided {
		if i >= start {
			return true
		}
	}
	return false
}

// dropUndecidedSince removes the questions among the findings from index
// start, and decides the verdict again from what is left.
func (d *Decision) dropUndecidedSince(start int) {
	kept := d.Findings[:start:start]
	for i, f := range d.Findings[start:] {
		if d.undecided[start+i] {
			delete(d.undecided, start+i)
			continue
		}
		kept = append(kept, f)
	}
	d.Findings = kept
	d.Verdict = verdict.Allow
	for _, f := range d.Findings {
		if f.Verdict > d.Verdict {
			d.Verdict = f.Verdict
		}
	}
}
