package guard

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/gitsentinel/sentinel/guard/hosts"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

// ContainShells are the shells a contained call runs in, the first that
// is there: bash, which the hosts' shell tools run, else sh.
var ContainShells = []string{"/bin/bash", "/bin/sh"}

// containNote is what the person is shown beside a contained call where
// the host shows a reason.
const containNote = "sentinel: [guard] contain runs this call in a sandbox (sentinel run --call): the hooks, git's configuration, sentinel's files and your secrets are out of its reach"

// ContainedCommand is the shell command that runs command under `sentinel
// run --call`, by the sentinel at the absolute path self, marked as the
// agent named agent, in shell: what the host runs in place of command.
// Each word the host's shell reads is single-quoted, so command reaches
// shell -c byte for byte, whatever quotes, newlines or $( ) it holds.
func ContainedCommand(self, agent, shell, command string) string {
	return shellWord(self) + " run --call --agent " + shellWord(agent) + " -- " + shellWord(shell) + " -c " + shellWord(command)
}

// shellWord is s as one single-quoted POSIX shell word.
func shellWord(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// containShell is the first of ContainShells that is an executable file.
func containShell() string {
	for _, s := range ContainShells {
		if fi, err := os.Stat(s); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return s
		}
	}
	return ""
}

// contain answers a shell call the verdict lets run (an allow, or a MEDIUM
// warning), on a host that can take a new input without the hook granting
// it, with the call rewritten to run under `sentinel run --call`. Where
// no sandbox applies, the call is refused with the fix, never run
// unconfined. A refusal or an ask is left as it is, and so is every call
// on a host that cannot be rewritten: there contain has no effect.
func contain(ev Event, dialect hosts.Dialect, d *Decision, a hosts.Answer) (*Decision, hosts.Answer) {
	if d.Call == nil || d.Verdict > verdict.Warn || !hosts.CanRewrite(dialect.Name(), d.Call) {
		return d, a
	}
	refuse := func(why, fix string) (*Decision, hosts.Answer) {
		nd := &Decision{Call: d.Call, Raw: d.Raw, Commands: d.Commands}
		nd.Add(verdict.Finding{RuleID: "contain", Verdict: verdict.Deny, Command: d.Call.Command,
			Reason: verdict.Reason("contain", "[guard] contain is on and "+why+", so the call is refused rather than run unconfined", fix)})
		return nd, dialect.Answer(nd.Outcome, nd.Call)
	}
	if ev.Contain == nil {
		return refuse("this guard cannot run sentinel run", "run the guard as `sentinel guard install` writes it")
	}
	self, err := ev.Contain()
	if err != nil {
		return refuse("sentinel run cannot contain a call here ("+strings.Join(strings.Fields(err.Error()), " ")+")", "`sentinel doctor` says what is missing")
	}
	if !filepath.IsAbs(self) {
		return refuse("sentinel's own path "+self+" is not absolute", "run sentinel by its absolute path")
	}
	shell := containShell()
	if shell == "" {
		return refuse("neither of "+strings.Join(ContainShells, " and ")+" is there to run the call", "install bash")
	}
	ra, err := hosts.Rewrite(dialect.Name(), d.Outcome, d.Call, []byte(d.Raw), ContainedCommand(self, dialect.Name(), shell, d.Call.Command), containNote)
	if err != nil {
		return refuse("the call could not be rewritten ("+err.Error()+")", "")
	}
	return d, ra
}
