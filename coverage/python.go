package coverage

import (
	"context"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gitsentinel/sentinel/coverage/runners"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/languages"
)

// The Python side of a count: runners.Pytest decides, from the snapshot's
// configurations and conftest.py files, which files pytest collects and
// where an import finds its module; the count reads those modules through
// the cache, round after round, for the tests a class inherits.

// maxPyRounds bounds the rounds of reading the modules bases come from:
// each round reads what the previous one found imported.
const maxPyRounds = 12

// pyCount is the Python side of one count.
type pyCount struct {
	// pt is pytest's view of the whole snapshot.
	pt *runners.Pytest
	s  *snapshot
	// all is the whole snapshot, where configurations and modules are
	// looked for: its entries, or the tree they are a part of.
	all []entry
	// mods are the modules at hand, by path; need the ones collection
	// asked for that are not.
	mods map[string]*languages.PyModule
	need map[string]bool
	// kinds are the Python files the count reads, by entry index.
	kinds map[int]runners.PyKind
	// deps are, for each collected module, the other modules its tests
	// depend on.
	deps map[string][]string
}

// newPyCount prepares the Python side of a count; nil when the snapshot
// counts no Python file.
func newPyCount(ctx context.Context, s *snapshot) (*pyCount, error) {
	any := false
	for _, e := range s.entries {
		any = any || strings.HasSuffix(e.path, ".py")
	}
	if !any {
		return nil, nil
	}
	pc := &pyCount{s: s, all: s.entries,
		mods: map[string]*languages.PyModule{}, need: map[string]bool{}, kinds: map[int]runners.PyKind{}}
	if s.context != nil {
		all, err := s.context(ctx)
		if err != nil {
			return nil, err
		}
		pc.all = all
	}
	pc.pt = runners.NewPytest(ctx, snapshotTree{s, pc.all}, filepath.Base(s.root), func(p string) *languages.PyModule { return pc.mods[p] })
	return pc, nil
}

// owns reports a path whose fate the Python side decides.
func (pc *pyCount) owns(p string) bool {
	return pc != nil && strings.HasSuffix(p, ".py")
}

// Find implements languages.PyResolver: runners.Pytest's Find.
func (pc *pyCount) Find(from string, level int, module string) string {
	return pc.pt.Find(from, level, module)
}

// Module implements languages.PyResolver: the module when it has been
// read, and otherwise a note that it is needed.
func (pc *pyCount) Module(p string) *languages.PyModule {
	if m, ok := pc.mods[p]; ok {
		return m
	}
	if _, ok := pc.pt.Regular(p); ok {
		pc.need[p] = true
	}
	return nil
}

// maxPyModules bounds the modules read only for the classes they define.
const maxPyModules = 20000

// language decides a Python entry: the language to count it with (nil for
// none), and whether to parse it whatever the prefilter says.
func (pc *pyCount) language(ctx context.Context, i int) (*languages.Language, bool) {
	k := pc.pt.Kind(ctx, pc.s.entries[i].path)
	if k == runners.PyNone {
		return nil, false
	}
	pc.kinds[i] = k
	return languages.Python, k == runners.PyCollected
}

// readConftests reads the conftest.py files first: their collect_ignore
// lists decide which files are collected.
func (pc *pyCount) readConftests(ctx context.Context, c *cache, o Options) error {
	if pc == nil {
		return nil
	}
	_, err := pc.read(ctx, c, pc.pt.Conftests(), o)
	return err
}

// read counts entries through the cache, whatever the prefilter says, and
// keeps their modules at hand. It returns how many it had to parse.
func (pc *pyCount) read(ctx context.Context, c *cache, idxs []int, o Options) (int, error) {
	results := make([]*languages.Result, len(pc.all))
	skipped := make([]*SkippedFile, len(pc.all))
	var jobs []job
	for _, i := range idxs {
		e := &pc.all[i]
		e.settle()
		if e.blob != "" {
			if r := c.get(cacheKey(languages.Python.Name, ".py", e.blob)); r != nil && !r.Filtered {
				results[i] = r
				continue
			}
		}
		jobs = append(jobs, job{e: e, lang: languages.Python, idx: i, full: true})
	}
	o.Progress = nil
	hits, err := parseAll(ctx, pc.s, c, jobs, results, skipped, &o)
	if err != nil {
		return 0, err
	}
	for _, i := range idxs {
		var m *languages.PyModule
		if r := results[i]; r != nil {
			m = r.Python
		}
		pc.mods[pc.all[i].path] = m
	}
	return len(jobs) - hits, nil
}

// collect turns the Python files' results into what pytest collects from
// them under their project's configuration, reading the modules their
// classes' bases come from, round after round, as collection asks for
// them. A support file keeps its assertions and holds no tests; a file
// with neither is not counted.
func (pc *pyCount) collect(ctx context.Context, c *cache, results []*languages.Result, skipped []*SkippedFile, o Options) error {
	if pc == nil {
		return nil
	}
	var order []int
	for i := range pc.kinds {
		order = append(order, i)
		if r := results[i]; r != nil && r.Python != nil {
			pc.mods[pc.s.entries[i].path] = r.Python
		}
	}
	sort.Ints(order)
	tests := map[int][]languages.Test{}
	refused := map[int]*SkippedFile{}
	for round, read := 0, 0; ; round++ {
		pc.need = map[string]bool{}
		pc.deps = map[string][]string{}
		proj := &languages.PyProject{Resolver: pc}
		for _, i := range order {
			r := results[i]
			if pc.kinds[i] != runners.PyCollected || r == nil || r.Python == nil {
				continue
			}
			p := pc.s.entries[i].path
			var deps []string
			var err error
			tests[i], deps, err = proj.Collect(pc.pt.Config(ctx, path.Dir(p)), p, r.Python)
			// A module past the bounds of collection, with the project's
			// other modules, is refused as its count alone would be.
			delete(refused, i)
			if sf := refusal(p, err); sf != nil {
				refused[i] = sf
			}
			if len(deps) > 0 {
				pc.deps[p] = deps
			}
		}
		if len(pc.need) == 0 || round == maxPyRounds || read >= maxPyModules {
			break
		}
		var idxs []int
		for p := range pc.need {
			i, _ := pc.pt.Index(p)
			idxs = append(idxs, i)
		}
		sort.Ints(idxs)
		read += len(idxs)
		if _, err := pc.read(ctx, c, idxs, o); err != nil {
			return err
		}
	}
	for _, i := range order {
		r := results[i]
		if r == nil {
			continue
		}
		if sf := refused[i]; sf != nil {
			results[i], skipped[i] = nil, sf
			continue
		}
		nr := *r
		nr.Tests = tests[i]
		if len(nr.Tests) == 0 && nr.Assertions == 0 && nr.Vacuous == 0 {
			nr.Filtered = true
		}
		results[i] = &nr
	}
	return nil
}

// pyDependents adds to the changes of a snapshot the Python modules it
// does not change whose tests come from modules it changes: a test a
// subclass inherits is lost when its base loses it, in another file.
func pyDependents(ctx context.Context, c *Counts, ref string, changes []gitrepo.Change) ([]gitrepo.Change, error) {
	if len(c.pyDeps) == 0 || len(changes) == 0 {
		return changes, nil
	}
	changed := map[string]bool{}
	for _, ch := range changes {
		changed[ch.Path] = true
	}
	var files []string
	for f, deps := range c.pyDeps {
		if changed[f] {
			continue
		}
		for _, d := range deps {
			if changed[d] {
				files = append(files, f)
				break
			}
		}
	}
	if len(files) == 0 {
		return changes, nil
	}
	sort.Strings(files)
	tree, err := treeEntries(ctx, c.Root, ref)
	if err != nil {
		return nil, err
	}
	at := map[string]entry{}
	for _, e := range tree {
		at[e.path] = e
	}
	for _, f := range files {
		if e, ok := at[f]; ok {
			changes = append(changes, gitrepo.Change{Path: f, OldMode: e.mode, OldBlob: e.blob, NewMode: e.mode})
		}
	}
	return changes, nil
}
