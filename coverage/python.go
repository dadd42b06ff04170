package coverage

import (
	"context"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/languages"
	"github.com/gobwas/glob"
)

// Python's test files are the files pytest collects, and that depends on
// the project: its configuration (python_files, testpaths, norecursedirs,
// addopts' --ignore), its conftest.py files (collect_ignore) and, for the
// tests of a class, the modules its bases come from. All of them are read
// from the snapshot being counted, never from elsewhere.
//
// The configuration of a file is the one pytest would read if run from
// the nearest directory above the file that has one (pytest.ini,
// .pytest.ini, pyproject.toml with [tool.pytest.ini_options], tox.ini with
// [pytest], setup.cfg with [tool:pytest], tried in that order in each
// directory): that directory is the file's rootdir. A repository holding
// several Python projects, each with its own configuration, is counted as
// if pytest ran in each of them. With no configuration, pytest's defaults
// apply from the repository's root.

// pyKind is what a Python file is to the count.
type pyKind uint8

const (
	// pyNone is a file pytest never collects nor a helper of tests.
	pyNone pyKind = iota
	// pyCollected is a module pytest collects: its tests count.
	pyCollected
	// pySupport is a helper in a test directory or a conftest.py: its
	// assertions count, it holds no tests of its own.
	pySupport
)

// maxPyConfigSize bounds a configuration file read.
const maxPyConfigSize = 1 << 20

// maxPyRounds bounds the rounds of reading the modules bases come from:
// each round reads what the previous one found imported.
const maxPyRounds = 12

// pyCount is the Python side of one count.
type pyCount struct {
	// ctx is the count's, for the reads that resolving imports makes.
	ctx context.Context
	s   *snapshot
	// all is the whole snapshot, where configurations and modules are
	// looked for: its entries, or the tree they are a part of.
	all    []entry
	byPath map[string]int  // index in all by path
	dirs   map[string]bool // every directory of the snapshot ("" the root)
	// cfgs is the configuration that applies in each directory.
	cfgs map[string]*languages.PyConfig
	// starts are each configuration's collection starts.
	starts map[*languages.PyConfig][]string
	// mods are the modules at hand, by path; need the ones collection
	// asked for that are not.
	mods map[string]*languages.PyModule
	need map[string]bool
	// kinds are the Python files the count reads, by entry index.
	kinds map[int]pyKind
	// deps are, for each collected module, the other modules its tests
	// depend on.
	deps map[string][]string
	// tails indexes the Python files for Find; found remembers its
	// answers.
	tails map[string][]string
	found map[pyFindKey]string
}

type pyFindKey struct {
	dir, module string
	level       int
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
	pc := &pyCount{ctx: ctx, s: s, all: s.entries, dirs: map[string]bool{"": true},
		cfgs: map[string]*languages.PyConfig{}, starts: map[*languages.PyConfig][]string{},
		mods: map[string]*languages.PyModule{}, need: map[string]bool{}, kinds: map[int]pyKind{}}
	if s.context != nil {
		all, err := s.context(ctx)
		if err != nil {
			return nil, err
		}
		pc.all = all
	}
	// Sized once: a tree of 100,000 files grows no map while it is listed.
	pc.byPath = make(map[string]int, len(pc.all))
	for i, e := range pc.all {
		pc.byPath[e.path] = i
		for d := path.Dir(e.path); d != "." && !pc.dirs[d]; d = path.Dir(d) {
			pc.dirs[d] = true
		}
	}
	return pc, nil
}

// owns reports a path whose fate the Python side decides.
func (pc *pyCount) owns(p string) bool {
	return pc != nil && strings.HasSuffix(p, ".py")
}

func (pc *pyCount) regular(p string) (*entry, bool) {
	i, ok := pc.byPath[p]
	if !ok {
		return nil, false
	}
	e := &pc.all[i]
	return e, e.mode == "" || e.mode == "100644" || e.mode == "100755"
}

// config returns the configuration for the files of a directory.
func (pc *pyCount) config(ctx context.Context, dir string) *languages.PyConfig {
	if dir == "." {
		dir = ""
	}
	if c, ok := pc.cfgs[dir]; ok {
		return c
	}
	var c *languages.PyConfig
	for _, name := range languages.PyConfigNames {
		p := path.Join(dir, name)
		e, ok := pc.regular(p)
		if !ok {
			continue
		}
		data, err := pc.s.read(ctx, e)
		if err != nil || len(data) > maxPyConfigSize {
			continue
		}
		// A file pytest would refuse stops nothing here: the next one,
		// or pytest's defaults, apply.
		if cfg, ok, err := languages.ParsePyConfig(p, data); err == nil && ok {
			c = cfg
			break
		}
	}
	if c == nil {
		if dir == "" {
			c = languages.DefaultPyConfig("")
		} else {
			c = pc.config(ctx, path.Dir(dir))
		}
	}
	pc.cfgs[dir] = c
	return c
}

// collectionStarts are the paths, relative to the rootdir, pytest starts
// collecting from: addopts' paths, else testpaths that exist, else the
// rootdir ("").
func (pc *pyCount) collectionStarts(c *languages.PyConfig) []string {
	if st, ok := pc.starts[c]; ok {
		return st
	}
	var st []string
	exists := func(rel string) bool {
		p := path.Join(c.Dir, rel)
		_, file := pc.byPath[p]
		return file || pc.dirs[p]
	}
	clean := func(rel string) string {
		rel = path.Clean(strings.TrimPrefix(rel, "./"))
		if rel == "." {
			return ""
		}
		return rel
	}
	for _, a := range c.Args {
		if a := clean(a); exists(a) {
			st = append(st, a)
		}
	}
	if len(st) == 0 {
		for _, tp := range c.Testpaths {
			tp = clean(tp)
			if !strings.ContainsAny(tp, "*?[") {
				if exists(tp) {
					st = append(st, tp)
				}
				continue
			}
			g, err := glob.Compile(tp, '/')
			if err != nil {
				continue
			}
			for d := range pc.dirs {
				if rel, ok := relTo(d, c.Dir); ok && g.Match(rel) {
					st = append(st, rel)
				}
			}
			for p := range pc.byPath {
				if rel, ok := relTo(p, c.Dir); ok && g.Match(rel) {
					st = append(st, rel)
				}
			}
		}
	}
	if len(st) == 0 {
		st = []string{""}
	}
	pc.starts[c] = st
	return st
}

// relTo returns p relative to dir, and whether p is dir or below it.
func relTo(p, dir string) (string, bool) {
	switch {
	case dir == "":
		return p, true
	case p == dir:
		return "", true
	case strings.HasPrefix(p, dir+"/"):
		return p[len(dir)+1:], true
	}
	return "", false
}

// kind decides what a Python file is: a module pytest collects, a
// support file of the tests, or neither.
func (pc *pyCount) kind(ctx context.Context, p string) pyKind {
	c := pc.config(ctx, path.Dir(p))
	rel, ok := relTo(p, c.Dir)
	if !ok {
		return pyNone
	}
	if path.Base(p) == "conftest.py" {
		// pytest loads a conftest.py wherever it collects, testpaths or not.
		return pySupport
	}
	initial, in := false, false
	for _, st := range pc.collectionStarts(c) {
		below, ok := relTo(rel, st)
		if !ok {
			continue
		}
		if below == "" {
			initial, in = true, true
			break
		}
		if !pc.recursed(c, st, below) {
			continue
		}
		in = true
	}
	if !in || pc.ignored(ctx, c, p) {
		return pyNone
	}
	if initial || languages.PyPathMatches(p, c.Files) {
		return pyCollected
	}
	if languages.ForPath(p) == languages.Python {
		return pySupport
	}
	return pyNone
}

// recursed reports whether pytest walks from the start down to the file:
// no directory on the way matches norecursedirs.
func (pc *pyCount) recursed(c *languages.PyConfig, start, below string) bool {
	parts := strings.Split(below, "/")
	dir := path.Join(c.Dir, start)
	for _, d := range parts[:len(parts)-1] {
		dir = path.Join(dir, d)
		if d == "__pycache__" || languages.PyPathMatches(dir, c.NoRecurse) {
			return false
		}
	}
	return true
}

// ignored reports a file pytest ignores, or that is in a directory it
// ignores: addopts' --ignore and --ignore-glob, relative to the rootdir,
// and the collect_ignore and collect_ignore_glob of the conftest.py files
// above it, relative to each conftest's directory.
func (pc *pyCount) ignored(ctx context.Context, c *languages.PyConfig, p string) bool {
	// The file and each directory above it, below the rootdir.
	var chain []string
	for q := p; ; q = path.Dir(q) {
		if _, ok := relTo(q, c.Dir); !ok || q == c.Dir || q == "." {
			break
		}
		chain = append(chain, q)
	}
	matchAny := func(base string, ignore, globs []string, strictlyBelow bool) bool {
		for _, q := range chain {
			if strictlyBelow && (q == base || !strings.HasPrefix(q, base+"/") && base != "") {
				continue
			}
			for _, ig := range ignore {
				if path.Join(base, ig) == q {
					return true
				}
			}
			for _, g := range globs {
				if languages.Fnmatch("/"+q, "/"+path.Join(base, g)) {
					return true
				}
			}
		}
		return false
	}
	if matchAny(c.Dir, c.Ignore, c.IgnoreGlob, false) {
		return true
	}
	// pytest reads the conftest.py files from its rootdir down when it
	// has a configuration file, from the filesystem's root otherwise.
	for d := path.Dir(p); ; d = path.Dir(d) {
		if d == "." {
			d = ""
		}
		if _, ok := relTo(d, c.Dir); !ok && c.File != "" {
			break
		}
		if m := pc.conftest(ctx, d); m != nil && matchAny(d, m.Ignore, m.IgnoreGlob, true) {
			return true
		}
		if d == "" {
			break
		}
	}
	return false
}

// conftest returns the conftest.py of a directory, read as the count
// reads it (its collect_ignore lists are in its summary).
func (pc *pyCount) conftest(ctx context.Context, dir string) *languages.PyModule {
	p := path.Join(dir, "conftest.py")
	if m, ok := pc.mods[p]; ok {
		return m
	}
	return nil
}

// conftests returns the entries of the conftest.py files, to be read
// before anything is decided.
func (pc *pyCount) conftests() []int {
	var out []int
	for p, i := range pc.byPath {
		if path.Base(p) == "conftest.py" {
			if _, ok := pc.regular(p); ok {
				out = append(out, i)
			}
		}
	}
	return out
}

// Find implements languages.PyResolver over the snapshot's paths, the way
// Python finds modules under pytest: a relative import from the module's
// package; an absolute one from the directory pytest puts first on
// sys.path for the module (the one above its top package), the rootdir,
// its src directory and pythonpath, the repository's root and src, and
// for a dotted name, from wherever one file of the snapshot ends with it.
func (pc *pyCount) Find(from string, level int, module string) string {
	// The answer depends only on the directory of the module asking (a
	// package's directory, for a namespace package).
	key := pyFindKey{dirOf(from), module, level}
	if strings.HasSuffix(from, "/") {
		key.dir = from
	}
	if p, ok := pc.found[key]; ok {
		return p
	}
	p := pc.find(from, level, module)
	if pc.found == nil {
		pc.found = map[pyFindKey]string{}
	}
	pc.found[key] = p
	return p
}

func (pc *pyCount) find(from string, level int, module string) string {
	parts := strings.Split(module, ".")
	if module == "" {
		parts = nil
	}
	if level > 0 {
		base := path.Dir(strings.TrimSuffix(from, "/"))
		if strings.HasSuffix(from, "/") {
			base = strings.TrimSuffix(from, "/")
		}
		for i := 1; i < level; i++ {
			base = path.Dir(base)
		}
		if base == "." {
			base = ""
		}
		return pc.moduleAt(base, parts)
	}
	if len(parts) == 0 {
		return ""
	}
	if _, pkg := pc.byPath["__init__.py"]; pkg {
		// The snapshot's root is itself a package (a directory counted on
		// its own, such as an installed package): its name is the
		// directory's, after those of the packages around it.
		for i, part := range parts[:len(parts)-1] {
			if part == filepath.Base(pc.s.root) {
				if p := pc.moduleAt("", parts[i+1:]); p != "" {
					return p
				}
			}
		}
	}
	var roots []string
	top := path.Dir(from)
	for top != "." {
		if _, ok := pc.byPath[path.Join(top, "__init__.py")]; !ok {
			break
		}
		top = path.Dir(top)
	}
	if top == "." {
		top = ""
	}
	roots = append(roots, top)
	if c := pc.config(pc.ctx, dirOf(from)); c != nil {
		roots = append(roots, c.Dir, path.Join(c.Dir, "src"))
		for _, pp := range c.PythonPath {
			roots = append(roots, path.Join(c.Dir, pp))
		}
	}
	roots = append(roots, "", "src")
	for _, r := range roots {
		if r == "." {
			r = ""
		}
		if p := pc.moduleAt(r, parts); p != "" {
			return p
		}
	}
	if len(parts) < 2 {
		return ""
	}
	// Wherever the snapshot has the dotted path as files: the project's
	// own package under a directory none of the above names.
	suffix := strings.Join(parts, "/")
	best := ""
	for _, cand := range []string{suffix + ".py", suffix + "/__init__.py"} {
		for _, p := range pc.byTail()[pyTail(cand)] {
			if (p == cand || strings.HasSuffix(p, "/"+cand)) && (best == "" || commonPrefix(p, from) > commonPrefix(best, from)) {
				best = p
			}
		}
		if best != "" {
			return best
		}
	}
	return ""
}

// pyTail is the key of a module's path in pyCount.tails: its last two
// parts, the module's name and its package's, "__init__.py" left out.
func pyTail(p string) string {
	p = strings.TrimSuffix(strings.TrimSuffix(p, "/__init__.py"), ".py")
	parts := strings.Split(p, "/")
	if len(parts) > 2 {
		parts = parts[len(parts)-2:]
	}
	return strings.Join(parts, "/")
}

// byTail indexes the snapshot's Python files by pyTail, so that a dotted
// import is looked for among a few paths, not all.
func (pc *pyCount) byTail() map[string][]string {
	if pc.tails == nil {
		pc.tails = map[string][]string{}
		for p := range pc.byPath {
			if strings.HasSuffix(p, ".py") {
				pc.tails[pyTail(p)] = append(pc.tails[pyTail(p)], p)
			}
		}
	}
	return pc.tails
}

func dirOf(p string) string {
	d := path.Dir(p)
	if d == "." {
		return ""
	}
	return d
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// moduleAt returns the module the dotted parts name below base: a file,
// a package's __init__.py, or a directory (a namespace package, "dir/").
func (pc *pyCount) moduleAt(base string, parts []string) string {
	p := path.Join(append([]string{base}, parts...)...)
	if p == "." {
		p = ""
	}
	if len(parts) > 0 {
		if _, ok := pc.byPath[p+".py"]; ok {
			return p + ".py"
		}
	}
	if _, ok := pc.byPath[path.Join(p, "__init__.py")]; ok {
		return path.Join(p, "__init__.py")
	}
	if len(parts) > 0 && pc.dirs[p] {
		return p + "/"
	}
	return ""
}

// Module implements languages.PyResolver: the module when it has been
// read, and otherwise a note that it is needed.
func (pc *pyCount) Module(p string) *languages.PyModule {
	if m, ok := pc.mods[p]; ok {
		return m
	}
	if _, ok := pc.regular(p); ok {
		pc.need[p] = true
	}
	return nil
}

// maxPyModules bounds the modules read only for the classes they define.
const maxPyModules = 20000

// language decides a Python entry: the language to count it with (nil for
// none), and whether to parse it whatever the prefilter says.
func (pc *pyCount) language(ctx context.Context, i int) (*languages.Language, bool) {
	k := pc.kind(ctx, pc.s.entries[i].path)
	if k == pyNone {
		return nil, false
	}
	pc.kinds[i] = k
	return languages.Python, k == pyCollected
}

// readConftests reads the conftest.py files first: their collect_ignore
// lists decide which files are collected.
func (pc *pyCount) readConftests(ctx context.Context, c *cache, o Options) error {
	if pc == nil {
		return nil
	}
	_, err := pc.read(ctx, c, pc.conftests(), o)
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
func (pc *pyCount) collect(ctx context.Context, c *cache, results []*languages.Result, o Options) error {
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
	for round, read := 0, 0; ; round++ {
		pc.need = map[string]bool{}
		pc.deps = map[string][]string{}
		proj := &languages.PyProject{Resolver: pc}
		for _, i := range order {
			r := results[i]
			if pc.kinds[i] != pyCollected || r == nil || r.Python == nil {
				continue
			}
			p := pc.s.entries[i].path
			var deps []string
			tests[i], deps = proj.Collect(pc.config(ctx, path.Dir(p)), p, r.Python)
			if len(deps) > 0 {
				pc.deps[p] = deps
			}
		}
		if len(pc.need) == 0 || round == maxPyRounds || read >= maxPyModules {
			break
		}
		var idxs []int
		for p := range pc.need {
			idxs = append(idxs, pc.byPath[p])
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
