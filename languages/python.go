package languages

import (
	"bytes"
	"slices"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"
)

// Python counts pytest and unittest tests: functions named test… that are
// not nested in another function, qualified by the classes around them.
var Python = &Language{
	Name:      "python",
	Grammars:  map[string]func() *sitter.Language{".py": python.GetLanguage},
	TestFiles: []string{"test_*.py", "*_test.py", "**/tests/**/*.py", "conftest.py"},
	Markers:   []string{"def test", "assert", "self.fail", "pytest.raises", "pytest.warns"},
	Decode:    decodePython,
	Queries: map[string]string{"main": `
		(function_definition name: (identifier) @name) @def
		(class_definition name: (identifier) @cname) @class
		(decorated_definition) @decorated
		(lambda) @lambda
		(assert_statement) @assert
		(call function: (attribute object: (identifier) @obj attribute: (identifier) @attr) arguments: (argument_list) @args) @call
		(if_statement) @if
		(while_statement) @while
		[(return_statement) (raise_statement)] @exit
		(boolean_operator) @boolop
	`,
		// Only for trees with errors, to read indentation around strings.
		"strings": `(string) @string`,
	},
	Analyze: analyzePython,
	Samples: []Sample{
		// A module name bound once to a constant is that constant; one bound
		// again (here by a function's global) is a variable.
		{Path: "test_a.py", Source: "import pytest\nSKIP = True\n\n@pytest.mark.skipif(SKIP, reason='x')\ndef test_a():\n    assert f()\n\ndef test_b():\n    if SKIP:\n        return\n    assert g()\n",
			Tests: []string{"test_a skipped", "test_b skipped"}, Assertions: 1},
		{Path: "test_a.py", Source: "import pytest\nSKIP = True\n\ndef setup_module():\n    global SKIP\n    SKIP = False\n\n@pytest.mark.skipif(SKIP, reason='x')\ndef test_a():\n    assert f()\n",
			Tests: []string{"test_a active"}, Assertions: 1},
		{Path: "test_a.py", Source: "def test_one():\n    assert add(1) == 1\n\nasync def test_two():\n    assert True\n\nclass TestCls:\n    def test_m(self):\n        assert x\n    class TestInner:\n        def test_n(self): pass\n",
			Tests: []string{"test_one active", "test_two active", "TestCls.test_m active", "TestCls.TestInner.test_n active"}, Assertions: 2, Vacuous: 1},
		{Path: "tests/unit/test_helpers.py", Source: "import pytest, unittest\n@pytest.mark.skip(reason='x')\ndef test_a(): pass\n@pytest.mark.skipif(True, reason='x')\ndef test_b(): pass\n@unittest.skip\nclass TestC(unittest.TestCase):\n    def test_c(self):\n        self.assertEqual(1, x)\n        self.assertTrue(True)\n        with pytest.raises(ValueError): pass\n",
			Tests: []string{"test_a skipped", "test_b skipped", "TestC.test_c skipped"}, Assertions: 2, Vacuous: 1},
		{Path: "test_p.py", Source: "import pytest\n@pytest.mark.parametrize('x', [1, 2, 3])\ndef test_param(x):\n    def test_inner(): pass\n    assert x\n",
			Tests: []string{"test_param active"}, Assertions: 1},
		// A module that switches every test off at its top level.
		{Path: "test_m.py", Source: "import pytest\npytestmark = pytest.mark.skip(reason='later')\ndef test_a():\n    assert x == 1\nclass TestC:\n    def test_b(self): pass\n",
			Tests: []string{"test_a skipped", "TestC.test_b skipped"}, Assertions: 1},
		{Path: "test_m.py", Source: "import pytest\npytestmark = [pytest.mark.slow, pytest.mark.skip]\ndef test_a(): pass\n",
			Tests: []string{"test_a skipped"}},
		{Path: "test_m.py", Source: "import pytest\npytest.skip('not on this box', allow_module_level=True)\ndef test_a(): pass\n",
			Tests: []string{"test_a skipped"}},
		{Path: "test_m.py", Source: "import pytest, sys\npytestmark = pytest.mark.skipif(sys.platform == 'win32', reason='x')\nif sys.platform == 'win32':\n    pytest.skip('x', allow_module_level=True)\ndef test_a(): pass\n",
			Tests: []string{"test_a active"}},
		{Path: "test_m.py", Source: "import pytest\npytestmark = pytest.mark.slow\ndef test_a(): pass\n",
			Tests: []string{"test_a active"}},
		{Path: "test_s.py", Source: "import pytest, unittest\ndef test_a():\n    \"\"\"Doc.\"\"\"\n    pytest.skip('later')\n    assert x\nclass TestC(unittest.TestCase):\n    def test_b(self):\n        self.skipTest('later')\n    def test_c(self):\n        raise unittest.SkipTest('x')\n    def test_d(self):\n        if x:\n            self.skipTest('x')\n    def test_e(self):\n        y = 1\n        pytest.skip('x')\n",
			Tests: []string{"test_a skipped", "TestC.test_b skipped", "TestC.test_c skipped", "TestC.test_d active", "TestC.test_e skipped"}},
		// Marks that switch a test off: skipif with a constant-true
		// condition or none, a non-strict xfail, unittest's skipIf(True)
		// and skipUnless(False), on the test, its class or its module.
		{Path: "test_marks.py", Source: "import pytest, unittest\nfrom unittest import skipIf\n" +
			"@pytest.mark.skipif(True, reason='x')\ndef test_a():\n    assert f()\n" +
			"@pytest.mark.skipif(1, reason='x')\ndef test_b(): pass\n" +
			"@pytest.mark.skipif(reason='no condition skips')\ndef test_c(): pass\n" +
			"@pytest.mark.skipif(False, 1 == 1, reason='any condition')\ndef test_d(): pass\n" +
			"@pytest.mark.skipif(condition=not False, reason='x')\ndef test_e(): pass\n" +
			"@pytest.mark.xfail\ndef test_f(): pass\n" +
			"@pytest.mark.xfail(True, reason='bug', strict=False)\ndef test_g(): pass\n" +
			"@pytest.mark.xfail(run=False, strict=True)\ndef test_h(): pass\n" +
			"@unittest.skipIf(True, 'x')\nclass TestU(unittest.TestCase):\n    def test_i(self): pass\n" +
			"class TestV(unittest.TestCase):\n    @unittest.skipUnless(False, 'x')\n    def test_j(self): pass\n" +
			"    @skipIf(1 == 1.0, 'x')\n    def test_k(self): pass\n" +
			"class TestW:\n    pytestmark = [pytest.mark.slow, pytest.mark.xfail(reason='x')]\n    def test_l(self): pass\n",
			Tests: []string{"test_a skipped", "test_b skipped", "test_c skipped", "test_d skipped", "test_e skipped", "test_f skipped",
				"test_g skipped", "test_h skipped", "TestU.test_i skipped", "TestV.test_j skipped", "TestV.test_k skipped", "TestW.test_l skipped"}, Assertions: 1},
		// Negative: conditions known only at run time (a string condition
		// is code pytest evaluates), false ones, strict xfail, and
		// expectedFailure, which fails the run on an unexpected success.
		{Path: "test_marks.py", Source: "import pytest, sys, unittest\n" +
			"@pytest.mark.skipif(sys.platform == 'win32', reason='x')\ndef test_a():\n    assert f()\n" +
			"@pytest.mark.skipif(not HAS_NUMPY, reason='x')\ndef test_b(): pass\n" +
			"@pytest.mark.skipif(\"sys.platform == 'win32'\")\ndef test_c(): pass\n" +
			"@pytest.mark.skipif(False, reason='x')\ndef test_d(): pass\n" +
			"@pytest.mark.xfail(strict=True)\ndef test_e(): pass\n" +
			"@pytest.mark.xfail(False, reason='x')\ndef test_f(): pass\n" +
			"@pytest.mark.xfail(sys.platform == 'win32', reason='x')\ndef test_g(): pass\n" +
			"@pytest.mark.xfail(strict=STRICT)\ndef test_h(): pass\n" +
			"class TestU(unittest.TestCase):\n    @unittest.expectedFailure\n    def test_i(self): pass\n" +
			"    @unittest.skipUnless(sys.platform.startswith('linux'), 'x')\n    def test_j(self): pass\n" +
			"    @unittest.skipIf(False, 'x')\n    def test_k(self): pass\n" +
			"class TestW:\n    pytestmark = pytest.mark.skipif(sys.version_info < (3, 8), reason='x')\n    def test_l(self): pass\n",
			Tests: []string{"test_a active", "test_b active", "test_c active", "test_d active", "test_e active", "test_f active",
				"test_g active", "test_h active", "TestU.test_i active", "TestU.test_j active", "TestU.test_k active", "TestW.test_l active"}, Assertions: 1},
		{Path: "test_m.py", Source: "import pytest\npytestmark = pytest.mark.skipif(True, reason='x')\ndef test_a(): pass\n",
			Tests: []string{"test_a skipped"}},
		{Path: "test_m.py", Source: "import pytest\nif True:\n    pytest.skip('x', allow_module_level=True)\ndef test_a(): pass\n",
			Tests: []string{"test_a skipped"}},
		{Path: "test_m.py", Source: "import pytest\npytestmark = pytest.mark.xfail(strict=True)\nif False:\n    pytest.skip('x', allow_module_level=True)\ndef test_a(): pass\n",
			Tests: []string{"test_a active"}},
		// Bodies that switch the test off: return first, a skip or xfail
		// under a constant-true condition or anywhere at the top level,
		// an if that returns or skips either way.
		{Path: "test_body.py", Source: "import pytest, unittest\n" +
			"def test_a():\n    \"\"\"Doc.\"\"\"\n    return\n    assert f()\n" +
			"def test_b():\n    if True:\n        pytest.skip('x')\n    assert f()\n" +
			"def test_c():\n    pytest.xfail('x')\n" +
			"def test_d():\n    if not False:\n        return\n" +
			"def test_e():\n    if x:\n        return\n    else:\n        pytest.skip()\n" +
			"def test_f():\n    if 0:\n        pass\n    elif 'yes':\n        raise unittest.SkipTest('x')\n" +
			"class TestC(unittest.TestCase):\n    def test_g(self):\n        setup()\n        if True: self.skipTest('x')\n        self.assertEqual(f(), 1)\n",
			Tests: []string{"test_a skipped", "test_b skipped", "test_c skipped", "test_d skipped", "test_e skipped", "test_f skipped", "TestC.test_g skipped"}},
		// Negative: an empty test, a skip under a real or a false
		// condition, a return after work, a failure.
		{Path: "test_body.py", Source: "import pytest, sys\n" +
			"def test_a():\n    pass\n" +
			"def test_b():\n    ...\n" +
			"def test_c():\n    if sys.platform == 'win32':\n        pytest.skip('x')\n    assert f()\n" +
			"def test_d():\n    x = f()\n    return\n    assert x\n" +
			"def test_e():\n    if False:\n        pytest.skip()\n    assert f()\n" +
			"def test_f():\n    pytest.fail('boom')\n" +
			"def test_g():\n    raise NotImplementedError\n" +
			"def test_h():\n    if x:\n        return\n    assert f()\n" +
			"def test_i(size):\n    return check(size)\n    assert f()\n" +
			"def test_j():\n    return None\n",
			Tests: []string{"test_a active", "test_b active", "test_c active", "test_d active", "test_e active", "test_f active", "test_g active", "test_h active",
				"test_i active", "test_j skipped"}, Assertions: 3},
		// Assertions that never run are not counted.
		{Path: "test_dead.py", Source: "import pytest\ndef test_dead(self):\n" +
			"    if False:\n        assert f()\n" +
			"    if 0:\n        self.assertEqual(f(), 1)\n    elif True:\n        assert f()\n    else:\n        assert f()\n" +
			"    while False:\n        assert f()\n" +
			"    False and self.assertTrue(f())\n    x or self.assertTrue(f())\n" +
			"    if x:\n        return\n        assert f()\n" +
			"    if y:\n        raise ValueError()\n        assert f()\n" +
			"    with pytest.raises(ValueError):\n        f()\n    assert g()\n",
			Tests: []string{"test_dead active"}, Assertions: 4},
		// Vacuous: literals compared, truths of literals. A constant that
		// always fails is an explicit failure and counts.
		{Path: "test_v.py", Source: "def test_v(self):\n" +
			"    assert 2 == 2\n    assert \"a\" == 'a'\n    assert 1 != 2\n    assert True\n    assert 1\n    assert not False\n" +
			"    assert (f(), 'message')\n    assert -3 == -3.0\n    assert None is None\n    assert 1 in (1, 2)\n    assert 1 < 2 < 3\n" +
			"    self.assertEqual(3, 3)\n    self.assertTrue(True)\n    self.assertFalse(0)\n    self.assertIsNone(None)\n" +
			"    self.assertIsNotNone('x')\n    self.assertIn(1, [1, 2])\n    self.assertNotEqual(b'a', 'a')\n" +
			"    assert False\n    assert 0, 'unreachable'\n    assert f() == 2\n    assert x == y\n    assert f'{x}' == 'a'\n" +
			"    self.assertEqual(3, f())\n    self.assertTrue(False)\n    self.fail('x')\n    self.assertIsNone(f())\n    self.assertEqual(*pair)\n" +
			"    self.assertEqual(0, 1)\n    assert 1 == 2\n    self.assertFailure('2004', 'spam')\n    self.assertAlmostEqual(1.0, 1.0)\n",
			Tests: []string{"test_v active"}, Assertions: 13, Vacuous: 19},
		// A mixin's tests run through the classes that collect them, under
		// their names: pytest's Test… classes (base classes' tests first),
		// and unittest's TestCase subclasses, whatever their names, whose
		// tests are the methods named test… (no underscore needed), sorted,
		// or else runTest.
		{Path: "test_mixin.py", Source: "import unittest\nclass Mixin:\n    def test_shared(self):\n        assert f()\n" +
			"class TestA(Mixin):\n    def test_own(self): pass\n" +
			"class CaseB(Mixin, unittest.TestCase):\n    def testCamel(self): pass\n    def runTest(self): pass\n" +
			"class CaseC(unittest.TestCase):\n    def runTest(self): pass\n",
			Tests: []string{"TestA.test_shared active", "TestA.test_own active", "CaseB.testCamel active", "CaseB.test_shared active", "CaseC.runTest active"}, Assertions: 1},
		// Classes pytest does not collect: a constructor (its own, a
		// base's, a builtin base's), __test__ = False; __test__ = True
		// collects a class whatever its name.
		{Path: "test_ctor.py", Source: "class TestInit:\n    def __init__(self): pass\n    def test_a(self): pass\n" +
			"class TestChild(TestInit):\n    def test_b(self): pass\n" +
			"class TestError(Exception):\n    def test_c(self): pass\n" +
			"class TestHidden:\n    __test__ = False\n    def test_d(self): pass\n" +
			"class Checks:\n    __test__ = True\n    def test_e(self): pass\n",
			Tests: []string{"Checks.test_e active"}},
		// Fixtures, properties and classmethods are not tests; a
		// staticmethod is. A name bound twice is collected once, as last
		// bound; a subclass hides a base's test by binding its name.
		{Path: "test_attrs.py", Source: "import pytest\n@pytest.fixture\ndef test_data(): return 1\n" +
			"class TestP:\n    @property\n    def test_p(self): pass\n    @classmethod\n    def test_c(cls): pass\n    @staticmethod\n    def test_s(): pass\n" +
			"def test_dup(): pass\ndef test_dup():\n    assert f()\n" +
			"class TestBase:\n    def test_a(self): pass\nclass TestSub(TestBase):\n    test_a = None\n",
			Tests: []string{"TestP.test_s active", "test_dup active", "TestBase.test_a active"}, Assertions: 1},
		// TestCase by any import of it, or by a name that says so.
		{Path: "test_bases.py", Source: "from unittest import TestCase as TC\nimport unittest as ut\nfrom django.test import SimpleTestCase\n" +
			"class Foo(TC):\n    def test_q(self): pass\nclass Bar(ut.TestCase):\n    def test_r(self): pass\n" +
			"class Baz(SimpleTestCase):\n    def test_s(self): pass\nAlias = Foo\nclass Helper(object):\n    def test_t(self): pass\n",
			Tests: []string{"Foo.test_q active", "Bar.test_r active", "Baz.test_s active", "Alias.test_q active"}},
		// pytest.importorskip at the top of a module: its tests stay active.
		{Path: "test_np.py", Source: "import pytest\nnp = pytest.importorskip('numpy')\ndef test_a():\n    assert np.ones(1)\n",
			Tests: []string{"test_a active"}, Assertions: 1},
		// Not a file pytest collects, even below tests/: its test functions
		// are not tests, its assertions still count.
		{Path: "tests/typing/typing_progressbar.py", Source: "def test_types():\n    assert f()\n", Assertions: 1},
		// Negative: not tests.
		{Path: "test_n.py", Source: "def helper():\n    def test_nested(): pass\ntesting = 1\ndef tester(): pass\nclass Thing:\n    pass\n", Tests: []string{"tester active"}},
		{Path: "app.py", Source: "def test_not_in_a_test_file(): assert 1\n", Tests: nil},
		{Path: "test_q.py", Source: "x = lambda: None\nTestCase = object\n", Tests: nil},
	},
}

// pyScope is a class or function, for finding what encloses a def.
type pyScope struct {
	start, end uint32
	class      bool
	name       string
	skipped    bool
}

// pyAnalysis is what one pass of the query over a Python file collects.
type pyAnalysis struct {
	f       *File
	asserts []pyAssert
	// ifs, whiles, exits (return, raise), boolops and skips (pytest.skip,
	// pytest.xfail, self.skipTest calls) decide what code is dead.
	ifs, whiles, exits, boolops, skips []*sitter.Node
	dead                               deadSpans
}

type pyAssert struct {
	at      uint32
	vacuous bool
}

func analyzePython(f *File) {
	a := &pyAnalysis{f: f}
	var scopes []pyScope
	type def struct {
		node, name *sitter.Node
	}
	var defs []def
	var classes []*sitter.Node
	skippedDecorated := map[uint32]bool{} // start byte of the definition → skipped
	f.Each("main", f.Root, func(c map[string]*sitter.Node) {
		switch {
		case c["def"] != nil:
			d := c["def"]
			scopes = append(scopes, pyScope{start: d.StartByte(), end: d.EndByte()})
			defs = append(defs, def{d, c["name"]})
		case c["class"] != nil:
			cl := c["class"]
			classes = append(classes, cl)
			// pytestmark in a class body marks each of its tests.
			skipped := pyMarksSkip(f, cl.ChildByFieldName("body"), false)
			scopes = append(scopes, pyScope{start: cl.StartByte(), end: cl.EndByte(), class: true, name: f.Text(c["cname"]), skipped: skipped})
		case c["lambda"] != nil:
			l := c["lambda"]
			scopes = append(scopes, pyScope{start: l.StartByte(), end: l.EndByte()})
		case c["decorated"] != nil:
			d := c["decorated"]
			if pySkipDecorated(f, d) {
				if def := d.ChildByFieldName("definition"); def != nil {
					skippedDecorated[def.StartByte()] = true
				}
			}
		case c["assert"] != nil:
			a.asserts = append(a.asserts, pyAssert{c["assert"].StartByte(), pyVacuousAssert(f, c["assert"])})
		case c["call"] != nil:
			obj, attr := f.Text(c["obj"]), f.Text(c["attr"])
			at := c["call"].StartByte()
			switch {
			case obj == "self" && (strings.HasPrefix(attr, "assert") || strings.HasPrefix(attr, "fail")):
				a.asserts = append(a.asserts, pyAssert{at, pyVacuousSelf(f, attr, c["args"])})
			case obj == "pytest" && (attr == "raises" || attr == "warns"):
				a.asserts = append(a.asserts, pyAssert{at, false})
			case (obj == "pytest" && (attr == "skip" || attr == "xfail" || attr == "fail")) || (obj == "self" && attr == "skipTest"):
				a.skips = append(a.skips, c["call"])
			}
		case c["if"] != nil:
			a.ifs = append(a.ifs, c["if"])
		case c["while"] != nil:
			a.whiles = append(a.whiles, c["while"])
		case c["exit"] != nil:
			a.exits = append(a.exits, c["exit"])
		case c["boolop"] != nil:
			a.boolops = append(a.boolops, c["boolop"])
		}
	})
	a.markDead()
	for _, as := range a.asserts {
		if !a.dead.has(as.at) {
			f.AssertAt(as.at, as.vacuous)
		}
	}
	for i := range scopes {
		scopes[i].skipped = scopes[i].skipped || skippedDecorated[scopes[i].start]
	}
	var indents *pyIndents
	// The scopes nest as the tree does: those around a definition are
	// the climb from the innermost one that begins before it.
	spans := make([]rangeSpan, len(scopes))
	for i, sc := range scopes {
		spans[i] = rangeSpan{sc.start, sc.end}
	}
	nest := newNesting(spans)
	// context returns the classes around a definition, whether a function
	// encloses it, and whether a class around it switches it off.
	context := func(n *sitter.Node) (path []string, nested, skipped bool) {
		if f.Result.ParseError {
			// An error tree may have lost the classes around the def
			// (tree-sitter-python stumbles on a continuation line dedented
			// inside brackets); Python's own structure is indentation.
			if indents == nil {
				indents = newPyIndents(f.Src, pyStringLines(f))
			}
			path, nested = indents.context(f.Src, n)
			return path, nested, false
		}
		// Innermost first, then outermost first.
		for i := nest.around(n.StartByte(), n.EndByte(), true); i >= 0; i = nest.up(i) {
			sc := scopes[i]
			if !sc.class {
				return nil, true, false
			}
			path = append(path, sc.name)
			skipped = skipped || sc.skipped
		}
		slices.Reverse(path)
		return path, false, skipped
	}
	sum := &pySummary{f: f, m: &PyModule{}}
	sum.markStatic(f.Root, true)
	for _, d := range defs {
		name := f.Text(d.name)
		path, nested, classSkipped := context(d.node)
		if nested {
			continue
		}
		own := skippedDecorated[d.node.StartByte()] || a.switchedOff(d.node)
		raw := -1
		if pyRawTest(name) {
			// Its assertions are credited to it: a helper's go to the
			// tests that call it.
			raw = len(f.Result.Tests)
			f.AddTestSpan(strings.Join(append(path, name), "."), d.name, own || classSkipped, d.node)
		}
		if !sum.dead.has(d.node.StartByte()) {
			sum.addDef(d.node, d.name, path, own, raw)
		}
	}
	for _, cl := range classes {
		path, nested, _ := context(cl)
		if !nested && !sum.dead.has(cl.StartByte()) {
			sum.addClass(cl, path, pyMarksSkip(f, cl.ChildByFieldName("body"), false))
		}
	}
	sum.topLevel()
	sum.m.Skipped = pyMarksSkip(f, f.Root, true)
	// Each definition's own figures, then the tests pytest collects from
	// the file on its own; the count of a project collects again, with
	// its configuration and its other modules.
	f.identify()
	f.testNodes = nil
	if f.tooMany {
		return // refused: its tests were not all recorded
	}
	for i, raw := range sum.raws {
		if raw >= 0 {
			own := sum.m.Defs[i].Test
			sum.m.Defs[i].Test = f.Result.Tests[raw]
			sum.m.Defs[i].Test.Name = own.Name
			sum.m.Defs[i].Test.Status = own.Status
			sum.m.Defs[i].Test.Conditional = own.Conditional
		}
	}
	f.Result.Python = sum.m
	tests, ok := pyCollectAlone(f.Path, sum.m)
	f.Result.Tests, f.tooMany = tests, !ok
}

// pyLastName is the last part of a dotted name.
func pyLastName(s string) string {
	return s[strings.LastIndexByte(s, '.')+1:]
}

// markDead finds the code that never runs: the branches a constant
// condition never takes, the right of `False and …` and `True or …`, and
// what follows a return, a raise, a skip, or an if that ends each way.
func (a *pyAnalysis) markDead() {
	for _, n := range a.ifs {
		taken := false // an earlier branch's condition is constant true
		for _, br := range pyBranches(n) {
			switch {
			case taken:
				a.dead.add(br.node)
			case br.cond == nil:
			case pyConst(a.f, br.cond).isFalse():
				a.dead.add(br.body)
			case pyConst(a.f, br.cond).isTrue():
				taken = true
			}
		}
		if a.ends(n) != endsNot {
			a.dead.addAfter(n, "")
		}
	}
	for _, n := range a.whiles {
		if pyConst(a.f, n.ChildByFieldName("condition")).isFalse() {
			a.dead.add(n.ChildByFieldName("body"))
		}
	}
	for _, n := range a.boolops {
		left := pyConst(a.f, n.ChildByFieldName("left"))
		op := a.f.Text(n.ChildByFieldName("operator"))
		if (op == "and" && left.isFalse()) || (op == "or" && left.isTrue()) {
			a.dead.add(n.ChildByFieldName("right"))
		}
	}
	for _, n := range a.exits {
		a.dead.addAfter(n, "")
	}
	for _, call := range a.skips {
		if st := call.Parent(); st != nil && st.Type() == "expression_statement" {
			a.dead.addAfter(st, "")
		}
	}
}

// pyBranch is one arm of an if: its condition (nil for else), its body,
// and the node to mark dead when an earlier arm is always taken.
type pyBranch struct {
	cond, body, node *sitter.Node
}

func pyBranches(n *sitter.Node) []pyBranch {
	out := []pyBranch{{n.ChildByFieldName("condition"), n.ChildByFieldName("consequence"), n.ChildByFieldName("consequence")}}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		switch ch := n.NamedChild(i); ch.Type() {
		case "elif_clause":
			out = append(out, pyBranch{ch.ChildByFieldName("condition"), ch.ChildByFieldName("consequence"), ch})
		case "else_clause":
			out = append(out, pyBranch{nil, ch.ChildByFieldName("body"), ch})
		}
	}
	return out
}

// ends reports how a statement ends the code after it: return; a skip
// (pytest.skip, pytest.xfail, self.skipTest, raise SkipTest); another
// raise, pytest.fail or a return of a computed value, which end the code
// after them but do work; an if each of whose reachable arms ends.
func (a *pyAnalysis) ends(st *sitter.Node) endKind {
	if !a.f.descend() {
		return endsNot
	}
	defer a.f.ascend()
	if st == nil {
		return endsNot
	}
	switch st.Type() {
	case "return_statement":
		// return helper() runs the helper: CPython's bigmem tests
		// delegate so. Only a bare return, or one of a constant, does
		// nothing.
		if st.NamedChildCount() > 0 && !pyConst(a.f, st.NamedChild(0)).known() {
			return endsActing
		}
		return endsReturn
	case "raise_statement":
		text := pyCompact(a.f.Text(st))
		if strings.HasPrefix(text, "raiseunittest.SkipTest") || strings.HasPrefix(text, "raiseSkipTest") || strings.HasPrefix(text, "raisepytest.skip.Exception") {
			return endsSkip
		}
		return endsActing
	case "expression_statement":
		if st.NamedChildCount() != 1 || st.NamedChild(0).Type() != "call" {
			return endsNot
		}
		switch pyCompact(a.f.Text(st.NamedChild(0).ChildByFieldName("function"))) {
		case "pytest.skip", "pytest.xfail", "self.skipTest":
			return endsSkip
		case "pytest.fail":
			return endsActing
		}
	case "block":
		return firstEnd(statements(st), a.ends)
	case "if_statement":
		k := endsSkip
		for _, br := range pyBranches(st) {
			c := constOfBool(true) // else
			if br.cond != nil {
				c = pyConst(a.f, br.cond)
			}
			if c.isFalse() {
				continue
			}
			k = min(k, a.ends(br.body))
			if c.isTrue() {
				return k
			}
		}
		return endsNot // no arm is sure to be taken: the if can fall through
	}
	return endsNot
}

// switchedOff reports a test that does not run as written: one that skips
// unconditionally at the top level of its body (pytest.skip, pytest.xfail,
// self.skipTest, raise SkipTest, or one of them under a constant-true
// condition), or whose first statement after the docstring returns.
func (a *pyAnalysis) switchedOff(def *sitter.Node) bool {
	body := def.ChildByFieldName("body")
	for i, st := range statements(body) {
		if i == 0 && st.Type() == "expression_statement" && st.NamedChildCount() > 0 && st.NamedChild(0).Type() == "string" {
			continue // the docstring
		}
		k := a.ends(st)
		if k == endsSkip {
			return true
		}
		if k == endsReturn && pyFirstAfterDoc(body, st) {
			return true
		}
	}
	return false
}

// pyFirstAfterDoc reports whether st is the first statement of body, after
// the docstring.
func pyFirstAfterDoc(body, st *sitter.Node) bool {
	stmts := statements(body)
	if len(stmts) > 1 && stmts[0].Type() == "expression_statement" && stmts[0].NamedChildCount() > 0 && stmts[0].NamedChild(0).Type() == "string" {
		stmts = stmts[1:]
	}
	return len(stmts) > 0 && stmts[0].Equal(st)
}

// pyCompact drops all white space, so that `pytest . skip (` and
// `pytest.skip(` compare equal.
func pyCompact(s string) string {
	return strings.Join(strings.Fields(s), "")
}

// pyMarksSkip reports a module (module true) or class body that switches
// all its tests off: `pytestmark = <a mark that skips>`, alone or in a
// list, or in a module `pytest.skip(..., allow_module_level=True)`; also
// under an `if` whose condition is constant true.
func pyMarksSkip(f *File, block *sitter.Node, module bool) bool {
	if !f.descend() {
		return false
	}
	defer f.ascend()
	for _, st := range statements(block) {
		if st.Type() == "if_statement" {
			c := pyConst(f, st.ChildByFieldName("condition"))
			if c.isTrue() && pyMarksSkip(f, st.ChildByFieldName("consequence"), module) {
				return true
			}
			continue
		}
		if st.Type() != "expression_statement" || st.NamedChildCount() == 0 {
			continue
		}
		e := st.NamedChild(0)
		switch e.Type() {
		case "assignment":
			left, right := e.ChildByFieldName("left"), e.ChildByFieldName("right")
			if left == nil || right == nil || f.Text(left) != "pytestmark" {
				continue
			}
			if right.Type() == "list" || right.Type() == "tuple" {
				for j := 0; j < int(right.NamedChildCount()); j++ {
					if pyMarkSkips(f, right.NamedChild(j)) {
						return true
					}
				}
			} else if pyMarkSkips(f, right) {
				return true
			}
		case "call":
			if !module {
				continue
			}
			fn, args := e.ChildByFieldName("function"), e.ChildByFieldName("arguments")
			if fn == nil || args == nil || pyCompact(f.Text(fn)) != "pytest.skip" {
				continue
			}
			if _, kw := pyArgs(f, args); pyConst(f, kw["allow_module_level"]).isTrue() {
				return true
			}
		}
	}
	return false
}

// pyIndents is a file's lines as Python's indentation nests them: for
// each line that holds code (not blank, not a comment, not the inside of
// a string), the nearest line above it that is less indented, which is
// the statement it belongs to.
type pyIndents struct {
	lineStart []int // the offset of each line
	indent    []int // each line's indentation, -1 for a line without code
	up        []int // the nearest line above with less indentation, -1 for none
	last      []int // the last line with code at or above each line, -1 for none
}

// newPyIndents reads the lines of src; inString holds the lines that
// continue a string.
func newPyIndents(src []byte, inString map[int]bool) *pyIndents {
	ix := &pyIndents{}
	for start := 0; ; {
		ix.lineStart = append(ix.lineStart, start)
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			break
		}
		start += end + 1
	}
	n := len(ix.lineStart)
	ix.indent, ix.up, ix.last = make([]int, n), make([]int, n), make([]int, n)
	var stack []int // lines with code, each less indented than the next
	prev := -1
	for i := 0; i < n; i++ {
		line := ix.line(src, i)
		body := strings.TrimLeft(line, " \t")
		ix.indent[i], ix.up[i] = -1, -1
		if body != "" && !strings.HasPrefix(body, "#") && !inString[i] {
			ix.indent[i] = len(line) - len(body)
			for len(stack) > 0 && ix.indent[stack[len(stack)-1]] >= ix.indent[i] {
				stack = stack[:len(stack)-1]
			}
			if len(stack) > 0 {
				ix.up[i] = stack[len(stack)-1]
			}
			stack = append(stack, i)
			prev = i
		}
		ix.last[i] = prev
	}
	return ix
}

// line returns line i of src, without its newline.
func (ix *pyIndents) line(src []byte, i int) string {
	start, end := ix.lineStart[i], len(src)
	if i+1 < len(ix.lineStart) {
		end = ix.lineStart[i+1] - 1
	}
	return string(src[start:end])
}

// context finds the classes around a def, and whether a function encloses
// it, from the indentation of the lines above it: each line less indented
// than everything since is an enclosing statement.
func (ix *pyIndents) context(src []byte, def *sitter.Node) (classes []string, nested bool) {
	at := int(def.StartByte())
	row := sort.Search(len(ix.lineStart), func(i int) bool { return ix.lineStart[i] > at }) - 1
	current := int(def.StartPoint().Column)
	i := -1
	if row > 0 {
		i = ix.last[row-1]
	}
	for i >= 0 && current > 0 {
		// The lines between i and the one above it that is less
		// indented are all indented at least as much as i.
		if ix.indent[i] >= current {
			i = ix.up[i]
			continue
		}
		current = ix.indent[i]
		body := strings.TrimLeft(ix.line(src, i), " \t")
		switch {
		case strings.HasPrefix(body, "class "):
			name := strings.TrimPrefix(body, "class ")
			if j := strings.IndexAny(name, "(:"); j >= 0 {
				name = name[:j]
			}
			classes = append(classes, strings.TrimSpace(name))
		case strings.HasPrefix(body, "def "), strings.HasPrefix(body, "async def "):
			return nil, true
		}
		i = ix.up[i]
	}
	slices.Reverse(classes)
	return classes, false
}

// pyStringLines returns the 0-based lines that continue a string begun on
// an earlier line: their indentation is text, not structure.
func pyStringLines(f *File) map[int]bool {
	m := map[int]bool{}
	f.Each("strings", f.Root, func(c map[string]*sitter.Node) {
		st := c["string"]
		for l := int(st.StartPoint().Row) + 1; l <= int(st.EndPoint().Row); l++ {
			m[l] = true
		}
	})
	return m
}
