package languages

// What switches a Python test off, and what makes an assertion vacuous:
// pytest's and unittest's marks read as those runners read them, and a
// small evaluator of constant expressions.

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// pySkipDecorated reports a decorator that switches the test (or the
// class) off; see pyMarkSkips.
func pySkipDecorated(f *File, d *sitter.Node) bool {
	for i := 0; i < int(d.NamedChildCount()); i++ {
		dec := d.NamedChild(i)
		if dec.Type() != "decorator" || dec.NamedChildCount() == 0 {
			continue
		}
		if pyMarkSkips(f, dec.NamedChild(0)) {
			return true
		}
	}
	return false
}

// pyMarkSkips reports a mark or decorator that keeps a test from running
// as written, read as pytest and unittest read it:
//   - @pytest.mark.skip, @unittest.skip;
//   - @pytest.mark.skipif with no condition, or one that is constant true
//     (skipif(True), skipif(1)); @unittest.skipIf(True, …),
//     @unittest.skipUnless(False, …);
//   - @pytest.mark.xfail that applies (no condition, or a true one) and is
//     not strict: pass or fail, the run stays green. strict=True makes an
//     unexpected pass fail, so the test still decides something; run=False
//     never runs it, strict or not. The xfail_strict ini option is not read:
//     a file cannot see it, so only strict=True on the mark keeps it active.
//
// A condition that is a string is code pytest evaluates at run time, so it
// is not constant. @unittest.expectedFailure stays active: unittest and
// pytest both fail the run on an unexpected success, as with a strict xfail.
func pyMarkSkips(f *File, e *sitter.Node) bool {
	name, args := e, (*sitter.Node)(nil)
	if e.Type() == "call" {
		name, args = e.ChildByFieldName("function"), e.ChildByFieldName("arguments")
	}
	pos, kw := pyArgs(f, args)
	if c := kw["condition"]; c != nil {
		pos = []*sitter.Node{c}
	}
	anyTrue := func() bool {
		for _, c := range pos {
			if pyCondition(f, c).isTrue() {
				return true
			}
		}
		return false
	}
	first := unknownConst
	if len(pos) > 0 {
		first = pyCondition(f, pos[0])
	}
	switch pyCompact(f.Text(name)) {
	case "pytest.mark.skip", "mark.skip", "unittest.skip", "skip":
		return true
	case "pytest.mark.skipif", "mark.skipif", "skipif":
		return len(pos) == 0 || anyTrue()
	case "unittest.skipIf", "skipIf":
		return first.isTrue()
	case "unittest.skipUnless", "skipUnless":
		return first.isFalse()
	case "pytest.mark.xfail", "mark.xfail", "xfail":
		if len(pos) > 0 && !anyTrue() {
			return false // applies on some runs only, or never
		}
		if pyConst(f, kw["run"]).isFalse() {
			return true
		}
		return kw["strict"] == nil || pyConst(f, kw["strict"]).isFalse()
	}
	return false
}

// pyCondition is a skipif or xfail condition's value: a string is code
// pytest evaluates, not a constant.
func pyCondition(f *File, n *sitter.Node) constant {
	if n != nil && (n.Type() == "string" || n.Type() == "concatenated_string") {
		return unknownConst
	}
	return pyConst(f, n)
}

// pyArgs splits a call's arguments into positional ones and keyword ones
// by name; a *args or **kwargs makes the positional list unknown (nil
// with a "*" key set).
func pyArgs(f *File, args *sitter.Node) (pos []*sitter.Node, kw map[string]*sitter.Node) {
	kw = map[string]*sitter.Node{}
	if args == nil {
		return nil, kw
	}
	for i := 0; i < int(args.NamedChildCount()); i++ {
		a := args.NamedChild(i)
		switch a.Type() {
		case "keyword_argument":
			kw[f.Text(a.ChildByFieldName("name"))] = a.ChildByFieldName("value")
		case "list_splat", "dictionary_splat":
			kw["*"] = a
		case "comment":
		default:
			pos = append(pos, a)
		}
	}
	return pos, kw
}

// pyVacuousAssert reports an assert that cannot fail: a constant true
// condition (assert True, assert 1, assert "x", assert (x, "msg"), a
// non-empty tuple being always true), or a comparison of literals
// (assert 2 == 2) the evaluator cannot prove false. A constant false one
// (assert False, assert 0 == 1) is an explicit failure and counts.
func pyVacuousAssert(f *File, a *sitter.Node) bool {
	if a.NamedChildCount() == 0 {
		return false
	}
	cond := a.NamedChild(0)
	c := pyConst(f, cond)
	if c.isTrue() {
		return true
	}
	return !c.isFalse() && cond.Type() == "comparison_operator" && pyLiteralsOnly(f, cond)
}

// pyLiteralsOnly reports a comparison whose operands are all literals.
func pyLiteralsOnly(f *File, cmp *sitter.Node) bool {
	for i := 0; i < int(cmp.NamedChildCount()); i++ {
		if !pyConst(f, cmp.NamedChild(i)).value() {
			return false
		}
	}
	return true
}

// pyUnittestCompare maps unittest's comparing assertions to the operator
// they check; "" where the evaluator cannot decide it (almost equal, count
// equal, regular expressions), which are then vacuous on two literals
// whatever the outcome. Other self.assert… methods are a project's own
// helpers, which often run the code under test on literal arguments
// (assertFailure('2004', 'spam')), and count.
var pyUnittestCompare = map[string]string{
	"assertEqual": "==", "assertEquals": "==", "failUnlessEqual": "==", "assertListEqual": "==",
	"assertTupleEqual": "==", "assertSetEqual": "==", "assertDictEqual": "==", "assertSequenceEqual": "==",
	"assertMultiLineEqual": "==", "assertNotEqual": "!=", "assertNotEquals": "!=", "failIfEqual": "!=",
	"assertGreater": ">", "assertGreaterEqual": ">=", "assertLess": "<", "assertLessEqual": "<=",
	"assertIs": "is", "assertIsNot": "is not", "assertIn": "in", "assertNotIn": "not in",
	"assertAlmostEqual": "", "assertAlmostEquals": "", "failUnlessAlmostEqual": "", "assertNotAlmostEqual": "",
	"assertNotAlmostEquals": "", "failIfAlmostEqual": "", "assertCountEqual": "", "assertRegex": "",
	"assertNotRegex": "", "assertRegexpMatches": "", "assertNotRegexpMatches": "",
}

// pyVacuousSelf reports a unittest assertion whose outcome the code under
// test cannot change and that passes: assertTrue(True), assertFalse(0),
// assertIsNone(None), assertIsNotNone of a literal, and a comparison of two
// literals (assertEqual(3, 3), assertIn(1, [1, 2])). One that always fails
// (assertEqual(0, 1) as a marker in a try, self.fail) is an explicit
// failure and counts.
func pyVacuousSelf(f *File, attr string, args *sitter.Node) bool {
	pos, kw := pyArgs(f, args)
	if kw["*"] != nil {
		return false
	}
	arg := func(i int) constant {
		if i < len(pos) {
			return pyConst(f, pos[i])
		}
		return unknownConst
	}
	switch attr {
	case "assertTrue", "assert_", "failUnless":
		return arg(0).isTrue()
	case "assertFalse", "failIf":
		return arg(0).isFalse()
	case "assertIsNone":
		return arg(0).kind == constNil
	case "assertIsNotNone":
		return arg(0).value() && arg(0).kind != constNil
	}
	op, ok := pyUnittestCompare[attr]
	if !ok || len(pos) < 2 || !arg(0).value() || !arg(1).value() {
		return false
	}
	return op == "" || !pyCompareOp(op, arg(0), arg(1)).isFalse()
}

// pyConst evaluates a Python expression of literals: numbers, strings
// without interpolation, True, False, None, tuples and lists, not, unary
// minus, and, or, comparisons (==, !=, <, <=, >, >=, is, is not, in,
// not in) and parentheses. Anything else (a name, a call) is unknown.
// pyModuleConsts maps the names the module binds exactly once, by a plain
// `NAME = value` at its top level, to their values: a name bound again
// anywhere in the file (another assignment, a global, a loop) is left out.
func pyModuleConsts(f *File) map[string]*sitter.Node {
	if f.consts != nil {
		return f.consts
	}
	f.consts = map[string]*sitter.Node{}
	once := map[string]*sitter.Node{}
	for _, st := range namedChildren(f.Root) {
		if st.Type() != "expression_statement" || st.NamedChildCount() != 1 {
			continue
		}
		a := st.NamedChild(0)
		if a.Type() != "assignment" {
			continue
		}
		left, right := a.ChildByFieldName("left"), a.ChildByFieldName("right")
		if left != nil && right != nil && left.Type() == "identifier" {
			once[f.Text(left)] = right
		}
	}
	// Any other binding of the name, anywhere, makes it a variable.
	bound := map[string]int{}
	src := string(f.Src)
	for name := range once {
		bound[name] = strings.Count(src, name+" =") + strings.Count(src, name+"=") + strings.Count(src, "global "+name) +
			strings.Count(src, name+" +=") + strings.Count(src, "for "+name+" ") + strings.Count(src, "as "+name)
	}
	for name, v := range once {
		if bound[name] == 1 {
			f.consts[name] = v
		}
	}
	return f.consts
}

func pyConst(f *File, n *sitter.Node) constant {
	if !f.descend() {
		return unknownConst
	}
	defer f.ascend()
	if n == nil {
		return unknownConst
	}
	switch n.Type() {
	case "identifier":
		// A module name bound once, at the top level, to a constant
		// (`SKIP = True`) is that constant; a chain is followed a few steps.
		if v := pyModuleConsts(f)[f.Text(n)]; v != nil && f.constDepth < 8 {
			f.constDepth++
			defer func() { f.constDepth-- }()
			return pyConst(f, v)
		}
	case "true":
		return constOfBool(true)
	case "false":
		return constOfBool(false)
	case "none":
		return constOfNil()
	case "integer", "float":
		return constOfNumber(f.Text(n))
	case "string":
		return pyString(f, n)
	case "concatenated_string":
		typ, text, exact := "", "", true
		for i := 0; i < int(n.NamedChildCount()); i++ {
			part := pyString(f, n.NamedChild(i))
			if part.kind != constString {
				return unknownConst
			}
			t, v, _ := strings.Cut(part.s, "\x00")
			if typ != "" && t != typ {
				return unknownConst // str and bytes do not concatenate
			}
			typ, text, exact = t, text+v, exact && part.exact
		}
		return constOfString(typ, text, exact)
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return pyConst(f, n.NamedChild(0))
		}
	case "tuple", "list":
		var elems []constant
		for i := 0; i < int(n.NamedChildCount()); i++ {
			e := n.NamedChild(i)
			switch e.Type() {
			case "comment":
				continue
			case "list_splat", "parenthesized_list_splat":
				return unknownConst // its length is unknown
			}
			elems = append(elems, pyConst(f, e))
		}
		return constOfSeq(n.Type(), elems)
	case "unary_operator":
		x := pyConst(f, n.ChildByFieldName("argument"))
		switch f.Text(n.ChildByFieldName("operator")) {
		case "-":
			return constNegate(x)
		case "+":
			if x.kind == constNumber {
				return x
			}
		}
	case "not_operator":
		return constNot(pyConst(f, n.ChildByFieldName("argument")))
	case "boolean_operator":
		left, right := pyConst(f, n.ChildByFieldName("left")), pyConst(f, n.ChildByFieldName("right"))
		if f.Text(n.ChildByFieldName("operator")) == "and" {
			return constAnd(left, right)
		}
		return constOr(left, right)
	case "comparison_operator":
		return pyCompare(f, n)
	}
	return unknownConst
}

// pyCompare evaluates a comparison, chained as Python chains it: a < b < c
// is a < b and b < c.
func pyCompare(f *File, n *sitter.Node) constant {
	var operands []constant
	var ops []string
	op := ""
	for i := 0; i < int(n.ChildCount()); i++ {
		ch := n.Child(i)
		if ch.IsNamed() {
			if ch.Type() == "comment" {
				continue
			}
			if len(operands) > 0 {
				ops = append(ops, strings.TrimSpace(op))
			}
			operands = append(operands, pyConst(f, ch))
			op = ""
			continue
		}
		op += " " + ch.Type()
	}
	if len(operands) < 2 || len(ops) != len(operands)-1 {
		return unknownConst
	}
	result := constOfBool(true)
	for i, op := range ops {
		result = constAnd(result, pyCompareOp(strings.Join(strings.Fields(op), " "), operands[i], operands[i+1]))
	}
	return result
}

// pyCompareOp applies one comparison operator.
func pyCompareOp(op string, l, r constant) constant {
	switch op {
	case "is", "is not":
		// Only None, True and False are sure to be one object.
		if (l.kind == constNil || l.kind == constBool) && (r.kind == constNil || r.kind == constBool) {
			eq, _ := constEqual(l, r)
			return constOfBool(eq == (op == "is"))
		}
		return unknownConst
	case "in", "not in":
		c := pyIn(l, r)
		if op == "not in" {
			c = constNot(c)
		}
		return c
	}
	return constCompare(op, l, r)
}

// pyIn is `x in seq` for a literal tuple or list, and `s in t` for strings.
func pyIn(x, seq constant) constant {
	switch seq.kind {
	case constSeq:
		all := true
		for _, e := range seq.elems {
			eq, ok := constEqual(x, e)
			if ok && eq {
				return constOfBool(true)
			}
			all = all && ok
		}
		if all {
			return constOfBool(false)
		}
	case constString:
		if x.kind == constString && x.exact && seq.exact {
			xt, xv, _ := strings.Cut(x.s, "\x00")
			st, sv, _ := strings.Cut(seq.s, "\x00")
			if xt == st {
				return constOfBool(strings.Contains(sv, xv))
			}
		}
	}
	return unknownConst
}

// pyString reads a string literal: its type (str or bytes) from its
// prefix, and its text, exact unless it holds escapes or doubled braces.
// An f-string with replacement fields is unknown.
func pyString(f *File, n *sitter.Node) constant {
	if n.Type() != "string" {
		return unknownConst
	}
	var start, end *sitter.Node
	for i := 0; i < int(n.NamedChildCount()); i++ {
		switch ch := n.NamedChild(i); ch.Type() {
		case "interpolation":
			return unknownConst
		case "string_start":
			start = ch
		case "string_end":
			end = ch
		}
	}
	if start == nil || end == nil {
		return unknownConst
	}
	prefix := strings.ToLower(strings.TrimRight(f.Text(start), `"'`))
	text := string(f.Src[start.EndByte():end.StartByte()])
	typ := "str"
	if strings.Contains(prefix, "b") {
		typ = "bytes"
	}
	// An f-string's {{ and }} are one brace each.
	exact := !strings.Contains(prefix, "f") && (strings.Contains(prefix, "r") || !strings.Contains(text, `\`))
	return constOfString(typ, text, exact)
}
