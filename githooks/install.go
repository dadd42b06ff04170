package githooks

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"text/template"

	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/atomicfile"
	"github.com/gitsentinel/sentinel/internal/sharedperm"
)

// Fingerprint marks a hook file as sentinel's: install rewrites such a file,
// uninstall removes it, and neither touches a file without it.
const Fingerprint = "sentinel-managed-hook v1"

// PrevSuffix names the place a hook that was there before sentinel is moved
// to; sentinel's hook runs it first.
const PrevSuffix = ".sentinel-prev"

// Names are the hooks sentinel can install.
var Names = []string{"commit-msg", "pre-commit", "pre-push", "prepare-commit-msg"}

// DefaultHooks are installed when no --hook is given.
var DefaultHooks = []string{"commit-msg", "pre-commit", "pre-push"}

// stdinHooks get input on stdin that both the previous hook and sentinel read.
var stdinHooks = map[string]bool{"pre-push": true}

//go:embed hook.sh.tmpl
var hookTemplate string

var hookScript = template.Must(template.New("hook").Parse(hookTemplate))

// InstallOptions says what to install.
type InstallOptions struct {
	// Dir is a directory in the repository.
	Dir string
	// Hooks are the hooks to install; empty means DefaultHooks.
	Hooks []string
	// Force installs even where another hook manager owns the hooks.
	Force bool
	// Bin is the absolute path of the sentinel binary, which the scripts
	// run first; $SENTINEL_BIN and PATH stand in only when it is gone.
	Bin string
	// FailOpen lets a hook pass when it cannot find sentinel.
	FailOpen bool
}

// Action is what happened to one hook file.
type Action struct {
	// Hook is the hook's name.
	Hook string
	// Path is the hook file.
	Path string
	// What says what was done, for people.
	What string
}

// ManagerError reports that another hook manager owns the hooks.
type ManagerError struct {
	// Manager is husky, lefthook or pre-commit.
	Manager string
	// Where is what showed it.
	Where string
}

// Error says who owns the hooks and how to add sentinel to them.
func (e *ManagerError) Error() string {
	return fmt.Sprintf("%s manages this repository's hooks (%s): sentinel does not take them over.\n%s\nAdd those lines, or run `sentinel install --force` to install sentinel's hooks anyway (the existing ones keep running first)",
		e.Manager, e.Where, ManagerSnippet(e.Manager))
}

// ManagerSnippet returns the lines that add sentinel to a hook manager.
func ManagerSnippet(manager string) string {
	switch manager {
	case "husky":
		return `In .husky/commit-msg:   sentinel hook commit-msg "$1"
In .husky/pre-commit:   sentinel hook pre-commit
In .husky/pre-push:     sentinel hook pre-push "$@"`
	case "lefthook":
		return `In lefthook.yml:
commit-msg:
  commands:
    sentinel:
      run: sentinel hook commit-msg {1}
pre-commit:
  commands:
    sentinel:
      run: sentinel hook pre-commit
pre-push:
  commands:
    sentinel:
      run: sentinel hook pre-push {1} {2}
      use_stdin: true`
	case "pre-commit":
		// A local repo calls the sentinel on PATH: sentinel is not yet
		// published where a remote repo: entry could fetch it.
		return `In .pre-commit-config.yaml:
repos:
  - repo: local
    hooks:
      - {id: sentinel-commit-msg, name: sentinel attribution, entry: sentinel hook commit-msg, language: system, stages: [commit-msg], always_run: true}
      - {id: sentinel-pre-commit, name: sentinel test ratchet, entry: sentinel hook pre-commit, language: system, stages: [pre-commit], pass_filenames: false, always_run: true}
      - {id: sentinel-pre-push, name: sentinel test ratchet (push), entry: sentinel hook pre-push, language: system, stages: [pre-push], pass_filenames: false, always_run: true}
Then: pre-commit install --hook-type commit-msg --hook-type pre-commit --hook-type pre-push
(pre-commit 3.2 or later; before 3.2, as Debian 12's 3.0.4, the stages are spelled [commit] and [push])`
	}
	return ""
}

// detectManager finds another hook manager: husky's hooks path, or the
// marks lefthook, pre-commit and husky leave in the hooks they write.
func detectManager(h *gitrepo.Hooks, hooks []string) *ManagerError {
	if strings.Contains(filepath.ToSlash(h.HooksPath), ".husky") {
		return &ManagerError{Manager: "husky", Where: "core.hooksPath = " + h.HooksPath}
	}
	for _, name := range hooks {
		path := filepath.Join(h.Dir, name)
		b, err := readLinkedHook(path)
		if err != nil || isOurs(b) {
			continue
		}
		s := string(b)
		switch {
		case strings.Contains(s, "lefthook"):
			return &ManagerError{Manager: "lefthook", Where: path}
		case isPreCommitHook(b):
			return &ManagerError{Manager: "pre-commit", Where: path}
		case strings.Contains(s, "husky"):
			return &ManagerError{Manager: "husky", Where: path}
		}
	}
	return nil
}

func isOurs(b []byte) bool {
	return bytes.Contains(b, []byte(Fingerprint))
}

// render returns the script for one hook.
func render(hook, bin string, failOpen bool) ([]byte, error) {
	if strings.ContainsAny(bin, "'\n") {
		return nil, fmt.Errorf("the sentinel binary's path %q cannot be quoted in a hook script; move it, or set SENTINEL_BIN", bin)
	}
	fo := "0"
	if failOpen {
		fo = "1"
	}
	var buf bytes.Buffer
	err := hookScript.Execute(&buf, map[string]any{
		"Fingerprint": Fingerprint, "Hook": hook, "Bin": bin, "FailOpen": fo, "Stdin": stdinHooks[hook],
	})
	return buf.Bytes(), err
}

func validHook(name string) bool {
	for _, n := range Names {
		if n == name {
			return true
		}
	}
	return false
}

// Install writes sentinel's hooks. A hook that is not sentinel's is kept,
// moved aside to <hook>.sentinel-prev, and run first by sentinel's. Running
// Install again changes nothing, or only updates sentinel's own scripts.
func Install(ctx context.Context, o InstallOptions) ([]Action, error) {
	hooks := o.Hooks
	if len(hooks) == 0 {
		hooks = DefaultHooks
	}
	for _, name := range hooks {
		if !validHook(name) {
			return nil, fmt.Errorf("unknown hook %q: sentinel installs %s", name, strings.Join(Names, ", "))
		}
	}
	h, err := gitrepo.HooksDir(ctx, o.Dir)
	if err != nil {
		return nil, err
	}
	var actions []Action
	if !o.Force {
		// A hook a manager's configuration already runs sentinel for
		// is left to that manager; the others are sentinel's to
		// install, unless a manager owns them.
		var managed map[string]*ManagedHook
		if root, err := gitrepo.FindRoot(ctx, o.Dir); err == nil {
			managed = ManagedHooks(root, h)
			var own []string
			for _, name := range hooks {
				if m := managed[name]; m != nil {
					actions = append(actions, managedAction(root, name, m))
				} else {
					own = append(own, name)
				}
			}
			hooks = own
		}
		if len(hooks) == 0 {
			return actions, nil
		}
		if me := detectManager(h, hooks); me != nil {
			return nil, me
		}
	}
	if !o.Force {
		if err := hooksDirStaysInside(ctx, o.Dir, h.Dir); err != nil {
			return nil, err
		}
	}
	shared, err := hooksShared(ctx, o.Dir, h.Dir)
	if err != nil {
		return nil, err
	}
	if _, err := os.Lstat(h.Dir); errors.Is(err, fs.ErrNotExist) {
		// As git makes a directory: 0777 less the umask, then as
		// core.sharedRepository asks below the git dir.
		if err := os.MkdirAll(h.Dir, 0o777); err != nil {
			return nil, fmt.Errorf("create the hooks directory: %w", sharedperm.Denied(filepath.Dir(h.Dir), err))
		}
		shared.Adjust(h.Dir)
	}
	unlock, err := lockHooks(ctx, o.Dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	for _, name := range hooks {
		a, err := installOne(h.Dir, name, o, shared)
		if err != nil {
			return actions, err
		}
		actions = append(actions, a)
	}
	return actions, nil
}

// hooksShared is the core.sharedRepository setting the hooks follow: the
// repository's when they live below its git dir, as git's own files do;
// none for a hooks directory elsewhere (core.hooksPath), which the umask
// alone governs.
func hooksShared(ctx context.Context, dir, hooks string) (sharedperm.Shared, error) {
	info, err := gitrepo.RepoInfo(ctx, dir)
	if err != nil || !within(filepath.Clean(hooks), filepath.Clean(info.CommonDir)) {
		return sharedperm.Umask, nil
	}
	return gitrepo.SharedRepository(ctx, dir)
}

func installOne(dir, name string, o InstallOptions, shared sharedperm.Shared) (Action, error) {
	path := filepath.Join(dir, name)
	a := Action{Hook: name, Path: path}
	script, err := render(name, o.Bin, o.FailOpen)
	if err != nil {
		return a, err
	}
	cur, err := readHook(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		a.What = "installed"
	case err != nil:
		return a, fmt.Errorf("read %s: %w", path, err)
	case cur != nil && isOurs(cur):
		switch {
		case !bytes.Equal(cur, script):
			a.What = "updated"
		case !executable(path):
			// git skips a hook it cannot execute, with only a hint.
			a.What = "made executable again"
		default:
			a.What = "already installed"
			return a, nil
		}
	default:
		prev := path + PrevSuffix
		if err := keepPrevious(path, prev, cur); err != nil {
			return a, err
		}
		a.What = "installed; the hook that was here runs first, kept as " + filepath.Base(prev)
	}
	// A hook that is a link was kept aside as a link; the link is replaced,
	// and what it pointed at (perhaps a file in the work tree, which
	// someone else may have committed) is never written.
	if err := atomicfile.WriteIn(dir, name, script, atomicfile.Options{Perm: 0o755, ForceMode: true, ReplaceLink: true, Shared: shared}); err != nil {
		return a, err
	}
	return a, nil
}

// lockHooks takes the repository's lock, so that two installs (or an
// install and an uninstall) do not each move the other's hook aside.
func lockHooks(ctx context.Context, dir string) (func(), error) {
	info, err := gitrepo.RepoInfo(ctx, dir)
	if err != nil {
		return nil, err
	}
	return gitrepo.LockRepository(ctx, info.Root, info.CommonDir)
}

// maxHook bounds a read of a hook file.
const maxHook = 4 << 20

// readHook reads a regular hook file within maxHook bytes; a symbolic link
// is nil content (a hook sentinel did not write), and is not followed.
func readHook(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, nil
	}
	return atomicfile.ReadFile(path, maxHook)
}

// keepPrevious saves a foreign hook beside sentinel's before sentinel's
// replaces it. The hook is linked, not moved, so that an interrupted install
// leaves the old hook in place, never no hook at all.
func keepPrevious(path, prev string, cur []byte) error {
	if cur == nil {
		return keepPreviousLink(path, prev)
	}
	saved, err := readHook(prev)
	switch {
	case err == nil && saved != nil && bytes.Equal(saved, cur):
		return nil // an earlier install was interrupted here
	case err == nil:
		return fmt.Errorf("%s is not sentinel's, and %s already holds another hook: move one of them away, then run `sentinel install` again", path, prev)
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("read %s: %w", prev, err)
	}
	if err := os.Link(path, prev); err == nil {
		return nil
	}
	// No hard links here: copy, with the mode.
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	return atomicfile.WriteFileMode(prev, cur, st.Mode().Perm())
}

// keepPreviousLink saves a hook that is a symbolic link as the same link.
func keepPreviousLink(path, prev string) error {
	target, err := os.Readlink(path)
	if err != nil {
		return err
	}
	if saved, err := os.Readlink(prev); err == nil {
		if saved == target {
			return nil // an earlier install was interrupted here
		}
		return fmt.Errorf("%s is not sentinel's, and %s already holds another hook: move one of them away, then run `sentinel install` again", path, prev)
	}
	if _, err := os.Lstat(prev); err == nil {
		return fmt.Errorf("%s is not sentinel's, and %s already holds another hook: move one of them away, then run `sentinel install` again", path, prev)
	}
	return os.Symlink(target, prev)
}

// Uninstall removes sentinel's hooks, and puts back, byte for byte and with
// its mode, each hook that sentinel had kept aside. Files without sentinel's
// fingerprint are left alone.
func Uninstall(ctx context.Context, dir string) ([]Action, error) {
	h, err := gitrepo.HooksDir(ctx, dir)
	if err != nil {
		return nil, err
	}
	unlock, err := lockHooks(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var actions []Action
	for _, name := range Names {
		path := filepath.Join(h.Dir, name)
		prev := path + PrevSuffix
		cur, err := readLinkedHook(path)
		if errors.Is(err, fs.ErrNotExist) {
			if _, perr := os.Stat(prev); perr == nil {
				actions = append(actions, Action{name, prev, "left alone: a saved hook without sentinel's hook in front of it; rename it back to " + name + " if you want it"})
			}
			continue
		}
		if err != nil {
			return actions, fmt.Errorf("read %s: %w", path, err)
		}
		if !isOurs(cur) {
			continue
		}
		if _, err := os.Stat(prev); err == nil {
			// rename replaces sentinel's hook in one step, and keeps the
			// saved hook's bytes and mode.
			if err := os.Rename(prev, path); err != nil {
				return actions, fmt.Errorf("restore %s: %w", path, err)
			}
			actions = append(actions, Action{name, path, "removed; the previous hook is back"})
			continue
		}
		if err := os.Remove(path); err != nil {
			return actions, fmt.Errorf("remove %s: %w", path, err)
		}
		actions = append(actions, Action{name, path, "removed"})
	}
	return actions, nil
}

// HookStatus says whether one of sentinel's hooks is installed.
type HookStatus struct {
	// Hook is the hook's name.
	Hook string
	// Path is the hook file git runs.
	Path string
	// Installed reports that Path is sentinel's own hook.
	Installed bool
	// Foreign reports a hook file that is not sentinel's.
	Foreign bool
	// NotExecutable reports an installed hook that git skips because it
	// lacks the executable bit.
	NotExecutable bool
	// Managed is set when a hook manager's configuration runs sentinel
	// for this hook; its ShimInstalled says whether git reaches it.
	Managed *ManagedHook
	// Owner is set when another hook manager owns the hooks, so that
	// `sentinel install` refuses to take them over.
	Owner *ManagerError
	// Legacy is set when the hook git runs is pre-commit's, installed in
	// its migration mode over sentinel's: `pre-commit install` moved
	// sentinel's hook aside to <hook>.legacy, and pre-commit's hook runs it
	// first, with the same arguments and input. It is that file's path;
	// "" otherwise.
	Legacy string
}

// LegacySuffix is the name pre-commit's migration mode gives the hook it
// moved aside and runs before its own.
const LegacySuffix = ".legacy"

// isPreCommitHook reports the hook script `pre-commit install` writes.
func isPreCommitHook(b []byte) bool {
	return bytes.Contains(b, []byte("File generated by pre-commit")) || bytes.Contains(b, []byte("pre-commit.com"))
}

// executable reports whether git may run the file at path. Windows has no
// executable bit; git for Windows runs hooks by their #! line.
func executable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && (runtime.GOOS == "windows" || st.Mode().Perm()&0o111 != 0)
}

// Status reports sentinel's default hooks in the repository containing dir:
// sentinel's own, or run by a hook manager's configuration.
func Status(ctx context.Context, dir string) ([]HookStatus, error) {
	h, err := gitrepo.HooksDir(ctx, dir)
	if err != nil {
		return nil, err
	}
	var managed map[string]*ManagedHook
	if root, err := gitrepo.FindRoot(ctx, dir); err == nil {
		managed = ManagedHooks(root, h)
	}
	owner := Owner(h, managed)
	var out []HookStatus
	for _, name := range DefaultHooks {
		p := filepath.Join(h.Dir, name)
		st := HookStatus{Hook: name, Path: p, Managed: managed[name], Owner: owner}
		if b, err := readLinkedHook(p); err == nil {
			st.Installed = isOurs(b)
			st.Foreign = !st.Installed
			st.NotExecutable = st.Installed && !executable(p)
			if st.Foreign && isPreCommitHook(b) && executable(p) {
				// pre-commit runs the legacy hook only when it may
				// execute it.
				legacy := p + LegacySuffix
				if lb, err := readLinkedHook(legacy); err == nil && isOurs(lb) && executable(legacy) {
					st.Legacy = legacy
				}
			}
		}
		out = append(out, st)
	}
	return out, nil
}

// hooksDirStaysInside refuses a hooks directory inside the work tree that
// resolves, through a link, to somewhere outside it and outside the git
// dir: a committed symlink (husky's .husky/_ made into a link) would have
// install write its scripts, and move a foreign pre-commit, wherever the
// link points. A hooks directory configured outside the repository is the
// user's own choice and stays.
func hooksDirStaysInside(ctx context.Context, dir, hooks string) error {
	root, err := gitrepo.FindRoot(ctx, dir)
	if err != nil {
		return nil // no work tree to escape
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil
	}
	if !within(filepath.Clean(hooks), root) && !within(filepath.Clean(hooks), realRoot) {
		return nil
	}
	real := resolveExisting(hooks)
	if within(real, realRoot) {
		return nil
	}
	return fmt.Errorf("the hooks directory %s is a link out of the repository, to %s; sentinel writes hooks only inside it: remove the link, or run `sentinel install --force` to write there", hooks, real)
}

// resolveExisting resolves the links of the longest part of p that exists.
func resolveExisting(p string) string {
	existing, rest := filepath.Clean(p), ""
	for {
		if r, err := filepath.EvalSymlinks(existing); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			return p
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
}

func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}

// readLinkedHook reads a hook file, following links to a regular file only,
// opened without blocking and with a bound: a hooks directory a repository
// commits (core.hooksPath into the work tree) can hold a link to a FIFO or
// a device, which must not stall install, uninstall or doctor.
func readLinkedHook(path string) ([]byte, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	b, err := atomicfile.ReadFile(real, maxHook)
	if errors.Is(err, atomicfile.ErrTooLarge) {
		// Larger than any hook of sentinel's: read its start, where the
		// fingerprint would be.
		f, ferr := os.Open(real)
		if ferr != nil {
			return nil, ferr
		}
		defer f.Close()
		return io.ReadAll(io.LimitReader(f, maxHook))
	}
	return b, err
}
