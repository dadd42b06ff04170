package languages

import (
	"bytes"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// This file decides, for the languages whose constants constant_others.go
// reads, which code can run: a test switched off by a skip or a return, an
// assertion under a constant-false condition or after a statement that
// always leaves its block, and an assertion that compares constants.

// flowExit is how a statement leaves the block it is in, if it always does.
type flowExit int

// The ways out of a block.
const (
	exitNone   flowExit = iota // it may carry on
	exitSkip                   // a skip: the runner reports the test skipped
	exitReturn                 // a return, or an end that passes (NUnit's Assert.Pass)
	exitThrow                  // an exception: the test fails
	exitOther                  // break, continue, or branches that leave in different ways
)

// flow answers reachability questions about one file in one dialect; it
// remembers how each statement leaves, since the same statements are asked
// about for every assertion that follows them.
type flow struct {
	f     *File
	d     *flowDialect
	exits map[uintptr]flowExit
	// deadSpans are the byte ranges of code that cannot run, disjoint and
	// in order.
	deadSpans [][2]uint32
	// kids is reused to list children, one cursor per file.
	kids *sitter.TreeCursor
}

func newFlow(f *File, d *flowDialect) *flow {
	return &flow{f: f, d: d, exits: map[uintptr]flowExit{}}
}

// close frees the flow's cursor.
func (fl *flow) close() {
	if fl.kids != nil {
		closeCursor(fl.kids)
		fl.kids = nil
	}
}

// parts returns the condition, the body and the else branches of an if, a
// ternary, a while (its body is then) or a guard (its else block is an
// alternative), by field where the grammar names them, by position where
// it does not. A PHP if lists its elseif and else branches side by side.
func (d *flowDialect) parts(n *sitter.Node) (cond, then *sitter.Node, alts []*sitter.Node) {
	cond = flowField(n, "condition")
	then = flowField(n, "consequence", "body", "if_true")
	for i := 0; i < int(n.ChildCount()); i++ {
		if name := n.FieldNameForChild(i); name == "alternative" || name == "if_false" {
			alts = append(alts, n.Child(i))
		}
	}
	if cond == nil {
		cond = flowFirstNamed(n)
	}
	if cond == nil || then != nil || len(alts) > 0 {
		return cond, then, alts
	}
	seenElse := false
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		if c.StartByte() < cond.EndByte() || n.FieldNameForChild(i) == "condition" {
			continue
		}
		if c.Type() == "else" {
			seenElse = true
			continue
		}
		if !c.IsNamed() || c.Type() == "comment" || c.Type() == "ERROR" {
			continue
		}
		if !seenElse && then == nil {
			then = c
		} else if seenElse {
			alts = append(alts, c)
		}
	}
	return cond, then, alts
}

// decided reports the side of an if that a constant condition chooses,
// and the spans of the side it leaves out; ok is false when the condition
// is not a constant. An #if has no node for its body: it is what lies
// between the condition and the #else.
func (fl *flow) decided(n *sitter.Node) (chosen *sitter.Node, dropped [][2]uint32, ok bool) {
	cond, then, alts := fl.d.parts(n)
	truth, ok := fl.d.truth(fl.f, cond)
	if !ok {
		return nil, nil, false
	}
	if fl.d.negated[n.Type()] {
		truth = !truth
	}
	if truth {
		for _, a := range alts {
			dropped = append(dropped, flowSpan(a))
		}
		return then, dropped, true
	}
	if len(alts) > 0 {
		chosen = alts[0]
	}
	switch {
	case then != nil:
		dropped = append(dropped, flowSpan(then))
	case len(alts) > 0:
		dropped = append(dropped, [2]uint32{cond.EndByte(), alts[0].StartByte()})
	default:
		dropped = append(dropped, [2]uint32{cond.EndByte(), n.EndByte()})
	}
	return chosen, dropped, true
}

func flowSpan(n *sitter.Node) [2]uint32 {
	return [2]uint32{n.StartByte(), n.EndByte()}
}

// children returns the named children of n, comments aside, in one pass
// (NamedChild(i) walks from the first child each time).
func (fl *flow) children(n *sitter.Node) []*sitter.Node {
	if n == nil || n.ChildCount() == 0 {
		return nil
	}
	if fl.kids == nil {
		fl.kids = sitter.NewTreeCursor(n)
	} else {
		fl.kids.Reset(n)
	}
	c := fl.kids
	var out []*sitter.Node
	for ok := c.GoToFirstChild(); ok; ok = c.GoToNextSibling() {
		if k := c.CurrentNode(); k.IsNamed() && k.Type() != "comment" {
			out = append(out, k)
		}
	}
	return out
}

// exit says how a statement leaves its block, if it always does.
func (fl *flow) exit(n *sitter.Node) flowExit {
	if !fl.f.descend() {
		return exitNone
	}
	defer fl.f.ascend()
	if n == nil {
		return exitNone
	}
	id := n.ID()
	if e, ok := fl.exits[id]; ok {
		return e
	}
	fl.exits[id] = exitNone // a cycle cannot happen in a tree, but be safe
	e := fl.exit0(n)
	fl.exits[id] = e
	return e
}

func (fl *flow) exit0(n *sitter.Node) flowExit {
	d, f := fl.d, fl.f
	n = d.unwrap(n)
	if n == nil {
		return exitNone
	}
	t := n.Type()
	if d.skip != nil && !d.jumps[t] && !d.blocks[t] && !d.ifs[t] && flowMentions(f, n, d.skipWords) {
		if e := d.skip(d, f, n); e != exitNone {
			return e
		}
	}
	switch {
	case d.jumps[t]:
		kw := ""
		if n.ChildCount() > 0 {
			kw = strings.TrimSpace(f.Text(n.Child(0)))
		}
		// return this.skip(), throw XCTSkip(): the value says it is a skip.
		if v := d.unwrap(flowLastNamed(n)); v != nil && d.skip != nil && flowMentions(f, v, d.skipWords) && d.skip(d, f, v) == exitSkip {
			return exitSkip
		}
		switch {
		case strings.HasPrefix(kw, "return"), kw == "next": // Kotlin's return@label; Ruby's next leaves a block
			// A return with a value hands something to the runner (a
			// promise, a stream of dynamic tests): the test goes on there.
			if v := flowLastNamed(n); v != nil && v.Type() != "label" && !v.Equal(n.Child(0)) {
				if _, ok := d.value(f, v); !ok {
					return exitOther
				}
			}
			return exitReturn
		case kw == "throw":
			return exitThrow
		}
		return exitOther
	case d.blocks[t]:
		for _, c := range fl.children(n) {
			if e := fl.exit(c); e != exitNone {
				return e
			}
		}
	case d.ifs[t]:
		if chosen, _, ok := fl.decided(n); ok {
			return fl.exit(chosen)
		}
		// On a real condition, the if leaves only if every branch does.
		_, then, alts := d.parts(n)
		if len(alts) == 0 {
			return exitNone
		}
		e := fl.exit(then)
		for _, a := range alts {
			if b := fl.exit(a); b == exitNone {
				return exitNone
			} else if b != e {
				e = exitOther
			}
		}
		return e
	case d.throwCalls != nil && t == "call":
		if m := n.ChildByFieldName("method"); m != nil && n.ChildByFieldName("receiver") == nil && d.throwCalls[f.Text(m)] {
			return exitThrow
		}
	}
	return exitNone
}

// flowMentions reports that n's text holds one of the words: a cheap test
// before a dialect's skip rule reads the node.
func flowMentions(f *File, n *sitter.Node, words []string) bool {
	text := f.Src[n.StartByte():n.EndByte()]
	for _, w := range words {
		if bytes.Contains(text, []byte(w)) {
			return true
		}
	}
	return false
}

// unwrap takes a statement wrapper (an expression statement, a try) off.
func (d *flowDialect) unwrap(n *sitter.Node) *sitter.Node {
	for n != nil && d.statements[n.Type()] {
		inner := flowLastNamed(n)
		if inner == nil {
			return n
		}
		n = inner
	}
	return n
}

// dead reports code that cannot run: on the side of an if or a ternary
// that a constant condition leaves out, in a while loop whose condition is
// false, on the right of an && or || that its constant left side decides,
// or after a statement that always leaves its block. It knows what each
// has found.
func (fl *flow) dead(n *sitter.Node) bool {
	return fl.deadAt(n.StartByte())
}

// deadAt reports that code starting at the byte cannot run.
func (fl *flow) deadAt(at uint32) bool {
	i := sort.Search(len(fl.deadSpans), func(i int) bool { return fl.deadSpans[i][1] > at })
	return i < len(fl.deadSpans) && fl.deadSpans[i][0] <= at
}

// each runs the language's main query, which carries the dialect's flow
// patterns too (see query), so that the tree is walked once: it keeps the
// spans that cannot run, then hands every other match to fn in order, so
// that fn may ask dead() about anything.
func (fl *flow) each(fn func(caps map[string]*sitter.Node)) {
	type match struct {
		caps map[string]*sitter.Node
		at   uint32
	}
	var matches []match
	var spans [][2]uint32
	fl.f.Each("main", fl.f.Root, func(c map[string]*sitter.Node) {
		if n := c["flow"]; n != nil {
			spans = append(spans, fl.dropped(n)...)
			return
		}
		matches = append(matches, match{c, fl.f.matchStart()})
	})
	fl.deadSpans = flowMerge(spans)
	for _, m := range matches {
		fl.f.setAt(m.at) // where Assert credits what fn counts
		fn(m.caps)
	}
}

// dropped returns the spans of n's children that cannot run.
func (fl *flow) dropped(n *sitter.Node) [][2]uint32 {
	d, f := fl.d, fl.f
	switch t := n.Type(); {
	case d.ifs[t] || d.whiles[t]:
		if _, dropped, ok := fl.decided(n); ok {
			return dropped
		}
	case d.binary[t]:
		left, op, right := d.binaryParts(f, n)
		if op == "&&" || op == "||" || op == "and" || op == "or" {
			if truth, ok := d.truth(f, left); ok && truth == (op == "||" || op == "or") {
				return [][2]uint32{flowSpan(right)}
			}
		}
	case d.blocks[t]:
		if n.NamedChildCount() < 2 {
			return nil // nothing comes after its one statement
		}
		kids := fl.children(n)
		for i, k := range kids[:max(len(kids)-1, 0)] {
			if fl.exit(k) == exitNone {
				continue
			}
			var out [][2]uint32
			for _, after := range kids[i+1:] {
				if !d.hoisted[after.Type()] {
					out = append(out, flowSpan(after))
				}
			}
			return out
		}
	}
	return nil
}

// query is the tree-sitter pattern that finds the ifs, loops, logical
// operators and blocks that decide what can run; each language that uses
// the dialect appends it to its main query (see each).
func (d *flowDialect) query() string {
	var types []string
	for _, set := range []map[string]bool{d.ifs, d.whiles, d.blocks} {
		for t := range set {
			types = append(types, "("+t+")")
		}
	}
	sort.Strings(types)
	return "\n[" + strings.Join(types, " ") + " " + d.logical + "] @flow\n"
}

// flowMerge sorts spans and joins those that overlap.
func flowMerge(spans [][2]uint32) [][2]uint32 {
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	var out [][2]uint32
	for _, s := range spans {
		if s[1] <= s[0] {
			continue
		}
		if len(out) > 0 && s[0] <= out[len(out)-1][1] {
			if s[1] > out[len(out)-1][1] {
				out[len(out)-1][1] = s[1]
			}
			continue
		}
		out = append(out, s)
	}
	return out
}

// skips reports a test body that never gets to its checks: a skip its top
// level reaches, in any place (the runner reports the test skipped), or a
// return, or an if that always returns, as its first statement.
func (fl *flow) skips(body *sitter.Node) bool {
	body = fl.statements(body)
	if body == nil {
		return false
	}
	first := true
	for _, st := range fl.children(body) {
		if st.Type() == "empty_statement" {
			continue
		}
		switch fl.exit(st) {
		case exitSkip:
			return true
		case exitReturn:
			return first
		case exitNone:
		default:
			return false
		}
		first = false
	}
	return false
}

// setupSkips reports a set-up body (RSpec's before, Minitest's setup) that
// skips every test it runs before: a skip its top level reaches, under a
// constant condition or none. A return there only ends the set-up, and the
// tests still run.
func (fl *flow) setupSkips(body *sitter.Node) bool {
	body = fl.statements(body)
	if body == nil {
		return false
	}
	for _, st := range fl.children(body) {
		switch fl.exit(st) {
		case exitSkip:
			return true
		case exitNone:
		default:
			return false
		}
	}
	return false
}

// statements descends from a body to the list of its statements: through a
// function body that holds one block (Kotlin's, Swift's).
func (fl *flow) statements(body *sitter.Node) *sitter.Node {
	for depth := 0; body != nil && depth < 4; depth++ {
		only := flowOnlyChild(body)
		inner := only != nil && fl.d.blocks[only.Type()]
		switch {
		case fl.d.blocks[body.Type()] && !inner:
			return body
		case !inner:
			return nil
		}
		body = only
	}
	return nil
}

// flowCheck is what an assertion checks of its operands.
type flowCheck int

// The checks an assertion may make.
const (
	checkEqual flowCheck = iota + 1
	checkNotEqual
	checkTrue
	checkFalse
	checkNull
	checkNotNull
	checkUndefined
	checkDefined
	checkLess
	checkLessEqual
	checkGreater
	checkGreaterEqual
)

// operands is how many operands the check compares.
func (c flowCheck) operands() int {
	if c >= checkTrue && c <= checkDefined {
		return 1
	}
	return 2
}

// passes reports an assertion that cannot fail: every operand is a
// constant and the check holds. An assertion on constants that fails, as
// assertTrue(false) in a try block, is a deliberate failure and still
// counts.
func (d *flowDialect) passes(f *File, c flowCheck, operands ...*sitter.Node) bool {
	if len(operands) == 0 {
		return false
	}
	vals := make([]flowValue, len(operands))
	for i, o := range operands {
		v, ok := d.value(f, o)
		if !ok {
			return false
		}
		vals[i] = v
	}
	a := vals[0]
	switch c {
	case checkTrue, checkFalse:
		truth, ok := d.truthy(a)
		return ok && truth == (c == checkTrue)
	case checkNull:
		return a.kind == flowNull
	case checkNotNull:
		return a.kind != flowNull && a.kind != flowUndefined
	case checkUndefined:
		return a.kind == flowUndefined
	case checkDefined:
		return a.kind != flowUndefined
	}
	if len(vals) < 2 {
		return false
	}
	b := vals[1]
	switch c {
	case checkEqual, checkNotEqual:
		eq, known := flowEqual(a, b)
		if !known {
			// Different kinds: equal to no language, unequal to all.
			return c == checkNotEqual
		}
		return eq == (c == checkEqual)
	}
	cmp, ok := flowCompare(a, b)
	return ok && (c == checkLess && cmp < 0 || c == checkLessEqual && cmp <= 0 || c == checkGreater && cmp > 0 || c == checkGreaterEqual && cmp >= 0)
}

// flowTruthC is truthiness in C and C++: a zero number, null and false
// are false; a string literal is a pointer, never null.
func flowTruthC(v flowValue) (bool, bool) {
	switch v.kind {
	case flowBool:
		return v.text == "true", true
	case flowNumber:
		return v.text != "0", true
	case flowNull:
		return false, true
	case flowString:
		return true, true
	}
	return false, false
}

// flowTruthStrict is truthiness where a condition must be a boolean (Java,
// Kotlin, C#, Swift).
func flowTruthStrict(v flowValue) (bool, bool) {
	if v.kind != flowBool {
		return false, false
	}
	return v.text == "true", true
}

// flowTruthJS is JavaScript's (and PHP's, with "0"): 0, NaN, "", null,
// undefined and false are false.
func flowTruthJS(v flowValue) (bool, bool) {
	switch v.kind {
	case flowBool:
		return v.text == "true", true
	case flowNumber:
		return v.text != "0" && v.text != "NaN" && v.text != "nan", true
	case flowString:
		return v.text != "", true
	case flowNull, flowUndefined:
		return false, true
	}
	return false, false
}

// flowTruthRuby is Ruby's: only nil and false are false.
func flowTruthRuby(v flowValue) (bool, bool) {
	switch v.kind {
	case flowBool:
		return v.text == "true", true
	case flowNull:
		return false, true
	}
	return true, true
}

// isString reports a string constant: a message among an assertion's
// operands.
func (d *flowDialect) isString(f *File, n *sitter.Node) bool {
	v, ok := d.value(f, n)
	return ok && v.kind == flowString
}

// flowArgs returns the arguments of an argument list, comments aside.
func flowArgs(list *sitter.Node) []*sitter.Node {
	if list == nil {
		return nil
	}
	var out []*sitter.Node
	for i := 0; i < int(list.NamedChildCount()); i++ {
		if a := list.NamedChild(i); a.Type() != "comment" {
			out = append(out, a)
		}
	}
	return out
}

// flowDescendants returns the named nodes under n, breadth first, down to
// depth levels.
func flowDescendants(n *sitter.Node, depth int) []*sitter.Node {
	var out []*sitter.Node
	level := []*sitter.Node{n}
	for ; depth > 0 && len(level) > 0; depth-- {
		var next []*sitter.Node
		for _, p := range level {
			for i := 0; i < int(p.NamedChildCount()); i++ {
				next = append(next, p.NamedChild(i))
			}
		}
		out = append(out, next...)
		level = next
	}
	return out
}

// flowSet builds a set of node types or words.
func flowSet(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
