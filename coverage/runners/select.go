// Package runners decides which files of a snapshot are test files the
// way each project's own test runner does: a JavaScript package's runner
// and its config, a Maven or Gradle module's test sources, an RSpec or Rake
// project's pattern, a phpunit.xml's test suites, a Swift package's test
// targets, a .NET test project (Selection), and the Python files pytest
// collects under each project's configuration and conftest.py files
// (Pytest). A file under no project whose runner sentinel knows is left to
// its language's own name globs.
//
// The package reads the snapshot through Tree only, so it knows nothing of
// how coverage lists, reads or caches files.
package runners

import (
	"context"
	"path"
	"slices"

	"github.com/gitsentinel/sentinel/languages"
)

// Tree is the snapshot a selection reads: its files, in the snapshot's
// order, and their content.
type Tree interface {
	// Len is the number of files.
	Len() int
	// File is the i-th file's slash path, relative to the snapshot's
	// root, and whether it is a regular file (not a link or a submodule).
	File(i int) (path string, regular bool)
	// Read returns the i-th file's content.
	Read(ctx context.Context, i int) ([]byte, error)
}

// Selection decides which files of a snapshot are test files the way each
// project's own runner does.
type Selection struct {
	js      *jsSelection
	runners []runnerSelection
}

// runnerSelection is one language family's reading of its projects.
type runnerSelection interface {
	// decide returns the language that counts p, or nil when the runner of
	// p's project never runs it. decided is false when p is under no
	// project the selection knows: the language's globs decide then.
	decide(p string) (l *languages.Language, decided bool)
}

// projectFiles is what a runner selection reads of a snapshot: its config
// files by path, read within a bound, and whether a path is a directory.
type projectFiles struct {
	t       Tree
	configs map[string]int  // by path, the files whose base name a selection asked for
	order   []string        // their paths, in snapshot order
	dirs    map[string]bool // built on first use
}

// read returns a config file's content, or nil when it is missing, too
// large or unreadable: a selection then falls back to the runner's defaults
// or to the language's globs, never to counting nothing.
func (pf *projectFiles) read(ctx context.Context, p string) []byte {
	i, ok := pf.configs[p]
	if !ok {
		return nil
	}
	b, err := pf.t.Read(ctx, i)
	if err != nil || len(b) > maxConfigSize {
		return nil
	}
	return b
}

// has reports whether p is one of the config files a selection asked for.
func (pf *projectFiles) has(p string) bool {
	_, ok := pf.configs[p]
	return ok
}

// isDir reports whether p is a directory of the snapshot.
func (pf *projectFiles) isDir(p string) bool {
	if pf.dirs == nil {
		pf.dirs = map[string]bool{}
		for i := range pf.t.Len() {
			p, _ := pf.t.File(i)
			for d := path.Dir(p); d != "." && !pf.dirs[d]; d = path.Dir(d) {
				pf.dirs[d] = true
			}
		}
	}
	return pf.dirs[p]
}

// paths returns the config files a selection asked for, in snapshot order.
func (pf *projectFiles) paths(match func(base string) bool) []string {
	var out []string
	for _, p := range pf.order {
		if match(path.Base(p)) {
			out = append(out, p)
		}
	}
	return out
}

// runnerKind is one language family's runner selection: the config files it
// reads (by base name) and how it builds its selection from them.
type runnerKind struct {
	// config reports a base name the selection reads.
	config func(base string) bool
	// languages are the languages whose files it decides.
	languages []*languages.Language
	// build reads the configs and returns the selection, or nil when the
	// snapshot holds none of its projects.
	build func(ctx context.Context, pf *projectFiles) runnerSelection
}

// runnerKinds are the runner selections besides JavaScript's.
var runnerKinds = []runnerKind{
	jvmKind,
	{config: rubyConfig, languages: []*languages.Language{languages.Ruby}, build: newRubySelection},
	{config: phpConfigName, languages: []*languages.Language{languages.PHP}, build: newPHPSelection},
	swiftKind,
	csharpKind,
}

// New reads the tree's package.json files and runner configs.
func New(ctx context.Context, t Tree) *Selection {
	sel := &Selection{js: newJSSelection(ctx, t)}
	if len(runnerKinds) == 0 {
		return sel
	}
	pf := &projectFiles{t: t, configs: map[string]int{}}
	for i := range t.Len() {
		p, regular := t.File(i)
		if !regular {
			continue
		}
		base := path.Base(p)
		for _, k := range runnerKinds {
			if k.config(base) {
				pf.configs[p] = i
				pf.order = append(pf.order, p)
				break
			}
		}
	}
	if len(pf.configs) == 0 {
		return sel
	}
	for _, k := range runnerKinds {
		if r := k.build(ctx, pf); r != nil {
			sel.runners = append(sel.runners, r)
		}
	}
	return sel
}

// Language returns the language that counts the file at p, or nil.
func (sel *Selection) Language(p string) *languages.Language {
	for _, r := range sel.runners {
		if l, ok := r.decide(p); ok {
			return l
		}
	}
	return sel.js.language(p)
}

// Input reports whether the file at p is one that decides which files are
// test files, or how they count, beside those files themselves: a runner's
// config or manifest (package.json and each runner's own, pytest's
// configuration files and conftest.py), or a language's project manifest
// (go.mod, Cargo.toml). A change to one can change what counts in files
// the change does not touch.
func Input(p string) bool {
	base := path.Base(p)
	if base == "package.json" || jsConfig(base) || base == "conftest.py" || slices.Contains(languages.PyConfigNames, base) {
		return true
	}
	for _, k := range runnerKinds {
		if k.config(base) {
			return true
		}
	}
	for _, l := range languages.All() {
		if l.Manifest != "" && base == l.Manifest {
			return true
		}
	}
	return false
}

// Selected reports whether a runner selection may decide the file at p,
// so that a snapshot of some files needs the whole tree's configs.
func Selected(p string) bool {
	if JSCandidate(p) && languages.ForPath(p) == nil {
		return true
	}
	ext := path.Ext(p)
	for _, k := range runnerKinds {
		for _, l := range k.languages {
			if _, ok := l.Grammars[ext]; ok {
				return true
			}
		}
	}
	return false
}
