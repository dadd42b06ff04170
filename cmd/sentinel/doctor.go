//go:build !sentinel_front

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gitsentinel/sentinel/config"
	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/githooks"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/guard/install"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/policy"
	"github.com/gitsentinel/sentinel/internal/atomicfile"
	"github.com/gitsentinel/sentinel/internal/quote"
	"github.com/urfave/cli/v2"
)

func doctorCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "doctor",
		Usage: "report what protects this repository and user: git hooks, the baseline, the guard in each agent; and what fixes each gap",
		Action: func(c *cli.Context) error {
			return runDoctor(c, e)
		},
	}
}

func runDoctor(c *cli.Context, e *env) error {
	var b strings.Builder
	var fixes []string
	// gaps counts the lines that are not ok: each is a reason to fail,
	// even one whose fix is only to edit a file.
	gaps := 0
	mark := func(m, format string, args ...any) {
		fmt.Fprintf(&b, "%s  %s\n", m, fmt.Sprintf(format, args...))
	}
	line := func(ok bool, format string, args ...any) {
		if ok {
			mark("ok     ", format, args...)
			return
		}
		gaps++
		mark("missing", format, args...)
	}
	broken := func(format string, args ...any) {
		gaps++
		mark("broken ", format, args...)
	}

	if p, err := exec.LookPath("sentinel"); err == nil {
		line(true, "sentinel on PATH (%s)", quote.Path(p))
	} else {
		line(false, "sentinel is not on PATH: hooks and agents fall back to the path captured at install")
		fixes = append(fixes, upgradeSentinel)
	}

	root, rerr := gitrepo.FindRoot(c.Context, e.dir)
	if rerr == nil {
		if cfg, err := config.Load(root); err != nil {
			broken("%s", quote.Text(err.Error()))
			fixes = append(fixes, configFix(err, config.File))
		} else {
			// The guard reads the file too, and more strictly (its
			// rules' globs, no link out of the project).
			if _, err := policy.LoadPolicy("", root); err != nil {
				broken("%s: the guard denies every call until it parses", quote.Text(err.Error()))
				fixes = append(fixes, configFix(err, config.File))
			}
			if cfg.Ratchet.Signers != "" {
				fixes = append(fixes, checkSigners(root, cfg.Ratchet.Signers, line)...)
			}
		}
		statuses, err := githooks.Status(c.Context, e.dir)
		switch {
		case errors.Is(err, gitrepo.ErrBare):
			line(true, "a bare repository: no git hooks needed")
		case err != nil:
			return err
		default:
			fixes = append(fixes, checkHooks(statuses, line)...)
		}
		fixes = append(fixes, checkBaseline(c.Context, root, line, broken)...)
	} else {
		line(false, "not in a git repository: no hooks or baseline to check here")
	}

	// The user's own configuration: the guard reads it in every
	// repository, and denies every call while it does not parse.
	if user := pathguard.UserConfigPath(e.getenv); user != "" {
		if _, err := policy.LoadPolicy(user, ""); err != nil {
			broken("%s: the guard denies every call until it parses", quote.Text(err.Error()))
			fixes = append(fixes, configFix(err, user))
		} else if _, err := os.Stat(user); err == nil {
			line(true, "user configuration (%s)", quote.Path(user))
		}
	}

	home := e.getenv("HOME")
	agents := make([]string, 0, len(install.Targets))
	for name := range install.Targets {
		agents = append(agents, name)
	}
	sort.Strings(agents)
	for _, name := range agents {
		t := install.Targets[name]
		type place struct{ path, flag, dir string }
		var places []place
		projectDir, userDir := t.InUse()
		if rerr == nil {
			places = append(places, place{filepath.Join(root, filepath.FromSlash(t.Project)), "--project", filepath.Join(root, filepath.FromSlash(projectDir))})
			if t.Local != "" {
				// No flag: guard install does not write the local file,
				// so it is never the one a fix names.
				places = append(places, place{path: filepath.Join(root, filepath.FromSlash(t.Local))})
			}
		}
		if home != "" {
			places = append(places, place{filepath.Join(home, filepath.FromSlash(t.User)), "--user", filepath.Join(home, filepath.FromSlash(userDir))})
		}
		// The host runs the entries of every file, so the guard is
		// installed when any file has it (the user's, the project's or
		// the project's local one), and one entry whose binary is gone
		// refuses every call.
		installed := false
		var absent []place
		for _, pl := range places {
			hooks, err := install.InstalledHooks(pl.path)
			switch {
			case err != nil:
				line(false, "%s guard: %s", name, quote.Text(err.Error()))
			case len(hooks) == 0:
				absent = append(absent, pl)
			default:
				installed = true
				if why := missingBinary(e, hooks); why != "" {
					line(false, "%s guard (%s): missing binary: %s", name, quote.Path(pl.path), quote.Text(why))
					fix := fmt.Sprintf("sentinel guard install --agent %s %s", name, pl.flag)
					if pl.flag == "" {
						// guard install does not write the local file:
						// its entry goes, the project's takes its place.
						fix = fmt.Sprintf("remove sentinel's entry from %s, then: sentinel guard install --agent %s --project", quote.Path(pl.path), name)
					}
					fixes = append(fixes, fix)
				} else {
					line(true, "%s guard (%s)", name, quote.Path(pl.path))
				}
			}
		}
		if installed {
			continue
		}
		// Only agents that are in use here: their settings directory
		// exists. One file is enough, so one line names every place and
		// one fix the first (the project's, where there is one).
		var where []string
		fix := ""
		for _, pl := range absent {
			if _, err := os.Stat(pl.dir); pl.flag != "" && err == nil {
				where = append(where, quote.Path(pl.path))
				if fix == "" {
					fix = fmt.Sprintf("sentinel guard install --agent %s %s", name, pl.flag)
				}
			}
		}
		if fix != "" {
			line(false, "%s guard (%s)", name, strings.Join(where, " or "))
			fixes = append(fixes, fix)
		}
	}
	if gaps == 0 && len(fixes) == 0 {
		b.WriteString("nothing is missing\n")
	} else {
		b.WriteString("to fix:\n")
		seen := map[string]bool{}
		for _, f := range fixes {
			if !seen[f] {
				seen[f] = true
				b.WriteString("  " + quote.Text(f) + "\n")
			}
		}
	}
	if _, err := fmt.Fprint(e.stdout, b.String()); err != nil {
		return err
	}
	if gaps > 0 || len(fixes) > 0 {
		return &policyError{"gaps"}
	}
	return nil
}

// checkHooks reports each of sentinel's git hooks: sentinel's own, or run
// through a hook manager (husky, lefthook, pre-commit) whose own hook git
// reaches; and the fixes. `sentinel install` is a fix only where it would
// not refuse: where a manager owns the hooks, the fix is the manager's.
func checkHooks(statuses []githooks.HookStatus, line func(bool, string, ...any)) []string {
	var fixes, preCommitTypes []string
	install, force := false, false
	for _, s := range statuses {
		m := s.Managed
		switch {
		case s.NotExecutable:
			line(false, "git hook %s is not executable, so git skips it (%s)", s.Hook, quote.Path(s.Path))
			// sentinel's hook, put there with --force past a manager:
			// only --force puts the bit back.
			install, force = true, force || s.Owner != nil
		case s.Installed:
			line(true, "git hook %s (%s)", s.Hook, quote.Path(s.Path))
		case m != nil && m.ShimInstalled:
			line(true, "git hook %s through %s (%s:%d calls sentinel)", s.Hook, m.Manager, quote.Path(m.Config), m.Line)
		case m != nil:
			line(false, "git hook %s: %s:%d calls sentinel, but %s's hook is not installed where git looks (%s)", s.Hook, quote.Path(m.Config), m.Line, m.Manager, quote.Path(m.Shim))
			if m.Manager == "pre-commit" {
				// One command installs every hook type pre-commit lacks.
				preCommitTypes = append(preCommitTypes, "--hook-type "+s.Hook)
			} else {
				fixes = append(fixes, m.Install)
			}
		case s.Owner != nil:
			line(false, "git hook %s: %s manages the hooks (%s) and does not run sentinel for %s", s.Hook, s.Owner.Manager, quote.Text(s.Owner.Where), s.Hook)
			fixes = append(fixes, githooks.AddToManager(s.Owner.Manager, s.Hook))
		case s.Foreign:
			line(false, "git hook %s is not sentinel's (%s)", s.Hook, quote.Path(s.Path))
			install = true
		default:
			line(false, "git hook %s", s.Hook)
			install = true
		}
	}
	if len(preCommitTypes) > 0 {
		fixes = append(fixes, "pre-commit install "+strings.Join(preCommitTypes, " "))
	}
	switch {
	case force:
		fixes = append(fixes, "sentinel install --force")
	case install:
		fixes = append(fixes, "sentinel install")
	}
	return fixes
}

// configFix is the fix for a configuration that does not read: the edit
// for an unknown key (renamed to the key it is likely a typo of, or
// removed), else to edit the file where the error points.
func configFix(err error, file string) string {
	var ke *config.KeyError
	if errors.As(err, &ke) {
		return ke.Fix()
	}
	return "edit " + file + " where the error above points"
}

// upgradeSentinel is the fix for a sentinel that is missing or too old.
// There is no release to `go install …@latest` yet: the way in is the
// source and its Makefile, which installs the front and the engine.
const upgradeSentinel = "make install   # in a clone of sentinel's source"

// checkBaseline reports the work tree's baseline and the staged one, each
// read with the reader the hooks use: there and readable, or what is wrong
// with it (at its line and column) and the fixes. A baseline that exists
// but does not read stops every commit, so it is no more ok than a missing
// one; the pre-commit hook reads the staged copy, so a broken staged copy
// stops commits even under a good work tree copy.
func checkBaseline(ctx context.Context, root string, line func(bool, string, ...any), broken func(string, ...any)) []string {
	data, err := coverage.ReadWorkTreeBaseline(root)
	switch {
	case err != nil:
		broken("baseline %s: %s", coverage.BaselinePath, quote.Text(err.Error()))
		return []string{coverage.RestoreBaseline}
	case data == nil:
		line(false, "no baseline (%s): the ratchet has no peaks to hold", coverage.BaselinePath)
		return []string{"sentinel init"}
	}
	if fix := baselineFix(coverage.BaselinePath, data, "", broken); fix != "" {
		return []string{fix}
	}
	spec := ":" + coverage.BaselinePath
	if staged, err := gitrepo.ReadSpecs(ctx, root, []string{spec}); err == nil && staged[spec] != nil && !bytes.Equal(staged[spec], data) {
		// The work tree's copy reads: staging it is the fix, and
		// keeps its peaks.
		if fix := baselineFix(coverage.StagedBaselineName, staged[spec], "git add "+coverage.BaselinePath, broken); fix != "" {
			return []string{fix}
		}
	}
	line(true, "baseline %s", coverage.BaselinePath)
	return nil
}

// baselineFix parses a copy of the baseline as the hooks do, and when it
// does not read reports it broken and returns the fix; "" when it reads.
// restore, when set, is a better fix than restoring the committed copy.
func baselineFix(name string, data []byte, restore string, broken func(string, ...any)) string {
	_, err := coverage.ParseBaseline(name, data)
	if err == nil {
		return ""
	}
	var be *coverage.BaselineError
	if errors.As(err, &be) && be.Restore != "" && restore != "" {
		be.Restore = restore
	}
	broken("baseline %s", quote.Text(err.Error()))
	switch {
	case errors.Is(err, coverage.ErrNewerBaseline):
		return upgradeSentinel
	case errors.As(err, &be) && be.Restore != "":
		return be.Restore
	}
	return coverage.RestoreBaseline
}

// missingBinary says why some guard entry cannot run sentinel here, or "".
func missingBinary(e *env, hooks []install.Hook) string {
	seen := map[string]bool{}
	var why []string
	for _, h := range hooks {
		if w := h.Missing(e.getenv, exec.LookPath); w != "" && !seen[w] {
			seen[w] = true
			why = append(why, w)
		}
	}
	return strings.Join(why, "; ")
}

// checkSigners reports the allowed signers file [ratchet] signers names:
// in the work tree, with at least one key, and ssh-keygen there to check
// signatures with. sentinel ci reads the file from the parent of each
// commit, not from here; a file missing here is missing from the next
// commit too.
func checkSigners(root, signers string, line func(bool, string, ...any)) []string {
	var fixes []string
	data, err := atomicfile.ReadIn(root, signers, 1<<20)
	keys := 0
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			keys++
		}
	}
	switch {
	case err != nil:
		line(false, "[ratchet] signers names %s, which cannot be read: %s", quote.Path(signers), quote.Text(err.Error()))
		fixes = append(fixes, fmt.Sprintf("write %s, a line `EMAIL namespaces=\"git\" ssh-ed25519 AAAA…` per person, and commit it", signers))
	case keys == 0:
		line(false, "[ratchet] signers names %s, which lists no key: no acceptance can pass", quote.Path(signers))
		fixes = append(fixes, fmt.Sprintf("add a line `EMAIL namespaces=\"git\" ssh-ed25519 AAAA…` per person to %s, and commit it", signers))
	default:
		unit := "keys"
		if keys == 1 {
			unit = "key"
		}
		line(true, "allowed signers %s: %d %s", quote.Path(signers), keys, unit)
	}
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		line(false, "ssh-keygen is not on PATH: git cannot check the signature of an acceptance")
		fixes = append(fixes, "install OpenSSH's client (apt-get install openssh-client)")
	}
	return fixes
}
