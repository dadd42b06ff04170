//go:build !sentinel_front

package main

import (
	"context"
	"errors"
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
		&cli.BoolFlag{Name: "project", Usage: "the project's settings, committed with it: every clone's agent runs the guard, found on PATH (the default)"},
		&cli.BoolFlag{Name: "user", Usage: "your own settings, in your home directory: every project you open runs the guard, by this binary's path (needed outside a repository)"},
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

// settingsPlace is where an install writes: the settings file, the
// directory it writes below, and how the original is kept.
type settingsPlace struct {
	path, root string
	// repo is the repository of a project's file; nil for the user's.
	repo   *gitrepo.Info
	backup install.Option
}

func runGuardInstall(c *cli.Context, e *env, o guardInstallOptions, remove bool) error {
	t := install.Targets[o.agent]
	if t == nil {
		return &usageError{fmt.Errorf("--agent %q%s: sentinel installs into %s", o.agent, suggest.DidYouMean(o.agent, install.TargetNames(), nil), strings.Join(install.TargetNames(), ", "))}
	}
	verb := "install"
	if remove {
		verb = "uninstall"
	}
	sweepTemps(c.Context, e.dir)
	pl, err := guardSettingsPlace(c.Context, e, t, o.user, verb)
	if err != nil {
		return err
	}
	unlock, err := lockSettings(c.Context, e, pl.repo)
	if err != nil {
		return err
	}
	defer unlock()
	var opts []install.Option
	if pl.backup != nil {
		opts = append(opts, pl.backup)
	}
	var res *install.InstallResult
	var bin, command string
	switch {
	case remove:
		res, err = install.Uninstall(t, pl.root, pl.path, opts...)
	case o.user:
		if bin, command, err = guardHookCommand(t); err == nil {
			res, err = install.Install(t, pl.root, pl.path, command, opts...)
		}
	default:
		res, err = install.Install(t, pl.root, pl.path, t.PathHookCommand(), opts...)
	}
	if err != nil {
		return err
	}
	recordInstall(c.Context, e, t, pl.path, o.user, remove)
	reportGuardInstall(e, t, pl, res, remove, bin)
	return nil
}

// reportGuardInstall says what an install or uninstall did, and what the
// person must know of it.
func reportGuardInstall(e *env, t *install.Target, pl *settingsPlace, res *install.InstallResult, remove bool, bin string) {
	qpath := quote.Path(pl.path)
	switch {
	case !res.Changed && remove:
		fmt.Fprintf(e.stdout, "%s: the guard was not installed there\n", qpath)
	case !res.Changed:
		fmt.Fprintf(e.stdout, "%s: the guard is already installed\n", qpath)
	case remove && res.Restored:
		fmt.Fprintf(e.stdout, "%s: removed the guard; the file is as it was before the install, byte for byte\n", qpath)
	case remove:
		fmt.Fprintf(e.stdout, "%s: removed the guard\n", qpath)
	case pl.repo == nil:
		fmt.Fprintf(e.stdout, "%s: installed the guard (runs %s; denies every call if it is missing)\n", qpath, quote.Path(bin))
	default:
		fmt.Fprintf(e.stdout, "%s: installed the guard (runs the sentinel on PATH, once its --version names sentinel's module; denies every call where there is none)\n", qpath)
	}
	if res.Reformatted != "" {
		fmt.Fprintf(e.stdout, "rewrote the whole file in sentinel's layout: %s\n", quote.Text(res.Reformatted))
	}
	if res.MovedBackup != "" {
		fmt.Fprintf(e.stdout, "moved the backup an earlier install left beside it to %s, where git does not list it\n", quote.Path(res.MovedBackup))
	}
	if res.Backup != "" {
		fmt.Fprintf(e.stdout, "kept the original as %s\n", quote.Path(res.Backup))
	}
	if res.KeptBackup != "" {
		fmt.Fprintf(e.stdout, "the original from before the install is still at %s (the file has changed since)\n", quote.Path(res.KeptBackup))
	}
	if remove {
		return
	}
	if pl.repo != nil && res.Changed {
		if why := pathSentinel(e); why != "" {
			fmt.Fprintf(e.stdout, "%s: until there is one, the guard refuses every call of the agent on this machine; put it there (in a clone of sentinel's source: make install, with $(go env GOPATH)/bin on PATH), or use your own settings instead: sentinel guard install --agent %s --user\n", why, t.Agent)
		}
	}
	if t.Note != "" {
		fmt.Fprintln(e.stdout, t.Note)
	}
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

// pathSentinel says why the project's entry would find no sentinel on
// this PATH, as the entry looks: an absolute path, an executable file;
// "" when it finds one. (The entry also asks it for its --version, which
// this does not run.)
func pathSentinel(e *env) string {
	for _, dir := range filepath.SplitList(e.getenv("PATH")) {
		if !filepath.IsAbs(dir) {
			continue
		}
		if st, err := os.Stat(filepath.Join(dir, "sentinel")); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
			return ""
		}
	}
	return "no sentinel on PATH here"
}

// guardSettingsPlace returns the agent's settings file and where the
// install writes: the project's file, below the root of the repository
// it is run in, with the original kept in the work tree's git directory;
// or with user the one in the home directory (a link there followed only
// to a file of the user's outside any repository), with the original
// beside it. Outside any repository there is no project: the fix is
// --user.
func guardSettingsPlace(ctx context.Context, e *env, t *install.Target, user bool, verb string) (*settingsPlace, error) {
	if user {
		home := e.getenv("HOME")
		if home == "" {
			return nil, fmt.Errorf("HOME is not set: cannot find your settings; set it, or run this in your repository: sentinel guard %s --agent %s --project", verb, t.Agent)
		}
		path, root, err := install.UserSettings(filepath.Join(home, filepath.FromSlash(t.User)))
		if err != nil {
			return nil, err
		}
		return &settingsPlace{path: path, root: root}, nil
	}
	info, err := gitrepo.RepoInfo(ctx, e.dir)
	switch {
	case errors.Is(err, gitrepo.ErrNotRepository):
		return nil, fmt.Errorf("%s is not in a git repository, and a project's settings go at a repository's root, committed with it; run this in your repository, or for your own settings, in your home directory: sentinel guard %s --agent %s --user", quote.Path(e.dir), verb, t.Agent)
	case err != nil:
		return nil, fmt.Errorf("find the repository: %w; or for your own settings: sentinel guard %s --agent %s --user", err, verb, t.Agent)
	case info.Root == "":
		return nil, fmt.Errorf("a bare repository has no work tree for a project's settings; run this in a clone with one, or for your own settings: sentinel guard %s --agent %s --user", verb, t.Agent)
	}
	g := &gitrepo.Git{Dir: info.Root}
	gitDir, err := g.GitDir(ctx)
	if err != nil {
		return nil, fmt.Errorf("find the git directory: %w", err)
	}
	shared, err := gitrepo.SharedRepository(ctx, info.Root)
	if err != nil {
		return nil, err
	}
	return &settingsPlace{
		path: filepath.Join(info.Root, filepath.FromSlash(t.Project)), root: info.Root, repo: info,
		backup: install.BackupsIn(gitDir, guardBackups, shared),
	}, nil
}

// guardBackups is the directory, below the work tree's git directory,
// that holds the originals of the project's settings files guard install
// changed, each at its path from the root.
const guardBackups = "sentinel/backups"

// lockSettings takes the lock that serialises updates of the settings: the
// repository's for a project, the user's state directory's otherwise.
func lockSettings(ctx context.Context, e *env, repo *gitrepo.Info) (func(), error) {
	if repo != nil {
		return gitrepo.LockRepository(ctx, repo.Root, repo.CommonDir)
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
// resolved, and the command to write into the user's own settings. A bare
// `sentinel` would fail open wherever the agent's PATH lacks it (the shell
// exits 127, which hosts take for a non-blocking error), so the user's
// file, which is this machine's, names the binary by its path. A
// project's file, which every clone shares, names none: it runs the
// sentinel on PATH (install.PathHookCommand).
func guardHookCommand(t *install.Target) (string, string, error) {
	bin, err := selfBinary()
	if err != nil {
		return "", "", fmt.Errorf("find the sentinel binary: %w", err)
	}
	if goRunBuild(bin) {
		return "", "", fmt.Errorf("this sentinel is a temporary build (go run), deleted when it exits; install it (make install), then run: sentinel guard install --agent %s --user", t.Agent)
	}
	command, err := t.HookCommand(bin, false)
	if err != nil {
		return "", "", fmt.Errorf("the guard cannot run this binary from where it is: %w; move sentinel to a plain path (make install puts it in $(go env GOPATH)/bin), then run: sentinel guard install --agent %s --user", err, t.Agent)
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
