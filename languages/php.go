package languages

import (
	"sort"
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
	Queries: map[string]string{"main": `
		(method_declaration name: (name) @name) @method
		(class_declaration name: (name) @cname) @class
		(member_call_expression object: (_) @obj name: (name) @mname arguments: (arguments) @margs) @mcall
		(scoped_call_expression scope: (_) @scope name: (name) @sname arguments: (arguments) @sargs) @scall
		(function_call_expression function: (name) @fname arguments: (arguments) @fargs) @fcall
		(namespace_definition name: (namespace_name) @ns) @namespace
	`},
	Analyze: analyzePHP,
	Samples: []Sample{
		{Path: "tests/Unit/CalcTest.php", Source: "<?php\nclass CalcTest extends TestCase {\n    public function testAdds(): void { $this->assertSame(2, 1 + 1); }\n    /** @test */\n    public function it_subtracts() { self::assertTrue(true); }\n    #[Test]\n    public function divides() { static::assertEquals(1, 1); $this->expectException(E::class); }\n    public function testSkipped() { $this->markTestSkipped('x'); }\n    private function helper() { $this->assertNull(null); }\n}\n",
			Tests: []string{"CalcTest::testAdds active", "CalcTest::it_subtracts active", "CalcTest::divides active", "CalcTest::testSkipped skipped"}, Assertions: 4, Vacuous: 1},
		{Path: "tests/Feature/PestTest.php", Source: "<?php\ntest('sums', function () { expect(1 + 1)->toBe(2); });\nit('is skipped', function () {})->skip();\nit('is vacuous', fn() => expect(true)->toBeTrue());\n",
			Tests: []string{"sums active", "is skipped skipped", "is vacuous active"}, Assertions: 1, Vacuous: 1},
		// Negative: not tests.
		{Path: "src/Calc.php", Source: "<?php\nclass Calc { public function testMode() { assert(true); } }\n", Tests: nil},
		{Path: "tests/HelperTest.php", Source: "<?php\nclass Helper { public function setUp(): void {} protected function testHelper() {} public function check() { $other->assertTrue(1); } }\n", Tests: nil},
	},
}

func analyzePHP(f *File) {
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
	f.Each("main", f.Root, func(c map[string]*sitter.Node) {
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
			if f.Text(c["obj"]) == "$this" && (strings.HasPrefix(name, "assert") || strings.HasPrefix(name, "expectException")) {
				f.Assert(phpVacuous(f, name, c["margs"]))
			}
		case c["scall"] != nil:
			name := f.Text(c["sname"])
			if strings.HasPrefix(name, "assert") {
				f.Assert(phpVacuous(f, name, c["sargs"]))
			}
		case c["fcall"] != nil:
			switch fn := f.Text(c["fname"]); fn {
			case "test", "it", "describe":
				args := c["fargs"]
				if args.NamedChildCount() < 2 {
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
				pests = append(pests, pest{call.StartByte(), call.EndByte(), strings.Trim(f.Text(first), `'"`), phpPestSkipped(f, call), fn == "describe", call})
			case "expect":
				f.Assert(phpVacuousExpect(f, c["fcall"], c["fargs"]))
			}
		}
	})
	// Pest names carry their describe blocks: "group > name".
	for i, p := range pests {
		if p.group {
			continue
		}
		var path []string
		skipped := p.skipped
		for _, g := range pests[:i] {
			if g.group && g.start <= p.start && p.end <= g.end {
				path = append(path, g.name)
				skipped = skipped || g.skipped
			}
		}
		f.AddTest(strings.Join(append(path, p.name), " > "), p.node, skipped)
	}
	for _, m := range methods {
		name := f.Text(m.name)
		cls := ""
		for _, cl := range classes {
			if cl.start < m.node.StartByte() && m.node.EndByte() <= cl.end {
				cls = cl.name
				// PHPUnit names a class with its namespace.
				for _, n := range namespaces {
					if n.at < cl.start {
						cls = n.name + `\` + cl.name
					}
				}
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
		skipped := strings.Contains(doc, "@skip") || phpHasAttr(attrs, "Skip") || phpPlainSkip(f, m.node.ChildByFieldName("body"))
		f.AddTest(cls+"::"+name, m.name, skipped)
	}
	sort.SliceStable(f.Result.Tests, func(i, j int) bool { return f.Result.Tests[i].Line < f.Result.Tests[j].Line })
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

// phpPlainSkip reports $this->markTestSkipped(…) as a statement of the body.
func phpPlainSkip(f *File, body *sitter.Node) bool {
	if body == nil {
		return false
	}
	for i := 0; i < int(body.NamedChildCount()); i++ {
		st := body.NamedChild(i)
		if st.Type() == "expression_statement" && strings.HasPrefix(strings.ReplaceAll(f.Text(st), " ", ""), "$this->markTestSkipped(") {
			return true
		}
	}
	return false
}

// phpPestSkipped reports test(…)->skip().
func phpPestSkipped(f *File, call *sitter.Node) bool {
	for p := call.Parent(); p != nil && p.Type() == "member_call_expression"; p = p.Parent() {
		if f.Text(p.ChildByFieldName("name")) == "skip" {
			return true
		}
	}
	return false
}

func phpVacuous(f *File, name string, args *sitter.Node) bool {
	a := strings.ReplaceAll(f.Text(args), " ", "")
	return name == "assertTrue" && strings.EqualFold(a, "(true)") || name == "assertFalse" && strings.EqualFold(a, "(false)")
}

// phpVacuousExpect reports expect(true)->toBeTrue().
func phpVacuousExpect(f *File, call, args *sitter.Node) bool {
	if !strings.EqualFold(strings.ReplaceAll(f.Text(args), " ", ""), "(true)") {
		return false
	}
	p := call.Parent()
	return p != nil && p.Type() == "member_call_expression" && (f.Text(p.ChildByFieldName("name")) == "toBeTrue" || f.Text(p.ChildByFieldName("name")) == "toBeTruthy")
}
