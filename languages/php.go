package languages

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/php"
)

// PHP counts PHPUnit test methods and Pest tests.
var PHP = &Language{
	Name:      "php",
	Grammars:  map[string]func() *sitter.Language{".php": php.GetLanguage},
	TestFiles: []string{"**/tests/**/*Test.php", "*Test.php"},
	Markers:   []string{"function test", "@test", "#[Test", "test(", "it(", "assert", "expect"},
	Queries: map[string]string{
		"main": `
		(method_declaration name: (name) @name) @method
		(class_declaration name: (name) @cname) @class
		(member_call_expression object: (_) @obj name: (name) @mname arguments: (arguments) @margs) @mcall
		(scoped_call_expression scope: (_) @scope name: (name) @sname arguments: (arguments) @sargs) @scall
		(function_call_expression function: (name) @fname arguments: (arguments) @fargs) @fcall
		(namespace_definition name: (namespace_name) @ns) @namespace
	` + phpFlow.query()},
	Analyze: analyzePHP,
	Samples: []Sample{
		{Path: "tests/Unit/CalcTest.php", Source: "<?php\nclass CalcTest extends TestCase {\n    public function testAdds(): void { $this->assertSame(2, 1 + 1); }\n    /** @test */\n    public function it_subtracts() { self::assertTrue(true); }\n    #[Test]\n    public function divides() { static::assertEquals(1, 1); $this->expectException(E::class); }\n    public function testSkipped() { $this->markTestSkipped('x'); }\n    private function helper() { $this->assertNull(null); }\n}\n",
			Tests: []string{"CalcTest::testAdds active", "CalcTest::it_subtracts active", "CalcTest::divides active", "CalcTest::testSkipped skipped"}, Assertions: 2, Vacuous: 3},
		{Path: "tests/Feature/PestTest.php", Source: "<?php\ntest('sums', function () { expect(1 + 1)->toBe(2); });\nit('is skipped', function () {})->skip();\nit('is vacuous', fn() => expect(true)->toBeTrue());\n",
			Tests: []string{"sums active", "is skipped skipped", "is vacuous active"}, Assertions: 1, Vacuous: 1},
		// Switched off however it is written: a return first, a skip or
		// an incomplete mark under a constant condition or in any place of
		// the body. Real conditions stay active; assertions that cannot run
		// or cannot fail are not counted.
		{Path: "tests/Unit/SwitchedTest.php", Source: "<?php\nclass SwitchedTest extends TestCase {\n    public function testReturnsFirst() { if (true) return; $this->assertSame(1, $x); }\n    public function testIncomplete() { $this->markTestIncomplete('later'); $this->assertSame(1, $x); }\n    public function testSkipsIfTrue() { if (!false) { self::markTestSkipped(); } }\n    public function testSkipsReal() { if (PHP_OS_FAMILY === 'Windows') { $this->markTestSkipped(); } $this->assertSame(1, $x); }\n    public function testLateSkip() { $this->assertSame(1, $x); $this->markTestSkipped(); $this->assertSame(2, $y); }\n    public function testVacuous() { $this->assertEquals(3, 3); $this->assertSame('a', \"a\"); $this->assertTrue(TRUE); $this->assertNull(null); $this->assertNotEquals(1, 2); $this->assertEquals(-1, -1); $this->assertSame(1, $x); if (false) { $this->assertSame(2, $y); } $this->assertTrue(false); }\n}\n",
			Tests: []string{"SwitchedTest::testReturnsFirst skipped", "SwitchedTest::testIncomplete skipped", "SwitchedTest::testSkipsIfTrue skipped", "SwitchedTest::testSkipsReal active", "SwitchedTest::testLateSkip skipped", "SwitchedTest::testVacuous active"}, Assertions: 4, Vacuous: 6},
		// Pest: a test without a closure or with ->todo() is a todo;
		// ->skip() with a reason or a constant truth skips, ->skip(false)
		// and a skip on a real condition do not.
		{Path: "tests/Feature/OffTest.php", Source: "<?php\nit('todo');\ntest('todo method', function () {})->todo();\nit('skip false', function () { expect($x)->toBe(1); })->skip(false);\nit('skip real', function () {})->skip(fn () => PHP_OS_FAMILY === 'Windows');\nit('skip reason', function () {})->skip('later');\nit('skips inside', function () { $this->markTestSkipped(); });\nit('vacuous', function () { expect(1)->toBe(1); expect(true)->toBeTrue(); expect(1)->not->toBe(2); expect(null)->toBeNull(); expect($x)->toBe(1); expect(true)->toBeFalse(); });\nif (false) { it('never', function () {}); }\n",
			Tests: []string{"todo skipped", "todo method skipped", "skip false active", "skip real active", "skip reason skipped", "skips inside skipped", "vacuous active", "never skipped"}, Assertions: 3, Vacuous: 4},
		// Negative: not tests.
		{Path: "src/Calc.php", Source: "<?php\nclass Calc { public function testMode() { assert(true); } }\n", Tests: nil},
		{Path: "tests/HelperTest.php", Source: "<?php\nclass Helper { public function setUp(): void {} protected function testHelper() {} public function check() { $other->assertTrue(1); } }\n", Tests: nil},
	},
}

func analyzePHP(f *File) {
	fl := newFlow(f, phpFlow)
	defer fl.close()
	type class struct {
		start, end uint32
		name       string
	}
	var classes []class
	type method struct{ node, name *sitter.Node }
	var methods []method
	type pest struct {
		start, end uint32
		name       string
		skipped    bool
		group      bool
		node       *sitter.Node
	}
	var pests []pest
	type ns struct {
		at   uint32
		name string
	}
	var namespaces []ns
	fl.each(func(c map[string]*sitter.Node) {
		switch {
		case c["namespace"] != nil:
			namespaces = append(namespaces, ns{c["namespace"].StartByte(), f.Text(c["ns"])})
		case c["class"] != nil:
			cl := c["class"]
			classes = append(classes, class{cl.StartByte(), cl.EndByte(), f.Text(c["cname"])})
		case c["method"] != nil:
			methods = append(methods, method{c["method"], c["name"]})
		case c["mcall"] != nil:
			name := f.Text(c["mname"])
			if f.Text(c["obj"]) == "$this" && (strings.HasPrefix(name, "assert") || strings.HasPrefix(name, "expectException")) && !fl.dead(c["mcall"]) {
				f.Assert(phpVacuous(f, name, c["margs"]))
			}
		case c["scall"] != nil:
			name := f.Text(c["sname"])
			if strings.HasPrefix(name, "assert") && !fl.dead(c["scall"]) {
				f.Assert(phpVacuous(f, name, c["sargs"]))
			}
		case c["fcall"] != nil:
			switch fn := f.Text(c["fname"]); fn {
			case "test", "it", "describe":
				args := c["fargs"]
				if args.NamedChildCount() < 1 {
					return
				}
				first := args.NamedChild(0)
				if first.NamedChildCount() == 1 {
					first = first.NamedChild(0)
				}
				if first.Type() != "string" && first.Type() != "encapsed_string" {
					return
				}
				call := c["fcall"]
				// test('name') without a closure is a todo in Pest.
				skipped := phpPestSkipped(f, call) || fl.dead(call) || args.NamedChildCount() < 2 && fn != "describe"
				if body := phpPestBody(args); body != nil {
					skipped = skipped || fl.skips(body)
				}
				pests = append(pests, pest{call.StartByte(), call.EndByte(), strings.Trim(f.Text(first), `'"`), skipped, fn == "describe", call})
			case "expect":
				if !fl.dead(c["fcall"]) {
					f.Assert(phpVacuousExpect(f, c["fcall"], c["fargs"]))
				}
			}
		}
	})
	// Pest names carry their describe blocks: "group > name": the groups
	// before a test that begin where it does or before and reach its end.
	var groupIdx []int
	var groupSpans []rangeSpan // by group: its place among the blocks, and its end
	for i, p := range pests {
		if p.group {
			groupIdx = append(groupIdx, i)
			groupSpans = append(groupSpans, rangeSpan{uint32(i), p.end})
		}
	}
	groups := newStabber(groupSpans)
	for i, p := range pests {
		if p.group {
			continue
		}
		var path []string
		skipped := p.skipped
		if i > 0 {
			groups.each(uint32(i-1), p.end, func(k int) {
				if g := pests[groupIdx[k]]; g.start <= p.start {
					path = append(path, g.name)
					skipped = skipped || g.skipped
				}
			})
		}
		f.AddTest(strings.Join(append(path, p.name), " > "), p.node, skipped)
	}
	// PHPUnit names a class with its namespace: the last one declared
	// before the class.
	nsAt := make([]uint32, len(namespaces))
	for i, n := range namespaces {
		nsAt[i] = n.at
	}
	nsBefore := newLastBefore(nsAt)
	classSpans := make([]rangeSpan, len(classes))
	for i, cl := range classes {
		classSpans[i] = rangeSpan{cl.start, cl.end}
	}
	classesAround := newStabber(classSpans)
	for _, m := range methods {
		name := f.Text(m.name)
		cls := ""
		// The last class, in the order they were found, around the method.
		last := -1
		classesAround.eachBefore(m.node.StartByte(), m.node.EndByte(), func(i int) { last = max(last, i) })
		if last >= 0 {
			cl := classes[last]
			cls = cl.name
			if n := nsBefore.find(cl.start); n >= 0 {
				cls = namespaces[n].name + `\` + cl.name
			}
		}
		if cls == "" {
			continue
		}
		doc := phpDocBlock(f, m.node)
		attrs := f.Text(m.node.ChildByFieldName("attributes"))
		isTest := strings.HasPrefix(name, "test") || strings.Contains(doc, "@test") || phpHasAttr(attrs, "Test")
		if !isTest || !phpPublic(f, m.node) {
			continue
		}
		skipped := strings.Contains(doc, "@skip") || phpHasAttr(attrs, "Skip") || fl.skips(m.node.ChildByFieldName("body"))
		f.AddTest(cls+"::"+name, m.name, skipped)
	}
	f.sortTests()
}

// phpDocBlock returns the comment right before a method.
func phpDocBlock(f *File, m *sitter.Node) string {
	if prev := m.PrevNamedSibling(); prev != nil && prev.Type() == "comment" {
		return f.Text(prev)
	}
	return ""
}

func phpHasAttr(attrs, name string) bool {
	for _, a := range strings.FieldsFunc(attrs, func(r rune) bool { return r == '[' || r == ']' || r == ',' || r == '#' || r == ' ' || r == '(' }) {
		if a == name || strings.HasSuffix(a, `\`+name) {
			return true
		}
	}
	return false
}

// phpPublic reports a method PHPUnit runs: public, or without a modifier.
func phpPublic(f *File, m *sitter.Node) bool {
	for i := 0; i < int(m.NamedChildCount()); i++ {
		if ch := m.NamedChild(i); ch.Type() == "visibility_modifier" {
			return f.Text(ch) == "public"
		}
	}
	return true
}

// phpPestSkipped reports test(…)->skip() and ->todo(): a skip with no
// argument, a reason or a constant truth; ->skip(false) runs, and a skip
// on a real condition (a closure, ->skipOnWindows()) stays active.
func phpPestSkipped(f *File, call *sitter.Node) bool {
	for p := call.Parent(); p != nil && p.Type() == "member_call_expression"; p = p.Parent() {
		switch f.Text(p.ChildByFieldName("name")) {
		case "todo":
			return true
		case "skip":
			args := flowArgs(p.ChildByFieldName("arguments"))
			if len(args) == 0 {
				return true
			}
			if truth, ok := phpFlow.truth(f, args[0]); ok && truth {
				return true
			}
		}
	}
	return false
}

// phpPestBody returns the statements of a Pest test's closure.
func phpPestBody(args *sitter.Node) *sitter.Node {
	for _, a := range flowArgs(args) {
		if a.Type() == "argument" {
			a = flowOnlyChild(a)
		}
		if a != nil && a.Type() == "anonymous_function_creation_expression" || a != nil && a.Type() == "anonymous_function" {
			return a.ChildByFieldName("body")
		}
	}
	return nil
}

// phpAssertChecks are PHPUnit's assertions by what they check.
var phpAssertChecks = map[string]flowCheck{
	"assertEquals": checkEqual, "assertSame": checkEqual, "assertEqualsCanonicalizing": checkEqual, "assertEqualsIgnoringCase": checkEqual,
	"assertEqualsWithDelta": checkEqual, "assertNotEquals": checkNotEqual, "assertNotSame": checkNotEqual,
	"assertTrue": checkTrue, "assertFalse": checkFalse, "assertNull": checkNull, "assertNotNull": checkNotNull,
}

// phpVacuous reports a PHPUnit assertion on constants that cannot fail:
// assertEquals(3, 3), assertTrue(true), assertNull(null).
func phpVacuous(f *File, name string, args *sitter.Node) bool {
	check := phpAssertChecks[name]
	ops := flowArgs(args)
	return check != 0 && len(ops) >= check.operands() && phpFlow.passes(f, check, ops[:check.operands()]...)
}

// phpExpectChecks are Pest's expectations by what they check.
var phpExpectChecks = map[string]flowCheck{
	"toBe": checkEqual, "toEqual": checkEqual, "toBeTrue": checkEqual, "toBeFalse": checkEqual,
	"toBeTruthy": checkTrue, "toBeFalsy": checkFalse, "toBeNull": checkNull,
}

// phpVacuousExpect reports a Pest expectation on constants that cannot
// fail: expect(1)->toBe(1), expect(true)->toBeTrue(), expect(1)->not->toBe(2).
func phpVacuousExpect(f *File, call, args *sitter.Node) bool {
	actual := flowArgs(args)
	if len(actual) != 1 {
		return false
	}
	if _, ok := phpFlow.value(f, actual[0]); !ok {
		return false // the common case, decided without climbing the tree
	}
	neg := false
	c := call
	for depth := 0; depth < 8; depth++ {
		p := c.Parent()
		if p == nil || !c.Equal(p.ChildByFieldName("object")) {
			return false
		}
		name := f.Text(p.ChildByFieldName("name"))
		if p.Type() == "member_access_expression" && name == "not" {
			neg = !neg
			c = p
			continue
		}
		if p.Type() != "member_call_expression" {
			return false
		}
		check := phpExpectChecks[name]
		ops := append(actual, flowArgs(p.ChildByFieldName("arguments"))...)
		switch name {
		case "toBeTrue", "toBeFalse": // strictly the boolean
			ops = []*sitter.Node{actual[0], nil}
		}
		if neg {
			check = flowNegate[check]
		}
		if check == 0 || len(ops) < check.operands() {
			return false
		}
		if ops[len(ops)-1] == nil {
			v, ok := phpFlow.value(f, actual[0])
			want := map[string]string{"toBeTrue": "true", "toBeFalse": "false"}[name]
			return ok && (v == flowValue{flowBool, want}) == (check == checkEqual)
		}
		return phpFlow.passes(f, check, ops[:check.operands()]...)
	}
	return false
}
