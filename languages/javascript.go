package languages

import (
	"bytes"
	"sort"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// JavaScript counts Jest, Vitest, Mocha, Jasmine, node:test, AVA and tape
// tests in JavaScript and TypeScript, named by their describe path
// ("outer > inner > name").
var JavaScript = &Language{
	Name: "javascript",
	Grammars: map[string]func() *sitter.Language{
		".js": javascript.GetLanguage, ".jsx": javascript.GetLanguage, ".mjs": javascript.GetLanguage, ".cjs": javascript.GetLanguage,
		".ts": typescript.GetLanguage, ".mts": typescript.GetLanguage, ".cts": typescript.GetLanguage,
		".tsx": tsx.GetLanguage,
	},
	TestFiles: []string{"*.test.*", "*.spec.*", "**/__tests__/**"},
	Markers:   []string{"it(", "test(", "it.", "test.", "specify", "xit(", "fit(", "xtest(", "expect(", "assert", ".should"},
	Queries: map[string]string{
		"main": `(call_expression function: (_) @callee arguments: (_) @args) @call` + jsFlow.query(),
		// Only for files that mention it: chai's property assertions.
		"should": `(member_expression property: (property_identifier) @prop) @member`,
	},
	Analyze: analyzeJS,
	Samples: jsSamples,
}

var (
	jsTestFns     = map[string]bool{"it": true, "test": true, "specify": true, "fit": true, "xit": true, "xtest": true, "xspecify": true, "fspecify": true}
	jsDescribeFns = map[string]bool{"describe": true, "fdescribe": true, "xdescribe": true, "context": true, "suite": true}
	jsModifiers   = map[string]bool{"only": true, "skip": true, "todo": true, "each": true, "concurrent": true, "failing": true, "serial": true,
		"fails": true, "sequential": true, "for": true, "skipIf": true, "runIf": true}
	// jsFactories are modifiers called first to make the test function:
	// test.each(table)(…), test.skipIf(cond)(…).
	jsFactories = map[string]bool{"each": true, "for": true, "skipIf": true, "runIf": true}
	// jsOffModifiers switch a test off: skipped, a todo (Jest and Vitest
	// report "todo", not "passed"), or expected to fail (Jest's failing,
	// Vitest's fails: a failure the test hides is no check at all).
	jsOffModifiers = map[string]bool{"skip": true, "todo": true, "failing": true, "fails": true}
)

type jsBlock struct {
	start, end uint32
	name       string
	skipped    bool
	focused    bool
	describe   bool
	node       *sitter.Node
}

func analyzeJS(f *File) {
	fl := newFlow(f, jsFlow)
	defer fl.close()
	f.offUncounted = true
	st := &jsState{ctx: map[string]*coverSet{}, expects: map[uintptr]bool{}}
	var blocks []jsBlock
	var checks []*sitter.Node
	aliases := jsAliases(f)
	uncalled := jsUncalled(f)
	fl.each(func(c map[string]*sitter.Node) {
		call, callee, args := c["call"], c["callee"], c["args"]
		// A template literal after the callee is a tagged template: a
		// test's table (test.each`…`), never a test itself.
		if args.Type() == "template_string" {
			return
		}
		r := jsCalleeOf(f, callee, 0)
		if a, ok := aliases[r.chain0()]; ok && len(r.chain) == 1 {
			// A name given a test function is that function; a test
			// function's own name (var test = global.test.skip) only when
			// what it is given reads as one.
			if ar := jsAliasCallee(f, a); ar.ok || !jsTestFns[r.chain[0]] && !jsDescribeFns[r.chain[0]] {
				r = ar
			}
		}
		if !r.ok {
			// The matcher's call of expect(…).toBe(…): whether it can fail
			// is read here, from the top, for the expect inside it.
			if exp, vacuous, ok := jsMatcherCall(f, call, callee); ok {
				st.expects[exp.ID()] = vacuous
			}
			return
		}
		// tape's and node:test's t.test(…) is a subtest that the runner
		// reports as a test of its own, named on its own.
		if len(r.chain) >= 2 && r.chain[1] == "test" && st.isContext(call, r.chain[0]) {
			r.chain = r.chain[1:]
		}
		head := r.chain[0]
		if !jsTestFns[head] && !jsDescribeFns[head] {
			checks = append(checks, call)
			return
		}
		if !jsOnlyModifiers(r.chain[1:]) {
			return
		}
		last := r.chain[len(r.chain)-1]
		if jsFactories[last] != r.applied {
			return // test.each(table) itself: the call that follows is the test
		}
		name, ok := jsName(f, args)
		if !ok {
			return
		}
		describe := jsDescribeFns[head]
		dead := fl.dead(call) || jsInSpans(uncalled, call.StartByte())
		skipped := strings.HasPrefix(head, "x") || r.off || dead || jsOptionsOff(f, args)
		for _, m := range r.chain[1:] {
			skipped = skipped || jsOffModifiers[m]
		}
		if !describe {
			fn := jsFunctionArg(args)
			// it('name') without a function: Mocha reports it pending,
			// Vitest a todo.
			skipped = skipped || fn == nil && jsNoBody(args)
			if fn != nil {
				if body := fn.ChildByFieldName("body"); body != nil && body.Type() == "statement_block" {
					skipped = skipped || fl.skips(body)
				}
				if p := jsFirstParam(f, fn); p != "" {
					st.addContext(fn.StartByte(), fn.EndByte(), p)
				}
			}
		}
		focused := !dead && (strings.HasPrefix(head, "f") || jsContains(r.chain, "only"))
		blocks = append(blocks, jsBlock{start: call.StartByte(), end: call.EndByte(), name: name, skipped: skipped, focused: focused, describe: describe, node: call})
	})
	for _, call := range checks {
		jsCheck(f, fl, st, call)
	}
	if bytes.Contains(f.Src, []byte(".should")) {
		f.Each("should", f.Root, func(c map[string]*sitter.Node) {
			if f.Text(c["prop"]) == "should" && !fl.dead(c["member"]) {
				f.Assert(false)
			}
		})
	}
	// Outermost first, so that each test sees its describes in order.
	sort.SliceStable(blocks, func(i, j int) bool { return blocks[i].start < blocks[j].start })
	// One .only (or fit, fdescribe) in a file and Jest runs only the
	// focused tests of that file (Mocha, of the whole run): the rest are
	// switched off.
	anyFocus := false
	for _, b := range blocks {
		anyFocus = anyFocus || b.focused
	}
	// A test's describes are those before it in this order that reach
	// as far as it does.
	var describes []int
	var reach []rangeSpan // by describe: its place among the blocks, and its end
	for i, b := range blocks {
		if b.describe {
			describes = append(describes, i)
			reach = append(reach, rangeSpan{uint32(i), b.end})
		}
	}
	around := newStabber(reach)
	for i, b := range blocks {
		if b.describe {
			continue
		}
		var path []string
		skipped, focused := b.skipped, b.focused
		if i > 0 {
			around.each(uint32(i-1), b.end, func(k int) {
				d := blocks[describes[k]]
				path = append(path, d.name)
				skipped = skipped || d.skipped
				focused = focused || d.focused
			})
		}
		f.AddTest(strings.Join(append(path, b.name), " > "), b.node, skipped || anyFocus && !focused)
	}
}

// jsCallee is what a call's callee says about the test it may declare.
type jsCallee struct {
	// chain is the callee's identifiers: it.only is [it only].
	chain []string
	// applied says the callee is itself a call: test.each(table)(…),
	// it.skipIf(cond)(…).
	applied bool
	// off says a constant switched the test off: skipIf(true),
	// runIf(false), (true ? it.skip : it).
	off bool
	ok  bool
}

// jsCalleeOf reads a callee: identifiers and properties, the call of a
// factory (each, for, skipIf, runIf), and a parenthesised ternary that
// picks the function. A ternary on a real condition is read as its side
// that runs the test, so that (isWindows ? it.skip : it) stays active.
func jsCalleeOf(f *File, n *sitter.Node, depth int) jsCallee {
	if n == nil || depth > 16 {
		return jsCallee{}
	}
	switch n.Type() {
	case "identifier":
		return jsCallee{chain: []string{f.Text(n)}, ok: true}
	case "member_expression":
		obj, prop := n.ChildByFieldName("object"), n.ChildByFieldName("property")
		if prop == nil {
			return jsCallee{}
		}
		if obj != nil && obj.Type() == "identifier" && jsGlobalObjects[f.Text(obj)] {
			// global.test is test.
			return jsCallee{chain: []string{f.Text(prop)}, ok: true}
		}
		r := jsCalleeOf(f, obj, depth+1)
		if !r.ok {
			return jsCallee{}
		}
		r.chain = append(r.chain, f.Text(prop))
		r.applied = false
		return r
	case "subscript_expression":
		// describe['skip'] is describe.skip. A key the reader cannot
		// resolve (describe['sk' + 'ip']) may switch the test off, and a
		// test whose status cannot be known is not taken as active.
		r := jsCalleeOf(f, n.ChildByFieldName("object"), depth+1)
		if !r.ok {
			return jsCallee{}
		}
		r.applied = false
		if idx := n.ChildByFieldName("index"); idx != nil && idx.Type() == "string" && idx.NamedChildCount() == 1 && flowStringParts[idx.NamedChild(0).Type()] {
			r.chain = append(r.chain, jsTitle(f, idx, 0))
			return r
		}
		r.off = true
		return r
	case "call_expression":
		r := jsCalleeOf(f, n.ChildByFieldName("function"), depth+1)
		if !r.ok || r.applied || !jsFactories[r.chain[len(r.chain)-1]] {
			return jsCallee{}
		}
		var arg *sitter.Node
		if args := n.ChildByFieldName("arguments"); args != nil && args.Type() == "arguments" && args.NamedChildCount() > 0 {
			arg = args.NamedChild(0)
		}
		switch r.chain[len(r.chain)-1] {
		case "skipIf":
			truth, ok := jsFlow.truth(f, arg)
			r.off = r.off || ok && truth
		case "runIf":
			truth, ok := jsFlow.truth(f, arg)
			r.off = r.off || ok && !truth
		}
		r.applied = true
		return r
	case "parenthesized_expression":
		return jsCalleeOf(f, flowOnlyChild(n), depth+1)
	case "ternary_expression":
		cond, then, alts := jsFlow.parts(n)
		if len(alts) != 1 {
			return jsCallee{}
		}
		els := alts[0]
		if truth, ok := jsFlow.truth(f, cond); ok {
			if truth {
				return jsCalleeOf(f, then, depth+1)
			}
			return jsCalleeOf(f, els, depth+1)
		}
		a, b := jsCalleeOf(f, then, depth+1), jsCalleeOf(f, els, depth+1)
		if !a.ok || !b.ok {
			return jsCallee{}
		}
		if jsCalleeOff(a) && !jsCalleeOff(b) {
			return b
		}
		return a
	}
	return jsCallee{}
}

// jsGlobalObjects are the names of the global object: global.test is the
// global test function.
var jsGlobalObjects = map[string]bool{"global": true, "globalThis": true, "window": true, "self": true}

// chain0 is the callee's first identifier, or "".
func (r jsCallee) chain0() string {
	if len(r.chain) == 0 {
		return ""
	}
	return r.chain[0]
}

// jsInSpans reports whether at is inside one of spans.
func jsInSpans(spans []rangeSpan, at uint32) bool {
	for _, s := range spans {
		if s.start <= at && at < s.end {
			return true
		}
	}
	return false
}

func jsCalleeOff(r jsCallee) bool {
	if r.off || strings.HasPrefix(r.chain[0], "x") {
		return true
	}
	for _, m := range r.chain[1:] {
		if jsOffModifiers[m] {
			return true
		}
	}
	return false
}

func jsOnlyModifiers(mods []string) bool {
	for _, m := range mods {
		if !jsModifiers[m] {
			return false
		}
	}
	return true
}

func jsContains(chain []string, s string) bool {
	for _, c := range chain {
		if c == s {
			return true
		}
	}
	return false
}

// jsName reads a test's name: its first argument. A title computed from
// strings ('should include ' + method, a template literal) is still the
// title of one test definition: its computed parts are written ${…}, so
// that the definition is counted and named rather than dropped. A
// function in first place is no title (AVA's untitled test(t => …)).
func jsName(f *File, args *sitter.Node) (string, bool) {
	if args.NamedChildCount() == 0 {
		return "", false
	}
	a := args.NamedChild(0)
	switch a.Type() {
	case "arrow_function", "function_expression", "function", "generator_function", "object", "comment":
		return "", false
	}
	return jsTitle(f, a, 0), true
}

// jsPlaceholder stands for the computed part of a title.
const jsPlaceholder = "${…}"

func jsTitle(f *File, n *sitter.Node, depth int) string {
	if depth > 32 {
		return jsPlaceholder
	}
	switch n.Type() {
	case "string":
		t := f.Text(n)
		if len(t) >= 2 {
			t = t[1 : len(t)-1]
		}
		return jsUnescape(t)
	case "template_string":
		var b strings.Builder
		pos := n.StartByte() + 1
		end := n.EndByte() - 1
		for i := 0; i < int(n.NamedChildCount()); i++ {
			c := n.NamedChild(i)
			if c.Type() != "template_substitution" {
				continue
			}
			b.WriteString(jsUnescape(string(f.Src[pos:c.StartByte()])))
			b.WriteString(jsPlaceholder)
			pos = c.EndByte()
		}
		if pos < end {
			b.WriteString(jsUnescape(string(f.Src[pos:end])))
		}
		return b.String()
	case "binary_expression":
		if op := n.ChildByFieldName("operator"); op != nil && f.Text(op) == "+" {
			return jsTitle(f, n.ChildByFieldName("left"), depth+1) + jsTitle(f, n.ChildByFieldName("right"), depth+1)
		}
	case "parenthesized_expression":
		if c := flowOnlyChild(n); c != nil {
			return jsTitle(f, c, depth+1)
		}
	}
	return jsPlaceholder
}

// jsUnescape decodes the escapes of a string literal's text as JavaScript
// does: the runner reports child's for 'child\'s'.
func jsUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0':
			b.WriteByte(0)
		case '\r', '\n':
			// A line continuation is no character at all.
			if e == '\r' && i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case 'x', 'u':
			hex, n := "", 0
			switch {
			case e == 'x' && i+2 < len(s):
				hex, n = s[i+1:i+3], 2
			case e == 'u' && i+1 < len(s) && s[i+1] == '{':
				if j := strings.IndexByte(s[i:], '}'); j > 0 {
					hex, n = s[i+2:i+j], j
				}
			case e == 'u' && i+4 < len(s):
				hex, n = s[i+1:i+5], 4
			}
			r, err := strconv.ParseUint(hex, 16, 32)
			if err != nil || n == 0 {
				b.WriteByte(e)
				continue
			}
			b.WriteRune(rune(r))
			i += n
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}

// jsFunctionArg returns a test's function, when it is written in place.
func jsFunctionArg(args *sitter.Node) *sitter.Node {
	for i := int(args.NamedChildCount()) - 1; i >= 1; i-- {
		switch a := args.NamedChild(i); a.Type() {
		case "arrow_function", "function_expression", "function", "generator_function":
			return a
		}
	}
	return nil
}

// jsNoBody reports a test call with nothing after its name but options.
func jsNoBody(args *sitter.Node) bool {
	for i := 1; i < int(args.NamedChildCount()); i++ {
		if t := args.NamedChild(i).Type(); t != "object" && t != "comment" {
			return false
		}
	}
	return true
}

// jsOptionsOff reports a test whose options switch it off by a constant:
// node:test's and Vitest's { skip: true }, { todo: 'later' }, Vitest's
// { fails: true }.
func jsOptionsOff(f *File, args *sitter.Node) bool {
	for i := 1; i < int(args.NamedChildCount()); i++ {
		obj := args.NamedChild(i)
		if obj.Type() != "object" {
			continue
		}
		for j := 0; j < int(obj.NamedChildCount()); j++ {
			p := obj.NamedChild(j)
			if p.Type() != "pair" {
				continue
			}
			key := strings.Trim(f.Text(p.ChildByFieldName("key")), `'"`)
			if key != "skip" && key != "todo" && key != "fails" {
				continue
			}
			if truth, ok := jsFlow.truth(f, p.ChildByFieldName("value")); ok && truth {
				return true
			}
		}
	}
	return false
}
