package githooks

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/atomicfile"
)

// ManagedHook is one of sentinel's hooks that a hook manager's
// configuration runs: husky, lefthook or pre-commit calling `sentinel hook`
// the way the README shows.
type ManagedHook struct {
	// Manager is husky, lefthook or pre-commit.
	Manager string
	// Config is the file that calls sentinel, relative to the work tree's
	// root, in slash form.
	Config string
	// Line is the line of the call in Config.
	Line int
	// Shim is the hook file the manager installs for git to run, in the
	// hooks directory git reads.
	Shim string
	// ShimInstalled reports that Shim is the manager's and git can run it.
	ShimInstalled bool
	// Install is the manager's own command that installs its hooks.
	Install string
}

// managerInstall is each manager's command that writes its hook shims.
var managerInstall = map[string]string{
	"husky":    "npx husky",
	"lefthook": "lefthook install",
}

// lefthookConfigs are the files lefthook reads its hooks from, the main
// ones and the local overrides, in the order it merges them.
var lefthookConfigs = []string{
	"lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".lefthook.yaml",
	"lefthook.toml", ".lefthook.toml", "lefthook.json", ".lefthook.json",
	".config/lefthook.yml", ".config/lefthook.yaml",
	"lefthook-local.yml", ".lefthook-local.yml", "lefthook-local.yaml", ".lefthook-local.yaml",
	"lefthook-local.toml", ".lefthook-local.toml", "lefthook-local.json", ".lefthook-local.json",
}

// preCommitConfig is the file pre-commit reads its hooks from.
const preCommitConfig = ".pre-commit-config.yaml"

// maxManagerConfig bounds a read of a hook manager's configuration.
const maxManagerConfig = 1 << 20

// sentinelCall finds a call of sentinel's hook entry point on a line:
// `sentinel hook pre-commit`, also through a path or the engine's name.
// This file's patterns are compiled on first use: the hooks link this
// package, and every hook run would pay for compiling them at start-up.
var sentinelCall = lazy(`(?:^|[\s/"'=:{(;&|])sentinel(?:-engine)?["']?\s+hook\s+(` +
	strings.Join(Names, "|") + `)\b`)

// ManagedHooks finds the hooks that husky, lefthook or pre-commit run
// sentinel for in the work tree at root, and whether each manager's own
// hook is installed where git looks (h). The first configuration that
// calls sentinel for a hook wins.
func ManagedHooks(root string, h *gitrepo.Hooks) map[string]*ManagedHook {
	out := map[string]*ManagedHook{}
	add := func(manager, config string, calls map[string]int) {
		for hook, line := range calls {
			if out[hook] == nil {
				out[hook] = &ManagedHook{Manager: manager, Config: config, Line: line}
			}
		}
	}
	for _, name := range Names {
		rel := ".husky/" + name
		if data := readManagerConfig(root, rel); data != nil {
			calls := scanCalls(data, nil)
			for hook := range calls {
				if hook != name {
					delete(calls, hook)
				}
			}
			add("husky", rel, calls)
		}
	}
	for _, rel := range lefthookConfigs {
		if data := readManagerConfig(root, rel); data != nil {
			add("lefthook", rel, scanCalls(data, lefthookSection(rel)))
		}
	}
	if data := readManagerConfig(root, preCommitConfig); data != nil {
		add("pre-commit", preCommitConfig, preCommitCalls(data))
	}
	for hook, m := range out {
		m.Shim, m.ShimInstalled = shimFor(root, h, m.Manager, hook)
		m.Install = managerInstall[m.Manager]
		if m.Manager == "pre-commit" {
			m.Install = "pre-commit install --hook-type " + hook
		}
	}
	return out
}

// readManagerConfig reads a file of the work tree, bounded and without
// following a link out of it; nil when it is not there.
func readManagerConfig(root, rel string) []byte {
	data, err := atomicfile.ReadIn(root, rel, maxManagerConfig)
	if err != nil {
		return nil
	}
	return data
}

// scanCalls returns the hooks the data calls sentinel for, each with the
// line of its first call. Comment lines are skipped. section, when set,
// names the hook a line belongs to in the file's structure; a call under
// another hook's section is not that hook's.
func scanCalls(data []byte, section func(line string) (string, bool)) map[string]int {
	calls := map[string]int{}
	current := ""
	for i, line := range strings.Split(string(data), "\n") {
		if section != nil {
			if s, ok := section(line); ok {
				current = s
				continue
			}
		}
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//") {
			continue
		}
		for _, m := range sentinelCall().FindAllStringSubmatch(line, -1) {
			hook := m[1]
			if section != nil && current != hook {
				continue
			}
			if _, seen := calls[hook]; !seen {
				calls[hook] = i + 1
			}
		}
	}
	return calls
}

var (
	yamlTopKey = lazy(`^["']?([A-Za-z0-9_-]+)["']?\s*:`)
	tomlTable  = lazy(`^\s*\[+\s*["']?([A-Za-z0-9_-]+)`)
	jsonTopKey = lazy(`^\s{0,2}"([A-Za-z0-9_-]+)"\s*:\s*\{`)
)

// lefthookSection returns how a lefthook file of this name says which hook
// the lines below belong to: a top-level key in YAML, the first part of a
// table's name in TOML, a key of the top object in JSON.
func lefthookSection(name string) func(string) (string, bool) {
	switch filepath.Ext(name) {
	case ".toml":
		return func(line string) (string, bool) {
			if m := tomlTable().FindStringSubmatch(line); m != nil {
				return m[1], true
			}
			return "", false
		}
	case ".json":
		return func(line string) (string, bool) {
			if m := jsonTopKey().FindStringSubmatch(line); m != nil {
				return m[1], true
			}
			return "", false
		}
	}
	return func(line string) (string, bool) {
		if m := yamlTopKey().FindStringSubmatch(line); m != nil {
			return m[1], true
		}
		return "", false
	}
}

// preCommitStage maps pre-commit's stage names, old and new, to git hooks.
var preCommitStage = map[string]string{
	"commit": "pre-commit", "pre-commit": "pre-commit", "push": "pre-push", "pre-push": "pre-push",
	"commit-msg": "commit-msg", "prepare-commit-msg": "prepare-commit-msg",
}

var (
	yamlItem   = lazy(`^(\s*)-\s`)
	yamlStages = lazy(`\bstages\s*:\s*(\[[^\]]*\])?`)
)

// preCommitCalls returns the hooks a .pre-commit-config.yaml runs sentinel
// for: an entry `sentinel hook X`, in a hook item whose stages, when it
// lists them, include X.
func preCommitCalls(data []byte) map[string]int {
	calls := map[string]int{}
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		m := yamlItem().FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		// The item is its first line and those indented deeper than its
		// dash.
		end := i + 1
		for end < len(lines) {
			l := lines[end]
			if strings.TrimSpace(l) != "" && indent(l) <= len(m[1]) {
				break
			}
			end++
		}
		item := lines[i:end]
		call, at := "", 0
		var stages []string
		listed := false
		for j, l := range item {
			if strings.HasPrefix(strings.TrimSpace(l), "#") {
				continue
			}
			if c := sentinelCall().FindStringSubmatch(l); c != nil && call == "" {
				call, at = c[1], i+j+1
			}
			if s := yamlStages().FindStringSubmatch(l); s != nil {
				listed = true
				if s[1] != "" {
					stages = append(stages, strings.FieldsFunc(strings.Trim(s[1], "[]"), func(r rune) bool {
						return r == ',' || r == ' ' || r == '"' || r == '\''
					})...)
					continue
				}
				// A block list: the items indented below the key.
				for _, b := range item[j+1:] {
					bm := yamlItem().FindStringSubmatch(b)
					if bm == nil || indent(b) <= indent(l) {
						break
					}
					stages = append(stages, strings.Trim(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(b), "-")), `"'`))
				}
			}
		}
		// An item that holds other items (repos: holding hooks:) is read
		// through its inner items.
		if call == "" || strings.Count(strings.Join(item, "\n"), "entry") > 1 {
			continue
		}
		ok := !listed
		for _, s := range stages {
			if preCommitStage[s] == call {
				ok = true
			}
		}
		if _, seen := calls[call]; ok && !seen {
			calls[call] = at
		}
	}
	return calls
}

// lazy compiles a pattern the first time it is used.
func lazy(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

func indent(line string) int {
	return len(line) - len(strings.TrimLeft(line, " \t"))
}

// shimFor returns the file git runs for hook and whether it is the
// manager's, in place and executable. Husky (v9) points core.hooksPath at
// .husky/_, where a shim per hook runs .husky/<hook>; before v9 it pointed
// it at .husky itself. Lefthook and pre-commit write a script per hook into
// the hooks directory, marked with their names.
func shimFor(root string, h *gitrepo.Hooks, manager, hook string) (string, bool) {
	shim := filepath.Join(h.Dir, hook)
	switch manager {
	case "husky":
		husky := filepath.Join(root, ".husky")
		if !sameDir(h.Dir, husky) && !sameDir(h.Dir, filepath.Join(husky, "_")) {
			return shim, false
		}
		return shim, executable(shim)
	case "lefthook", "pre-commit":
		b, err := readHook(shim)
		if err != nil || b == nil || !executable(shim) {
			return shim, false
		}
		s := string(b)
		if manager == "lefthook" {
			return shim, strings.Contains(s, "lefthook")
		}
		return shim, isPreCommitHook(b)
	}
	return shim, false
}

// sameDir reports whether a and b are the same directory, links resolved.
func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// Owner returns the hook manager that owns the repository's hooks when
// `sentinel install` would refuse to take them over (the error it would
// give), or nil. Hooks a manager already runs sentinel for (managed) are
// left to it, as install leaves them.
func Owner(h *gitrepo.Hooks, managed map[string]*ManagedHook) *ManagerError {
	var own []string
	for _, name := range DefaultHooks {
		if managed[name] == nil {
			own = append(own, name)
		}
	}
	if len(own) == 0 {
		return nil
	}
	return detectManager(h, own)
}

// managedAction is what install does with a hook a manager runs sentinel
// for: it leaves it to the manager, and says when the manager's own hook
// is not installed, with the manager's command.
func managedAction(root, hook string, m *ManagedHook) Action {
	a := Action{Hook: hook, Path: filepath.Join(root, filepath.FromSlash(m.Config))}
	if m.ShimInstalled {
		a.What = "left to " + m.Manager + ", which runs sentinel for it"
	} else {
		a.What = "left to " + m.Manager + ", which runs sentinel for it once its hook is installed: run `" + m.Install + "`"
	}
	return a
}

// AddToManager returns what adds sentinel's hook to a manager that owns
// the hooks: for husky the exact command, for the others where the README's
// lines go.
func AddToManager(manager, hook string) string {
	switch manager {
	case "husky":
		call := "sentinel hook " + hook
		switch hook {
		case "commit-msg", "prepare-commit-msg":
			call += ` "$1"`
		case "pre-push":
			call += ` "$@"`
		}
		return "echo '" + call + "' >> .husky/" + hook
	case "lefthook":
		return "add `sentinel hook " + hook + "` to lefthook.yml as docs/install.md shows, then run `lefthook install`"
	case "pre-commit":
		return "add the sentinel-" + hook + " hook to " + preCommitConfig + " as docs/install.md shows, then run `pre-commit install --hook-type " + hook + "`"
	}
	return "sentinel install --force"
}
