package rules

import (
	"strings"

	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/guard/internal/argspec"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/shell"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

// gitRules are the rules about git: history, work and hooks that a git
// command can throw away or switch off. Every one reads the command through
// git's own option tables (parseGit), so --forc is --force, -bfeature is
// -b feature, and an option after "--" is a path.
func gitRules() []*Rule {
	return []*Rule{
		{
			ID: "git.force-push", Severity: verdict.High, Reason: "a force push, which discards the remote's commits",
			Suggest: "git push --force-with-lease",
			Match: func(c *shell.Command, e *pathguard.Env) bool {
				g := c.Git()
				if g.Sub != "push" || g.Args.On("dry-run") {
					return false
				}
				if g.Args.On("force") || g.Args.On("mirror") {
					return true
				}
				for _, op := range tail(g.Args.Operands, 1) {
					if strings.HasPrefix(op, "+") {
						return true
					}
				}
				return false
			},
			Deny: []string{"git push --force", "git push -f origin main", "git push origin +main", "git -C repo push -uf origin x", "git push --mirror",
				"git push --forc", "git push --fo origin main", "git push origin +HEAD:refs/heads/main", "git push --force --force-with-lease"},
			Allow: []string{"git push", "git push --force-with-lease", "git push origin main", "git push -u origin feature", "git push --no-force origin x",
				"git push --force-with-lease=main:abc123 origin main", "git push --force-if-includes --force-with-lease"},
		},
		{
			ID: "git.push-delete", Severity: verdict.High, Reason: "deleting a branch or tag on the remote",
			Suggest: "ask a person to delete it",
			Match: func(c *shell.Command, e *pathguard.Env) bool {
				g := c.Git()
				if g.Sub != "push" || g.Args.On("dry-run") {
					return false
				}
				if g.Args.On("delete") || g.Args.On("prune") {
					return true
				}
				for _, op := range tail(g.Args.Operands, 1) {
					if strings.HasPrefix(op, ":") && len(op) > 1 || strings.HasPrefix(op, "+:") {
						return true
					}
				}
				return false
			},
			Deny:  []string{"git push origin --delete main", "git push origin :main", "git push -d origin v1.0", "git push --prune origin refs/heads/*:refs/heads/*", "git push origin --del main", "git push --pru origin"},
			Allow: []string{"git push origin main", "git push origin HEAD:main", "git push origin :", "git push -u origin feature", "git push --dry-run origin :main --no-delete"},
		},
		{
			ID: "git.reset-hard", Severity: verdict.High, Reason: "git reset --hard, which discards uncommitted work",
			Suggest: "git stash, or git reset --keep",
			Match: func(c *shell.Command, e *pathguard.Env) bool {
				g := c.Git()
				return g.Sub == "reset" && (g.Args.On("hard") || g.Args.On("merge"))
			},
			Deny:  []string{"git reset --hard", "git reset --hard HEAD~1", "git --no-pager reset --merge", "git-reset --hard", "git reset --har", "git reset --ha origin/main", "git reset --me"},
			Allow: []string{"git reset", "git reset --soft HEAD~1", "git reset --keep HEAD~1", "git reset -- --hard", "git reset HEAD file.go"},
		},
		{
			ID: "git.clean", Severity: verdict.High, Reason: "git clean -f, which deletes untracked files", Suggest: "git clean -n to see what it would delete",
			Match: func(c *shell.Command, e *pathguard.Env) bool {
				g := c.Git()
				if g.Sub != "clean" || g.Args.On("dry-run") || g.Args.On("interactive") {
					return false
				}
				return g.Args.On("force") || strings.EqualFold(g.Config["clean.requireforce"], "false")
			},
			Deny:  []string{"git clean -fd", "git clean -xdf", "git clean --force", "git clean --forc -d", "git clean --fo -x", "git -c clean.requireForce=false clean -d", "git clean -ffdx"},
			Allow: []string{"git clean -n", "git clean -nd", "git clean --dry-run -fdx", "git clean -i", "git clean -d"},
		},
		{
			ID: "git.discard", Severity: verdict.High, Reason: "discarding uncommitted changes to files", Suggest: "git stash, or git restore --staged to unstage",
			Match: func(c *shell.Command, e *pathguard.Env) bool { return gitDiscards(c.Git(), e) },
			Deny: []string{"git checkout -- main.go", "git checkout HEAD~2 -- src/", "git checkout .", "git restore main.go", "git restore --worktree --staged x",
				"git checkout -f main", "git switch --discard-changes main", "git switch -f main", "git worktree remove --force ../wt",
				"git checkout main -- go.mod", "git checkout HEAD README.md go.mod", "git restore --source=HEAD~3 src/", "git restore -s main -W x.go",
				"git checkout --forc main", "git switch --disc main", "git worktree remove -f ../wt", "git restore --wor x", "git checkout :/",
				"git rm -f tracked.go", "git rm -r src", "git rm --forc x"},
			Allow: []string{"git checkout main", "git checkout -b feature", "git restore --staged main.go", "git switch main", "git switch -c feature",
				"git worktree remove ../wt", "git checkout -bfeature", "git checkout -qbfeature", "git switch -cfeature", "git switch -Cfixup",
				"git restore -qS file", "git restore --help", "git restore -h", "git restore --no-worktree --staged x", "git worktree remove -- -f",
				"git checkout -b fix origin/main", "git checkout -p main.go", "git restore --staged --source=HEAD~1 x", "git rm --cached -r build",
				"git rm -n -r src", "git checkout --orphan gh-pages", "git checkout -"},
		},
		{
			ID: "git.branch-delete", Severity: verdict.High, Reason: "force-deleting or force-moving a branch, tag or ref, which orphans its commits",
			Suggest: "git branch -d, which refuses unmerged branches, or a new branch",
			Match: func(c *shell.Command, e *pathguard.Env) bool {
				g := c.Git()
				switch g.Sub {
				case "branch":
					return g.Args.On("D") || g.Args.On("delete") && g.Args.On("force") || g.Args.On("C") ||
						g.Args.On("force") && len(g.Args.Operands) > 0
				case "tag":
					return g.Args.On("delete")
				case "update-ref", "symbolic-ref":
					return g.Args.On("delete")
				}
				return false
			},
			Deny: []string{"git branch -D feature", "git branch --delete --force old", "git branch -f main HEAD~3", "git update-ref -d refs/heads/main",
				"git tag -d v1.0", "git tag --delete v1.0", "git branch -C main old", "git branch --del --forc old", "git symbolic-ref -d HEAD", "git tag --del v2"},
			Allow: []string{"git branch -d merged", "git branch", "git branch new", "git update-ref refs/heads/x HEAD", "git tag v1.0", "git tag -l", "git branch --list -v"},
		},
		{
			ID: "git.stash-drop", Severity: verdict.High, Reason: "dropping stashed work", Suggest: "keep the stash, or apply it first",
			Match: func(c *shell.Command, e *pathguard.Env) bool {
				g := c.Git()
				ops := g.Args.Operands
				return g.Sub == "stash" && len(ops) > 0 && (ops[0] == "drop" || ops[0] == "clear")
			},
			Deny:  []string{"git stash drop", "git stash clear", "git stash drop stash@{1}", "git stash -q drop", "git stash drop -q stash@{0}"},
			Allow: []string{"git stash", "git stash pop", "git stash list", "git stash push -m wip", "git stash show -p"},
		},
		{
			ID: "git.rewrite-history", Severity: verdict.High, Reason: "rewriting history or expiring the reflog and unreachable objects, which loses the way back",
			Suggest: "ask a person to do it",
			Match: func(c *shell.Command, e *pathguard.Env) bool {
				g := c.Git()
				ops := g.Args.Operands
				switch g.Sub {
				case "filter-branch", "filter-repo":
					return true
				case "reflog":
					return len(ops) > 0 && (ops[0] == "expire" || ops[0] == "delete")
				case "gc":
					v, ok := g.Args.Value("prune")
					return ok && (v == "now" || v == "all") || strings.EqualFold(g.Config["gc.pruneexpire"], "now")
				case "prune":
					v, ok := g.Args.Value("expire")
					return !g.Args.On("dry-run") && (!ok || v == "now" || v == "all")
				}
				return false
			},
			Deny:  []string{"git filter-branch --tree-filter 'rm x' HEAD", "git reflog expire --expire=now --all", "git gc --prune=now", "git gc --aggressive --prune=all", "git prune", "git prune --expire=now", "git filter-repo --path x --invert-paths", "git reflog delete HEAD@{1}"},
			Allow: []string{"git reflog", "git log --oneline", "git gc", "git gc --auto", "git prune -n", "git reflog show"},
		},
		{
			ID: "git.abort", Severity: verdict.High, Reason: "aborting a merge or rebase with uncommitted changes, which git throws away",
			Suggest: "commit or stash the changes first",
			Match: func(c *shell.Command, e *pathguard.Env) bool {
				g := c.Git()
				if (g.Sub != "merge" && g.Sub != "rebase" && g.Sub != "cherry-pick" && g.Sub != "revert" && g.Sub != "am") || !g.Args.On("abort") {
					return false
				}
				dirty, known := treeDirty(e)
				return dirty || !known
			},
			Deny:  []string{"git merge --abort", "git rebase --abort", "git merge --abo"},
			Allow: []string{"git merge feature", "git rebase --continue", "git merge --quit"},
		},
		{
			ID: "git.no-verify", Severity: verdict.High, Reason: "skipping the git hooks", Suggest: "commit and push with the hooks; fix what they report",
			Match: func(c *shell.Command, e *pathguard.Env) bool {
				g := c.Git()
				switch g.Sub {
				case "commit", "merge", "am", "rebase", "push", "pull", "cherry-pick", "revert":
					return g.SkipsHooks()
				}
				if g.Computed || g.Sub == "" {
					// What runs is unknown: any spelling of --no-verify is
					// taken at its word.
					for _, o := range g.Args.Opts {
						if n := strings.TrimLeft(o.Raw, "-"); len(n) >= 4 && strings.HasPrefix("no-verify", n) {
							return true
						}
					}
				}
				return false
			},
			Deny: []string{"git commit --no-verify -m x", "git commit -n -m x", "git commit -anm 'x'", "git push --no-verify", "git -c user.name=x commit -nm x",
				"git commit --no-verif -m x", "git commit --no-ver -m x", "git push --no-verif", "git merge --no-verify feature", "git merge --no-ff --no-verify feature",
				"git rebase --no-verify main", "git am --no-verify x.patch", "git pull --no-verify", "git $SUB --no-verify"},
			Allow: []string{"git commit -m 'fix -n flag'", "git commit -am 'x'", "git commit -m -n", "git commit --verify -m x", "git commit --no-verify --verify -m x",
				"git push -n", "git push --dry-run", "git merge --verify-signatures x", "git commit -- -n", "git log -n 3"},
		},
		{
			ID: "git.sign", Severity: verdict.High, Reason: "signing with the person's key, which is how sentinel ci tells a person's acceptance from an agent's",
			Suggest: "commit unsigned; the person signs what they accept",
			Match: func(c *shell.Command, e *pathguard.Env) bool {
				switch c.Name() {
				case "git":
					g := c.Git()
					for k, v := range g.Config {
						if (k == "commit.gpgsign" || k == "rebase.gpgsign") && v != "false" && v != "no" && v != "off" && v != "0" {
							return true
						}
					}
					switch g.Sub {
					case "commit", "merge", "rebase", "cherry-pick", "revert", "am", "pull":
						return g.Args.On("gpg-sign")
					case "config":
						for _, o := range g.Args.Operands {
							if k := strings.ToLower(o); k == "commit.gpgsign" || k == "user.signingkey" || k == "gpg.format" || strings.HasPrefix(k, "gpg.ssh.") {
								return len(g.Args.Operands) > 1
							}
						}
					}
				case "ssh-keygen":
					args := c.Args()
					for i, a := range args {
						if a == "-Ysign" || a == "-Y" && i+1 < len(args) && args[i+1] == "sign" {
							return true
						}
					}
				case "gpg", "gpg2":
					for _, a := range c.Args() {
						switch {
						case a == "--sign" || a == "--clearsign" || a == "--clear-sign" || a == "--detach-sign" || a == "--detach-sig":
							return true
						case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "sb"):
							return true
						}
					}
				}
				return false
			},
			Deny: []string{"git commit -S -m x", "git commit --gpg-sign -m x", "git commit -S0xABC -m x", "git commit --gpg-sign=KEY -m x", "git -c commit.gpgsign=true commit -m x",
				"git rebase -S main", "git merge -S feature", "git cherry-pick -S abc", "git config commit.gpgsign true", "git config --global user.signingkey ~/.ssh/id_ed25519.pub",
				"ssh-keygen -Y sign -f ~/.ssh/id_ed25519 -n git msg", "gpg --detach-sign x", "gpg -sa x", "gpg --clearsign x"},
			Allow: []string{"git commit -m 'sign the form'", "git commit --no-gpg-sign -m x", "git -c commit.gpgsign=false commit -m x", "git log --show-signature",
				"git verify-commit HEAD", "git config --get user.signingkey", "ssh-keygen -Y verify -f allowed -I a -n git -s sig", "ssh-keygen -t ed25519 -f k",
				"gpg --verify x.sig", "gpg --list-keys"},
		},
		{
			ID: "git.hooks-path", Severity: verdict.High, Reason: "configuring git so that sentinel's hooks do not run (core.hooksPath, an include, a hook-disabling setting)",
			Suggest: "leave git's hook configuration alone",
			Match: func(c *shell.Command, e *pathguard.Env) bool {
				g := c.Git()
				for k := range g.Config {
					if gitConfigBypass(k) {
						return true
					}
				}
				if g.Sub == "config" {
					for _, k := range gitConfigWrites(g) {
						if gitConfigBypass(k) {
							return true
						}
					}
				}
				return false
			},
			Deny: []string{"git -c core.hooksPath=/dev/null commit -m x", "git config core.hooksPath .nohooks", "git config --global core.hooksPath /tmp/x",
				"git config --unset core.hooksPath", "git -c include.path=/tmp/evil commit -m x", "git --config-env=core.hooksPath=X commit -m x",
				"git config set core.hooksPath /tmp", "git config --add include.path ../x", "git -c includeIf.onbranch:main.path=/tmp/x push",
				"git config --glob core.hooksPath x", "git config core.HOOKSPATH /x"},
			Allow: []string{"git config --get core.hooksPath", "git config user.name", "git -c user.name=x commit -m x", "git config --list", "git config get core.hooksPath",
				"git config user.email me@example.com"},
		},
		{
			ID: "git.runs-program", Severity: verdict.High, Asks: true, Reason: "a git setting or variable that makes git run a program (ssh command, pager, editor, filter, alias)",
			Suggest: "run the program yourself, where the guard can read it",
			Match: func(c *shell.Command, e *pathguard.Env) bool {
				g := c.Git()
				for k := range g.Config {
					if shell.GitConfigRuns(k) {
						return true
					}
				}
				for k, v := range assignments(c) {
					switch k {
					case "GIT_SSH_COMMAND", "GIT_SSH", "GIT_EXTERNAL_DIFF", "GIT_PROXY_COMMAND", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR":
						if v != "" && v != "true" && v != ":" {
							return true
						}
					}
				}
				if g.Sub == "config" {
					for _, k := range gitConfigWrites(g) {
						if shell.GitConfigRuns(k) {
							return true
						}
					}
				}
				switch g.Sub {
				case "fetch", "pull", "clone", "ls-remote", "archive":
					if _, ok := g.Args.Value("upload-pack"); ok {
						return true
					}
					for _, op := range g.Args.Operands {
						if strings.HasPrefix(op, "ext::") {
							return true
						}
					}
				case "push":
					if _, ok := g.Args.Value("receive-pack"); ok {
						return true
					}
				}
				return false
			},
			Deny: []string{"git -c core.sshCommand='ssh -i x' fetch", "git config core.sshCommand 'ssh -v'", "git -c core.pager='sh x' log", "git -c core.fsmonitor=./x status",
				"git clone --upload-pack='touch /tmp/x' host:repo", "git clone 'ext::sh -c touch% /tmp/pwned' x", "git config --global credential.helper '!f() { x; }; f'", "GIT_SSH_COMMAND='ssh -i key' git fetch", "export GIT_SSH_COMMAND='ssh -o ProxyCommand=x'"},
			Allow: []string{"git fetch", "git -c color.ui=always log", "git config core.autocrlf false", "git clone https://example.com/x.git"},
		},
	}
}

// tail returns s without its first n elements.
func tail(s []string, n int) []string {
	if len(s) <= n {
		return nil
	}
	return s[n:]
}

// gitDiscards reports a git command that throws away uncommitted changes
// to files in the work tree.
func gitDiscards(g *argspec.Git, e *pathguard.Env) bool {
	a := g.Args
	ops := a.Operands
	if helpRequest(a) {
		return false
	}
	switch g.Sub {
	case "checkout":
		if a.On("patch") {
			return false
		}
		if a.On("force") || a.On("pathspec-from-file") {
			return true
		}
		if _, ok := a.Value("b"); ok {
			return a.AfterDash >= 0 && a.AfterDash < len(ops)
		}
		if _, ok := a.Value("B"); ok {
			return a.AfterDash >= 0 && a.AfterDash < len(ops)
		}
		if _, ok := a.Value("orphan"); ok {
			return false
		}
		switch {
		case a.AfterDash >= 0 && a.AfterDash < len(ops):
			return true // checkout [REF] -- PATH
		case len(ops) > 1:
			return true // checkout REF PATH…
		case len(ops) == 1:
			op := ops[0]
			if op == "." || op == ":/" || strings.HasPrefix(op, ":(") || strings.ContainsAny(op, "*?") {
				return true
			}
			// A single operand is a branch unless it names a file or
			// directory in the work tree (git's own reading).
			if strings.HasPrefix(op, "./") || strings.HasPrefix(op, "../") || op != "-" && !strings.HasPrefix(op, "@") && e.Exists(op) {
				return true
			}
		}
	case "switch":
		return a.On("force")
	case "restore":
		if a.On("patch") {
			return false
		}
		staged, worktree := a.On("staged"), a.On("worktree")
		if a.Off("worktree") || len(ops) == 0 && !a.On("pathspec-from-file") {
			return false
		}
		return worktree || !staged
	case "worktree":
		return len(ops) > 0 && ops[0] == "remove" && a.On("force")
	case "checkout-index":
		return a.On("force")
	case "read-tree":
		return a.On("u") && (a.On("reset") || a.On("m"))
	case "submodule":
		return len(ops) > 0 && ops[0] == "deinit" && a.On("force")
	case "rm":
		return !a.On("cached") && !a.On("dry-run") && (a.On("force") || a.On("r"))
	}
	return false
}

// helpRequest reports -h, --help or --version: git prints and runs
// nothing.
func helpRequest(a *argspec.Parsed) bool {
	for _, o := range a.Opts {
		if o.Raw == "-h" || o.Raw == "--help" || o.Raw == "--version" {
			return true
		}
	}
	return false
}

// gitConfigWrites returns the keys a `git config` command sets, unsets or
// edits, in lower case: the old syntax (git config [mode] KEY [VALUE]) and
// the subcommands of git 2.46 (set, unset, rename-section, remove-section).
func gitConfigWrites(g *argspec.Git) []string {
	a := g.Args
	ops := a.Operands
	if len(ops) > 0 {
		switch ops[0] {
		case "set", "unset", "rename-section", "remove-section", "edit":
			if len(ops) > 1 {
				return []string{strings.ToLower(ops[1])}
			}
			return []string{"*"}
		case "get", "list":
			return nil
		}
	}
	for _, m := range []string{"get", "get-all", "get-regexp", "get-urlmatch", "list", "name-only"} {
		if a.On(m) {
			return nil
		}
	}
	if a.On("edit") {
		return []string{"*"}
	}
	if v, ok := a.Value("file"); ok && v != "" {
		_ = v // a file's keys are the same keys
	}
	modes := a.On("unset") || a.On("unset-all") || a.On("replace-all") || a.On("add") || a.On("rename-section") || a.On("remove-section")
	if len(ops) >= 2 || len(ops) == 1 && modes {
		return []string{strings.ToLower(ops[0])}
	}
	return nil
}

// gitConfigBypass reports a git setting that stops sentinel's hooks or
// driver from running: where hooks live, what is included (an included
// file can set anything), and sentinel's merge driver.
func gitConfigBypass(key string) bool {
	switch {
	case key == "*", key == "core.hookspath", key == "include.path", strings.HasPrefix(key, "includeif."),
		key == "merge.sentinel" || strings.HasPrefix(key, "merge.sentinel."), key == "core",
		strings.HasPrefix(key, "include"):
		return true
	}
	return false
}

// maxAbortHash bounds the bytes treeDirty hashes to tell a touched file
// from an edited one.
const maxAbortHash = 16 << 20

// treeDirty reports whether the project has uncommitted work an abort
// would throw away, and whether that could be told. It is read in-process
// (gitrepo.TrackedChanges) and never by running git: git status would run
// the repository's core.fsmonitor, and the repository is untrusted input.
func treeDirty(e *pathguard.Env) (dirty, known bool) {
	if e.Project == "" {
		return false, false
	}
	dirty, err := gitrepo.TrackedChanges(e.Project, maxAbortHash)
	return dirty, err == nil
}
