package languages

import (
	"math"
	"sort"
	"strings"
)

// What pytest collects from a module, as its python plugin and its
// unittest plugin decide (pytest 7 and 8):
//   - a module-level name bound to a function whose name matches
//     python_functions is a test, under that name, wherever the function
//     was defined (an imported test function is collected again);
//   - a class bound to a name that matches python_classes is collected, if
//     neither it nor a base defines __init__ or __new__ and __test__ is not
//     false: its test functions are those of its whole MRO that match
//     python_functions, the subclass's own first, under the class's name
//     (`Sub.test_x`, where test_x is the base's); nested classes likewise;
//   - a subclass of unittest.TestCase is collected whatever its name: its
//     tests are the attributes of its MRO whose names start with "test"
//     (unittest's testMethodPrefix), or runTest when there are none;
//   - a mixin's methods are tests only through the classes that collect
//     them.
//
// Bases are resolved through the project's own modules (imports, relative
// or absolute, aliases, star imports, package __init__ files). A base
// outside the project is a TestCase when its name says so (it ends in
// "TestCase": unittest's, Django's, Twisted's, absltest's…); a builtin base
// other than object gives the class a constructor, as pytest sees it.

// PyResolver gives collection the other modules of a project.
type PyResolver interface {
	// Find returns the slash path of the module an import names, seen
	// from the module at from: "pkg/mod.py", "pkg/__init__.py", or "pkg/"
	// for a directory without __init__.py; "" when the project has none.
	Find(from string, level int, module string) string
	// Module returns the module at the path, or nil when it is not at
	// hand (not Python, or not read yet).
	Module(path string) *PyModule
}

// PyProject collects the tests of a project's Python modules, resolving
// their classes' bases across the project. It remembers what it resolved;
// make a new one when the resolver learns of more modules.
type PyProject struct {
	// Resolver finds and reads the project's modules.
	Resolver PyResolver

	binds   map[*PyModule]map[string][]pyBinding
	classes map[pyClassKey]*pyClassInfo
	indexes map[*PyModule]*pyModIndex
}

type pyBindKind uint8

const (
	bindDef pyBindKind = iota
	bindClass
	bindImport
	bindAssign
)

// pyBinding is one statement that binds a name in a module.
type pyBinding struct {
	line int
	kind pyBindKind
	idx  int
}

type pyObjKind uint8

const (
	objUnknown pyObjKind = iota
	objExternal
	objModule
	objClass
	objFunc
)

// pyObj is what a name stands for.
type pyObj struct {
	kind pyObjKind
	path string // the module's path (module, class, function)
	mod  *PyModule
	cls  *PyClass
	def  *PyDef
	ext  string // an external or unresolved dotted name
}

type pyClassKey struct {
	path, class string
}

type pyClassInfo struct {
	testCase bool
	mro      []pyObj // project classes, itself first
	init     bool
	testAttr int8
	skipped  bool
	cond     string
	busy     bool
}

// maxPyDepth bounds how deep names are followed through imports, against
// cycles and pathological chains.
const maxPyDepth = 24

func (p *PyProject) bindings(m *PyModule) map[string][]pyBinding {
	if p.binds == nil {
		p.binds = map[*PyModule]map[string][]pyBinding{}
	}
	if b, ok := p.binds[m]; ok {
		return b
	}
	b := map[string][]pyBinding{}
	for i, d := range m.Defs {
		if d.Class == "" {
			b[d.Test.Name] = append(b[d.Test.Name], pyBinding{d.Test.Line, bindDef, i})
		}
	}
	for i, c := range m.Classes {
		if !strings.Contains(c.Path, ".") {
			b[c.Path] = append(b[c.Path], pyBinding{c.Line, bindClass, i})
		}
	}
	for i, im := range m.Imports {
		if im.Name != "*" {
			b[im.As] = append(b[im.As], pyBinding{im.Line, bindImport, i})
		}
	}
	for i, a := range m.Assigns {
		b[a.Name] = append(b[a.Name], pyBinding{a.Line, bindAssign, i})
	}
	for _, bs := range b {
		sort.SliceStable(bs, func(i, j int) bool { return bs[i].line < bs[j].line })
	}
	p.binds[m] = b
	return b
}

// lookup resolves a name as the module binds it before a line.
func (p *PyProject) lookup(path string, m *PyModule, name string, before, depth int) pyObj {
	if depth > maxPyDepth {
		return pyObj{ext: name}
	}
	// The bindings of a name are sorted by line: the last before the
	// line is found by halving, not by a scan for each name asked.
	bs := p.bindings(m)[name]
	if k := sort.Search(len(bs), func(i int) bool { return bs[i].line >= before }); k > 0 {
		return p.bound(path, m, bs[k-1], depth)
	}
	// A star import binds every public name of its module.
	for i := len(m.Imports) - 1; i >= 0; i-- {
		im := m.Imports[i]
		if im.Name != "*" || im.Line >= before || strings.HasPrefix(name, "_") {
			continue
		}
		mod := p.module(path, im.Level, im.Module)
		if mod.kind != objModule {
			continue
		}
		if o := p.attr(mod, name, depth+1); o.kind != objUnknown {
			return o
		}
	}
	if pyBuiltinClass(name) {
		return pyObj{kind: objExternal, ext: "builtins." + name}
	}
	return pyObj{ext: name}
}

func (p *PyProject) bound(path string, m *PyModule, b pyBinding, depth int) pyObj {
	switch b.kind {
	case bindDef:
		return pyObj{kind: objFunc, path: path, mod: m, def: &m.Defs[b.idx]}
	case bindClass:
		return pyObj{kind: objClass, path: path, mod: m, cls: &m.Classes[b.idx]}
	case bindImport:
		im := m.Imports[b.idx]
		if im.Name == "" {
			mod := im.Module
			if first, _, dotted := strings.Cut(mod, "."); dotted && first == im.As {
				mod = first // import a.b binds a
			}
			return p.module(path, 0, mod)
		}
		mod := p.module(path, im.Level, im.Module)
		o := p.attr(mod, im.Name, depth+1)
		if o.kind == objUnknown && o.ext == "" {
			o.ext = im.Name
		}
		return o
	default:
		a := m.Assigns[b.idx]
		if a.Deleted {
			return pyObj{}
		}
		if a.Target == "" {
			return pyObj{ext: "?"}
		}
		return p.dotted(path, m, a.Target, b.line, depth+1)
	}
}

// module resolves an import's module.
func (p *PyProject) module(from string, level int, dotted string) pyObj {
	if path := p.Resolver.Find(from, level, dotted); path != "" {
		return pyObj{kind: objModule, path: path}
	}
	if level == 0 {
		return pyObj{kind: objExternal, ext: dotted}
	}
	return pyObj{ext: dotted}
}

// attr resolves obj.name.
func (p *PyProject) attr(o pyObj, name string, depth int) pyObj {
	if depth > maxPyDepth {
		return pyObj{ext: name}
	}
	switch o.kind {
	case objModule:
		if !strings.HasSuffix(o.path, "/") {
			if m := p.Resolver.Module(o.path); m != nil {
				if r := p.lookup(o.path, m, name, math.MaxInt, depth+1); r.kind != objUnknown {
					return r
				}
			}
		}
		if strings.HasSuffix(o.path, "/") || strings.HasSuffix(o.path, "/__init__.py") || o.path == "__init__.py" {
			if sub := p.Resolver.Find(o.path, 1, name); sub != "" {
				return pyObj{kind: objModule, path: sub}
			}
		}
		return pyObj{ext: name}
	case objClass:
		if i, ok := p.index(o.mod).class[o.cls.Path+"."+name]; ok {
			return pyObj{kind: objClass, path: o.path, mod: o.mod, cls: &o.mod.Classes[i]}
		}
		return pyObj{ext: name}
	case objExternal:
		return pyObj{kind: objExternal, ext: o.ext + "." + name}
	}
	return pyObj{ext: o.ext + "." + name}
}

// dotted resolves a dotted name in a module, as bound before a line.
func (p *PyProject) dotted(path string, m *PyModule, dotted string, before, depth int) pyObj {
	parts := strings.Split(dotted, ".")
	o := p.lookup(path, m, parts[0], before, depth)
	for _, part := range parts[1:] {
		o = p.attr(o, part, depth+1)
	}
	return o
}

// info resolves a class's bases, its MRO within the project, and what the
// MRO says of it.
func (p *PyProject) info(o pyObj, depth int) *pyClassInfo {
	key := pyClassKey{o.path, o.cls.Path}
	if p.classes == nil {
		p.classes = map[pyClassKey]*pyClassInfo{}
	}
	if ci := p.classes[key]; ci != nil {
		if ci.busy {
			return &pyClassInfo{mro: []pyObj{o}} // a cycle: nothing inherited
		}
		return ci
	}
	ci := &pyClassInfo{busy: true}
	p.classes[key] = ci
	var seqs [][]pyObj
	var bases []pyObj
	for _, b := range o.cls.Bases {
		if b == "?" {
			continue
		}
		r := p.dotted(o.path, o.mod, b, o.cls.Line, depth+1)
		if r.kind == objClass && depth < maxPyDepth {
			bi := p.info(r, depth+1)
			ci.testCase = ci.testCase || bi.testCase
			ci.init = ci.init || bi.init
			seqs = append(seqs, bi.mro)
			bases = append(bases, r)
			continue
		}
		name := r.ext
		if name == "" {
			name = b
		}
		switch {
		case pyTestCaseName(name):
			ci.testCase = true
		case strings.HasPrefix(name, "builtins.") && name != "builtins.object",
			name == "enum.Enum", name == "enum.IntEnum", name == "typing.NamedTuple":
			ci.init = true
		}
	}
	ci.mro = append([]pyObj{o}, pyMerge(append(seqs, bases))...)
	for _, k := range ci.mro {
		ci.init = ci.init || k.cls.Init
		ci.skipped = ci.skipped || k.cls.Skipped
		if ci.cond == "" && k.mod.ImportOrSkip {
			ci.cond = "importorskip"
		}
		if ci.testAttr == 0 {
			ci.testAttr = k.cls.TestAttr
		}
	}
	ci.busy = false
	return ci
}

// pyMerge is C3's merge of the bases' MROs and the bases; where C3 finds
// no order, what is left follows in the order given. How often each class
// is in the sequences' tails is counted once and kept up to date, not
// looked for in every tail for every candidate.
func pyMerge(seqs [][]pyObj) []pyObj {
	type key struct {
		path string
		cls  *PyClass
	}
	inTails := map[key]int{}
	for _, s := range seqs {
		for _, x := range s[min(1, len(s)):] {
			inTails[key{x.path, x.cls}]++
		}
	}
	var out []pyObj
	for {
		var live [][]pyObj
		for _, s := range seqs {
			if len(s) > 0 {
				live = append(live, s)
			}
		}
		if len(live) == 0 {
			return out
		}
		seqs = live
		next := seqs[0][0]
		for _, s := range seqs {
			if inTails[key{s[0].path, s[0].cls}] == 0 {
				next = s[0]
				break
			}
		}
		out = append(out, next)
		for i, s := range seqs {
			if s[0].path == next.path && s[0].cls == next.cls {
				seqs[i] = s[1:]
				if len(s) > 1 {
					inTails[key{s[1].path, s[1].cls}]--
				}
			}
		}
	}
}

// pyTestCaseName reports a class outside the project that is a
// unittest.TestCase, by its name.
func pyTestCaseName(name string) bool {
	last := name[strings.LastIndexByte(name, '.')+1:]
	return strings.HasSuffix(last, "TestCase")
}

// pyBuiltinClass reports a builtin class name a base may use unimported.
func pyBuiltinClass(name string) bool {
	switch name {
	case "object", "dict", "list", "set", "frozenset", "str", "bytes", "bytearray", "int", "float",
		"complex", "tuple", "type", "property", "BaseException":
		return true
	}
	return strings.HasSuffix(name, "Error") || strings.HasSuffix(name, "Exception") || strings.HasSuffix(name, "Warning")
}

// Collect returns the tests pytest collects from the module at path under
// the configuration, in the order of the module's names, and the paths of
// the other modules they depend on: where the module's classes' bases and
// the functions it imports are defined. A module that collects more than
// MaxTests tests, or whose classes' MROs make it consider more than
// pyCandidatesPerTest times as many functions (a long chain of
// subclasses, each inheriting all the tests before it), is refused with
// ErrTooManyTests.
func (p *PyProject) Collect(cfg *PyConfig, path string, m *PyModule) (tests []Test, deps []string, err error) {
	c := &pyCollect{p: p, cfg: cfg, path: path, m: m, deps: map[string]bool{}}
	type item struct {
		name string
		line int
		obj  func() pyObj
	}
	var items []item
	own := p.bindings(m)
	for name, bs := range own {
		b := bs[len(bs)-1]
		if b.kind == bindImport && !pyMayCollect(name, cfg) {
			continue
		}
		items = append(items, item{name, b.line, func() pyObj { return p.bound(path, m, b, 0) }})
	}
	// A star import brings the public names its module binds; of two
	// that bring the same name, the later binds it.
	stars := map[string]int{}
	for _, im := range m.Imports {
		if im.Name != "*" {
			continue
		}
		mod := p.module(path, im.Level, im.Module)
		if mod.kind != objModule || strings.HasSuffix(mod.path, "/") {
			continue
		}
		other := p.Resolver.Module(mod.path)
		if other == nil {
			continue
		}
		for name := range p.bindings(other) {
			if strings.HasPrefix(name, "_") || len(own[name]) > 0 || !pyMayCollect(name, cfg) {
				continue
			}
			it := item{name, im.Line, func() pyObj { return p.attr(mod, name, 1) }}
			if i, ok := stars[name]; ok {
				items[i] = it
				continue
			}
			stars[name] = len(items)
			items = append(items, it)
		}
	}
	sort.Slice(items, func(i, j int) bool {
		if items[i].line != items[j].line {
			return items[i].line < items[j].line
		}
		return items[i].name < items[j].name
	})
	for _, it := range items {
		if c.tooMany {
			return nil, nil, ErrTooManyTests
		}
		c.object(it.name, it.obj(), it.line)
	}
	if c.tooMany {
		return nil, nil, ErrTooManyTests
	}
	for d := range c.deps {
		deps = append(deps, d)
	}
	sort.Strings(deps)
	return c.tests, deps, nil
}

// pyCandidatesPerTest bounds the functions the collection of one module
// considers in its classes' MROs: ten for each test it may hold. pytest
// itself reads each class's whole MRO, so that a chain of n subclasses is
// n² to collect however few tests it yields.
const pyCandidatesPerTest = 10

// consider counts n functions of an MRO considered as tests, and reports
// false once the module has considered too many.
func (c *pyCollect) consider(n int) bool {
	c.candidates += n
	if c.candidates > pyCandidatesPerTest*maxTests {
		c.tooMany = true
	}
	return !c.tooMany
}

// pyMayCollect reports a name an import binds that may
// hold something pytest collects: a name python_functions or
// python_classes match, or one that says test or case (a TestCase
// subclass is collected whatever its name, but is seldom imported under
// a name that does not say so). Other imports are not followed: they
// would have the count read much of the project for nothing.
func pyMayCollect(name string, cfg *PyConfig) bool {
	if pyNameMatches(name, cfg.Functions) || pyNameMatches(name, cfg.Classes) {
		return true
	}
	lower := strings.ToLower(name)
	return strings.Contains(lower, "test") || strings.Contains(lower, "case")
}

type pyCollect struct {
	p     *PyProject
	cfg   *PyConfig
	path  string
	m     *PyModule
	tests []Test
	deps  map[string]bool
	// candidates counts the functions of MROs considered; tooMany
	// records a module past MaxTests, or past the candidates it may
	// consider.
	candidates int
	tooMany    bool
}

// object collects what a module-level name holds.
func (c *pyCollect) object(name string, o pyObj, line int) {
	switch o.kind {
	case objFunc:
		if o.path != c.path {
			c.deps[o.path] = true
		}
		if o.def.Class == "" && pyNameMatches(name, c.cfg.Functions) && !o.def.Fixture {
			c.emit(name, o, o.def, line, false, "")
		}
	case objClass:
		c.class(name, o, line, false, "")
	}
}

// class collects a class bound to a name; outerSkipped carries the skip
// of the classes around a nested one.
func (c *pyCollect) class(name string, o pyObj, line int, outerSkipped bool, outerCond string) {
	ci := c.p.info(o, 0)
	// What the class's tests are depends on every class of its MRO.
	for _, k := range ci.mro {
		if k.path != c.path {
			c.deps[k.path] = true
		}
	}
	short := name[strings.LastIndexByte(name, '.')+1:]
	skipped := outerSkipped || ci.skipped
	cond := outerCond
	switch {
	case cond != "":
	case ci.cond != "":
		cond = ci.cond
	case o.cls.Conditional:
		cond = "condition"
	}
	switch {
	case ci.testAttr == -1:
	case ci.testCase:
		c.unittest(name, ci, line, skipped, cond)
	case ci.init:
		// pytest warns that it cannot collect a class with a constructor.
	case pyNameMatches(short, c.cfg.Classes) || ci.testAttr == 1:
		c.pytestClass(name, ci, line, skipped, cond)
	}
}

// pyMember is a name a class body binds to a function or a class.
type pyMember struct {
	name string
	k    pyObj
	def  *PyDef
	cls  *PyClass
	line int
}

// members returns what a class's own body binds, in source order: its
// functions, then its nested classes, each in the module's order, sorted
// by line.
func (p *PyProject) members(k pyObj) []pyMember {
	ix := p.index(k.mod)
	var ms []pyMember
	for _, i := range ix.defs[k.cls.Path] {
		d := &k.mod.Defs[i]
		ms = append(ms, pyMember{d.Test.Name, k, d, nil, d.Test.Line})
	}
	for _, i := range ix.nested[k.cls.Path] {
		cl := &k.mod.Classes[i]
		ms = append(ms, pyMember{cl.Path[len(k.cls.Path)+1:], k, nil, cl, cl.Line})
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].line < ms[j].line })
	return ms
}

// pyModIndex finds a module's classes and functions by the class they
// are in: found by a scan of the module for each class, a module of many
// classes was quadratic.
type pyModIndex struct {
	class  map[string]int   // a class's path → its first index in Classes
	defs   map[string][]int // a class's path → the indexes of its functions in Defs
	nested map[string][]int // a class's path → the indexes of the classes right inside it
}

// index returns the module's index, built on first use.
func (p *PyProject) index(m *PyModule) *pyModIndex {
	if p.indexes == nil {
		p.indexes = map[*PyModule]*pyModIndex{}
	}
	if ix := p.indexes[m]; ix != nil {
		return ix
	}
	ix := &pyModIndex{class: map[string]int{}, defs: map[string][]int{}, nested: map[string][]int{}}
	for i := range m.Defs {
		c := m.Defs[i].Class
		ix.defs[c] = append(ix.defs[c], i)
	}
	for i, cl := range m.Classes {
		if _, seen := ix.class[cl.Path]; !seen {
			ix.class[cl.Path] = i
		}
		if dot := strings.LastIndexByte(cl.Path, '.'); dot >= 0 {
			outer := cl.Path[:dot]
			ix.nested[outer] = append(ix.nested[outer], i)
		}
	}
	p.indexes[m] = ix
	return ix
}

// pytestClass collects a pytest-style class: the test functions of its
// MRO, each name once (the first class of the MRO that binds it decides),
// base classes' first.
func (c *pyCollect) pytestClass(name string, ci *pyClassInfo, line int, skipped bool, cond string) {
	seen := map[string]bool{}
	groups := make([][]pyMember, len(ci.mro))
	for gi, k := range ci.mro {
		ms := c.p.members(k)
		if !c.consider(len(ms) + 1) {
			return
		}
		// A later definition of a name in the same body replaces an
		// earlier one.
		last := map[string]int{}
		for i, mb := range ms {
			last[mb.name] = i
		}
		for i, mb := range ms {
			if !seen[mb.name] && last[mb.name] == i {
				groups[gi] = append(groups[gi], mb)
			}
		}
		for _, mb := range ms {
			seen[mb.name] = true
		}
		for _, a := range k.cls.Attrs {
			seen[a] = true
		}
	}
	for gi := len(groups) - 1; gi >= 0; gi-- {
		for _, mb := range groups[gi] {
			if d := mb.def; d != nil {
				if pyNameMatches(d.Test.Name, c.cfg.Functions) && !d.Fixture && !d.Property && !d.ClassMethod {
					c.emit(name+"."+d.Test.Name, mb.k, d, line, skipped, cond)
				}
				continue
			}
			c.class(name+"."+mb.name, pyObj{kind: objClass, path: mb.k.path, mod: mb.k.mod, cls: mb.cls}, line, skipped, cond)
		}
	}
}

// unittest collects a TestCase subclass as unittest's loader does: the
// callable attributes of its MRO named test…, sorted; else runTest.
func (c *pyCollect) unittest(name string, ci *pyClassInfo, line int, skipped bool, cond string) {
	found := map[string]bool{}
	chosen := map[string]pyMember{}
	var names []string
	var runTest *pyMember
	for _, k := range ci.mro {
		ms := c.p.members(k)
		if !c.consider(len(ms) + 1) {
			return
		}
		last := map[string]int{}
		for i, mb := range ms {
			last[mb.name] = i
		}
		for i, mb := range ms {
			if found[mb.name] || last[mb.name] != i || mb.def == nil {
				continue
			}
			if mb.name == "runTest" && runTest == nil && !pyTrialRunTest(mb.k.path) {
				mb := mb
				runTest = &mb
			}
			if strings.HasPrefix(mb.name, "test") && !mb.def.Property {
				names = append(names, mb.name)
				chosen[mb.name] = mb
			}
		}
		for _, mb := range ms {
			found[mb.name] = true
		}
		for _, a := range k.cls.Attrs {
			found[a] = true
		}
	}
	sort.Strings(names)
	for _, nm := range names {
		mb := chosen[nm]
		c.emit(name+"."+nm, mb.k, mb.def, line, skipped, cond)
	}
	if len(names) == 0 && runTest != nil {
		c.emit(name+".runTest", runTest.k, runTest.def, line, skipped, cond)
	}
}

// pyIf is s when b holds, "" otherwise.
func pyIf(b bool, s string) string {
	if b {
		return s
	}
	return ""
}

// pyTrialRunTest reports the module of Twisted trial's TestCase, whose
// runTest pytest does not collect.
func pyTrialRunTest(p string) bool {
	return p == "trial/_synctest.py" || strings.HasSuffix(p, "/trial/_synctest.py")
}

// emit records a test: the definition's own figures, its line when the
// definition is in the module (else the line of what collects it), and
// switched off by the definition, the classes or the collecting module.
func (c *pyCollect) emit(name string, k pyObj, d *PyDef, line int, skipped bool, cond string) {
	if len(c.tests) >= maxTests {
		c.tooMany = true
		return
	}
	t := d.Test
	t.Name = cleanName(name)
	if k.path == c.path {
		line = t.Line
	} else {
		c.deps[k.path] = true
	}
	t.Line = line
	if skipped || c.m.Skipped {
		t.Status = Skipped
	}
	// The most telling condition: the import a test needs, then one that
	// defines or skips it.
	for _, why := range []string{pyIf(c.m.ImportOrSkip, "importorskip"), pyIf(cond == "importorskip", cond), t.Conditional, cond, pyIf(c.m.SkipIf, "condition")} {
		if why != "" {
			t.Conditional = why
			break
		}
	}
	c.tests = append(c.tests, t)
}

// pyAlone resolves nothing beyond one module: the view of a file counted
// on its own.
type pyAlone struct {
	path string
	m    *PyModule
}

func (a pyAlone) Find(string, int, string) string { return "" }

func (a pyAlone) Module(path string) *PyModule {
	if path == a.path {
		return a.m
	}
	return nil
}

// pyCollectAlone returns the tests pytest collects from a file under its
// default configuration, with no other file of the project at hand; ok is
// false for a file past the bounds of Collect.
func pyCollectAlone(path string, m *PyModule) (tests []Test, ok bool) {
	cfg := DefaultPyConfig("")
	if !PyPathMatches(path, cfg.Files) {
		return nil, true
	}
	p := &PyProject{Resolver: pyAlone{path, m}}
	tests, _, err := p.Collect(cfg, path, m)
	return tests, err == nil
}
