package languages

import (
	"fmt"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/ruby"
)

// Ruby counts RSpec examples, Minitest test_ methods and the Rails
// `test "…" do` DSL.
var Ruby = &Language{
	Name:      "ruby",
	Grammars:  map[string]func() *sitter.Language{".rb": ruby.GetLanguage},
	TestFiles: []string{"**/spec/**/*_spec.rb", "**/test/**/*_test.rb", "**/test/**/test_*.rb", "*_spec.rb", "*_test.rb"},
	Markers:   []string{"it ", "it(", "specify", "example", "scenario", "its", "def test", "test ", "assert", "refute", "expect", "should", "focus"},
	Queries: map[string]string{
		"main": `
		(call method: (identifier) @method) @call
		(method name: (identifier) @name) @def
		(class name: (_) @cname) @class
		(module name: (_) @cname) @module
	` + rubyFlow.query()},
	Analyze: analyzeRuby,
	Samples: rubySamples,
}

var (
	rubyExamples  = map[string]bool{"it": true, "specify": true, "example": true, "scenario": true, "its": true, "fit": true, "fspecify": true, "fexample": true, "fscenario": true, "focus": true}
	rubySkipped   = map[string]bool{"xit": true, "xspecify": true, "xexample": true, "xscenario": true, "skip": true, "pending": true}
	rubyGroups    = map[string]bool{"describe": true, "context": true, "feature": true, "xdescribe": true, "xcontext": true, "xfeature": true, "fdescribe": true, "fcontext": true, "shared_examples": true, "shared_examples_for": true}
	rubyMatchTo   = map[string]bool{"to": true, "not_to": true, "to_not": true}
	rubyShouldish = map[string]bool{"should": true, "should_not": true}
)

type rubyBlock struct {
	start, end uint32
	name       string
	skipped    bool
	group      bool
	class      bool
	node       *sitter.Node
}

// rubySetups are the hooks that run before each example or test: RSpec's
// before (of each example, or of the whole group) and Minitest's and
// ActiveSupport's setup.
var rubySetups = map[string]bool{"before": true, "prepend_before": true, "append_before": true, "setup": true}

// rubySetupScopes are the scopes of an RSpec before that runs ahead of the
// group's examples; before(:suite) belongs to the configuration.
var rubySetupScopes = map[string]bool{"each": true, "example": true, "all": true, "context": true}

func analyzeRuby(f *File) {
	fl := newFlow(f, rubyFlow)
	defer fl.close()
	f.offUncounted = true
	var blocks []rubyBlock
	var defs []*sitter.Node
	var defNames []*sitter.Node
	// setups are where a set-up hook that skips is: it switches off every
	// test it runs before.
	var setups []uint32
	fl.each(func(c map[string]*sitter.Node) {
		switch {
		case c["class"] != nil || c["module"] != nil:
			cl := c["class"]
			if cl == nil {
				cl = c["module"]
			}
			blocks = append(blocks, rubyBlock{start: cl.StartByte(), end: cl.EndByte(), name: f.Text(c["cname"]), class: true})
		case c["def"] != nil:
			defs = append(defs, c["def"])
			defNames = append(defNames, c["name"])
			if f.Text(c["name"]) == "setup" && rubyDefSetupSkips(fl, c["def"]) && !fl.dead(c["def"]) {
				setups = append(setups, c["def"].StartByte())
			}
		case c["call"] != nil:
			if rubySetupCallSkips(f, fl, c["call"], f.Text(c["method"])) {
				setups = append(setups, c["call"].StartByte())
				return
			}
			rubyCall(f, fl, c["call"], f.Text(c["method"]), &blocks)
		}
	})
	sort.SliceStable(blocks, func(i, j int) bool { return blocks[i].start < blocks[j].start })
	// The groups and classes, each by its place among the blocks and its
	// end, to find those before a block that reach as far; the classes by
	// their spans, for the Minitest name of a range.
	var outerIdx, classIdx []int
	var outerSpans, classSpans []rangeSpan
	for i, b := range blocks {
		if b.group || b.class {
			outerIdx = append(outerIdx, i)
			outerSpans = append(outerSpans, rangeSpan{uint32(i), b.end})
		}
		if b.class {
			classIdx = append(classIdx, i)
			classSpans = append(classSpans, rangeSpan{b.start, b.end})
		}
	}
	outer, classes := newStabber(outerSpans), newStabber(classSpans)
	// classPath is the Minitest name of the classes and modules around a
	// range: Outer::Inner.
	classPath := func(start, end uint32) string {
		var names []string
		classes.eachBefore(start, end, func(k int) { names = append(names, blocks[classIdx[k]].name) })
		return strings.Join(names, "::")
	}
	setupOff := rubySetupsOff(blocks, setups)
	for i, b := range blocks {
		if b.group || b.class {
			continue
		}
		var path []string
		skipped := b.skipped
		cls := ""
		if i > 0 {
			outer.each(uint32(i-1), b.end, func(k int) {
				g := blocks[outerIdx[k]]
				if g.start > b.start {
					return
				}
				switch {
				case g.group:
					path = append(path, g.name)
					skipped = skipped || g.skipped
				case g.class:
					cls = g.name
				}
			})
		}
		name := strings.Join(append(path, b.name), " > ")
		if strings.HasPrefix(b.name, "test_") && len(path) == 0 && cls != "" {
			name = classPath(b.start, b.end) + "#" + b.name
		}
		f.AddTest(name, b.node, skipped || setupOff(b.start, b.end))
	}
	// Minitest: def test_… inside a class.
	for i, d := range defs {
		name := f.Text(defNames[i])
		if !strings.HasPrefix(name, "test_") {
			continue
		}
		cls := classPath(d.StartByte(), d.EndByte())
		if cls == "" {
			continue
		}
		f.AddTestSpan(cls+"#"+name, defNames[i], rubyDefSkips(fl, d) || setupOff(d.StartByte(), d.EndByte()), d)
	}
	f.sortTests()
}

func rubyCall(f *File, fl *flow, call *sitter.Node, method string, blocks *[]rubyBlock) {
	recv := call.ChildByFieldName("receiver")
	args := call.ChildByFieldName("arguments")
	block := call.ChildByFieldName("block")
	switch {
	case recv == nil && (rubyExamples[method] || rubySkipped[method] && block != nil && method != "skip" && method != "pending" || method == "test"):
		name, ok := rubyExampleName(f, args)
		if !ok {
			if block == nil || method == "test" {
				return
			}
			// specify { … } without a description: RSpec names it from
			// its expectation; the line keeps it stable enough here.
			name = fmt.Sprintf("example at line %d", Line(call))
		}
		if method == "test" {
			if block == nil {
				return
			}
			name = "test_" + strings.ReplaceAll(name, " ", "_")
		}
		skipped := rubySkipped[method] || block == nil || rubySkipMeta(f, args) || rubyBodySkips(fl, block) || fl.dead(call)
		*blocks = append(*blocks, rubyBlock{start: call.StartByte(), end: call.EndByte(), name: name, skipped: skipped, node: call})
	case (recv == nil || f.Text(recv) == "RSpec") && rubyGroups[method] && block != nil:
		name := ""
		if args != nil && args.NamedChildCount() > 0 {
			name = strings.Trim(f.Text(args.NamedChild(0)), `"':`)
		}
		*blocks = append(*blocks, rubyBlock{start: call.StartByte(), end: call.EndByte(), name: name, group: true,
			skipped: strings.HasPrefix(method, "x") || rubySkipMeta(f, args) || fl.dead(call)})
	case rubyMatchTo[method] && recv != nil:
		// expect(x).to …, is_expected.to …: one assertion per chain.
		if recv.Type() == "call" && f.Text(recv.ChildByFieldName("method")) == "expect" && recv.ChildByFieldName("receiver") == nil {
			if !fl.dead(call) {
				f.Assert(rubyVacuousExpect(f, recv, method, args))
			}
		} else if recv.Type() == "identifier" && f.Text(recv) == "is_expected" && !fl.dead(call) {
			f.Assert(false)
		}
	case rubyShouldish[method]:
		if !fl.dead(call) {
			f.Assert(false)
		}
	case recv == nil && (method == "assert" || strings.HasPrefix(method, "assert_") || method == "refute" || strings.HasPrefix(method, "refute_") || method == "flunk"):
		if !fl.dead(call) {
			check := rubyAssertChecks[method]
			ops := flowArgs(args)
			f.Assert(check != 0 && len(ops) >= check.operands() && rubyFlow.passes(f, check, ops[:check.operands()]...))
		}
	}
}

// rubySetupCallSkips reports a set-up hook called with a block that skips:
// before { skip }, before(:each) do skip end, ActiveSupport's setup do
// skip end.
func rubySetupCallSkips(f *File, fl *flow, call *sitter.Node, method string) bool {
	if !rubySetups[method] || call.ChildByFieldName("receiver") != nil || fl.dead(call) {
		return false
	}
	block := call.ChildByFieldName("block")
	if block == nil {
		return false
	}
	if args := call.ChildByFieldName("arguments"); args != nil {
		for _, a := range namedChildren(args) {
			// before(:each), before(:all) and metadata; a scope other than
			// those (before(:suite)) is not the group's.
			if a.Type() == "simple_symbol" && !rubySetupScopes[strings.TrimPrefix(f.Text(a), ":")] {
				return false
			}
		}
	}
	for _, body := range namedChildren(block) {
		if body.Type() == "body_statement" || body.Type() == "block_body" {
			return fl.setupSkips(body)
		}
	}
	return false
}

// rubyDefSetupSkips reports a Minitest setup method that skips.
func rubyDefSetupSkips(fl *flow, def *sitter.Node) bool {
	for _, body := range namedChildren(def) {
		if body.Type() == "body_statement" {
			return fl.setupSkips(body)
		}
	}
	return false
}

// rubySetupsOff returns whether a test in the span start..end runs after
// one of the set-up hooks that skip, at setups: a hook in an RSpec group
// runs before every example of the group and of the groups inside it; a
// hook in a class runs before the tests the class itself defines.
func rubySetupsOff(blocks []rubyBlock, setups []uint32) func(start, end uint32) bool {
	if len(setups) == 0 {
		return func(uint32, uint32) bool { return false }
	}
	// The innermost group or class around each hook.
	owners := make([]int, len(setups))
	for i, at := range setups {
		owners[i] = rubyInnermost(blocks, at, at, func(b rubyBlock) bool { return b.group || b.class })
	}
	return func(start, end uint32) bool {
		cls := rubyInnermost(blocks, start, end, func(b rubyBlock) bool { return b.class })
		for _, o := range owners {
			switch {
			case o < 0:
			case blocks[o].class && o == cls && rubyInnermost(blocks, start, end, func(b rubyBlock) bool { return b.group || b.class }) == o:
				return true
			case blocks[o].group && blocks[o].start <= start && end <= blocks[o].end:
				return true
			}
		}
		return false
	}
}

// rubyInnermost is the index of the innermost block that holds start..end
// and that keep takes, or -1.
func rubyInnermost(blocks []rubyBlock, start, end uint32, keep func(rubyBlock) bool) int {
	best := -1
	for i, b := range blocks {
		if keep(b) && b.start <= start && end <= b.end && (best < 0 || b.start >= blocks[best].start) {
			best = i
		}
	}
	return best
}

// rubyExampleName reads an example's description: a string, or a symbol
// for its(:size).
func rubyExampleName(f *File, args *sitter.Node) (string, bool) {
	if args == nil || args.NamedChildCount() == 0 {
		return "", false
	}
	a := args.NamedChild(0)
	switch a.Type() {
	case "string", "simple_symbol", "constant", "scope_resolution":
		return strings.Trim(f.Text(a), `"':`), true
	}
	return "", false
}

// rubySkipMeta reports skip: or pending: metadata.
func rubySkipMeta(f *File, args *sitter.Node) bool {
	if args == nil {
		return false
	}
	for i := 0; i < int(args.NamedChildCount()); i++ {
		a := args.NamedChild(i)
		if a.Type() != "pair" {
			continue
		}
		k := strings.TrimPrefix(strings.TrimSuffix(f.Text(a.ChildByFieldName("key")), ":"), ":")
		if k != "skip" && k != "pending" {
			continue
		}
		// skip: true or a reason skips; skip: false runs; skip: a real
		// condition (skip: !linux?) decides at run time, so it stays active.
		if truth, ok := rubyFlow.truth(f, a.ChildByFieldName("value")); ok && truth {
			return true
		}
	}
	return false
}

// rubyBodySkips reports an example whose body skips: skip or pending in
// any place of its top level (RSpec reports it so), under a constant
// condition or not, or a next or return first.
func rubyBodySkips(fl *flow, block *sitter.Node) bool {
	if block == nil {
		return false
	}
	for i := 0; i < int(block.NamedChildCount()); i++ {
		if body := block.NamedChild(i); body.Type() == "body_statement" || body.Type() == "block_body" {
			return fl.skips(body)
		}
	}
	return false
}

// rubyDefSkips reports a Minitest method whose body skips (Minitest
// reports a skip anywhere as the test's result) or returns first.
func rubyDefSkips(fl *flow, def *sitter.Node) bool {
	for i := 0; i < int(def.NamedChildCount()); i++ {
		if body := def.NamedChild(i); body.Type() == "body_statement" {
			return fl.skips(body)
		}
	}
	return false
}

// rubyVacuousExpect reports an expectation on constants that cannot fail:
// expect(1).to eq(1), expect(true).to be true, expect(nil).to be_nil,
// expect(1).not_to eq(2).
func rubyVacuousExpect(f *File, expect *sitter.Node, to string, matcherArgs *sitter.Node) bool {
	args := flowArgs(expect.ChildByFieldName("arguments"))
	m := flowArgs(matcherArgs)
	if len(args) != 1 || len(m) != 1 {
		return false
	}
	matcher, ops := m[0], args
	name := f.Text(matcher)
	if matcher.Type() == "call" && matcher.ChildByFieldName("receiver") == nil {
		name = f.Text(matcher.ChildByFieldName("method"))
		ops = append(ops, flowArgs(matcher.ChildByFieldName("arguments"))...)
	}
	check := rubyMatchers[name]
	if name == "be" && len(ops) == 1 {
		check = checkTrue // a bare be: truthy
	}
	if to != "to" {
		check = flowNegate[check]
	}
	return check != 0 && len(ops) >= check.operands() && rubyFlow.passes(f, check, ops[:check.operands()]...)
}
