package runners

import (
	"context"
	"path"
	"strings"

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

// PyKind is what a Python file is to pytest, and so to the count.
type PyKind uint8

const (
	// PyNone is a file pytest never collects nor a helper of tests.
	PyNone PyKind = iota
	// PyCollected is a module pytest collects: its tests count.
	PyCollected
	// PySupport is a helper in a test directory or a conftest.py: its
	// assertions count, it holds no tests of its own.
	PySupport
)

// maxPyConfigSize bounds a configuration file read.
const maxPyConfigSize = 1 << 20

// Pytest is pytest's view of a tree: the configuration each directory's
// files are collected under, which files it collects, and where an import
// finds its module.
type Pytest struct {
	// ctx is the count's, for the reads that resolving imports makes.
	ctx context.Context
	t   Tree
	// rootName is the base name of the tree's root directory.
	rootName string
	// module returns the module at a path as the count read it, or nil.
	module func(p string) *languages.PyModule
	byPath map[string]int  // index in the tree by path
	dirs   map[string]bool // every directory of the tree ("" the root)
	// cfgs is the configuration that applies in each directory.
	cfgs map[string]*languages.PyConfig
	// starts are each configuration's collection starts.
	starts map[*languages.PyConfig][]string
	// tails indexes the Python files for Find; found remembers its
	// answers.
	tails map[string][]string
	found map[pyFindKey]string
}

// pyFindKey is what an answer of Find depends on.
type pyFindKey struct {
	dir, module string
	level       int
}

// NewPytest indexes the tree, the whole snapshot where configurations and
// modules are looked for. rootName is the base name of its root
// directory; module returns the module at a path as the count read it, or
// nil: the collect_ignore lists of the conftest.py files read decide what
// is collected.
func NewPytest(ctx context.Context, t Tree, rootName string, module func(p string) *languages.PyModule) *Pytest {
	pt := &Pytest{ctx: ctx, t: t, rootName: rootName, module: module, dirs: map[string]bool{"": true},
		cfgs: map[string]*languages.PyConfig{}, starts: map[*languages.PyConfig][]string{}}
	// Sized once: a tree of 100,000 files grows no map while it is listed.
	pt.byPath = make(map[string]int, t.Len())
	for i := range t.Len() {
		p, _ := t.File(i)
		pt.byPath[p] = i
		for d := path.Dir(p); d != "." && !pt.dirs[d]; d = path.Dir(d) {
			pt.dirs[d] = true
		}
	}
	return pt
}

// Index returns the place in the tree of the file at p, and whether it is
// there.
func (pt *Pytest) Index(p string) (int, bool) {
	i, ok := pt.byPath[p]
	return i, ok
}

// Regular returns the place in the tree of the file at p, and whether it
// is a regular file there.
func (pt *Pytest) Regular(p string) (int, bool) {
	i, ok := pt.byPath[p]
	if !ok {
		return 0, false
	}
	_, regular := pt.t.File(i)
	return i, regular
}

// Config returns the configuration for the files of a directory.
func (pt *Pytest) Config(ctx context.Context, dir string) *languages.PyConfig {
	if dir == "." {
		dir = ""
	}
	if c, ok := pt.cfgs[dir]; ok {
		return c
	}
	var c *languages.PyConfig
	for _, name := range languages.PyConfigNames {
		p := path.Join(dir, name)
		i, ok := pt.Regular(p)
		if !ok {
			continue
		}
		data, err := pt.t.Read(ctx, i)
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
			c = pt.Config(ctx, path.Dir(dir))
		}
	}
	pt.cfgs[dir] = c
	return c
}

// collectionStarts are the paths, relative to the rootdir, pytest starts
// collecting from: addopts' paths, else testpaths that exist, else the
// rootdir ("").
func (pt *Pytest) collectionStarts(c *languages.PyConfig) []string {
	if st, ok := pt.starts[c]; ok {
		return st
	}
	var st []string
	exists := func(rel string) bool {
		p := path.Join(c.Dir, rel)
		_, file := pt.byPath[p]
		return file || pt.dirs[p]
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
			for d := range pt.dirs {
				if rel, ok := relTo(d, c.Dir); ok && g.Match(rel) {
					st = append(st, rel)
				}
			}
			for p := range pt.byPath {
				if rel, ok := relTo(p, c.Dir); ok && g.Match(rel) {
					st = append(st, rel)
				}
			}
		}
	}
	if len(st) == 0 {
		st = []string{""}
	}
	pt.starts[c] = st
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

// Kind decides what a Python file is: a module pytest collects, a
// support file of the tests, or neither.
func (pt *Pytest) Kind(ctx context.Context, p string) PyKind {
	c := pt.Config(ctx, path.Dir(p))
	rel, ok := relTo(p, c.Dir)
	if !ok {
		return PyNone
	}
	if path.Base(p) == "conftest.py" {
		// pytest loads a conftest.py wherever it collects, testpaths or not.
		return PySupport
	}
	initial, in := false, false
	for _, st := range pt.collectionStarts(c) {
		below, ok := relTo(rel, st)
		if !ok {
			continue
		}
		if below == "" {
			initial, in = true, true
			break
		}
		if !pt.recursed(c, st, below) {
			continue
		}
		in = true
	}
	if !in || pt.ignored(ctx, c, p) {
		return PyNone
	}
	if initial || languages.PyPathMatches(p, c.Files) {
		return PyCollected
	}
	if languages.ForPath(p) == languages.Python {
		return PySupport
	}
	return PyNone
}

// recursed reports whether pytest walks from the start down to the file:
// no directory on the way matches norecursedirs.
func (pt *Pytest) recursed(c *languages.PyConfig, start, below string) bool {
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
func (pt *Pytest) ignored(ctx context.Context, c *languages.PyConfig, p string) bool {
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
		if m := pt.conftest(ctx, d); m != nil && matchAny(d, m.Ignore, m.IgnoreGlob, true) {
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
func (pt *Pytest) conftest(ctx context.Context, dir string) *languages.PyModule {
	return pt.module(path.Join(dir, "conftest.py"))
}

// Conftests returns the places in the tree of the conftest.py files, to
// be read before anything is decided.
func (pt *Pytest) Conftests() []int {
	var out []int
	for p, i := range pt.byPath {
		if path.Base(p) == "conftest.py" {
			if _, ok := pt.Regular(p); ok {
				out = append(out, i)
			}
		}
	}
	return out
}

// Find is languages.PyResolver's Find over the tree's paths, the way
// Python finds modules under pytest: a relative import from the module's
// package; an absolute one from the directory pytest puts first on
// sys.path for the module (the one above its top package), the rootdir,
// its src directory and pythonpath, the repository's root and src, and
// for a dotted name, from wherever one file of the snapshot ends with it.
func (pt *Pytest) Find(from string, level int, module string) string {
	// The answer depends only on the directory of the module asking (a
	// package's directory, for a namespace package).
	key := pyFindKey{dirOf(from), module, level}
	if strings.HasSuffix(from, "/") {
		key.dir = from
	}
	if p, ok := pt.found[key]; ok {
		return p
	}
	p := pt.find(from, level, module)
	if pt.found == nil {
		pt.found = map[pyFindKey]string{}
	}
	pt.found[key] = p
	return p
}

func (pt *Pytest) find(from string, level int, module string) string {
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
		return pt.moduleAt(base, parts)
	}
	if len(parts) == 0 {
		return ""
	}
	if _, pkg := pt.byPath["__init__.py"]; pkg {
		// The snapshot's root is itself a package (a directory counted on
		// its own, such as an installed package): its name is the
		// directory's, after those of the packages around it.
		for i, part := range parts[:len(parts)-1] {
			if part == pt.rootName {
				if p := pt.moduleAt("", parts[i+1:]); p != "" {
					return p
				}
			}
		}
	}
	var roots []string
	top := path.Dir(from)
	for top != "." {
		if _, ok := pt.byPath[path.Join(top, "__init__.py")]; !ok {
			break
		}
		top = path.Dir(top)
	}
	if top == "." {
		top = ""
	}
	roots = append(roots, top)
	if c := pt.Config(pt.ctx, dirOf(from)); c != nil {
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
		if p := pt.moduleAt(r, parts); p != "" {
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
		for _, p := range pt.byTail()[pyTail(cand)] {
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

// pyTail is the key of a module's path in Pytest.tails: its last two
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
func (pt *Pytest) byTail() map[string][]string {
	if pt.tails == nil {
		pt.tails = map[string][]string{}
		for p := range pt.byPath {
			if strings.HasSuffix(p, ".py") {
				pt.tails[pyTail(p)] = append(pt.tails[pyTail(p)], p)
			}
		}
	}
	return pt.tails
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
func (pt *Pytest) moduleAt(base string, parts []string) string {
	p := path.Join(append([]string{base}, parts...)...)
	if p == "." {
		p = ""
	}
	if len(parts) > 0 {
		if _, ok := pt.byPath[p+".py"]; ok {
			return p + ".py"
		}
	}
	if _, ok := pt.byPath[path.Join(p, "__init__.py")]; ok {
		return path.Join(p, "__init__.py")
	}
	if len(parts) > 0 && pt.dirs[p] {
		return p + "/"
	}
	return ""
}
