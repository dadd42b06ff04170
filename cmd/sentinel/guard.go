//go:build !sentinel_front

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/guard"
	"github.com/gitsentinel/sentinel/guard/hosts"
	"github.com/gitsentinel/sentinel/guard/install"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/verdict"
	"github.com/gitsentinel/sentinel/internal/filelock"
	"github.com/gitsentinel/sentinel/internal/quote"
	"github.com/gitsentinel/sentinel/internal/suggest"
	"github.com/urfave/cli/v2"
)

func guardCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "guard",
		Usage: "the pre-tool hook for coding agents: reads the agent's event on stdin and answers in its format",
		Flags: []cli.Flag{
			withChoices(&cli.StringFlag{Name: "agent", Usage: "the agent's hook dialect: " + strings.Join(hosts.DialectNames(), ", ") + " (default: recognised from the event)"}, hosts.DialectNames()),
		},
		Subcommands: []*cli.Command{guardExplainCommand(e), guardInstallCommand(e, false), guardInstallCommand(e, true), guardLogCommand(e), guardSelfTestCommand(e)},
		Action: func(c *cli.Context) error {
			o := guardOptions{agent: c.String("agent")}
			if _, ok := hosts.Dialects[o.agent]; o.agent != "" && !ok {
				return &usageError{fmt.Errorf("--agent %q%s: sentinel speaks %s", o.agent, suggest.DidYouMean(o.agent, hosts.DialectNames(), nil), strings.Join(hosts.DialectNames(), ", "))}
			}
			return runGuard(c.Context, e, o)
		},
	}
}

func guardExplainCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "explain",
		Usage: "show how the guard decomposes a command, and the verdict and rule of every part",
		Flags: []cli.Flag{&cli.StringFlag{Name: "command", Usage: "the shell command to explain (required)", Required: true}},
		Action: func(c *cli.Context) error {
			policy, perr := loadGuardPolicy(e)
			if perr != nil {
				return perr
			}
			env := pathguard.NewEnv(e.dir, e.getenv)
			policy.Configure(env)
			d := guard.EvaluateCommand(c.String("command"), env, policy)
			var b strings.Builder
			for i, cmd := range d.Commands {
				fmt.Fprintf(&b, "%d. %s\n", i+1, quoteWords(cmd.Argv, " "))
				if len(cmd.Via) > 0 {
					fmt.Fprintf(&b, "   via: %s\n", quoteWords(cmd.Via, ", "))
				}
				for _, w := range cmd.Writes {
					fmt.Fprintf(&b, "   writes: %s\n", quote.Path(w))
				}
			}
			for _, f := range d.Findings {
				fmt.Fprintf(&b, "%s: %s\n", f.Verdict, quote.Text(f.Reason))
			}
			fmt.Fprintf(&b, "verdict: %s\n", d.Verdict)
			_, err := io.WriteString(e.stdout, b.String())
			if err == nil && d.Verdict == verdict.Deny {
				return &policyError{"denied"}
			}
			return err
		},
	}
}

// guardInstallOptions are the flags of `sentinel guard install/uninstall`.
type guardInstallOptions struct {
	agent string
	user  bool
}

func guardInstallFlags() []cli.Flag {
	return []cli.Flag{
		withChoices(&cli.StringFlag{Name: "agent", Required: true, Usage: "the agent whose settings to change (required): " + strings.Join(install.TargetNames(), ", ")}, install.TargetNames()),
		&cli.BoolFlag{Name: "project", Usage: "the project's settings (the default)"},
		&cli.BoolFlag{Name: "user", Usage: "your own settings, in your home directory"},
	}
}

func guardInstallCommand(e *env, remove bool) *cli.Command {
	name, usage := "install", "write the guard into an agent's own hook settings, merged with what is there"
	if remove {
		name, usage = "uninstall", "remove the guard from an agent's hook settings"
	}
	return &cli.Command{
		Name: name, Usage: usage, Flags: guardInstallFlags(),
		Action: func(c *cli.Context) error {
			o := guardInstallOptions{agent: c.String("agent"), user: c.Bool("user")}
			if c.Bool("project") && o.user {
				return &usageError{fmt.Errorf("--project and --user name different files; pick one")}
			}
			return runGuardInstall(c, e, o, remove)
		},
	}
}

func runGuardInstall(c *cli.Context, e *env, o guardInstallOptions, remove bool) error {
	t := install.Targets[o.agent]
	if t == nil {
		return &usageError{fmt.Errorf("--agent %q%s: sentinel installs into %s", o.agent, suggest.DidYouMean(o.agent, install.TargetNames(), nil), strings.Join(install.TargetNames(), ", "))}
	}
	sweepTemps(c.Context, e.dir)
	path, root, err := guardSettingsPath(e, t, o.user)
	if err != nil {
		return err
	}
	unlock, err := lockSettings(c.Context, e, root, o.user)
	if err != nil {
		return err
	}
	defer unlock()
	var res *install.InstallResult
	var bin, command string
	if remove {
		res, err = install.Uninstall(t, root, path)
	} else {
		if bin, command, err = guardHookCommand(t, o.user); err != nil {
			return err
		}
		res, err = install.Install(t, root, path, command)
	}
	if err != nil {
		return err
	}
	recordInstall(c.Context, e, t, path, o.user, remove)
	qpath, qbin := quote.Path(path), quote.Path(bin)
	switch {
	case !res.Changed && remove:
		fmt.Fprintf(e.stdout, "%s: the guard was not installed there\n", qpath)
	case !res.Changed:
		fmt.Fprintf(e.stdout, "%s: the guard is already installed\n", qpath)
	case remove:
		fmt.Fprintf(e.stdout, "%s: removed the guard\n", qpath)
	case o.user:
		fmt.Fprintf(e.stdout, "%s: installed the guard (runs %s; denies every call if it is missing)\n", qpath, qbin)
	default:
		fmt.Fprintf(e.stdout, "%s: installed the guard (runs %s, else sentinel on PATH; denies every call if neither is there)\n", qpath, qbin)
	}
	if res.Backup != "" {
		fmt.Fprintf(e.stdout, "kept the original as %s\n", quote.Path(res.Backup))
	}
	if !remove && t.Note != "" {
		fmt.Fprintln(e.stdout, t.Note)
	}
	return nil
}

// recordInstall keeps guard install's record, which doctor reads to tell
// a guard that was installed and is gone from one never installed: the
// file is recorded by the path doctor looks at (for the user's, the one in
// the home directory, not where a link of the user's leads). The settings
// are written already, so a record that cannot be kept is a warning.
func recordInstall(ctx context.Context, e *env, t *install.Target, path string, user, remove bool) {
	lp := pathguard.LogPath(e.getenv)
	if lp == "" {
		return
	}
	if user {
		path = filepath.Join(e.getenv("HOME"), filepath.FromSlash(t.User))
	}
	record := install.Remember
	if remove {
		record = install.Forget
	}
	if err := record(ctx, filepath.Dir(lp), t.Agent, path); err != nil {
		fmt.Fprintf(e.stderr, "sentinel: warning: %s; sentinel doctor will not know the guard was installed here\n", quote.Text(err.Error()))
	}
}

// guardSettingsPath returns the agent's settings file and the directory
// the install writes below: the project's file and root, or with user the
// one in the home directory (a link there followed only to a file of the
// user's outside any repository) and its directory.
func guardSettingsPath(e *env, t *install.Target, user bool) (string, string, error) {
	if user {
		home := e.getenv("HOME")
		if home == "" {
			return "", "", fmt.Errorf("HOME is not set: cannot find your settings; set it, or use --project")
		}
		return install.UserSettings(filepath.Join(home, filepath.FromSlash(t.User)))
	}
	root := pathguard.NewEnv(e.dir, e.getenv).Project
	return filepath.Join(root, filepath.FromSlash(t.Project)), root, nil
}

// lockSettings takes the lock that serialises updates of the settings: the
// repository's for a project, the user's state directory's otherwise.
func lockSettings(ctx context.Context, e *env, root string, user bool) (func(), error) {
	if !user {
		if info, err := gitrepo.RepoInfo(ctx, root); err == nil {
			return gitrepo.LockRepository(ctx, info.Root, info.CommonDir)
		}
	}
	lp := pathguard.LogPath(e.getenv)
	if lp == "" {
		return nil, fmt.Errorf("HOME is not set: nowhere to lock the settings; set it")
	}
	if err := os.MkdirAll(filepath.Dir(lp), 0o700); err != nil {
		return nil, fmt.Errorf("lock the settings: %w", err)
	}
	return filelock.Lock(ctx, filepath.Join(filepath.Dir(lp), "install.lock"), filelock.RepositoryTimeout)
}

// guardHookCommand returns this binary's absolute path, symbolic links
// resolved, and the command to write. A bare `sentinel` would fail open
// wherever the agent's PATH lacks it (the shell exits 127, which hosts take
// for a non-blocking error), so the path is written out; in a project's
// file, which other machines share, the command falls back to the sentinel
// on PATH when that path is not there.
func guardHookCommand(t *install.Target, user bool) (string, string, error) {
	bin, err := selfBinary()
	if err != nil {
		return "", "", fmt.Errorf("find the sentinel binary: %w", err)
	}
	flag := ""
	if user {
		flag = " --user"
	}
	if goRunBuild(bin) {
		return "", "", fmt.Errorf("this sentinel is a temporary build (go run), deleted when it exits; install it (make install), then run: sentinel guard install --agent %s%s", t.Agent, flag)
	}
	command, err := t.HookCommand(bin, !user)
	if err != nil {
		return "", "", fmt.Errorf("the guard cannot run this binary from where it is: %w; move sentinel to a plain path (make install puts it in $(go env GOPATH)/bin), then run: sentinel guard install --agent %s%s", err, t.Agent, flag)
	}
	return bin, command, nil
}

// goRunBuild reports a binary `go run` built into its temporary directory
// (go-build and digits), which goes when it exits: an entry naming it would
// name a binary already gone.
func goRunBuild(bin string) bool {
	for _, dir := range strings.Split(filepath.ToSlash(filepath.Dir(bin)), "/") {
		n := strings.TrimPrefix(dir, "go-build")
		if n != dir && n != "" && strings.Trim(n, "0123456789") == "" {
			return true
		}
	}
	return false
}

// quoteWords quotes each word that needs it for people, and joins them
// with sep.
func quoteWords(words []string, sep string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = quote.Name(w)
	}
	return strings.Join(out, sep)
}
