package languages

import (
	"math/big"
	"runtime"
	"sort"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// A test can be switched off without a skip marker: a skip under `if true`,
// a `return` as its first statement, assertions under `if false`, or an
// assertion that compares two literals. Each language reads such code with a
// small constant evaluator of its own (its literals and operators); the
// values, their comparisons and the dead ranges they make are shared here.

// constKind is the kind of a value known without running the program.
type constKind uint8

const (
	constUnknown constKind = iota
	constBool
	constNumber
	constString
	constNil
	constSeq // a tuple or list
)

// constant is a value an evaluator knows without running the program, or
// (the zero value) one it does not. Every operation on an unknown value
// gives an unknown one, except where the result does not depend on it
// (false && x, true || x, a non-empty tuple's truth).
type constant struct {
	kind constKind
	b    bool     // constBool
	n    *big.Rat // constNumber
	// s is a string's value when exact, otherwise its spelling, prefixed
	// by its type ("str", "bytes") so that values of two string types never
	// compare equal; for constSeq, its type ("tuple", "list").
	s     string
	exact bool       // constString: s is the value, not a spelling with escapes
	elems []constant // constSeq
}

var unknownConst = constant{}

func constOfBool(b bool) constant { return constant{kind: constBool, b: b} }

func constOfNil() constant { return constant{kind: constNil} }

// constOfString is a string of a type; exact says that text is its value
// and not a spelling with escapes the evaluator did not decode.
func constOfString(typ, text string, exact bool) constant {
	return constant{kind: constString, s: typ + "\x00" + text, exact: exact}
}

func constOfSeq(typ string, elems []constant) constant {
	return constant{kind: constSeq, s: typ, elems: elems}
}

// constOfNumber reads an integer or floating-point literal as Go, Python and
// Rust spell them (digit separators, 0x/0o/0b prefixes, exponents), once any
// type suffix is removed. What it cannot read is unknown.
func constOfNumber(spelling string) constant {
	s := strings.ReplaceAll(spelling, "_", "")
	if s == "" {
		return unknownConst
	}
	if i, ok := new(big.Int).SetString(s, 0); ok {
		return constant{kind: constNumber, n: new(big.Rat).SetInt(i)}
	}
	lower := strings.ToLower(s)
	if !strings.HasPrefix(lower, "0x") {
		if r, ok := new(big.Rat).SetString(s); ok {
			return constant{kind: constNumber, n: r}
		}
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if r := new(big.Rat).SetFloat64(f); r != nil {
			return constant{kind: constNumber, n: r}
		}
	}
	return unknownConst
}

// known reports whether the evaluator knows anything of the value.
func (c constant) known() bool { return c.kind != constUnknown }

// value reports whether the whole value is known, elements included: a
// literal, or an expression of literals.
func (c constant) value() bool {
	switch c.kind {
	case constUnknown:
		return false
	case constSeq:
		for _, e := range c.elems {
			if !e.value() {
				return false
			}
		}
	}
	return true
}

// truth is the value's truth in a condition. Go and Rust accept only
// booleans there; the other kinds follow Python (zero, empty and None are
// false), so one rule serves all three.
func (c constant) truth() (t, ok bool) {
	switch c.kind {
	case constBool:
		return c.b, true
	case constNumber:
		return c.n.Sign() != 0, true
	case constString:
		_, text, _ := strings.Cut(c.s, "\x00")
		return text != "", true
	case constNil:
		return false, true
	case constSeq:
		return len(c.elems) > 0, true
	}
	return false, false
}

// isTrue and isFalse report a truth known to be that.
func (c constant) isTrue() bool {
	t, ok := c.truth()
	return ok && t
}

func (c constant) isFalse() bool {
	t, ok := c.truth()
	return ok && !t
}

// constNot negates a truth.
func constNot(c constant) constant {
	if t, ok := c.truth(); ok {
		return constOfBool(!t)
	}
	return unknownConst
}

// constAnd and constOr combine truths: one false operand makes `and`
// false, one true operand makes `or` true, whatever the other one is.
func constAnd(a, b constant) constant {
	if a.isFalse() || b.isFalse() {
		return constOfBool(false)
	}
	if a.isTrue() && b.isTrue() {
		return constOfBool(true)
	}
	return unknownConst
}

func constOr(a, b constant) constant {
	if a.isTrue() || b.isTrue() {
		return constOfBool(true)
	}
	if a.isFalse() && b.isFalse() {
		return constOfBool(false)
	}
	return unknownConst
}

// constEqual reports whether two values are equal, when they are known
// well enough to say. Values of different kinds are unequal, except a
// boolean and a number, which Python compares as 0 and 1 (Go and Rust do
// not compile the comparison at all).
func constEqual(a, b constant) (eq, ok bool) {
	if !a.known() || !b.known() {
		return false, false
	}
	if a.kind == constBool && b.kind == constNumber {
		a = constOfNumber(map[bool]string{false: "0", true: "1"}[a.b])
	}
	if b.kind == constBool && a.kind == constNumber {
		b = constOfNumber(map[bool]string{false: "0", true: "1"}[b.b])
	}
	if a.kind != b.kind {
		return false, true
	}
	switch a.kind {
	case constBool:
		return a.b == b.b, true
	case constNumber:
		return a.n.Cmp(b.n) == 0, true
	case constNil:
		return true, true
	case constString:
		if a.s == b.s {
			return true, true
		}
		if a.exact && b.exact {
			return false, true
		}
		return false, false
	case constSeq:
		if a.s != b.s || len(a.elems) != len(b.elems) {
			return false, true
		}
		for i := range a.elems {
			eq, ok := constEqual(a.elems[i], b.elems[i])
			if !ok {
				return false, false
			}
			if !eq {
				return false, true
			}
		}
		return true, true
	}
	return false, false
}

// constCompare applies a comparison operator (==, !=, <, <=, >, >=) to two
// values; orderings are known for numbers and exact strings only.
func constCompare(op string, a, b constant) constant {
	switch op {
	case "==", "!=":
		eq, ok := constEqual(a, b)
		if !ok {
			return unknownConst
		}
		return constOfBool(eq == (op == "=="))
	case "<", "<=", ">", ">=":
		var c int
		switch {
		case a.kind == constNumber && b.kind == constNumber:
			c = a.n.Cmp(b.n)
		case a.kind == constString && b.kind == constString && a.exact && b.exact:
			c = strings.Compare(a.s, b.s)
		default:
			return unknownConst
		}
		switch op {
		case "<":
			return constOfBool(c < 0)
		case "<=":
			return constOfBool(c <= 0)
		case ">":
			return constOfBool(c > 0)
		}
		return constOfBool(c >= 0)
	}
	return unknownConst
}

// constNegate is unary minus on a number.
func constNegate(c constant) constant {
	if c.kind != constNumber {
		return unknownConst
	}
	return constant{kind: constNumber, n: new(big.Rat).Neg(c.n)}
}

// deadSpans are byte ranges of a file's code that never runs: under a
// constant-false condition, or after an unconditional return or skip.
// Asked about once per assertion, they are merged into their union on the
// first question after a change, not scanned one by one.
type deadSpans struct {
	spans []rangeSpan
	union spanUnion
	// merged is how many of spans the union holds.
	merged int
	// blocks are the statements of each block an exit was found in.
	blocks map[siblingsKey]*siblings
}

type rangeSpan struct{ start, end uint32 }

func (d *deadSpans) add(n *sitter.Node) {
	if n != nil {
		d.spans = append(d.spans, rangeSpan{n.StartByte(), n.EndByte()})
	}
}

// has reports whether the byte at is in dead code.
func (d *deadSpans) has(at uint32) bool {
	if d.merged != len(d.spans) {
		d.union, d.merged = unionOf(d.spans), len(d.spans)
	}
	return d.union.has(at)
}

// addAfter marks dead what follows stmt in its block or case clause,
// up to the block's end: control never reaches it once stmt has returned
// or skipped. A labelled statement ends the span, since a goto can land
// there. The statements of a block are listed once, not walked again
// from each exit: a block of many returns was quadratic.
func (d *deadSpans) addAfter(stmt *sitter.Node, label string) {
	start := stmt.EndByte()
	end := uint32(0)
	if sib := d.siblingsOf(stmt, label); sib != nil {
		if i := sib.index(stmt); i >= 0 {
			if last := sib.last[i]; last >= 0 {
				end = sib.ends[last]
			}
			if end > start {
				d.spans = append(d.spans, rangeSpan{start, end})
			}
			return
		}
	}
	for s := stmt.NextNamedSibling(); s != nil; s = s.NextNamedSibling() {
		if label != "" && s.Type() == label {
			break
		}
		end = s.EndByte()
	}
	if end > start {
		d.spans = append(d.spans, rangeSpan{start, end})
	}
}

// siblings are the named children of one node, with, for each, the last
// of those after it before the next child of the label's type (-1 when
// none comes before it).
type siblings struct {
	ids          []uintptr
	starts, ends []uint32
	last         []int
}

type siblingsKey struct {
	parent uintptr
	label  string
}

// siblingsOf lists the named children of stmt's parent, once per parent.
func (d *deadSpans) siblingsOf(stmt *sitter.Node, label string) *siblings {
	parent := stmt.Parent()
	if parent == nil {
		return nil
	}
	k := siblingsKey{parent.ID(), label}
	if s, ok := d.blocks[k]; ok {
		return s
	}
	kids := namedChildren(parent)
	s := &siblings{ids: make([]uintptr, len(kids)), starts: make([]uint32, len(kids)), ends: make([]uint32, len(kids)), last: make([]int, len(kids))}
	isLabel := make([]bool, len(kids))
	for i, c := range kids {
		s.ids[i], s.starts[i], s.ends[i] = c.ID(), c.StartByte(), c.EndByte()
		isLabel[i] = label != "" && c.Type() == label
	}
	for i := len(kids) - 1; i >= 0; i-- {
		switch {
		case i+1 == len(kids) || isLabel[i+1]:
			s.last[i] = -1
		case s.last[i+1] < 0:
			s.last[i] = i + 1
		default:
			s.last[i] = s.last[i+1]
		}
	}
	if d.blocks == nil {
		d.blocks = map[siblingsKey]*siblings{}
	}
	d.blocks[k] = s
	return s
}

// index finds n among the siblings, or returns -1.
func (s *siblings) index(n *sitter.Node) int {
	at, id := n.StartByte(), n.ID()
	for i := sort.Search(len(s.starts), func(i int) bool { return s.starts[i] >= at }); i < len(s.starts) && s.starts[i] == at; i++ {
		if s.ids[i] == id {
			return i
		}
	}
	return -1
}

// endKind is how a statement ends the code that follows it, in rising
// order of how surely it switches a test off.
type endKind uint8

const (
	endsNot    endKind = iota
	endsActing         // raise, pytest.fail, return f(): the rest does not run, but this statement does work
	endsReturn         // return: the rest does not run, and the test passes
	endsSkip           // the test is skipped (t.Skip, pytest.skip, pytest.xfail)
)

// firstEnd is how the first of stmts that ends the block ends it: a block
// `{ x(); return }` returns.
func firstEnd(stmts []*sitter.Node, ends func(*sitter.Node) endKind) endKind {
	for _, s := range stmts {
		if k := ends(s); k != endsNot {
			return k
		}
	}
	return endsNot
}

// firstEndOf is firstEnd over a block's statements, read one at a time
// and no further than the first that ends the block.
func firstEndOf(block *sitter.Node, ends func(*sitter.Node) endKind) endKind {
	n := int(block.NamedChildCount())
	for i := 0; i < n; i++ {
		s := block.NamedChild(i)
		switch s.Type() {
		case "comment", "line_comment", "block_comment":
			continue
		}
		if k := ends(s); k != endsNot {
			return k
		}
	}
	return endsNot
}

// bothEnd is how an if with a condition of unknown value ends: as the
// branch that ends it least, so only when each branch ends, and as a skip
// only when each branch skips.
func bothEnd(a, b endKind) endKind {
	return min(a, b)
}

// statements lists a block's named children but comments.
func statements(block *sitter.Node) []*sitter.Node {
	if block == nil {
		return nil
	}
	var out []*sitter.Node
	for _, s := range namedChildren(block) {
		switch s.Type() {
		case "comment", "line_comment", "block_comment":
			continue
		}
		out = append(out, s)
	}
	return out
}

// closeCursor frees a cursor's memory and drops its finalizer, which
// Close leaves: an object with a finalizer keeps what it reaches, here the
// whole tree's node wrappers, alive until a collection has run it, and a
// cold count of the Go tree held 51 MB live instead of 10 (peak RSS 267 MB
// instead of 108).
func closeCursor(c *sitter.TreeCursor) {
	c.Close()
	runtime.SetFinalizer(c, nil)
}

// namedChildren lists n's named children in one walk of a cursor.
// NamedChild(i) starts again from the first child every time, so a loop
// over it is quadratic in the children: a file of a thousand declarations,
// a test body of a thousand statements.
func namedChildren(n *sitter.Node) []*sitter.Node {
	if n == nil || n.NamedChildCount() == 0 {
		return nil
	}
	c := sitter.NewTreeCursor(n)
	defer closeCursor(c)
	out := make([]*sitter.Node, 0, n.NamedChildCount())
	for ok := c.GoToFirstChild(); ok; ok = c.GoToNextSibling() {
		if k := c.CurrentNode(); k.IsNamed() {
			out = append(out, k)
		}
	}
	return out
}
