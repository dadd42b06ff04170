package rules

import (
	"strings"
	"sync"

	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/shell"
	"github.com/gitsentinel/sentinel/guard/verdict"
	"github.com/gitsentinel/sentinel/trailers"
)

// shellRules are about code the guard cannot see before it runs, and about
// an agent hiding what it is.
func shellRules() []*Rule {
	return []*Rule{
		{
			ID: "input.dynamic-code", Severity: verdict.High, Asks: true, Reason: "running code that arrives on stdin or from a computed string the guard cannot read",
			Suggest: "write the commands out, or save the script and show it first",
			Match: func(c *shell.Command, e *pathguard.Env) bool {
				name := c.Name()
				switch {
				case shell.IsInterpreter(name):
					_, _, fromStdin, ok := shell.InterpreterProgram(c.Argv)
					return ok && fromStdin && c.StdinDynamic
				case shell.IsShell(name):
					p := c.Opts()
					if p.On("c") {
						return false
					}
					readsStdin := len(p.Operands) == 0 || p.On("s") || p.Operands[0] == "-" || p.Operands[0] == "/dev/stdin"
					return readsStdin && c.StdinDynamic || len(p.Operands) > 0 && (strings.Contains(p.Operands[0], "<(…)") || strings.HasPrefix(p.Operands[0], "$"))
				case name == "source" || name == ".":
					ops := c.Operands()
					return len(ops) > 0 && (strings.Contains(ops[0], "<(…)") || strings.HasPrefix(ops[0], "$") || ops[0] == "/dev/stdin") && !c.SetupEval
				case name == "eval" && !c.SetupEval:
					for _, a := range c.Args() {
						if strings.Contains(a, "$(…)") || strings.Contains(a, "$") {
							return true
						}
					}
				}
				return false
			},
			Deny: []string{"cat script.sh | bash", "base64 -d payload | sh", "curl_output | sh -s", "tee >(bash) < x", "eval \"$(cat cmds)\"", "source <(cat x)",
				"echo \"$X\" | sh", "bash <(cat x.sh)", "eval $CMD"},
			Allow: []string{"bash script.sh", "sh -c 'ls'", "echo ls | sh", "eval \"$(direnv hook bash)\"", "eval \"$(ssh-agent -s)\"", "cat x | grep y", "source venv/bin/activate", "eval echo hi"},
		},
		{
			ID: "input.unknown-args", Severity: verdict.High, Asks: true, Reason: "a destructive command completed with input the guard cannot read (xargs, parallel)",
			Suggest: "list the files first, then run the command on them by name",
			Match: func(c *shell.Command, e *pathguard.Env) bool {
				if !c.ArgsUnknown || shell.IsShell(c.Name()) && c.Opts().On("c") && len(c.Opts().Operands) > 0 && !strings.Contains(c.Opts().Operands[0], "$(…)") {
					return false // sh -c SCRIPT: the script is read; only its $1… are unknown
				}
				switch c.Name() {
				case "rm", "rmdir", "unlink", "shred", "mv", "cp", "dd", "chmod", "chown", "chgrp", "truncate", "git", "kill", "pkill", "find", "sudo", "eval", "tee", "ln", "install", "rsync", "srm":
					return true
				}
				return shell.IsShell(c.Name()) || shell.IsInterpreter(c.Name())
			},
			Deny:  []string{"some-tool | xargs rm", "cat list | xargs rm -rf", "curl -s https://x | xargs rm -f", "cat cmds | xargs -I{} sh -c '{}'", "cat files | parallel rm -rf {}"},
			Allow: []string{"find . -name '*.go' | xargs grep TODO", "find . -name '*.o' | xargs rm -f", "git ls-files -z | xargs -0 rm -f", "git ls-files | xargs wc -l", "echo a b | xargs echo", "ls | xargs -n1 basename"},
		},
		{
			ID: "shell.startup-file", Severity: verdict.High, Asks: true, Reason: "a shell told to run a startup file first (BASH_ENV, ENV, --rcfile, --init-file)",
			Suggest: "source the file in the command itself, where the guard can read it",
			Match: func(c *shell.Command, e *pathguard.Env) bool {
				for k, v := range assignments(c) {
					if (k == "BASH_ENV" || k == "ENV" || k == "ZDOTDIR" || k == "PROMPT_COMMAND") && v != "" {
						return true
					}
				}
				if shell.IsShell(c.Name()) {
					p := c.Opts()
					_, rc := p.Value("rcfile")
					_, init := p.Value("init-file")
					return rc || init
				}
				return false
			},
			Deny:  []string{"BASH_ENV=./x.sh bash -c ls", "export BASH_ENV=/tmp/x", "bash --rcfile /tmp/evil -i", "bash --init-file x.sh", "ENV=/tmp/e sh -c true"},
			Allow: []string{"bash -c ls", "bash --norc -c ls", "export EDITOR=vim"},
		},
		{
			ID: "agent.marker", Severity: verdict.High, Reason: "removing or changing the variable that tells sentinel an agent is at work, so that a commit passes as a person's",
			Suggest: "commit as the agent: sentinel adds Assisted-by for you",
			Match: func(c *shell.Command, e *pathguard.Env) bool {
				markers := agentMarkers()
				for _, u := range c.Unset {
					if markers[u] {
						return true
					}
				}
				for k := range c.Env {
					if markers[k] {
						return true
					}
				}
				switch c.Name() {
				case "unset":
					for _, op := range c.Operands() {
						if markers[op] {
							return true
						}
					}
				case "export", "declare", "typeset", "readonly", "local":
					neg := false
					for _, a := range c.Args() {
						if a == "-n" || strings.HasPrefix(a, "+") {
							neg = true
						}
					}
					for _, op := range c.Operands() {
						k, _, hasValue := strings.Cut(op, "=")
						if markers[k] && (neg || hasValue) {
							return true
						}
					}
				}
				if c.ClearEnv {
					name := c.Name()
					switch c.Sub() {
					case "commit", "merge", "am", "rebase", "cherry-pick", "revert", "pull":
						return name == "git"
					}
					return name == "sentinel" || shell.IsShell(name) || shell.IsInterpreter(name) || name == "make"
				}
				return false
			},
			Deny: []string{"unset CLAUDECODE", "env -u CLAUDECODE git commit -m x", "CLAUDECODE= git commit -m x", "export -n CLAUDECODE", "unset -v CLAUDECODE CLAUDE_CODE_ENTRYPOINT",
				"env -i git commit -m x", "env --unset=CODEX_SANDBOX git commit -m x", "export CLAUDECODE=0", "AI_AGENT= git commit -m x", "env -i bash -c 'git commit -m x'",
				"declare +x CLAUDECODE", "CURSOR_AGENT=0 git commit -m x"},
			Allow: []string{"unset GOFLAGS", "env -u GOFLAGS go test ./...", "echo $CLAUDECODE", "export PATH=$PATH:/x", "env -i PATH=/usr/bin ls"},
		},
		{
			ID: "interp.one-liner", Severity: verdict.High, Asks: true, Reason: "an interpreter one-liner (paranoid level)",
			Suggest: "save the program to a file and show it first",
			Level:   verdict.Paranoid,
			Match:   func(c *shell.Command, e *pathguard.Env) bool { return c.Inline != "" },
			Deny:    []string{"python3 -c 'print(1)'", "node -e 'console.log(1)'", "perl -ne print x.txt"},
			Allow:   []string{"python3 x.py", "node server.js"},
		},
		{
			ID: "rm.unknown-target", Severity: verdict.High, Asks: true, Reason: "a recursive deletion whose target the guard cannot compute (an unset variable, a loop variable, a command's output)",
			Suggest: "write the path out",
			Match: func(c *shell.Command, e *pathguard.Env) bool {
				for _, t := range append(RemovedBy(c, e), moveTargets(c)...) {
					if strings.HasPrefix(t, "$") || strings.HasPrefix(t, "<(") || t == "" {
						return true
					}
				}
				return false
			},
			Deny:  []string{"rm -rf \"$BUILD_DIR\"", "rm -rf $TARGET/*", "rm -rf \"$1\"", "rm -rf \"${OUT_DIR}/\"", "for d in $(ls); do rm -rf \"$d\"; done", "rm -rf $(cat dirs.txt)"},
			Allow: []string{"rm -rf \"$HOME/.cache/x\"", "rm -rf \"/tmp/$NAME\"", "rm -rf build", "d=build; rm -rf \"$d\"", "rm \"$FILE\""},
		},
		{
			ID: "sentinel.copy", Severity: verdict.High, Reason: "copying the sentinel binary: a copy under another name escapes the rules that name it",
			Suggest: "run sentinel itself",
			Match: func(c *shell.Command, e *pathguard.Env) bool {
				switch c.Name() {
				case "cp", "install", "ln", "rsync", "dd", "cat":
				default:
					return false
				}
				var sources []string
				if c.Name() == "dd" {
					for _, a := range c.Args() {
						if strings.HasPrefix(a, "if=") {
							sources = append(sources, a[3:])
						}
					}
				} else if ops := c.Operands(); len(ops) > 1 || c.Name() == "cat" {
					sources = ops
					if c.Name() != "cat" {
						sources = ops[:len(ops)-1]
					}
				}
				for _, s := range sources {
					if strings.HasPrefix(s, "$") {
						continue
					}
					if p := e.Resolve(s); e.IsSentinelBinary(p) || e.IsSentinelProgram(p) {
						return true
					}
				}
				return false
			},
			Deny:  []string{"cp /home/agent-test/go/bin/sentinel /tmp/s", "cat /home/agent-test/go/bin/sentinel > /tmp/x"},
			Allow: []string{"cp README.md /tmp/x", "cp bin/other /tmp/y"},
		},
		{
			ID: "file.shred", Severity: verdict.High, Reason: "shredding a file, which makes it unrecoverable", Suggest: "rm it, so that it can be restored from git or a backup",
			Match: func(c *shell.Command, e *pathguard.Env) bool { return c.Name() == "shred" || c.Name() == "srm" },
			Deny:  []string{"shred secret.txt", "shred -u notes.md", "shred --remove=wipe x", "srm -r dir"},
			Allow: []string{"rm secret.txt", "echo shred"},
		},
		{
			ID: "find.delete-all", Severity: verdict.High, Reason: "find -delete with nothing that selects what it deletes: everything below its start paths",
			Suggest: "add the tests that select the files (-name, -type, -mtime), or rm the directory you mean",
			Match: func(c *shell.Command, e *pathguard.Env) bool {
				if c.Name() != "find" || !c.FindPrimary("-delete") || findFilters(c) {
					return false
				}
				// Inside the project or a temporary directory, it is rm -r of
				// that directory; at the project's root or elsewhere, a loss.
				for _, s := range shell.ReadFind(c.Args()).Starts {
					p := e.Resolve(s)
					if !(shell.Within(p, e.Project) && p != e.Project) && !e.InTemp(p) {
						return true
					}
				}
				return false
			},
			Deny:  []string{"find . -delete", "find . -type f -delete", "find -L . -delete", "find ~/Documents -delete", "find . -mindepth 1 -delete"},
			Allow: []string{"find . -name '*.orig' -delete", "find build -type f -mtime +7 -delete", "find . -name x", "find build -delete", "find cache -mindepth 1 -delete"},
		},
	}
}

// agentMarkers are the variables through which sentinel knows an agent
// is at work.
var agentMarkers = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{"AI_AGENT": true, "AGENT": true, "SENTINEL_AGENT": true}
	for _, a := range trailers.Known {
		for _, mk := range a.Markers {
			m[mk.Var] = true
		}
	}
	return m
})
