package languages

import (
	"bytes"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// JavaScript counts Jest, Vitest, Mocha and Jasmine tests in JavaScript and
// TypeScript, named by their describe path ("outer > inner > name").
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
		"main": `(call_expression function: (_) @callee arguments: (_) @args) @call`,
		// Only for files that mention it: chai's property assertions.
		"should": `(member_expression property: (property_identifier) @prop) @member`,
	},
	Analyze: analyzeJS,
	Samples: []Sample{
		{Path: "a.test.js", Source: "describe('outer', () => {\n  describe('inner', () => {\n    it('works', () => { expect(1).toBe(1); expect(true).toBe(true) })\n  })\n  test.skip('later', () => {})\n  xit('off', () => {})\n})\ntest('top', () => { assert(1); assert.equal(1, 1) })\n",
			Tests: []string{"outer > inner > works active", "outer > later skipped", "outer > off skipped", "top active"}, Assertions: 3, Vacuous: 1},
		// A focused test or describe switches off the rest of the file.
		{Path: "f.test.js", Source: "describe('outer', () => {\n  it.only('focused', () => {})\n  it('other', () => {})\n})\nfdescribe('group', () => {\n  it('inside', () => {})\n  it.skip('off', () => {})\n})\nfit('f', () => {})\ntest('top', () => {})\n",
			Tests: []string{"outer > focused active", "outer > other skipped", "group > inside active", "group > off skipped", "f active", "top skipped"}},
		{Path: "src/__tests__/b.ts", Source: "describe.skip('off', () => { it('a', () => {}) })\nxdescribe('x', () => { test('b', () => {}) })\nit.todo('c')\ntest.each([[1], [2]])('row %i', (n) => { expect(n).toBeTruthy() })\ntest.each`\n  a\n  ${1}\n`('tagged $a', ({a}) => {})\nit.concurrent('d', async () => {})\n",
			Tests: []string{"off > a skipped", "x > b skipped", "c skipped", "row %i active", "tagged $a active", "d active"}, Assertions: 1},
		{Path: "c.spec.tsx", Source: "import { render } from 'x'\nit('renders', () => { const el = <div/>; el.should.exist; expect(el).toBeDefined() })\n",
			Tests: []string{"renders active"}, Assertions: 2},
		// Negative: not tests.
		{Path: "d.test.js", Source: "const test = 1\nfunction it() {}\nitems.forEach(x => x)\nobj.test('not a test')\n", Tests: nil},
		{Path: "src/app.js", Source: "it('not in a test file', () => {})\n", Tests: nil},
	},
}

var (
	jsTestFns     = map[string]bool{"it": true, "test": true, "specify": true, "fit": true, "xit": true, "xtest": true, "xspecify": true, "fspecify": true}
	jsDescribeFns = map[string]bool{"describe": true, "fdescribe": true, "xdescribe": true, "context": true, "suite": true}
	jsModifiers   = map[string]bool{"only": true, "skip": true, "todo": true, "each": true, "concurrent": true, "failing": true, "serial": true}
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
	var blocks []jsBlock
	f.Each("main", f.Root, func(c map[string]*sitter.Node) {
		call, callee, args := c["call"], c["callee"], c["args"]
		// A template literal after the callee is a tagged template: a
		// test's table (test.each`…`), never a test itself.
		if args.Type() == "template_string" {
			return
		}
		chain, each := jsChain(f, callee)
		if len(chain) == 0 {
			return
		}
		head := chain[0]
		switch {
		case jsTestFns[head] || jsDescribeFns[head]:
			if !jsOnlyModifiers(chain[1:]) {
				return
			}
			if jsContains(chain, "each") && !each {
				return // test.each(table): the call that follows is the test
			}
			name, ok := jsName(f, args)
			if !ok {
				return
			}
			skipped := strings.HasPrefix(head, "x") || jsContains(chain, "skip") || jsContains(chain, "todo")
			focused := strings.HasPrefix(head, "f") || jsContains(chain, "only")
			blocks = append(blocks, jsBlock{start: call.StartByte(), end: call.EndByte(), name: name, skipped: skipped, focused: focused, describe: jsDescribeFns[head], node: call})
		case head == "expect" && len(chain) == 1 && !each:
			f.Assert(jsVacuousExpect(f, call, args))
		case head == "assert" && !each:
			f.Assert(jsVacuousAssert(f, chain, args))
		}
	})
	if bytes.Contains(f.Src, []byte(".should")) {
		f.Each("should", f.Root, func(c map[string]*sitter.Node) {
			if f.Text(c["prop"]) == "should" {
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
	for i, b := range blocks {
		if b.describe {
			continue
		}
		var path []string
		skipped, focused := b.skipped, b.focused
		for _, d := range blocks[:i] {
			if d.describe && d.start <= b.start && b.end <= d.end {
				path = append(path, d.name)
				skipped = skipped || d.skipped
				focused = focused || d.focused
			}
		}
		f.AddTest(strings.Join(append(path, b.name), " > "), b.node, skipped || anyFocus && !focused)
	}
}

// jsChain flattens a callee into its identifiers: it.only → [it only]. A
// callee that is itself a call (test.each(table)(…)) reports each = true.
func jsChain(f *File, callee *sitter.Node) ([]string, bool) {
	each := false
	if callee.Type() == "call_expression" {
		inner := callee.ChildByFieldName("function")
		if inner == nil {
			return nil, false
		}
		chain, _ := jsChain(f, inner)
		if len(chain) == 0 || chain[len(chain)-1] != "each" {
			return nil, false
		}
		return chain, true
	}
	var out []string
	for n := callee; n != nil; {
		switch n.Type() {
		case "identifier":
			return append([]string{f.Text(n)}, out...), each
		case "member_expression":
			prop := n.ChildByFieldName("property")
			if prop == nil {
				return nil, false
			}
			out = append([]string{f.Text(prop)}, out...)
			n = n.ChildByFieldName("object")
		default:
			return nil, false
		}
	}
	return nil, false
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

// jsName reads a test's name: its first argument, a string or a template.
func jsName(f *File, args *sitter.Node) (string, bool) {
	if args.NamedChildCount() == 0 {
		return "", false
	}
	a := args.NamedChild(0)
	switch a.Type() {
	case "string", "template_string":
		t := f.Text(a)
		if len(t) >= 2 {
			t = t[1 : len(t)-1]
		}
		return t, true
	}
	return "", false
}

// jsVacuousExpect reports expect(true).toBe(true) and expect(true).toBeTruthy().
func jsVacuousExpect(f *File, call, args *sitter.Node) bool {
	if f.Text(args) != "(true)" {
		return false
	}
	member := call.Parent()
	if member == nil || member.Type() != "member_expression" {
		return false
	}
	outer := member.Parent()
	if outer == nil || outer.Type() != "call_expression" {
		return false
	}
	matcher, margs := f.Text(member.ChildByFieldName("property")), f.Text(outer.ChildByFieldName("arguments"))
	switch matcher {
	case "toBe", "toEqual", "toStrictEqual":
		return margs == "(true)"
	case "toBeTruthy":
		return margs == "()"
	}
	return false
}

// jsVacuousAssert reports assert(true), assert.ok(true), assert.isTrue(true).
func jsVacuousAssert(f *File, chain []string, args *sitter.Node) bool {
	if f.Text(args) != "(true)" {
		return false
	}
	return len(chain) == 1 || len(chain) == 2 && (chain[1] == "ok" || chain[1] == "isTrue")
}
