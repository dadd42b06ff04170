package doctor

import (
	"context"
	"fmt"
	"github.com/gitsentinel/sentinel/internal/atomicfile"
	"github.com/pelletier/go-toml/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/guard"
	"github.com/gitsentinel/sentinel/guard/install"
	"github.com/gitsentinel/sentinel/guard/pathguard"
)

// place is one settings file of an agent's: the project's, the project's
// local one, or the user's.
type place struct {
	// path is the file; flag is guard install's flag that writes it, ""
	// for the local file, which guard install does not write.
	path, flag string
	// dir is the directory whose presence shows the agent in use there,
	// and show how a message names it (~ for the home directory).
	dir, show string
}

// fix is the command that puts the guard back at the place.
func (pl place) fix(agent string) msg {
	if pl.flag == "" {
		// guard install does not write the local file: its entry goes,
		// the project's takes its place.
		return say("remove sentinel's entry from %s, then: sentinel guard install --agent %s --project", path(pl.path), agent)
	}
	return plain(fmt.Sprintf("sentinel guard install --agent %s %s", agent, pl.flag))
}

// gone is a place where the guard was installed and is not any more, and
// what says it was there.
type gone struct {
	place
	why string
}

// guards reports the guard in each agent's settings: every file that has
// sentinel's entries (ok, or what keeps them from guarding, read as the
// host reads them), every file where it was installed and is gone, the
// agents [guard] expect names that have it nowhere, and, as advice, the
// agents in use (their settings directory exists) without it.
//
// "Installed and gone" comes from two records: guard install's own, in
// sentinel's state directory (install.Remembered), for the files it wrote
// on this machine; and, for a project's settings file, the committed copy
// at HEAD, for a guard a teammate installed and committed.
func (c *checker) guards(root string, expect []string) error {
	home := c.o.Getenv("HOME")
	stateDir := ""
	if lp := pathguard.LogPath(c.o.Getenv); lp != "" {
		stateDir = filepath.Dir(lp)
	}
	recorded, err := install.Remembered(stateDir)
	if err != nil {
		c.add(Broken, "guard", say("remove %s, then run sentinel guard install --agent NAME again for each agent you guard", path(filepath.Join(stateDir, install.RecordFile))), say("%s", text(err.Error())))
	}
	committed, err := c.committed(root)
	if err != nil {
		return err
	}
	for _, name := range install.TargetNames() {
		t := install.Targets[name]
		subject := "guard/" + name
		projectDir, userDir := t.InUse()
		var places []place
		if root != "" {
			places = append(places, place{filepath.Join(root, filepath.FromSlash(t.Project)), "--project", filepath.Join(root, filepath.FromSlash(projectDir)), projectDir})
			if t.Local != "" {
				places = append(places, place{path: filepath.Join(root, filepath.FromSlash(t.Local))})
			}
		}
		if home != "" {
			places = append(places, place{filepath.Join(home, filepath.FromSlash(t.User)), "--user", filepath.Join(home, filepath.FromSlash(userDir)), "~/" + userDir})
		}
		// The host runs the entries of every file, so the guard is
		// installed when any file has it (the user's, the project's or
		// the project's local one), and one entry whose binary is gone
		// refuses every call.
		installed, unreadable := false, false
		var lost []gone
		// A setting that switches every hook off, in any of the files,
		// switches off the entries of all of them.
		off := false
		for _, pl := range places {
			for _, f := range t.HookFiles(pl.path) {
				if key, err := t.HooksOff(f); err == nil && key != "" {
					off = true
					c.add(Broken, subject, say("remove %q from %s", key, path(f)), say("%s guard: %s sets %q, so %s runs no hook, the guard's with them", name, path(f), key, name))
				}
			}
		}
		if name == "copilot" && root != "" {
			for _, f := range copilotHooksOff(root) {
				off = true
				c.add(Broken, subject, say("remove %q from %s", "disableAllHooks", path(f)), say("%s guard: %s sets %q, so Copilot CLI runs no hook in a folder it trusts, the guard's and your own with them", name, path(f), "disableAllHooks"))
			}
		}
		// So does a variable of the environment sentinel doctor runs in,
		// which is most likely the host's.
		vars, byEnv := envOff[name]
		if byEnv && envTrue(c.o.Getenv(vars.all)) {
			off = true
			c.add(Broken, subject, say("unset %s where %s runs", vars.all, name), say("%s guard: %s is set, so %s loads no plugin, the guard's with them", name, vars.all, name))
		}
		for _, pl := range places {
			if byEnv && pl.flag == "--project" && envTrue(c.o.Getenv(vars.project)) {
				if in, err := t.Inspect(pl.path); err == nil && len(in.Hooks) > 0 {
					installed = true
					c.add(Broken, subject, say("unset %s where %s runs, or install the guard with --user", vars.project, name),
						say("%s guard (%s): %s is set, so %s reads nothing of the project's, the guard's plugin with it", name, path(pl.path), vars.project, name))
					continue
				}
			}
			in, err := t.Inspect(pl.path)
			switch {
			case err != nil:
				unreadable = true
				c.add(Broken, subject, say("edit %s where the error points", path(pl.path)), say("%s guard: %s", name, text(err.Error())))
				continue
			case len(in.Hooks) == 0:
				if why := wasThere(name, pl, recorded, committed[t.Project]); why != "" {
					lost = append(lost, gone{pl, why})
				}
				continue
			}
			installed = true
			c.inspected(name, pl, in, off)
		}
		switch {
		case installed:
			for _, g := range lost {
				c.add(Advice, subject, g.fix(name), say("%s guard (%s): %s, and it is gone; the agent's other settings still run it", name, path(g.path), g.why))
			}
		case len(lost) > 0:
			for _, g := range lost {
				c.add(Missing, subject, g.fix(name), say("%s guard (%s): %s, and it is gone", name, path(g.path), g.why))
			}
		case slices.Contains(expect, name):
			// One line names every place, and one fix the first (the
			// project's, where there is one): one file is enough.
			var where []any
			fix := msg{}
			for _, pl := range places {
				if pl.flag != "" {
					where = append(where, path(pl.path))
					if fix.raw == "" {
						fix = pl.fix(name)
					}
				}
			}
			c.add(Missing, subject, fix, say("%s guard ("+list(" or ", len(where))+"): [guard] expect names %s", slices.Concat([]any{name}, where, []any{name})...))
		case !unreadable && !off:
			c.inUse(name, places, root != "")
		}
	}
	return nil
}

// inspected reports an agent's settings file that has sentinel's entries:
// ok (unless the host's hooks are switched off), or a binary that is
// missing, or what keeps the entries from guarding (broken), with what is
// merely worth knowing as advice.
func (c *checker) inspected(name string, pl place, in *install.Inspection, off bool) {
	subject := "guard/" + name
	if why := missingBinary(c.o, in.Hooks); why != "" {
		c.add(Missing, subject, pl.fix(name), say("%s guard (%s): missing binary: %s", name, path(pl.path), text(why)))
	} else if !in.Broken() && !off {
		c.selfTest(name, subject, pl)
	}
	for _, p := range in.Problems {
		st := Advice
		if p.Broken {
			st = Broken
		}
		c.add(st, subject, pl.fix(name), say("%s guard (%s): %s", name, path(pl.path), text(p.What)))
	}
}

// inUse gives the advice for an agent in use (its settings directory is
// there) without the guard: in a repository, the project's install, which
// covers everyone who clones it; elsewhere the user's.
func (c *checker) inUse(name string, places []place, inRepo bool) {
	var dirs []any
	for _, pl := range places {
		if pl.flag == "" {
			continue
		}
		if _, err := os.Stat(pl.dir); err == nil {
			dirs = append(dirs, path(pl.show))
		}
	}
	if len(dirs) == 0 {
		return
	}
	verb := "exists"
	if len(dirs) > 1 {
		verb = "exist"
	}
	fix := "sentinel guard install --agent " + name
	if !inRepo {
		fix += " --user"
	}
	c.add(Advice, "guard/"+name, plain(fix), say("%s: "+list(" and ", len(dirs))+" "+verb+"; guard it with %s", slices.Concat([]any{name}, dirs, []any{fix})...))
}

// list is a format of n %s joined by sep.
func list(sep string, n int) string {
	return strings.Join(slices.Repeat([]string{"%s"}, n), sep)
}

// wasThere says what shows the guard was installed at a place that lacks
// it now, or "": guard install's record of the file, or, for the
// project's file, its committed copy.
func wasThere(agent string, pl place, recorded []install.Recorded, head []install.Hook) string {
	if slices.Contains(recorded, install.Recorded{Agent: agent, Path: install.RecordPath(pl.path)}) {
		return "sentinel guard install put it there"
	}
	if pl.flag == "--project" && len(head) > 0 {
		return "the committed copy (HEAD) runs it and the work tree's does not (install it again, or commit its removal)"
	}
	return ""
}

// maxCommitted bounds the read of a committed settings file.
const maxCommitted = 8 << 20

// committed reads sentinel's entries in the committed copy (HEAD) of each
// agent's project settings file, by the file's path relative to the root.
// Nothing outside a repository, or before its first commit.
func (c *checker) committed(root string) (map[string][]install.Hook, error) {
	out := map[string][]install.Hook{}
	if root == "" {
		return out, nil
	}
	var specs []string
	for _, name := range install.TargetNames() {
		specs = append(specs, "HEAD:"+install.Targets[name].Project)
	}
	data, err := gitrepo.ReadSpecsMax(c.ctx, root, specs, maxCommitted)
	if err != nil {
		return nil, fmt.Errorf("read the committed agent settings: %w", err)
	}
	for _, name := range install.TargetNames() {
		rel := install.Targets[name].Project
		// A committed copy that does not read says nothing either way.
		if hooks, err := install.ParseHooks(rel, data["HEAD:"+rel]); err == nil {
			out[rel] = hooks
		}
	}
	return out, nil
}

// missingBinary says why some guard entry cannot run sentinel here, or "".
func missingBinary(o Options, hooks []install.Hook) string {
	var why []string
	for _, h := range hooks {
		if w := h.Missing(o.Getenv, o.LookPath); w != "" && !slices.Contains(why, w) {
			why = append(why, w)
		}
	}
	return strings.Join(why, "; ")
}

// selfTest runs the entries of a settings file that look right as their
// host runs them (sentinel guard test): ok when each refuses the call it
// must refuse and lets an everyday one through, broken otherwise.
func (c *checker) selfTest(name, subject string, pl place) {
	if name == "codex" && pl.flag == "--project" {
		if why := codexUntrusted(c.o.Getenv, c.o.Dir); why != "" {
			// Codex skips the hooks of a project it does not trust, and
			// runs the call: the entry guards nothing there.
			c.add(Broken, subject, plain("trust the project in Codex (accept its prompt, or set trust_level = \"trusted\" under [projects.\"PATH\"] in ~/.codex/config.toml), then trust the entry in /hooks"),
				say("%s guard (%s): %s", name, path(pl.path), text(why)))
			return
		}
	}
	if name == "cline" {
		if why := clineSkipped(pl.path); why != "" {
			// Cline CLI 3 runs only the regular files of its hooks
			// directories: the self-test, which follows the link,
			// would pass a hook Cline never runs.
			c.add(Broken, subject, say("remove the link %s, then: sentinel guard install --agent cline %s", path(pl.path), pl.flag),
				say("%s guard (%s): %s", name, path(pl.path), text(why)))
			return
		}
	}
	if name == "copilot" && pl.flag == "--project" {
		if t := copilotUntrusted(c.o.Getenv, c.o.Dir); t.why != "" {
			// Copilot CLI skips the hooks of a project in a folder it does
			// not trust, and runs the call: the entry guards nothing there.
			fix := plain("trust the folder in Copilot CLI: answer its prompt with \"Yes, and remember this folder\", or add the folder's absolute path to \"trustedFolders\" in ~/.copilot/config.json")
			if t.config != "" {
				fix = say("trust the folder in Copilot CLI: answer its prompt with \"Yes, and remember this folder\", or add %s to \"trustedFolders\" in %s", text(jsonString(resolved(c.o.Dir))), path(t.config))
			}
			c.add(Broken, subject, fix, say("%s guard (%s): %s", name, path(pl.path), text(t.why)))
			return
		}
	}
	if name == "augment" && c.augmentHooksOff(pl) {
		// Auggie skips every hook while its server's flag is off: the
		// entry guards nothing, whatever its self-test says.
		return
	}
	cwd := c.o.Dir
	res, err := guard.SelfTestFile(c.ctx, name, pl.path, cwd, nil)
	if err != nil {
		c.add(Broken, subject, pl.fix(name), say("%s guard (%s): the self-test could not run it: %s", name, path(pl.path), text(err.Error())))
		return
	}
	for _, r := range res {
		switch {
		case !r.Enforcing:
			c.add(Broken, subject, pl.fix(name), say("%s guard (%s): run as %s runs it, it answers %s to %s, a call it must refuse", name, path(pl.path), name, text(r.Refused), text(guard.SelfTestRefused)))
		case !r.Answered:
			c.add(Broken, subject, pl.fix(name), say("%s guard (%s): run as %s runs it, sentinel does not answer, and the hook refuses every call: %s", name, path(pl.path), name, text(r.Note)))
		default:
			c.add(OK, subject, msg{}, say("%s guard (%s), enforcing: run as %s runs it, it refuses %s and allows %s", name, path(pl.path), name, text(guard.SelfTestRefused), text(guard.SelfTestAllowed)))
		}
	}
	if len(res) == 0 {
		c.add(OK, subject, msg{}, say("%s guard (%s)", name, path(pl.path)))
	}
}

// clineSkipped says why Cline CLI 3 would skip the hook file at path (""
// when it runs it): it lists its hooks directories and runs the regular
// files there by name, passing over a link, even to sentinel's own script,
// without a word.
func clineSkipped(path string) string {
	st, err := os.Lstat(path)
	switch {
	case err != nil || st.Mode().IsRegular():
		return ""
	case st.Mode()&os.ModeSymlink != 0:
		return "the hook file is a symbolic link, and Cline CLI 3 skips a link without a word (the call then runs)"
	}
	return "the hook file is not a regular file, and Cline CLI 3 skips it without a word (the call then runs)"
}

// envOff are the environment variables under which a host loads no
// plugin (all) or nothing of the project's directories (project): OpenCode
// and Kilo Code's CLI, a fork of it. Verified live with Kilo Code 7.7.9:
// under either, the call runs and the guard is never asked.
var envOff = map[string]struct{ all, project string }{
	"opencode": {"OPENCODE_PURE", "OPENCODE_DISABLE_PROJECT_CONFIG"},
	"kilo":     {"KILO_PURE", "KILO_DISABLE_PROJECT_CONFIG"},
}

// envTrue reports a variable OpenCode and Kilo Code read as set: "1" or
// "true", in any case.
func envTrue(v string) bool {
	v = strings.ToLower(v)
	return v == "1" || v == "true"
}

// maxCodexConfig bounds the read of Codex's own configuration.
const maxCodexConfig = 1 << 20

// codexUntrusted says why Codex would skip the hooks of the project that
// holds dir ("" when it trusts it): its configuration ($CODEX_HOME, else
// ~/.codex, config.toml) sets trust_level = "trusted" for the project's
// directory under [projects."PATH"]. Whether Codex trusts the entry itself
// (its /hooks list, by a hash of the entry) is not read here.
func codexUntrusted(getenv func(string) string, dir string) string {
	home := getenv("CODEX_HOME")
	if home == "" {
		h := getenv("HOME")
		if h == "" {
			return "HOME is not set, so whether Codex trusts this project is unknown"
		}
		home = filepath.Join(h, ".codex")
	}
	root, err := gitrepo.FindRoot(context.Background(), dir)
	if err != nil {
		return ""
	}
	data, err := atomicfile.ReadFile(filepath.Join(home, "config.toml"), maxCodexConfig)
	if err != nil {
		return "Codex has no configuration that trusts this project, and skips its hooks until it does (the call then runs)"
	}
	var cfg struct {
		Projects map[string]struct {
			TrustLevel string `toml:"trust_level"`
		} `toml:"projects"`
	}
	if toml.Unmarshal(data, &cfg) != nil {
		return "Codex's config.toml does not read, so whether it trusts this project is unknown"
	}
	for p, v := range cfg.Projects {
		if filepath.Clean(p) == root && v.TrustLevel == "trusted" {
			return ""
		}
	}
	return "Codex does not trust this project, and skips its hooks until it does (the call then runs)"
}
