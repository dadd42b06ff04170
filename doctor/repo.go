package doctor

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitsentinel/sentinel/config"
	"github.com/gitsentinel/sentinel/contain"
	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/githooks"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/guard/hosts"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/policy"
	"github.com/gitsentinel/sentinel/internal/atomicfile"
)

// run checks sentinel, the repository (if any), the user's configuration
// and the guard, in that order.
func (c *checker) run() error {
	if p, err := c.o.LookPath("sentinel"); err == nil {
		c.add(OK, "sentinel", msg{}, say("sentinel on PATH (%s)", path(p)))
	} else {
		c.add(Missing, "sentinel", plain(upgradeSentinel), plain("sentinel is not on PATH: the git hooks fall back to the path captured at install; the agents' project entries have none, and refuse every call"))
	}
	var expect []string
	containOn := false
	root, rerr := gitrepo.FindRoot(c.ctx, c.o.Dir)
	if rerr == nil {
		if cfg, err := config.Load(root); err != nil {
			c.add(Broken, "config", configFix(err, config.File), say("%s", text(err.Error())))
		} else {
			// The guard reads the file too, and more strictly (its
			// rules' globs, no link out of the project).
			if p, err := policy.LoadPolicy("", root); err != nil {
				c.add(Broken, "config", configFix(err, config.File), say("%s: the guard denies every call until it parses", text(err.Error())))
			} else {
				expect = p.Expect
				containOn = p.Contain
			}
			if cfg.Ratchet.Signers != "" {
				c.signers(root, cfg.Ratchet.Signers)
			}
		}
		statuses, err := githooks.Status(c.ctx, c.o.Dir)
		switch {
		case errors.Is(err, gitrepo.ErrBare):
			c.add(OK, "hooks", msg{}, plain("a bare repository: no git hooks needed"))
		case err != nil:
			return err
		default:
			c.hooks(statuses)
		}
		c.baseline(root)
	} else if errors.Is(rerr, gitrepo.ErrNoWorkTree) {
		// A bare repository is a server's or a mirror's: nothing a work
		// tree's hooks or baseline would guard is made there.
		root = ""
		c.add(OK, "repository", msg{}, plain("a bare repository has no work tree: no hooks or baseline to check here; `sentinel trailers check --range BASE..HEAD` checks attribution in it"))
	} else {
		root = ""
		c.add(Missing, "repository", msg{}, plain("not in a git repository: no hooks or baseline to check here"))
	}

	// The user's own configuration: the guard reads it in every
	// repository, and denies every call while it does not parse.
	if user := pathguard.UserConfigPath(c.o.Getenv); user != "" {
		if p, err := policy.LoadPolicy(user, ""); err != nil {
			c.add(Broken, "user-config", configFix(err, user), say("%s: the guard denies every call until it parses", text(err.Error())))
		} else {
			expect = append(expect, p.Expect...)
			containOn = containOn || p.Contain
			if _, err := os.Stat(user); err == nil {
				c.add(OK, "user-config", msg{}, say("user configuration (%s)", path(user)))
			}
		}
	}
	c.containment(containOn)
	return c.guards(root, expect)
}

// containment reports whether sentinel run can contain an agent here:
// advice, not a gap, since the hooks and the guard protect without it;
// broken under [guard] contain, which then refuses every shell call it
// would rewrite. Under contain it also names the hosts it has no effect on.
func (c *checker) containment(containOn bool) {
	if err := contain.Available(c.ctx); err != nil {
		why := text(strings.TrimPrefix(err.Error(), contain.ErrUnavailable.Error()+": "))
		if containOn {
			c.add(Broken, "containment", msg{}, say("[guard] contain is on, and sentinel run cannot contain a call here, so the guard refuses every shell call it would contain: %s", why))
			return
		}
		c.add(Advice, "containment", msg{}, say("sentinel run cannot contain an agent here: %s", why))
		return
	}
	c.add(OK, "containment", msg{}, plain("sentinel run can contain an agent here (sentinel run -- COMMAND)"))
	if containOn {
		var none []string
		for _, n := range hosts.DialectNames() {
			if _, ok := hosts.Containment(n); !ok {
				none = append(none, n)
			}
		}
		c.add(OK, "containment", msg{}, say("[guard] contain is on: the guard runs each shell call it lets run under sentinel run --call on %s; it has no effect on %s, whose hooks cannot rewrite a call without granting it (run those hosts inside sentinel run)",
			strings.Join(hosts.ContainingHosts(), ", "), strings.Join(none, ", ")))
	}
}

// hooks reports each of sentinel's git hooks: sentinel's own, run through
// a hook manager (husky, lefthook, pre-commit) whose own hook git reaches,
// or kept by pre-commit's migration mode and run before pre-commit's own.
// `sentinel install` is a fix only where it would not refuse: where a
// manager owns the hooks, the fix is the manager's.
func (c *checker) hooks(statuses []githooks.HookStatus) {
	var preCommitTypes []string
	var preCommit []int
	force := false
	// install marks the findings whose fix is sentinel install, which
	// becomes --force once any of them needs it.
	var install []int
	for _, s := range statuses {
		subject := "hook/" + s.Hook
		m := s.Managed
		switch {
		case s.NotExecutable:
			install = append(install, len(c.findings))
			c.add(Missing, subject, msg{}, say("git hook %s is not executable, so git skips it (%s)", s.Hook, path(s.Path)))
			// sentinel's hook, put there with --force past a manager:
			// only --force puts the bit back.
			force = force || s.Owner != nil
		case s.Installed:
			c.add(OK, subject, msg{}, say("git hook %s (%s)", s.Hook, path(s.Path)))
		case s.Legacy != "":
			c.legacy(s)
		case m != nil && m.ShimInstalled:
			c.add(OK, subject, msg{}, say("git hook %s through %s (%s:%d calls sentinel)", s.Hook, m.Manager, path(m.Config), m.Line))
		case m != nil:
			fix := plain(m.Install)
			if m.Manager == "pre-commit" {
				// One command installs every hook type pre-commit lacks:
				// each of them names it whole.
				preCommitTypes = append(preCommitTypes, "--hook-type "+s.Hook)
				preCommit = append(preCommit, len(c.findings))
				fix = msg{}
			}
			c.add(Missing, subject, fix, say("git hook %s: %s:%d calls sentinel, but %s's hook is not installed where git looks (%s)", s.Hook, path(m.Config), m.Line, m.Manager, path(m.Shim)))
		case s.Owner != nil:
			c.add(Missing, subject, plain(githooks.AddToManager(s.Owner.Manager, s.Hook)), say("git hook %s: %s manages the hooks (%s) and does not run sentinel for %s", s.Hook, s.Owner.Manager, text(s.Owner.Where), s.Hook))
		case s.Foreign:
			install = append(install, len(c.findings))
			c.add(Missing, subject, msg{}, say("git hook %s is not sentinel's (%s)", s.Hook, path(s.Path)))
		default:
			install = append(install, len(c.findings))
			c.add(Missing, subject, msg{}, say("git hook %s", s.Hook))
		}
	}
	c.setFix(preCommit, plain("pre-commit install "+strings.Join(preCommitTypes, " ")))
	fix := plain("sentinel install")
	if force {
		fix = plain("sentinel install --force")
	}
	c.setFix(install, fix)
}

// setFix gives the findings at the indexes the fix.
func (c *checker) setFix(at []int, fix msg) {
	for _, i := range at {
		c.findings[i].Fix, c.findings[i].fixText = fix.raw, fix.text
	}
}

// legacy reports sentinel's hook kept by pre-commit's migration mode:
// pre-commit's hook runs it first, as <hook>.legacy. It runs; where
// .pre-commit-config.yaml also calls sentinel for the hook, it runs twice,
// and the fix drops the legacy copy.
func (c *checker) legacy(s githooks.HookStatus) {
	name := filepath.Base(s.Legacy)
	if m := s.Managed; m != nil && m.Manager == "pre-commit" {
		fix := "pre-commit install -f --hook-type " + s.Hook
		c.add(OK, "hook/"+s.Hook, plain(fix), say("git hook %s: pre-commit's hook, then sentinel's as %s (sentinel runs twice: %s:%d calls it too; `%s` deletes %s and keeps that call)",
			s.Hook, path(name), path(m.Config), m.Line, fix, path(name)))
		return
	}
	fix := githooks.AddToManager("pre-commit", s.Hook)
	c.add(OK, "hook/"+s.Hook, plain(fix), say("git hook %s: pre-commit's hook, then sentinel's as %s (pre-commit's migration mode, which `pre-commit install -f` ends by deleting %s: to keep sentinel, %s)",
		s.Hook, path(name), path(name), fix))
}

// configFix is the fix for a configuration that does not read: the edit
// for an unknown key (renamed to the key it is likely a typo of, or
// removed), else to edit the file where the error points.
func configFix(err error, file string) msg {
	var ke *config.KeyError
	if errors.As(err, &ke) {
		return say("%s", text(ke.Fix()))
	}
	return say("edit %s where the error above points", path(file))
}

// baseline reports the work tree's baseline and the staged one, each
// read with the reader the hooks use: there and readable, or what is wrong
// with it (at its line and column) and the fix. A baseline that exists
// but does not read stops every commit, so it is no more ok than a missing
// one; the pre-commit hook reads the staged copy, so a broken staged copy
// stops commits even under a good work tree copy.
func (c *checker) baseline(root string) {
	data, err := coverage.ReadWorkTreeBaseline(root)
	switch {
	case err != nil:
		c.add(Broken, "baseline", plain(coverage.RestoreBaseline), say("baseline %s: %s", coverage.BaselinePath, text(err.Error())))
		return
	case data == nil:
		c.add(Missing, "baseline", plain("sentinel init"), say("no baseline (%s): the ratchet has no peaks to hold", coverage.BaselinePath))
		return
	}
	if c.baselineReads(coverage.BaselinePath, data, "") {
		spec := ":" + coverage.BaselinePath
		staged, err := gitrepo.ReadSpecs(c.ctx, root, []string{spec})
		// The work tree's copy reads: staging it is the fix, and keeps
		// its peaks.
		if err != nil || staged[spec] == nil || string(staged[spec]) == string(data) || c.baselineReads(coverage.StagedBaselineName, staged[spec], "git add "+coverage.BaselinePath) {
			c.add(OK, "baseline", msg{}, say("baseline %s", coverage.BaselinePath))
		}
	}
}

// baselineReads parses a copy of the baseline as the hooks do, and when it
// does not read reports it broken, with the fix. restore, when set, is a
// better fix than restoring the committed copy.
func (c *checker) baselineReads(name string, data []byte, restore string) bool {
	_, err := coverage.ParseBaseline(name, data)
	if err == nil {
		return true
	}
	var be *coverage.BaselineError
	if errors.As(err, &be) && be.Restore != "" && restore != "" {
		be.Restore = restore
	}
	fix := coverage.RestoreBaseline
	switch {
	case errors.Is(err, coverage.ErrNewerBaseline):
		fix = upgradeSentinel
	case errors.As(err, &be) && be.Restore != "":
		fix = be.Restore
	}
	c.add(Broken, "baseline", plain(fix), say("baseline %s", text(err.Error())))
	return false
}

// signers reports the allowed signers file [ratchet] signers names: in
// the work tree, with at least one key, and ssh-keygen there to check
// signatures with. sentinel ci reads the file from the parent of each
// commit, not from here; a file missing here is missing from the next
// commit too.
func (c *checker) signers(root, signers string) {
	data, err := atomicfile.ReadIn(root, signers, 1<<20)
	keys := 0
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			keys++
		}
	}
	switch {
	case err != nil:
		c.add(Missing, "signers", say("write %s, a line `EMAIL namespaces=\"git\" ssh-ed25519 AAAA…` per person, and commit it", path(signers)),
			say("[ratchet] signers names %s, which cannot be read: %s", path(signers), text(err.Error())))
	case keys == 0:
		c.add(Missing, "signers", say("add a line `EMAIL namespaces=\"git\" ssh-ed25519 AAAA…` per person to %s, and commit it", path(signers)),
			say("[ratchet] signers names %s, which lists no key: no acceptance can pass", path(signers)))
	default:
		unit := "keys"
		if keys == 1 {
			unit = "key"
		}
		c.add(OK, "signers", msg{}, say("allowed signers %s: %d %s", path(signers), keys, unit))
	}
	if _, err := c.o.LookPath("ssh-keygen"); err != nil {
		c.add(Missing, "ssh-keygen", plain("install OpenSSH's client (apt-get install openssh-client)"), plain("ssh-keygen is not on PATH: git cannot check the signature of an acceptance"))
	}
}
