package languages

import (
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
	`,
		// Only for trees with errors, to read indentation around strings.
		"strings": `(string) @string`,
	},
	Analyze: analyzePython,
	Samples: []Sample{
		{Path: "test_a.py", Source: "def test_one():\n    assert 1 == 1\n\nasync def test_two():\n    assert True\n\nclass TestCls:\n    def test_m(self):\n        assert x\n    class TestInner:\n        def test_n(self): pass\n",
			Tests: []string{"test_one active", "test_two active", "TestCls.test_m active", "TestCls.TestInner.test_n active"}, Assertions: 2, Vacuous: 1},
		{Path: "tests/unit/helpers.py", Source: "import pytest, unittest\n@pytest.mark.skip(reason='x')\ndef test_a(): pass\n@pytest.mark.skipif(True, reason='x')\ndef test_b(): pass\n@unittest.skip\nclass TestC(unittest.TestCase):\n    def test_c(self):\n        self.assertEqual(1, 1)\n        self.assertTrue(True)\n        with pytest.raises(ValueError): pass\n",
			Tests: []string{"test_a skipped", "test_b active", "TestC.test_c skipped"}, Assertions: 2, Vacuous: 1},
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
			Tests: []string{"test_a skipped", "TestC.test_b skipped", "TestC.test_c skipped", "TestC.test_d active", "TestC.test_e active"}, Assertions: 1},
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

func analyzePython(f *File) {
	var scopes []pyScope
	type def struct {
		node, name *sitter.Node
	}
	var defs []def
	skippedDecorated := map[uint32]bool{} // start byte of the definition → skipped
	f.Each("main", f.Root, func(c map[string]*sitter.Node) {
		switch {
		case c["def"] != nil:
			d := c["def"]
			scopes = append(scopes, pyScope{start: d.StartByte(), end: d.EndByte()})
			defs = append(defs, def{d, c["name"]})
		case c["class"] != nil:
			cl := c["class"]
			scopes = append(scopes, pyScope{start: cl.StartByte(), end: cl.EndByte(), class: true, name: f.Text(c["cname"])})
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
			f.Assert(pyVacuousAssert(f, c["assert"]))
		case c["call"] != nil:
			obj, attr := f.Text(c["obj"]), f.Text(c["attr"])
			switch {
			case obj == "self" && (strings.HasPrefix(attr, "assert") || strings.HasPrefix(attr, "fail")):
				f.Assert(pyVacuousSelf(f, attr, c["args"]))
			case obj == "pytest" && (attr == "raises" || attr == "warns"):
				f.Assert(false)
			}
		}
	})
	for i := range scopes {
		scopes[i].skipped = skippedDecorated[scopes[i].start]
	}
	var strs map[int]bool
	// Enclosing scopes, outermost first.
	sort.Slice(scopes, func(i, j int) bool { return scopes[i].start < scopes[j].start })
	for _, d := range defs {
		name := f.Text(d.name)
		if !strings.HasPrefix(name, "test") {
			continue
		}
		var path []string
		nested, skipped := false, skippedDecorated[d.node.StartByte()] || pySkipsPlainly(f, d.node)
		if f.Result.ParseError {
			// An error tree may have lost the classes around the def
			// (tree-sitter-python stumbles on a continuation line dedented
			// inside brackets); Python's own structure is indentation.
			if strs == nil {
				strs = pyStringLines(f)
			}
			path, nested = pyContextByIndent(f.Src, d.node, strs)
			if !nested {
				f.AddTest(strings.Join(append(path, name), "."), d.name, skipped)
			}
			continue
		}
		for _, sc := range scopes {
			if sc.start == d.node.StartByte() || sc.start > d.node.StartByte() || sc.end < d.node.EndByte() {
				continue
			}
			if !sc.class {
				nested = true
				break
			}
			path = append(path, sc.name)
			skipped = skipped || sc.skipped
		}
		if nested {
			continue
		}
		f.AddTest(strings.Join(append(path, name), "."), d.name, skipped)
	}
	sort.SliceStable(f.Result.Tests, func(i, j int) bool { return f.Result.Tests[i].Line < f.Result.Tests[j].Line })
	if pyModuleSkipped(f) {
		for i := range f.Result.Tests {
			f.Result.Tests[i].Status = Skipped
		}
	}
}

// pyCompact drops all white space, so that `pytest . skip (` and
// `pytest.skip(` compare equal.
func pyCompact(s string) string {
	return strings.Join(strings.Fields(s), "")
}

// pySkipsPlainly reports a test whose body begins (after its docstring)
// with an unconditional skip: pytest.skip(...), self.skipTest(...) or
// raise unittest.SkipTest(...). A skip under an if is conditional.
func pySkipsPlainly(f *File, def *sitter.Node) bool {
	body := def.ChildByFieldName("body")
	if body == nil {
		return false
	}
	for i := 0; i < int(body.NamedChildCount()); i++ {
		st := body.NamedChild(i)
		if st.Type() == "comment" {
			continue
		}
		if i == 0 && st.Type() == "expression_statement" && st.NamedChildCount() > 0 && st.NamedChild(0).Type() == "string" {
			continue // the docstring
		}
		text := pyCompact(f.Text(st))
		switch st.Type() {
		case "expression_statement":
			return strings.HasPrefix(text, "pytest.skip(") || strings.HasPrefix(text, "self.skipTest(")
		case "raise_statement":
			return strings.HasPrefix(text, "raiseunittest.SkipTest") || strings.HasPrefix(text, "raiseSkipTest")
		}
		return false
	}
	return false
}

// pyModuleSkipped reports a module that switches all its tests off at its
// top level: `pytestmark = pytest.mark.skip(...)` (alone or in a list), or
// `pytest.skip(..., allow_module_level=True)`. skipif stays conditional,
// and a statement under an if is not read.
func pyModuleSkipped(f *File) bool {
	isSkipMark := func(n *sitter.Node) bool {
		text := f.Text(n)
		if j := strings.IndexByte(text, '('); j >= 0 {
			text = text[:j]
		}
		text = pyCompact(text)
		return text == "pytest.mark.skip" || text == "mark.skip"
	}
	for i := 0; i < int(f.Root.NamedChildCount()); i++ {
		st := f.Root.NamedChild(i)
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
					if isSkipMark(right.NamedChild(j)) {
						return true
					}
				}
			} else if isSkipMark(right) {
				return true
			}
		case "call":
			fn, args := e.ChildByFieldName("function"), e.ChildByFieldName("arguments")
			if fn == nil || args == nil || pyCompact(f.Text(fn)) != "pytest.skip" {
				continue
			}
			for j := 0; j < int(args.NamedChildCount()); j++ {
				a := args.NamedChild(j)
				if a.Type() == "keyword_argument" && pyCompact(f.Text(a)) == "allow_module_level=True" {
					return true
				}
			}
		}
	}
	return false
}

// pyContextByIndent finds the classes around a def, and whether a function
// encloses it, from the indentation of the lines above it: each line less
// indented than everything since is an enclosing statement.
func pyContextByIndent(src []byte, def *sitter.Node, inString map[int]bool) (classes []string, nested bool) {
	lines := strings.Split(string(src[:def.StartByte()]), "\n")
	current := int(def.StartPoint().Column)
	for i := len(lines) - 2; i >= 0 && current > 0; i-- {
		line := lines[i]
		body := strings.TrimLeft(line, " \t")
		if body == "" || strings.HasPrefix(body, "#") || inString[i] {
			continue
		}
		indent := len(line) - len(body)
		if indent >= current {
			continue
		}
		current = indent
		switch {
		case strings.HasPrefix(body, "class "):
			name := strings.TrimPrefix(body, "class ")
			if j := strings.IndexAny(name, "(:"); j >= 0 {
				name = name[:j]
			}
			classes = append([]string{strings.TrimSpace(name)}, classes...)
		case strings.HasPrefix(body, "def "), strings.HasPrefix(body, "async def "):
			return nil, true
		}
	}
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

// pySkipDecorated reports a @pytest.mark.skip or @unittest.skip decorator;
// skipif and skipIf are conditional and leave the test active.
func pySkipDecorated(f *File, d *sitter.Node) bool {
	for i := 0; i < int(d.NamedChildCount()); i++ {
		dec := d.NamedChild(i)
		if dec.Type() != "decorator" {
			continue
		}
		text := strings.TrimSpace(strings.TrimPrefix(f.Text(dec), "@"))
		if j := strings.IndexByte(text, '('); j >= 0 {
			text = text[:j]
		}
		switch strings.TrimSpace(text) {
		case "pytest.mark.skip", "mark.skip", "unittest.skip", "skip":
			return true
		}
	}
	return false
}

// pyVacuousAssert reports assert True, or an assert of a true constant.
func pyVacuousAssert(f *File, a *sitter.Node) bool {
	if a.NamedChildCount() == 0 {
		return false
	}
	cond := a.NamedChild(0)
	switch cond.Type() {
	case "true":
		return true
	case "integer":
		return f.Text(cond) != "0"
	case "string":
		return len(strings.Trim(f.Text(cond), `"'`)) > 0
	}
	return false
}

// pyVacuousSelf reports self.assertTrue(True) and self.assertFalse(False).
func pyVacuousSelf(f *File, attr string, args *sitter.Node) bool {
	want := map[string]string{"assertTrue": "True", "assertFalse": "False"}[attr]
	return want != "" && args != nil && args.NamedChildCount() == 1 && f.Text(args.NamedChild(0)) == want
}
