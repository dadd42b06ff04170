package languages

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// PyModule is what collecting tests from a Python module needs to know of
// it, and of the modules its classes come from: its functions and
// classes, the names it imports and binds. The analysis of a file keeps
// it beside the counts, so that the count of a project can decide which
// classes pytest collects from bases in other files without reading them
// again.
type PyModule struct {
	// Defs are the functions at the module's top level and in its
	// classes, not those nested in a function, in source order.
	Defs []PyDef
	// Classes are the classes at the top level and nested in classes.
	Classes []PyClass
	// Imports are the module's imports at its top level.
	Imports []PyImport
	// Assigns are the names the module binds by assignment at its top
	// level; Target is the dotted name assigned, "" for anything else.
	Assigns []PyAssign
	// Skipped reports a module that switches its tests off (pytestmark,
	// pytest.skip(allow_module_level=True)).
	Skipped bool
	// ImportOrSkip reports a pytest.importorskip at the module's top
	// level: its tests run only where the import works.
	ImportOrSkip bool
	// SkipIf reports a module that skips itself at its top level under a
	// run-time condition: its tests run only where it does not.
	SkipIf bool
	// Ignore and IgnoreGlob are a conftest.py's collect_ignore and
	// collect_ignore_glob, where they are lists of literal strings.
	Ignore, IgnoreGlob []string
}

// PyDef is one function of a module.
type PyDef struct {
	// Class is the path of the class the function is defined in
	// ("Outer.Inner"), "" at the module's top level.
	Class string
	// Test is the function as a test: its name, line, assertions and
	// body; its status is its own (its decorators and its body), not
	// that of its class or module.
	Test Test
	// Fixture reports @pytest.fixture, which pytest never collects.
	Fixture bool
	// Property and ClassMethod report decorators that make the class
	// attribute something pytest does not call.
	Property, ClassMethod bool
}

// PyClass is one class of a module.
type PyClass struct {
	// Path is the class's name, qualified by the classes around it.
	Path string
	// Line is where it is defined.
	Line int
	// Bases are the dotted names of its bases as written; an expression
	// that is not a dotted name is "?".
	Bases []string
	// Skipped reports a decorator or a pytestmark in the body that
	// switches the class's tests off.
	Skipped bool
	// Init reports an __init__ or __new__ in the body.
	Init bool
	// TestAttr is __test__ in the body: 1 true, -1 false, 0 not set.
	TestAttr int8
	// Attrs are the other names the body binds, which hide what a base
	// class binds under the same names.
	Attrs []string
	// Conditional reports a class defined under a run-time condition.
	Conditional bool
}

// PyImport is one name an import binds.
type PyImport struct {
	// Level is the number of leading dots of a relative import.
	Level int
	// Module is the dotted module name, without the dots.
	Module string
	// Name is the name imported from Module ("*" for all of them); ""
	// for `import Module`.
	Name string
	// As is the name bound in the module: the alias, the name, or for
	// `import a.b` the first part, "a".
	As string
	// Line is where the import is.
	Line int
}

// PyAssign is a name bound by assignment, or unbound by del.
type PyAssign struct {
	Name, Target string
	Line         int
	Deleted      bool
}

// pyRawTest reports a function name that the analysis counts assertions
// for as a test of its own: pytest's and unittest's default prefix, and
// unittest's runTest.
func pyRawTest(name string) bool {
	return strings.HasPrefix(name, "test") || name == "runTest"
}

// pySummary builds a file's PyModule.
type pySummary struct {
	f    *File
	m    *PyModule
	raws []int // for each def, its raw test's index, or -1
	// dead are the branches of module and class bodies that never run on
	// Python 3 (if PY2:, if sys.version_info < (3,):): what they define is
	// never bound. cond are those that run only where a run-time
	// condition holds (if sys.platform == "win32":).
	dead, cond deadSpans
}

// markStatic finds the branches of a module's or class's code that a
// condition known before run time leaves out.
//
// It also finds what the code defines or does under a condition known only
// at run time (a platform, an environment variable, an optional package):
// a branch taken only when such a condition holds, or not, is
// conditional, and a module whose top level skips itself in one (raise
// unittest.SkipTest, pytest.skip(allow_module_level=True)) has conditional
// tests.
func (s *pySummary) markStatic(block *sitter.Node, module bool) {
	if !s.f.descend() {
		return
	}
	defer s.f.ascend()
	if block == nil {
		return
	}
	for i := 0; i < int(block.NamedChildCount()); i++ {
		st := block.NamedChild(i)
		switch st.Type() {
		case "if_statement":
			taken, unknown := false, false
			for _, br := range pyBranches(st) {
				switch {
				case taken:
					s.dead.add(br.node)
					continue
				case br.cond != nil:
					c := pyStaticCond(s.f, br.cond)
					if c.isFalse() {
						s.dead.add(br.body)
						continue
					}
					taken = c.isTrue()
					unknown = unknown || !c.known()
				}
				if unknown {
					s.cond.add(br.node)
					if module && s.skipsModule(br.body) {
						s.m.SkipIf = true
					}
				}
				s.markStatic(br.body, module)
			}
		case "class_definition":
			s.markStatic(st.ChildByFieldName("body"), false)
		case "decorated_definition":
			if d := st.ChildByFieldName("definition"); d != nil && d.Type() == "class_definition" {
				s.markStatic(d.ChildByFieldName("body"), false)
			}
		default:
			if pyCompound[st.Type()] {
				s.markStatic(st, module)
			}
		}
	}
}

// skipsModule reports a block that skips the whole module: a raise of
// unittest's SkipTest, or pytest.skip(…, allow_module_level=True).
func (s *pySummary) skipsModule(block *sitter.Node) bool {
	for _, st := range statements(block) {
		switch st.Type() {
		case "raise_statement":
			text := pyCompact(s.f.Text(st))
			if strings.HasPrefix(text, "raiseunittest.SkipTest") || strings.HasPrefix(text, "raiseSkipTest") {
				return true
			}
		case "expression_statement":
			if st.NamedChildCount() == 1 && st.NamedChild(0).Type() == "call" {
				call := st.NamedChild(0)
				if pyCompact(s.f.Text(call.ChildByFieldName("function"))) == "pytest.skip" {
					if _, kw := pyArgs(s.f, call.ChildByFieldName("arguments")); pyConst(s.f, kw["allow_module_level"]).isTrue() {
						return true
					}
				}
			}
		}
	}
	return false
}

// live returns the statements of a body that run.
func (s *pySummary) live(block *sitter.Node) []*sitter.Node {
	var out []*sitter.Node
	for _, st := range pyFlat(s.f, block) {
		if !s.dead.has(st.StartByte()) {
			out = append(out, st)
		}
	}
	return out
}

// pyStaticCond evaluates a condition of module or class code: constants,
// and the checks of the interpreter's major version (PY2, six.PY3,
// sys.version_info < (3,), sys.version_info[0] == 2), which hold for
// Python 3.
func pyStaticCond(f *File, n *sitter.Node) constant {
	if !f.descend() {
		return unknownConst
	}
	defer f.ascend()
	if n == nil {
		return unknownConst
	}
	switch n.Type() {
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return pyStaticCond(f, n.NamedChild(0))
		}
	case "not_operator":
		return constNot(pyStaticCond(f, n.ChildByFieldName("argument")))
	case "boolean_operator":
		l, r := pyStaticCond(f, n.ChildByFieldName("left")), pyStaticCond(f, n.ChildByFieldName("right"))
		if f.Text(n.ChildByFieldName("operator")) == "and" {
			return constAnd(l, r)
		}
		return constOr(l, r)
	case "identifier", "attribute":
		switch pyLastName(pyDotted(f, n)) {
		case "PY2", "PY27", "IS_PY2":
			return constOfBool(false)
		case "PY3", "IS_PY3", "PY3K":
			return constOfBool(true)
		}
	case "comparison_operator":
		if n.NamedChildCount() == 2 && n.ChildCount() == 3 {
			left, right := n.NamedChild(0), n.NamedChild(1)
			op := f.Text(n.Child(1))
			switch pyCompact(f.Text(left)) {
			case "sys.version_info":
				if right.Type() == "tuple" && right.NamedChildCount() >= 1 {
					major := pyConst(f, right.NamedChild(0))
					if major.kind == constNumber {
						if v, _ := major.n.Float64(); v != 3 {
							return constCompare(op, constOfNumber("3"), major)
						}
						if right.NamedChildCount() == 1 {
							// (3, minor…) is above (3,).
							return constCompare(op, constOfNumber("1"), constOfNumber("0"))
						}
					}
				}
			case "sys.version_info[0]", "sys.version_info.major":
				if v := pyConst(f, right); v.kind == constNumber {
					return constCompare(op, constOfNumber("3"), v)
				}
			}
		}
	}
	return pyConst(f, n)
}

// addDef records a function not nested in another, with its own status.
func (s *pySummary) addDef(def, name *sitter.Node, classes []string, own bool, raw int) {
	f := s.f
	d := PyDef{Class: strings.Join(classes, ".")}
	d.Test = Test{Name: f.Text(name), Line: Line(name), Status: Active}
	if own {
		d.Test.Status = Skipped
	}
	if raw < 0 {
		d.Test.Body = bodyHash(f.Src, def.StartByte(), def.EndByte(), name.StartByte(), name.EndByte())
	}
	switch {
	case pyCallsAtTop(f, def.ChildByFieldName("body"), "pytest.importorskip"):
		d.Test.Conditional = "importorskip"
	case s.cond.has(def.StartByte()):
		d.Test.Conditional = "condition"
	}
	if p := def.Parent(); p != nil && p.Type() == "decorated_definition" {
		for i := 0; i < int(p.NamedChildCount()); i++ {
			dec := p.NamedChild(i)
			if dec.Type() != "decorator" || dec.NamedChildCount() == 0 {
				continue
			}
			e := dec.NamedChild(0)
			if e.Type() == "call" {
				e = e.ChildByFieldName("function")
			}
			switch t := pyCompact(f.Text(e)); {
			case t == "fixture" || t == "yield_fixture" || strings.HasSuffix(t, ".fixture") || strings.HasSuffix(t, ".yield_fixture"):
				d.Fixture = true
			case t == "property" || strings.HasSuffix(t, "cached_property") || strings.HasSuffix(t, ".setter") ||
				strings.HasSuffix(t, ".getter") || strings.HasSuffix(t, ".deleter") || strings.HasSuffix(t, "abstractproperty"):
				d.Property = true
			case t == "classmethod":
				d.ClassMethod = true
			}
		}
	}
	s.m.Defs = append(s.m.Defs, d)
	s.raws = append(s.raws, raw)
}

// addClass records a class not nested in a function.
func (s *pySummary) addClass(cl *sitter.Node, classes []string, skipped bool) {
	f := s.f
	name := f.Text(cl.ChildByFieldName("name"))
	c := PyClass{Path: strings.Join(append(classes, name), "."), Line: Line(cl), Skipped: skipped, Conditional: s.cond.has(cl.StartByte())}
	if p := cl.Parent(); p != nil && p.Type() == "decorated_definition" && pySkipDecorated(f, p) {
		c.Skipped = true
	}
	if sup := cl.ChildByFieldName("superclasses"); sup != nil {
		for i := 0; i < int(sup.NamedChildCount()); i++ {
			b := sup.NamedChild(i)
			switch b.Type() {
			case "keyword_argument", "comment":
				continue
			case "subscript": // Base[T]
				b = b.ChildByFieldName("value")
			}
			c.Bases = append(c.Bases, pyDotted(f, b))
		}
	}
	for _, st := range s.live(cl.ChildByFieldName("body")) {
		if st.Type() == "expression_statement" && pyCallsAtTop(f, st, "pytest.importorskip") {
			// A class body runs at import: the module is skipped.
			s.m.ImportOrSkip = true
		}
		switch st.Type() {
		case "decorated_definition":
			st = st.ChildByFieldName("definition")
			if st == nil || st.Type() != "function_definition" {
				continue
			}
			fallthrough
		case "function_definition":
			if n := f.Text(st.ChildByFieldName("name")); n == "__init__" || n == "__new__" {
				c.Init = true
			}
		case "expression_statement":
			for _, as := range pyAssignments(f, st) {
				if as.Name == "__test__" {
					switch v := pyConst(f, as.value); {
					case v.isTrue():
						c.TestAttr = 1
					case v.isFalse():
						c.TestAttr = -1
					}
					continue
				}
				c.Attrs = append(c.Attrs, as.Name)
			}
		}
	}
	s.m.Classes = append(s.m.Classes, c)
}

// topLevel reads the module's own statements: imports, assignments, the
// importorskip calls and, in a conftest.py, collect_ignore.
func (s *pySummary) topLevel() {
	f, m := s.f, s.m
	for _, st := range s.live(f.Root) {
		switch st.Type() {
		case "import_statement":
			for i := 0; i < int(st.NamedChildCount()); i++ {
				n := st.NamedChild(i)
				mod, as := n, ""
				if n.Type() == "aliased_import" {
					mod, as = n.ChildByFieldName("name"), f.Text(n.ChildByFieldName("alias"))
				}
				name := pyCompact(f.Text(mod))
				if as == "" {
					as, _, _ = strings.Cut(name, ".")
				}
				m.Imports = append(m.Imports, PyImport{Module: name, As: as, Line: Line(st)})
			}
		case "import_from_statement":
			s.importFrom(st)
		case "delete_statement":
			for _, n := range pyDeleted(st) {
				if n.Type() == "identifier" {
					m.Assigns = append(m.Assigns, PyAssign{Name: f.Text(n), Line: Line(st), Deleted: true})
				}
			}
		case "expression_statement":
			if pyCallsAtTop(f, st, "pytest.importorskip") {
				m.ImportOrSkip = true
			}
			for _, as := range pyAssignments(f, st) {
				switch {
				case as.Name == "collect_ignore" || as.Name == "collect_ignore_glob":
					s.collectIgnore(as.Name, as.value, as.augmented)
				case !as.augmented:
					target := ""
					if as.value != nil && (as.value.Type() == "identifier" || as.value.Type() == "attribute") {
						target = pyDotted(f, as.value)
					}
					m.Assigns = append(m.Assigns, PyAssign{Name: as.Name, Target: target, Line: Line(st)})
				}
			}
			// collect_ignore.append("x"), collect_ignore.extend([…])
			if st.NamedChildCount() == 1 && st.NamedChild(0).Type() == "call" {
				call := st.NamedChild(0)
				fn := pyCompact(f.Text(call.ChildByFieldName("function")))
				list, method, _ := strings.Cut(fn, ".")
				args := call.ChildByFieldName("arguments")
				if (list == "collect_ignore" || list == "collect_ignore_glob") && args != nil && args.NamedChildCount() == 1 {
					switch method {
					case "append":
						s.collectIgnoreItems(list, []*sitter.Node{args.NamedChild(0)})
					case "extend":
						s.collectIgnore(list, args.NamedChild(0), true)
					}
				}
			}
		}
	}
}

func (s *pySummary) importFrom(st *sitter.Node) {
	f := s.f
	modNode := st.ChildByFieldName("module_name")
	if modNode == nil {
		return
	}
	level, mod := 0, pyCompact(f.Text(modNode))
	for strings.HasPrefix(mod, ".") {
		level++
		mod = mod[1:]
	}
	line := Line(st)
	for i := 0; i < int(st.NamedChildCount()); i++ {
		n := st.NamedChild(i)
		if n.Equal(modNode) {
			continue
		}
		switch n.Type() {
		case "wildcard_import":
			s.m.Imports = append(s.m.Imports, PyImport{Level: level, Module: mod, Name: "*", As: "*", Line: line})
		case "dotted_name":
			name := f.Text(n)
			s.m.Imports = append(s.m.Imports, PyImport{Level: level, Module: mod, Name: name, As: name, Line: line})
		case "aliased_import":
			name, as := f.Text(n.ChildByFieldName("name")), f.Text(n.ChildByFieldName("alias"))
			s.m.Imports = append(s.m.Imports, PyImport{Level: level, Module: mod, Name: name, As: as, Line: line})
		}
	}
}

// collectIgnore reads a list of literal strings assigned to (or added
// to) collect_ignore or collect_ignore_glob; a computed list is not read.
func (s *pySummary) collectIgnore(name string, value *sitter.Node, add bool) {
	if value == nil || (value.Type() != "list" && value.Type() != "tuple") {
		return
	}
	if !add {
		if name == "collect_ignore" {
			s.m.Ignore = nil
		} else {
			s.m.IgnoreGlob = nil
		}
	}
	var items []*sitter.Node
	for i := 0; i < int(value.NamedChildCount()); i++ {
		items = append(items, value.NamedChild(i))
	}
	s.collectIgnoreItems(name, items)
}

func (s *pySummary) collectIgnoreItems(name string, items []*sitter.Node) {
	for _, it := range items {
		c := pyConst(s.f, it)
		typ, v, _ := strings.Cut(c.s, "\x00")
		if c.kind != constString || !c.exact || typ != "str" {
			continue
		}
		if name == "collect_ignore" {
			s.m.Ignore = append(s.m.Ignore, v)
		} else {
			s.m.IgnoreGlob = append(s.m.IgnoreGlob, v)
		}
	}
}

// pyAssign is one name an assignment statement binds.
type pyAssign struct {
	Name      string
	value     *sitter.Node
	augmented bool
}

// pyAssignments returns the names an expression statement binds at its
// level: `a = b = value`, `a: T = value`, `a += value`; tuple targets
// bind their names to no known value.
func pyAssignments(f *File, st *sitter.Node) []pyAssign {
	if st.NamedChildCount() == 0 {
		return nil
	}
	var out []pyAssign
	e := st.NamedChild(0)
	for e != nil && (e.Type() == "assignment" || e.Type() == "augmented_assignment") {
		left, right := e.ChildByFieldName("left"), e.ChildByFieldName("right")
		aug := e.Type() == "augmented_assignment"
		value := right
		if right != nil && (right.Type() == "assignment" || right.Type() == "augmented_assignment") {
			value = nil
		}
		switch {
		case left == nil:
		case left.Type() == "identifier":
			out = append(out, pyAssign{f.Text(left), value, aug})
		case left.Type() == "pattern_list" || left.Type() == "tuple_pattern" || left.Type() == "list_pattern":
			for i := 0; i < int(left.NamedChildCount()); i++ {
				if n := left.NamedChild(i); n.Type() == "identifier" {
					out = append(out, pyAssign{f.Text(n), nil, aug})
				}
			}
		}
		e = right
	}
	// In a chain a = b = value, every name gets the value.
	if e != nil {
		for i := range out {
			if out[i].value == nil && !out[i].augmented {
				out[i].value = e
			}
		}
	}
	return out
}

// pyCallsAtTop reports a statement of the block (or the statement itself)
// that calls fn, alone or as the value of an assignment: a statement of
// the block itself, not one under an if.
func pyCallsAtTop(f *File, block *sitter.Node, fn string) bool {
	if block == nil {
		return false
	}
	stmts := []*sitter.Node{block}
	if block.Type() != "expression_statement" {
		stmts = statements(block)
	}
	for _, st := range stmts {
		if st.Type() != "expression_statement" || st.NamedChildCount() == 0 {
			continue
		}
		e := st.NamedChild(0)
		for e.Type() == "assignment" && e.ChildByFieldName("right") != nil {
			e = e.ChildByFieldName("right")
		}
		if e.Type() == "call" && pyCompact(f.Text(e.ChildByFieldName("function"))) == fn {
			return true
		}
	}
	return false
}

// pyDeleted returns the targets of a del statement.
func pyDeleted(st *sitter.Node) []*sitter.Node {
	var out []*sitter.Node
	for i := 0; i < int(st.NamedChildCount()); i++ {
		n := st.NamedChild(i)
		if n.Type() == "expression_list" {
			for j := 0; j < int(n.NamedChildCount()); j++ {
				out = append(out, n.NamedChild(j))
			}
			continue
		}
		out = append(out, n)
	}
	return out
}

// pyDotted returns a dotted name's text, or "?" for another expression.
func pyDotted(f *File, n *sitter.Node) string {
	if !f.descend() {
		return "?"
	}
	defer f.ascend()
	if n == nil {
		return "?"
	}
	switch n.Type() {
	case "identifier":
		return f.Text(n)
	case "attribute":
		obj := pyDotted(f, n.ChildByFieldName("object"))
		if obj == "?" {
			return "?"
		}
		return obj + "." + f.Text(n.ChildByFieldName("attribute"))
	}
	return "?"
}

// pyCompound are the statements whose blocks run in the namespace around
// them: what they define belongs to the module or class.
var pyCompound = map[string]bool{
	"if_statement": true, "try_statement": true, "with_statement": true, "for_statement": true,
	"while_statement": true, "elif_clause": true, "else_clause": true, "except_clause": true,
	"except_group_clause": true, "finally_clause": true, "ERROR": true, "block": true,
}

// pyFlat returns the statements of a module or class body, with those in
// the blocks of its compound statements (and of ERROR nodes, in a tree
// with errors): each binds its names in the same namespace.
func pyFlat(f *File, block *sitter.Node) []*sitter.Node {
	var out []*sitter.Node
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if !f.descend() {
			return
		}
		defer f.ascend()
		for i := 0; i < int(n.NamedChildCount()); i++ {
			st := n.NamedChild(i)
			if pyCompound[st.Type()] {
				walk(st)
				continue
			}
			out = append(out, st)
		}
	}
	if block != nil {
		walk(block)
	}
	return out
}
