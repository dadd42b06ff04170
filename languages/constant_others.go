package languages

import (
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// This file reads constants the way JavaScript, Java, Kotlin, C#, Ruby, PHP,
// Swift and C++ write them, so that a skip under `if (true)`, an assertion
// under `if (false)` and `expect(2).toBe(2)` are seen for what they are
// however they are spelled: a small evaluator over literals, !, &&, ||,
// comparisons of literals and parentheses, driven by each grammar's node
// types rather than by lists of spellings.

// flowKind is the kind of a constant.
type flowKind byte

// The kinds of constants. Two constants of different kinds are never
// equal: the languages that would convert one into the other (JavaScript's
// ==, PHP's ==) are not worth the guess.
const (
	flowBool flowKind = iota + 1
	flowNumber
	flowString
	flowChar
	flowSymbol
	flowNull
	flowUndefined
)

// flowValue is a constant: its kind and a canonical text (a number's
// value, a string's content), so that 1 and 1.0, or 'a' and "a", compare
// as their language compares them.
type flowValue struct {
	kind flowKind
	text string
}

// flowStringParts are the node types a string may hold and still be a
// constant; anything else (an interpolation) makes it depend on the code.
var flowStringParts = map[string]bool{
	"string_fragment": true, "escape_sequence": true, "string_content": true, "string_literal_content": true,
	"line_str_text": true, "str_escaped_char": true, "character_escape_seq": true, "multiline_string_fragment": true,
	"character": true, "character_literal_content": true, "multi_line_str_text": true, "comment": true,
}

// flowDialect is how one grammar family writes constants, conditions and
// the statements that leave a block. The evaluator and the reachability
// rules in flow_others.go are shared; a dialect only names node types.
type flowDialect struct {
	// Literal node types by kind.
	bools, numbers, strs, chars, symbols, nulls, undefineds map[string]bool
	// nullWords are identifiers or bare keywords that mean null (NULL,
	// Kotlin's null, Swift's nil).
	nullWords map[string]bool
	// wrappers hold one expression: parentheses, an argument, a C++
	// condition clause.
	wrappers map[string]bool
	// Operators.
	unary, binary map[string]bool
	// logical are the query patterns for the operators that short-circuit
	// (&&, ||, and, or): only they make code dead.
	logical string
	// ifs are if statements and expressions, ternaries and Ruby's
	// modifiers; negated ones (Ruby's unless) run their body when the
	// condition is false. whiles run their body while the condition holds.
	ifs, negated, whiles map[string]bool
	// blocks hold statements run in order.
	blocks map[string]bool
	// jumps leave the block: the keyword they start with says how
	// (return, throw, break, continue, next, redo, retry).
	jumps map[string]bool
	// throwCalls are calls that raise (Ruby's raise).
	throwCalls map[string]bool
	// statements wrap an expression in statement position (or in a try):
	// their last named child is what runs.
	statements map[string]bool
	// hoisted statements run before the block does (JavaScript's function
	// declarations), so code after a return does not make them dead.
	hoisted map[string]bool
	// truthy says whether a constant counts as true in a condition; ok is
	// false where the language would not accept it there.
	truthy func(v flowValue) (truth, ok bool)
	// skip reports a call or statement that skips the running test or
	// ends it as passed, given the node once statement wrappers are off.
	skip func(d *flowDialect, f *File, n *sitter.Node) flowExit
	// skipWords are words one of which the text of every call skip reports
	// holds: a cheap test before skip reads the node.
	skipWords []string
	// named, where the language has one, gives the value a name stands
	// for when the file binds it once to a constant (Ruby's
	// `QUARANTINE = true`, JavaScript's `const SKIP = true`), or nil.
	named func(f *File, n *sitter.Node) *sitter.Node
}

// value evaluates n as a constant, if it is one.
func (d *flowDialect) value(f *File, n *sitter.Node) (flowValue, bool) {
	if !f.descend() {
		return flowValue{}, false
	}
	defer f.ascend()
	for depth := 0; n != nil && depth < 64; depth++ {
		t := n.Type()
		if d.named != nil && f.constDepth < 8 {
			// A name bound once to a constant is that constant; a chain
			// of them is followed a few steps.
			if v := d.named(f, n); v != nil {
				f.constDepth++
				defer func() { f.constDepth-- }()
				n = v
				continue
			}
		}
		switch {
		case n.NamedChildCount() == 0 && d.nullWords[strings.TrimSpace(f.Text(n))]:
			// Kotlin's null and Swift's nil are bare keywords, NULL a name.
			return flowValue{flowNull, ""}, true
		case d.wrappers[t]:
			inner := flowOnlyChild(n)
			if v := n.ChildByFieldName("value"); v != nil && t == "value_argument" {
				inner = v // Swift's label: value
			}
			if inner == nil {
				return flowValue{}, false
			}
			n = inner
			continue
		case d.bools[t]:
			return flowValue{flowBool, strings.ToLower(strings.TrimSpace(f.Text(n)))}, true
		case d.numbers[t]:
			return flowValue{flowNumber, flowNumberText(f.Text(n))}, true
		case d.strs[t] || d.chars[t] || d.symbols[t]:
			for i := 0; i < int(n.NamedChildCount()); i++ {
				if !flowStringParts[n.NamedChild(i).Type()] {
					return flowValue{}, false
				}
			}
			k := flowString
			if d.chars[t] {
				k = flowChar
			} else if d.symbols[t] {
				k = flowSymbol
			}
			return flowValue{k, flowStringText(f.Text(n))}, true
		case d.nulls[t]:
			return flowValue{flowNull, ""}, true
		case d.undefineds[t]:
			return flowValue{flowUndefined, ""}, true
		case d.unary[t]:
			return d.unaryValue(f, n)
		case d.binary[t]:
			return d.binaryValue(f, n)
		case d.ifs[t] && !d.negated[t]:
			// A ternary whose condition is a constant is its chosen side.
			cond, then, alts := d.parts(n)
			truth, ok := d.truth(f, cond)
			if !ok || len(alts) == 0 {
				return flowValue{}, false
			}
			if truth {
				n = then
			} else {
				n = alts[0]
			}
			continue
		}
		return flowValue{}, false
	}
	return flowValue{}, false
}

// truth evaluates a condition: whether a constant n is true.
func (d *flowDialect) truth(f *File, n *sitter.Node) (bool, bool) {
	if n == nil {
		return false, false
	}
	v, ok := d.value(f, n)
	if !ok {
		return false, false
	}
	return d.truthy(v)
}

func (d *flowDialect) unaryValue(f *File, n *sitter.Node) (flowValue, bool) {
	if !f.descend() {
		return flowValue{}, false
	}
	defer f.ascend()
	operand := flowLastNamed(n)
	op := flowOperator(f, n, nil, operand)
	if operand == nil {
		return flowValue{}, false
	}
	switch op {
	case "!", "not":
		truth, ok := d.truth(f, operand)
		return flowValue{flowBool, strconv.FormatBool(!truth)}, ok
	case "-", "+":
		v, ok := d.value(f, operand)
		if !ok || v.kind != flowNumber {
			return flowValue{}, false
		}
		if op == "-" {
			v.text = flowNumberText("-" + v.text)
		}
		return v, true
	}
	return flowValue{}, false
}

func (d *flowDialect) binaryValue(f *File, n *sitter.Node) (flowValue, bool) {
	if !f.descend() {
		return flowValue{}, false
	}
	defer f.ascend()
	left, op, right := d.binaryParts(f, n)
	if left == nil || right == nil {
		return flowValue{}, false
	}
	switch op {
	case "&&", "and", "||", "or":
		lt, ok := d.truth(f, left)
		if !ok {
			return flowValue{}, false
		}
		if lt == (op == "||" || op == "or") {
			return d.value(f, left) // decided by the left side
		}
		return d.value(f, right)
	}
	a, ok := d.value(f, left)
	if !ok {
		return flowValue{}, false
	}
	b, ok := d.value(f, right)
	if !ok {
		return flowValue{}, false
	}
	var r bool
	switch op {
	case "==", "===", "!=", "!==", "<>":
		eq, known := flowEqual(a, b)
		if !known {
			return flowValue{}, false
		}
		r = eq == (op == "==" || op == "===")
	case "<", "<=", ">", ">=":
		c, known := flowCompare(a, b)
		if !known {
			return flowValue{}, false
		}
		r = op == "<" && c < 0 || op == "<=" && c <= 0 || op == ">" && c > 0 || op == ">=" && c >= 0
	default:
		return flowValue{}, false
	}
	return flowValue{flowBool, strconv.FormatBool(r)}, true
}

// binaryParts returns a binary expression's operands and operator, by
// field where the grammar names them, by position where it does not.
func (d *flowDialect) binaryParts(f *File, n *sitter.Node) (left *sitter.Node, op string, right *sitter.Node) {
	left = flowField(n, "left", "lhs")
	right = flowField(n, "right", "rhs")
	if left == nil {
		left = flowFirstNamed(n)
	}
	if right == nil {
		right = flowLastNamed(n)
	}
	if left == nil || right == nil || left.Equal(right) {
		return nil, "", nil
	}
	return left, flowOperator(f, n, left, right), right
}

// flowOperator is the operator of n: its operator field, or the first
// anonymous child between from and to.
func flowOperator(f *File, n, from, to *sitter.Node) string {
	if op := flowField(n, "operator", "op", "operation"); op != nil {
		return strings.TrimSpace(f.Text(op))
	}
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		if from != nil && c.StartByte() < from.EndByte() {
			continue
		}
		if to != nil && c.StartByte() >= to.StartByte() {
			break
		}
		if !c.IsNamed() {
			return strings.TrimSpace(f.Text(c))
		}
	}
	return ""
}

// flowEqual compares two constants as == would; known is false when the
// kinds differ and the language might convert.
func flowEqual(a, b flowValue) (equal, known bool) {
	if a.kind != b.kind {
		return false, false
	}
	return a.text == b.text, true
}

func flowCompare(a, b flowValue) (int, bool) {
	if a.kind != flowNumber || b.kind != flowNumber {
		return 0, false
	}
	x, err1 := strconv.ParseFloat(a.text, 64)
	y, err2 := strconv.ParseFloat(b.text, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	switch {
	case x < y:
		return -1, true
	case x > y:
		return 1, true
	}
	return 0, true
}

// flowNumberText gives a number literal its value's text, so that 1, 1.0,
// 0x1 and 1L are the same number.
func flowNumberText(s string) string {
	s = strings.ToLower(strings.ReplaceAll(strings.ReplaceAll(strings.TrimSpace(s), "_", ""), "'", ""))
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimLeft(s, "-+")
	hex := strings.HasPrefix(s, "0x")
	s = strings.TrimRight(s, "ulz")
	if !hex {
		s = strings.TrimRight(s, "fdmn")
	}
	if i, err := strconv.ParseInt(s, 0, 64); err == nil {
		if neg {
			i = -i
		}
		return strconv.FormatInt(i, 10)
	}
	if x, err := strconv.ParseFloat(s, 64); err == nil {
		if neg {
			x = -x
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	if neg {
		return "-" + s
	}
	return s
}

// flowStringText is a string literal's content: its prefix (u8, @, $, r)
// and its quotes, however many, taken off.
func flowStringText(s string) string {
	i := strings.IndexAny(s, "\"'`:")
	if i < 0 {
		return s
	}
	s = s[i:]
	if s[0] == ':' { // a Ruby symbol, :name or :"name"
		s = s[1:]
		if s == "" || strings.IndexByte("\"'", s[0]) < 0 {
			return s
		}
	}
	q := 1
	if len(s) >= 6 && s[0] != ':' && strings.HasPrefix(s, strings.Repeat(s[:1], 3)) && strings.HasSuffix(s, strings.Repeat(s[:1], 3)) {
		q = 3 // a text block or raw string: """…"""
	}
	if len(s) >= 2*q && strings.HasSuffix(s, s[:q]) {
		return s[q : len(s)-q]
	}
	return s
}

func flowField(n *sitter.Node, names ...string) *sitter.Node {
	for _, name := range names {
		if c := n.ChildByFieldName(name); c != nil {
			return c
		}
	}
	return nil
}

// flowOnlyChild returns the one named child of n, comments aside.
func flowOnlyChild(n *sitter.Node) *sitter.Node {
	var only *sitter.Node
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		if c.Type() == "comment" {
			continue
		}
		if only != nil {
			return nil
		}
		only = c
	}
	return only
}

func flowFirstNamed(n *sitter.Node) *sitter.Node {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); c.Type() != "comment" {
			return c
		}
	}
	return nil
}

func flowLastNamed(n *sitter.Node) *sitter.Node {
	for i := int(n.NamedChildCount()) - 1; i >= 0; i-- {
		if c := n.NamedChild(i); c.Type() != "comment" {
			return c
		}
	}
	return nil
}
