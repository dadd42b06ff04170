package contain

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/gitsentinel/sentinel/config"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/guard/install"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/internal/agentmark"
)

// Policy is what the sandbox lets the contained command do, as resolved
// absolute paths: everything not listed is readable and read-only.
// Engines apply the lists in order, so that what is protected wins over
// what is writable around it: Writable, then ReadOnly on top, then Hidden.
type Policy struct {
	// Dir is the working directory inside, as outside.
	Dir string
	// Layout is the repository's, as git reports it.
	Layout *gitrepo.Layout
	// Home is the home directory.
	Home string
	// Fresh are directories that start empty and writable inside (/tmp).
	Fresh []string
	// Visible are read-only views of what lies under a Fresh directory
	// and must stay readable (a home or a PATH directory under /tmp).
	Visible []string
	// Writable are the paths the command may write.
	Writable []string
	// Pinned are the directories between a writable directory and a
	// read-only path inside it, bound onto themselves, still writable: a
	// mount point cannot be renamed, so the agent cannot move
	// .claude away and make a new .claude/settings.json in its place.
	Pinned []string
	// ReadOnly are the approval machinery: read-only on top of Writable.
	ReadOnly []string
	// Hidden are secrets: a file reads as empty, a directory as empty.
	Hidden []string
	// Create are directories sentinel makes before the sandbox starts, so
	// that they exist to be protected (the hooks directory, the cache).
	Create []string
	// Env are variables (KEY=VALUE) set inside on top of the
	// environment: what the host run needs to keep its state where it
	// may write.
	Env []string
	// Placeholders are protected settings files that were missing and
	// were made, neutral ("{}"), before the sandbox started, so that they
	// could be bound read-only inside a writable state directory.
	Placeholders []string
	// Mark is the agent mark every process inside sees.
	Mark agentmark.Mark
	// Command is what runs inside.
	Command []string
	// Self is the sentinel binary the broker runs, outside.
	Self string
}

// Options is what a policy is built from.
type Options struct {
	// Dir is where sentinel run starts; the repository is the one git
	// finds there.
	Dir string
	// Command is the command line to run inside.
	Command []string
	// Agent names the agent (NAME[:MODEL]) where the command's program
	// does not; empty derives it from the program.
	Agent string
	// Getenv reads the environment.
	Getenv func(string) string
	// Executable is the running sentinel binary (os.Executable).
	Executable string
	// Self is the sentinel the broker runs for the hooks inside, as
	// started (its name kept: a link named sentinel is one); empty is
	// Executable.
	Self string
	// User is the user's own [run] table; Project the project's, of which
	// only hide counts.
	User, Project config.Run
	// Layout is the repository's layout when the caller has it already
	// (LoadRun's); nil asks git.
	Layout *gitrepo.Layout
	// Call is one tool call of a host that runs outside (sentinel run
	// --call): the host's state stays read-only and its login hidden, as
	// every other host's, and /tmp is the real one, shared with the host
	// and the calls before and after it.
	Call bool
}

// Build derives the policy from the repository at o.Dir and the
// environment. It refuses a protected path that is a symbolic link inside
// a writable directory: the link itself could be replaced, whatever is
// bound at its target.
func Build(ctx context.Context, o Options) (*Policy, error) {
	if len(o.Command) == 0 {
		return nil, errors.New("no command to run: run `sentinel run -- COMMAND [ARGS…]`")
	}
	if len(o.Project.Writable) > 0 || len(o.Project.Reveal) > 0 || o.Project.SearchEnv != nil {
		return nil, fmt.Errorf("the project's %s sets [run] writable, reveal or search_env, which only your own configuration may: a repository cannot widen the sandbox; move them to %s, or remove them", config.File, pathguard.UserConfigPath(o.Getenv))
	}
	lay, err := o.Layout, error(nil)
	if lay == nil {
		lay, err = gitrepo.Locate(ctx, o.Dir)
	}
	if err != nil {
		return nil, fmt.Errorf("sentinel run contains an agent in a git repository: %w; run it in one: cd REPOSITORY && sentinel run -- COMMAND", err)
	}
	home := o.Getenv("HOME")
	if !filepath.IsAbs(home) {
		return nil, errors.New("HOME is not an absolute directory, so the sandbox cannot tell what to protect there: run `export HOME=/path/to/your/home` first")
	}
	b := &builder{home: clean(home)}
	p := &Policy{Dir: clean(o.Dir), Layout: lay, Home: b.home, Command: o.Command, Self: o.Self}
	if p.Self == "" {
		p.Self = o.Executable
	}
	var agent string
	p.Mark, _ = markFor(o.Command, o.Agent)
	agent = p.Mark.Agent
	if o.Call && o.Agent == "" {
		return nil, errors.New("sentinel run --call needs the host's name: run `sentinel run --call --agent NAME -- COMMAND`")
	}

	// Writable: the work tree and what git needs to commit, the temporary
	// directories, the host's own state, the caches, the user's own list.
	p.Fresh = []string{"/tmp"}
	p.Writable = []string{lay.Top, lay.GitDir, lay.CommonDir}
	if o.Call {
		// One call of many: what it leaves in /tmp the host and the next
		// call read.
		p.Fresh, p.Writable = nil, append(p.Writable, "/tmp")
	}
	// $TMPDIR is the user's own, kept as it is; below /tmp it would
	// otherwise vanish under the fresh one.
	if t := o.Getenv("TMPDIR"); filepath.IsAbs(t) && clean(t) != "/tmp" {
		p.Writable = append(p.Writable, t)
	}
	// state is the host whose state is writable inside and whose login
	// stays readable: none for a call of a host that runs outside, which
	// writes its state there.
	state := agent
	if o.Call {
		state = ""
	}
	host := hostStates[state]
	for _, s := range host.State {
		p.Writable = append(p.Writable, filepath.Join(b.home, s))
	}
	for _, d := range host.Make {
		if err := os.MkdirAll(filepath.Join(b.home, d), 0o700); err != nil {
			return nil, fmt.Errorf("make the host's state directory %s: %w", d, err)
		}
	}
	var hostDirs []string
	if host.Prepare != nil {
		env, state, err := host.Prepare(b.home, o.Getenv)
		if err != nil {
			return nil, err
		}
		p.Env = env
		p.Writable = append(p.Writable, state...)
		hostDirs = state
	}
	p.Writable = append(p.Writable, b.caches(o.Getenv)...)
	for _, w := range o.User.Writable {
		p.Writable = append(p.Writable, b.expand(w, lay.Top))
	}

	// Read-only: the approval machinery.
	ro := []string{
		lay.Hooks.Dir, filepath.Join(lay.CommonDir, "hooks"),
		filepath.Join(lay.CommonDir, "config"), filepath.Join(lay.CommonDir, "config.worktree"),
		filepath.Join(lay.GitDir, "config.worktree"), filepath.Join(lay.CommonDir, "info"),
		filepath.Join(lay.GitDir, "commondir"), filepath.Join(lay.GitDir, "gitdir"),
		filepath.Join(lay.CommonDir, "sentinel"),
		filepath.Join(lay.Top, config.Dir), filepath.Join(lay.Top, ".gitattributes"),
	}
	if fi, err := os.Lstat(filepath.Join(lay.Top, ".git")); err == nil && !fi.IsDir() {
		// A linked work tree's .git file says where its git dir is.
		ro = append(ro, filepath.Join(lay.Top, ".git"))
	}
	if wts, err := os.ReadDir(filepath.Join(lay.CommonDir, "worktrees")); err == nil {
		for _, wt := range wts {
			ro = append(ro, filepath.Join(lay.CommonDir, "worktrees", wt.Name(), "config.worktree"))
		}
	}
	// A host's settings in the project, and the directory that holds
	// them: a settings file that is not there yet (Claude Code's
	// settings.local.json, which can switch every hook off) cannot be
	// bound, so its directory is read-only as a whole. The hosts keep
	// their state in the home directory, not there.
	project, user := install.InstallPaths()
	for _, rel := range project {
		ro = append(ro, filepath.Join(lay.Top, filepath.FromSlash(rel)), filepath.Join(lay.Top, filepath.FromSlash(filepath.Dir(rel))))
	}
	for _, t := range install.Targets {
		if t.Local != "" {
			ro = append(ro, filepath.Join(lay.Top, filepath.FromSlash(t.Local)), filepath.Join(lay.Top, filepath.FromSlash(filepath.Dir(t.Local))))
		}
	}
	var hookFiles []string
	for _, rel := range user {
		hookFiles = append(hookFiles, filepath.Join(b.home, filepath.FromSlash(rel)))
	}
	for _, d := range hostDirs {
		// A state directory of the user's choosing holds the host's
		// settings as the default one does.
		for _, rel := range user {
			if strings.HasPrefix(rel, ".claude/") {
				hookFiles = append(hookFiles, filepath.Join(d, strings.TrimPrefix(rel, ".claude/")))
			}
		}
	}
	ro = append(ro, hookFiles...)
	ro = append(ro, b.binaries(o.Executable, o.Getenv)...)
	if o.Self != "" {
		ro = append(ro, b.binaries(o.Self, func(string) string { return "" })...)
	}
	xdgConfig := o.Getenv("XDG_CONFIG_HOME")
	if !filepath.IsAbs(xdgConfig) {
		xdgConfig = filepath.Join(b.home, ".config")
	}
	ro = append(ro, filepath.Join(b.home, ".gitconfig"), filepath.Join(xdgConfig, "git"))
	if uc := pathguard.UserConfigPath(o.Getenv); uc != "" {
		ro = append(ro, filepath.Dir(uc))
	}
	if lp := pathguard.LogPath(o.Getenv); lp != "" {
		ro = append(ro, filepath.Dir(lp))
	}
	if d := o.Getenv("SENTINEL_CACHE_DIR"); filepath.IsAbs(d) {
		ro = append(ro, d)
	}
	// The hooks directory and the cache are made if missing: git makes
	// the one and sentinel the other anyway, and what does not exist
	// cannot be bound read-only, so the agent could make it.
	p.Create = []string{lay.Hooks.Dir, filepath.Join(lay.CommonDir, "sentinel")}

	// Hidden: secrets, less what the user reveals, plus what either
	// configuration hides.
	hide, err := b.secrets(lay.Top, state, xdgConfig, pathguard.UserConfigPath(o.Getenv), o.User.SearchEnv == nil || *o.User.SearchEnv)
	if err != nil {
		return nil, err
	}
	for _, h := range o.User.Hide {
		hide = append(hide, b.expand(h, lay.Top))
	}
	for _, h := range o.Project.Hide {
		hide = append(hide, b.expand(h, lay.Top))
	}
	var reveal []string
	for _, r := range o.User.Reveal {
		reveal = append(reveal, b.expand(r, lay.Top))
	}
	hide = slices.DeleteFunc(hide, func(h string) bool { return slices.Contains(reveal, h) })

	for _, d := range p.Create {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("make %s, to protect it: %w", d, err)
		}
	}
	if p.Writable, err = b.resolveAll(p.Writable, nil); err != nil {
		return nil, err
	}
	if p.Placeholders, err = placeholders(hookFiles, p.Writable); err != nil {
		return nil, err
	}
	if p.ReadOnly, err = b.resolveAll(ro, p.Writable); err != nil {
		return nil, err
	}
	p.Pinned = pins(p.ReadOnly, p.Writable)
	// A secret reached through a link is hidden at its target, which every
	// link to it then reads as empty.
	if p.Hidden, err = b.resolveAll(hide, nil); err != nil {
		return nil, err
	}
	p.Visible = visible(p, o.Getenv)
	return p, nil
}

// placeholders makes each hook settings file that is missing inside a
// writable directory, before the sandbox starts, so that it can be bound
// read-only: otherwise the agent could make it (a ~/.claude/settings.json
// with disableAllHooks switches the project's guard off), and nothing
// bound would stand in its way. A JSON file is made "{}", which every
// host reads as no settings at all; any other kind (the script a host's
// settings run, Augment's or Amp's) is made empty and not executable: no
// settings name it while it is missing (they are protected too, so none
// can come to name it inside), and a host that ran it anyway could not
// start it. A backup is never made: a missing one is never read.
func placeholders(files, writable []string) ([]string, error) {
	var made []string
	for _, f := range files {
		if strings.HasSuffix(f, install.BackupSuffix) || !insideAny(f, writable) {
			continue
		}
		if _, err := os.Lstat(f); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(f), 0o700); err != nil {
			return nil, fmt.Errorf("make %s, to protect it: %w", filepath.Dir(f), err)
		}
		fh, err := os.OpenFile(f, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return nil, fmt.Errorf("make %s, to protect it: %w", f, err)
		}
		if filepath.Ext(f) == ".json" {
			_, err = fh.WriteString("{}\n")
		}
		if cerr := fh.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, fmt.Errorf("make %s, to protect it: %w", f, err)
		}
		made = append(made, f)
	}
	return made, nil
}

// insideAny reports whether p is strictly inside one of dirs, resolved
// through the links of its existing parent.
func insideAny(p string, dirs []string) bool {
	if r, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		p = filepath.Join(r, filepath.Base(p))
	}
	for _, d := range dirs {
		if p != d && under(p, d) {
			return true
		}
	}
	return false
}

// builder holds what the derivation of one policy shares.
type builder struct {
	home string
}

// clean is filepath.Clean, kept short.
func clean(p string) string { return filepath.Clean(p) }

// under reports whether p is dir or inside it.
func under(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// expand reads a configured path: ~ is the home directory, a relative
// path the work tree's.
func (b *builder) expand(p, top string) string {
	switch {
	case p == "~":
		return b.home
	case strings.HasPrefix(p, "~/"):
		return filepath.Join(b.home, p[2:])
	case filepath.IsAbs(p):
		return clean(p)
	}
	return filepath.Join(top, p)
}

// caches are the build and package caches that exist.
func (b *builder) caches(getenv func(string) string) []string {
	cache := getenv("XDG_CACHE_HOME")
	if !filepath.IsAbs(cache) {
		cache = filepath.Join(b.home, ".cache")
	}
	out := []string{cache}
	gopath := getenv("GOPATH")
	if gopath == "" {
		gopath = filepath.Join(b.home, "go")
	}
	gomod := getenv("GOMODCACHE")
	if !filepath.IsAbs(gomod) {
		gomod = filepath.Join(filepath.SplitList(gopath)[0], "pkg", "mod")
	}
	out = append(out, gomod)
	if c := getenv("GOCACHE"); filepath.IsAbs(c) {
		out = append(out, c)
	}
	for _, rel := range []string{".npm", ".cargo/registry", ".cargo/git", ".m2/repository", ".gradle/caches", ".bun/install/cache", ".local/share/pnpm/store"} {
		out = append(out, filepath.Join(b.home, rel))
	}
	return out
}

// binaries are sentinel's own binaries: the running one, the front and
// the engine beside it, and every sentinel a hook or a host could run
// from PATH.
func (b *builder) binaries(self string, getenv func(string) string) []string {
	var out []string
	if self != "" {
		if r, err := filepath.EvalSymlinks(self); err == nil {
			self = r
		}
		dir := filepath.Dir(self)
		out = append(out, self, filepath.Join(dir, "sentinel"), filepath.Join(dir, "sentinel-engine"))
	}
	for _, d := range filepath.SplitList(getenv("PATH")) {
		if filepath.IsAbs(d) {
			out = append(out, filepath.Join(d, "sentinel"), filepath.Join(d, "sentinel-engine"))
		}
	}
	for _, d := range []string{"bin", ".local/bin", "go/bin"} {
		out = append(out, filepath.Join(b.home, d, "sentinel"), filepath.Join(b.home, d, "sentinel-engine"))
	}
	return out
}

// envTemplates are the .env files that hold no secret by convention.
var envTemplates = []string{".example", ".sample", ".template", ".dist"}

// isEnvSecret reports whether a file name is a .env file with secrets.
func isEnvSecret(name string) bool {
	if name != ".env" && !strings.HasPrefix(name, ".env.") {
		return false
	}
	for _, t := range envTemplates {
		if strings.HasSuffix(name, t) {
			return false
		}
	}
	return true
}

// envBudget bounds the search of the work tree for .env files, in
// entries visited (about a microsecond each). The search has no depth
// limit, as a monorepo keeps its secrets at any depth; a tree larger than
// this outside its dependency folders is refused rather than half
// searched, since a .env past the point the walk stopped would be shown.
const envBudget = 1_000_000

// skipDirs are never searched for .env files: dependencies and git's own.
var skipDirs = map[string]bool{".git": true, "node_modules": true, "vendor": true, ".venv": true, "target": true}

// secrets are the secrets the sandbox hides: the project's .env files,
// private keys, cloud and forge credentials, the other hosts' logins.
func (b *builder) secrets(top, agent, xdgConfig, userConfig string, search bool) ([]string, error) {
	var out []string
	budget := envBudget
	errBudget := errors.New("budget")
	walk := filepath.WalkDir
	if !search {
		walk = func(string, fs.WalkDirFunc) error { return nil }
	}
	err := walk(top, func(p string, d fs.DirEntry, err error) error {
		if budget--; budget < 0 {
			return errBudget
		}
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != top && skipDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if isEnvSecret(d.Name()) {
			out = append(out, p)
		}
		return nil
	})
	ssh := filepath.Join(b.home, ".ssh")
	if ents, err := os.ReadDir(ssh); err == nil {
		for _, e := range ents {
			n := e.Name()
			if strings.HasSuffix(n, ".pub") || strings.HasPrefix(n, "known_hosts") || n == "config" || n == "authorized_keys" {
				continue
			}
			out = append(out, filepath.Join(ssh, n))
		}
	}
	for _, rel := range []string{".aws", ".gnupg", ".netrc", ".git-credentials", ".docker/config.json", ".kube/config",
		".npmrc", ".pypirc", ".cargo/credentials.toml", ".cargo/credentials", ".azure", ".config/gcloud"} {
		out = append(out, filepath.Join(b.home, rel))
	}
	out = append(out, filepath.Join(xdgConfig, "gh", "hosts.yml"), filepath.Join(xdgConfig, "git", "credentials"))
	if errors.Is(err, errBudget) {
		return nil, fmt.Errorf("the work tree %s has more than %d entries outside its dependency folders, too many to search for .env files at each start; list its secret files under [run] hide and set [run] search_env = false in your own configuration, %s", top, envBudget, userConfig)
	}
	return append(out, otherCredentials(b.home, agent)...), nil
}

// resolveAll resolves each path that exists through its symbolic links,
// drops the missing ones, and sorts parents before children, the order
// the engines bind in. A path that goes through a link inside one of the
// writable directories is refused: the link could be replaced.
func (b *builder) resolveAll(paths, writable []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		p = clean(p)
		r, err := filepath.EvalSymlinks(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("resolve %s: %w", p, err)
		}
		if r != p {
			if link := linkInWritable(p, writable); link != "" {
				return nil, fmt.Errorf("%s is reached through the symbolic link %s, inside a directory the agent may write: it could replace the link, whatever the sandbox binds at the target; make it a real file or directory: run `cp -a --remove-destination \"$(readlink -f %s)\" %s`", p, link, link, link)
			}
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		di, dj := strings.Count(out[i], "/"), strings.Count(out[j], "/")
		if di != dj {
			return di < dj
		}
		return out[i] < out[j]
	})
	return slices.Compact(out), nil
}

// linkInWritable returns the first component of p that is a symbolic link
// and lies inside one of the writable directories, or "".
func linkInWritable(p string, writable []string) string {
	for _, w := range writable {
		if !under(p, w) || p == w {
			continue
		}
		cur := w
		for _, part := range strings.Split(p[len(w)+1:], "/") {
			cur = filepath.Join(cur, part)
			fi, err := os.Lstat(cur)
			if err != nil {
				break
			}
			if fi.Mode()&fs.ModeSymlink != 0 {
				return cur
			}
		}
	}
	return ""
}

// visible are the read-only views of paths under a fresh directory that
// must stay readable: the working directory, the home directory, and the
// PATH directories.
func visible(p *Policy, getenv func(string) string) []string {
	cands := []string{p.Home, p.Dir}
	for _, d := range filepath.SplitList(getenv("PATH")) {
		if filepath.IsAbs(d) {
			cands = append(cands, d)
		}
	}
	var out []string
	for _, c := range cands {
		r, err := filepath.EvalSymlinks(c)
		if err != nil {
			continue
		}
		for _, f := range p.Fresh {
			if under(r, f) && r != f {
				out = append(out, r)
			}
		}
	}
	b := &builder{}
	out, _ = b.resolveAll(out, nil)
	return out
}

// LoadRun reads the [run] tables: the user's own configuration at
// userPath (none when it is missing) and the project's at the work tree
// containing dir, and returns that work tree's layout for Build (nil
// outside a repository, which Build then reports).
func LoadRun(ctx context.Context, userPath, dir string) (user, project config.Run, lay *gitrepo.Layout, err error) {
	if userPath != "" {
		data, rerr := os.ReadFile(userPath)
		switch {
		case errors.Is(rerr, fs.ErrNotExist):
		case rerr != nil:
			return user, project, nil, fmt.Errorf("read your configuration: %w", rerr)
		case len(data) > config.MaxSize:
			return user, project, nil, fmt.Errorf("%s is larger than %d bytes", userPath, config.MaxSize)
		default:
			c, perr := config.Parse(userPath, data)
			if perr != nil {
				return user, project, nil, perr
			}
			user = c.Run
		}
	}
	lay, lerr := gitrepo.Locate(ctx, dir)
	if lerr != nil {
		// Build says what is wrong with the repository.
		return user, project, nil, nil
	}
	c, err := config.Load(lay.Top)
	if err != nil {
		return user, project, nil, err
	}
	return user, c.Run, lay, nil
}

// pins are the directories strictly between a writable directory and a
// read-only path inside it, parents first.
func pins(readOnly, writable []string) []string {
	var out []string
	for _, r := range readOnly {
		for _, w := range writable {
			if r == w || !under(r, w) {
				continue
			}
			for d := filepath.Dir(r); d != w && under(d, w); d = filepath.Dir(d) {
				if !slices.Contains(writable, d) {
					out = append(out, d)
				}
			}
		}
	}
	b := &builder{}
	out, _ = b.resolveAll(out, nil)
	return out
}
