//go:build !sentinel_front

package main

import (
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
	"github.com/gitsentinel/sentinel/guard"
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
			fixes = append(fixes, "edit "+config.File+" where the error above points")
		} else if cfg.Ratchet.Signers != "" {
			fixes = append(fixes, checkSigners(root, cfg.Ratchet.Signers, line)...)
		}
		statuses, err := githooks.Status(c.Context, e.dir)
		switch {
		case errors.Is(err, gitrepo.ErrBare):
			line(true, "a bare repository: no git hooks needed")
		case err != nil:
			return err
		default:
			missing := false
			for _, s := range statuses {
				switch {
				case s.NotExecutable:
					line(false, "git hook %s is not executable, so git skips it (%s)", s.Hook, quote.Path(s.Path))
					missing = true
				case s.Installed:
					line(true, "git hook %s (%s)", s.Hook, quote.Path(s.Path))
				case s.Foreign:
					line(false, "git hook %s is not sentinel's (%s)", s.Hook, quote.Path(s.Path))
					missing = true
				default:
					line(false, "git hook %s", s.Hook)
					missing = true
				}
			}
			if missing {
				fixes = append(fixes, "sentinel install")
			}
		}
		fixes = append(fixes, checkBaseline(root, line, broken)...)
	} else {
		line(false, "not in a git repository: no hooks or baseline to check here")
	}

	home := e.getenv("HOME")
	agents := make([]string, 0, len(guard.Targets))
	for name := range guard.Targets {
		agents = append(agents, name)
	}
	sort.Strings(agents)
	for _, name := range agents {
		t := guard.Targets[name]
		type place struct{ path, flag, dir string }
		var places []place
		projectDir, userDir := t.InUse()
		if rerr == nil {
			places = append(places, place{filepath.Join(root, filepath.FromSlash(t.Project)), "--project", filepath.Join(root, filepath.FromSlash(projectDir))})
		}
		if home != "" {
			places = append(places, place{filepath.Join(home, filepath.FromSlash(t.User)), "--user", filepath.Join(home, filepath.FromSlash(userDir))})
		}
		// The host runs the entries of every file, so the guard is
		// installed when either file has it, and one entry whose binary
		// is gone refuses every call.
		installed := false
		var absent []place
		for _, pl := range places {
			hooks, err := guard.InstalledHooks(pl.path)
			switch {
			case err != nil:
				line(false, "%s guard: %s", name, quote.Text(err.Error()))
			case len(hooks) == 0:
				absent = append(absent, pl)
			default:
				installed = true
				if why := missingBinary(e, hooks); why != "" {
					line(false, "%s guard (%s): missing binary: %s", name, quote.Path(pl.path), quote.Text(why))
					fixes = append(fixes, fmt.Sprintf("sentinel guard install --agent %s %s", name, pl.flag))
				} else {
					line(true, "%s guard (%s)", name, quote.Path(pl.path))
				}
			}
		}
		if installed {
			continue
		}
		for _, pl := range absent {
			// Only agents that are in use here: their settings
			// directory exists.
			if _, err := os.Stat(pl.dir); err == nil {
				line(false, "%s guard (%s)", name, quote.Path(pl.path))
				fixes = append(fixes, fmt.Sprintf("sentinel guard install --agent %s %s", name, pl.flag))
			}
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
				b.WriteString("  " + f + "\n")
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

// upgradeSentinel is the fix for a sentinel that is missing or too old.
// There is no release to `go install …@latest` yet: the way in is the
// source and its Makefile, which installs the front and the engine.
const upgradeSentinel = "make install   # in a clone of sentinel's source"

// checkBaseline reports the work tree's baseline: there and readable, or
// what is wrong with it (at its line and column) and the fixes. A baseline
// that exists but does not read stops every commit, so it is no more ok
// than a missing one.
func checkBaseline(root string, line func(bool, string, ...any), broken func(string, ...any)) []string {
	data, err := coverage.ReadWorkTreeBaseline(root)
	switch {
	case err != nil:
		broken("baseline %s: %s", coverage.BaselinePath, quote.Text(err.Error()))
		return []string{coverage.RestoreBaseline}
	case data == nil:
		line(false, "no baseline (%s): the ratchet has no peaks to hold", coverage.BaselinePath)
		return []string{"sentinel init"}
	}
	if _, err := coverage.ParseBaseline(coverage.BaselinePath, data); err != nil {
		broken("baseline %s", quote.Text(err.Error()))
		var be *coverage.BaselineError
		switch {
		case errors.Is(err, coverage.ErrNewerBaseline):
			return []string{upgradeSentinel}
		case errors.As(err, &be) && be.Restore != "":
			return []string{be.Restore}
		}
		return []string{coverage.RestoreBaseline}
	}
	line(true, "baseline %s", coverage.BaselinePath)
	return nil
}

// missingBinary says why some guard entry cannot run sentinel here, or "".
func missingBinary(e *env, hooks []guard.Hook) string {
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
