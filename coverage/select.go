package coverage

import (
	"context"
	"path"

	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/languages"
)

// selection decides which files of a snapshot are test files the way each
// project's own runner does: a JavaScript package's runner and its config,
// a Maven or Gradle module's test sources, an RSpec or Rake project's
// pattern, a phpunit.xml's test suites. A file under no project whose
// runner sentinel knows is left to its language's own name globs.
type selection struct {
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
	s       *snapshot
	configs map[string]*entry // by path, the files whose base name a selection asked for
	order   []string          // their paths, in snapshot order
	dirs    map[string]bool   // built on first use
}

// read returns a config file's content, or nil when it is missing, too
// large or unreadable: a selection then falls back to the runner's defaults
// or to the language's globs, never to counting nothing.
func (pf *projectFiles) read(ctx context.Context, p string) []byte {
	e := pf.configs[p]
	if e == nil {
		return nil
	}
	b, err := pf.s.read(ctx, e)
	if err != nil || len(b) > maxConfigSize {
		return nil
	}
	return b
}

// isDir reports whether p is a directory of the snapshot.
func (pf *projectFiles) isDir(p string) bool {
	if pf.dirs == nil {
		pf.dirs = map[string]bool{}
		for _, e := range pf.s.entries {
			for d := path.Dir(e.path); d != "." && !pf.dirs[d]; d = path.Dir(d) {
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

// newSelection reads the snapshot's package.json files and runner configs.
func newSelection(ctx context.Context, s *snapshot) *selection {
	sel := &selection{js: newJSSelection(ctx, s)}
	if len(runnerKinds) == 0 {
		return sel
	}
	pf := &projectFiles{s: s, configs: map[string]*entry{}}
	for i := range s.entries {
		e := &s.entries[i]
		if e.mode != "" && e.mode != "100644" && e.mode != "100755" {
			continue
		}
		base := path.Base(e.path)
		for _, k := range runnerKinds {
			if k.config(base) {
				pf.configs[e.path] = e
				pf.order = append(pf.order, e.path)
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

// language returns the language that counts the file at p, or nil.
func (sel *selection) language(p string) *languages.Language {
	for _, r := range sel.runners {
		if l, ok := r.decide(p); ok {
			return l
		}
	}
	return sel.js.language(p)
}

// selected reports whether a runner selection may decide the file at p,
// so that a snapshot of some files needs the whole tree's configs.
func selected(p string) bool {
	if jsCandidate(p) && languages.ForPath(p) == nil {
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

// selectionAt returns the selection of the revision's whole tree for a
// snapshot that lists only the files a change touches, since the configs
// that decide are seldom among them. It is nil, for the snapshot's own,
// when no file needs it or the tree cannot be listed.
func selectionAt(ctx context.Context, s *snapshot, rev string) *selection {
	need := false
	for _, e := range s.entries {
		need = need || selected(e.path)
	}
	if !need || rev == "" {
		return nil
	}
	es, err := gitrepo.TreeEntries(ctx, s.root, rev)
	if err != nil {
		return nil
	}
	full := &snapshot{root: s.root, info: s.info, objects: s.objects}
	for _, e := range es {
		full.entries = append(full.entries, entry{path: e.Path, blob: e.Blob, mode: e.Mode})
	}
	return newSelection(ctx, full)
}
