package languages

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// jsFlow is how JavaScript and TypeScript write constants and leave blocks.
var jsFlow = &flowDialect{
	bools:      flowSet("true", "false"),
	numbers:    flowSet("number"),
	strs:       flowSet("string", "template_string"),
	nulls:      flowSet("null"),
	undefineds: flowSet("undefined"),
	wrappers:   flowSet("parenthesized_expression"),
	unary:      flowSet("unary_expression"),
	binary:     flowSet("binary_expression"),
	logical:    `(binary_expression operator: ["&&" "||"])`,
	ifs:        flowSet("if_statement", "ternary_expression"),
	whiles:     flowSet("while_statement"),
	blocks:     flowSet("statement_block", "program", "else_clause"),
	jumps:      flowSet("return_statement", "throw_statement", "break_statement", "continue_statement"),
	statements: flowSet("expression_statement", "await_expression"),
	hoisted:    flowSet("function_declaration", "generator_function_declaration"),
	truthy:     flowTruthJS,
	skip:       jsSkip,
	skipWords:  []string{"skip", "pending", "todo"},
	named:      jsNamed,
}

// jsSkip reports the calls that skip the running test: Mocha's
// this.skip(), Jasmine's pending(), the test context's skip() or todo()
// (Vitest's ctx.skip(), node:test's t.skip(), and Vitest's skip taken
// from the context, as in ({ skip }) => …). A context skip with a
// condition, ctx.skip(isWindows), skips only when the condition is a
// constant truth.
func jsSkip(d *flowDialect, f *File, n *sitter.Node) flowExit {
	if n.Type() != "call_expression" {
		return exitNone
	}
	fn, args := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
	if fn == nil || args == nil || args.Type() != "arguments" {
		return exitNone
	}
	switch fn.Type() {
	case "identifier":
		switch f.Text(fn) {
		case "pending":
			if jsFunctionArg(args) == nil {
				return exitSkip
			}
		case "skip":
			if jsContextParam(f, n, "skip", true) {
				return jsSkipArgs(d, f, args)
			}
		}
	case "member_expression":
		obj, prop := fn.ChildByFieldName("object"), f.Text(fn.ChildByFieldName("property"))
		if obj == nil || prop != "skip" && prop != "todo" {
			return exitNone
		}
		if obj.Type() == "this" && prop == "skip" {
			return exitSkip
		}
		if obj.Type() == "identifier" && jsContextParam(f, n, f.Text(obj), false) {
			return jsSkipArgs(d, f, args)
		}
	}
	return exitNone
}

// jsSkipArgs reads a context skip's arguments: none, a message, or a
// constant truth skip; a constant false or a real condition does not.
func jsSkipArgs(d *flowDialect, f *File, args *sitter.Node) flowExit {
	if args.NamedChildCount() == 0 {
		return exitSkip
	}
	if truth, ok := d.truth(f, args.NamedChild(0)); ok && truth {
		return exitSkip
	}
	return exitNone
}

// jsState is what the analysis of one file learns on its way: the test
// callbacks' context parameters, and whether each expect(…) inside a
// matcher's call can fail.
type jsState struct {
	// ctx holds the spans of the test callbacks found so far, by the
	// name of their context parameter.
	ctx     map[string]*coverSet
	expects map[uintptr]bool
}

// addContext records a test callback's span and the name of its context
// parameter.
func (st *jsState) addContext(start, end uint32, name string) {
	c := st.ctx[name]
	if c == nil {
		c = &coverSet{}
		st.ctx[name] = c
	}
	c.add(rangeSpan{start, end})
}

// isContext reports that name is the context parameter of a test
// callback around n.
func (st *jsState) isContext(n *sitter.Node, name string) bool {
	c := st.ctx[name]
	return c != nil && c.covers(n.StartByte(), n.EndByte())
}

// jsFirstParam returns the name of a function's first parameter, when it
// is a plain name.
func jsFirstParam(f *File, fn *sitter.Node) string {
	p := fn.ChildByFieldName("parameter")
	if p == nil {
		if params := fn.ChildByFieldName("parameters"); params != nil && params.NamedChildCount() > 0 {
			p = params.NamedChild(0)
		}
	}
	if p != nil && (p.Type() == "required_parameter" || p.Type() == "optional_parameter") {
		p = p.ChildByFieldName("pattern")
	}
	if p == nil || p.Type() != "identifier" {
		return ""
	}
	return f.Text(p)
}

// jsContextParam reports that name is the test context: the first
// parameter of the function around n, which is passed to a call (a test's
// callback), or, with destructured, a property taken from it.
func jsContextParam(f *File, n *sitter.Node, name string, destructured bool) bool {
	fn := n.Parent()
	for fn != nil {
		switch fn.Type() {
		case "arrow_function", "function_expression", "function", "generator_function":
		default:
			fn = fn.Parent()
			continue
		}
		break
	}
	if fn == nil || fn.Parent() == nil || fn.Parent().Type() != "arguments" {
		return false
	}
	p := fn.ChildByFieldName("parameter")
	if p == nil {
		if params := fn.ChildByFieldName("parameters"); params != nil && params.NamedChildCount() > 0 {
			p = params.NamedChild(0)
		}
	}
	if p != nil && (p.Type() == "required_parameter" || p.Type() == "optional_parameter") {
		p = p.ChildByFieldName("pattern")
	}
	if p == nil {
		return false
	}
	if !destructured {
		return p.Type() == "identifier" && f.Text(p) == name
	}
	if p.Type() != "object_pattern" {
		return false
	}
	for i := 0; i < int(p.NamedChildCount()); i++ {
		if c := p.NamedChild(i); c.Type() == "shorthand_property_identifier_pattern" && f.Text(c) == name {
			return true
		}
	}
	return false
}

// jsAssertChecks are the node:assert, chai assert, AVA and tape
// assertions by what they check of their operands.
var jsAssertChecks = map[string]flowCheck{
	"": checkTrue, "ok": checkTrue, "isOk": checkTrue, "isTrue": checkTrue, "true": checkTrue, "truthy": checkTrue, "assert": checkTrue,
	"notOk": checkFalse, "isNotOk": checkFalse, "isFalse": checkFalse, "false": checkFalse, "falsy": checkFalse,
	"equal": checkEqual, "strictEqual": checkEqual, "deepEqual": checkEqual, "deepStrictEqual": checkEqual, "is": checkEqual,
	"same": checkEqual, "eql": checkEqual, "equals": checkEqual, "deepEquals": checkEqual, "looseEqual": checkEqual, "strictEquals": checkEqual,
	"notEqual": checkNotEqual, "notStrictEqual": checkNotEqual, "notDeepEqual": checkNotEqual, "notDeepStrictEqual": checkNotEqual,
	"not": checkNotEqual, "notSame": checkNotEqual, "notEql": checkNotEqual, "notEquals": checkNotEqual,
	"isNull": checkNull, "notExists": checkNull, "isNotNull": checkNotNull, "exists": checkNotNull,
	"isUndefined": checkUndefined, "isDefined": checkDefined,
	"isAbove": checkGreater, "isBelow": checkLess, "isAtLeast": checkGreaterEqual, "isAtMost": checkLessEqual,
}

// jsContextAsserts are the assertions AVA and tape hang on the test's
// context (t.is, t.ok); pass always passes.
var jsContextAsserts = map[string]bool{
	"is": true, "not": true, "deepEqual": true, "notDeepEqual": true, "true": true, "false": true, "truthy": true, "falsy": true,
	"assert": true, "like": true, "regex": true, "notRegex": true, "throws": true, "throwsAsync": true, "notThrows": true,
	"notThrowsAsync": true, "snapshot": true, "pass": true, "fail": true, "equal": true, "notEqual": true, "ok": true, "notOk": true,
	"same": true, "notSame": true, "strictEqual": true, "notStrictEqual": true, "deepStrictEqual": true, "match": true,
	"doesNotMatch": true, "error": true, "ifError": true, "rejects": true, "doesNotThrow": true, "equals": true, "deepEquals": true,
}

// jsCheck counts one assertion call, unless it cannot run: expect(…), the
// assert module's and chai's assert(…)/assert.x(…), and the context's
// t.is(…) in AVA and tape (t.assert.x(…) in node:test).
func jsCheck(f *File, fl *flow, st *jsState, call *sitter.Node) {
	r := jsCalleeOf(f, call.ChildByFieldName("function"), 0)
	args := call.ChildByFieldName("arguments")
	if !r.ok || r.applied || args == nil || args.Type() != "arguments" {
		return
	}
	method := ""
	switch head := r.chain[0]; {
	case head == "expect" && len(r.chain) == 1:
	case head == "assert" && len(r.chain) <= 2:
		if len(r.chain) == 2 {
			method = r.chain[1]
		}
	case len(r.chain) >= 2 && st.isContext(call, head):
		method = r.chain[1]
		if method == "assert" && len(r.chain) == 3 {
			method = r.chain[2] // node:test's t.assert.equal
		} else if len(r.chain) != 2 || !jsContextAsserts[method] {
			return
		}
	default:
		return
	}
	if fl.dead(call) {
		return
	}
	if r.chain[0] == "expect" {
		vacuous, ok := st.expects[call.ID()]
		if !ok {
			vacuous = jsExpectPasses(f, call, args) // chai's property matchers
		}
		f.AssertAt(call.StartByte(), vacuous)
		return
	}
	if method == "pass" {
		f.AssertAt(call.StartByte(), true)
		return
	}
	c, known := jsAssertChecks[method]
	if !known {
		f.AssertAt(call.StartByte(), false)
		return
	}
	var ops []*sitter.Node
	for i := 0; i < int(args.NamedChildCount()) && len(ops) < 2; i++ {
		if a := args.NamedChild(i); a.Type() != "comment" {
			ops = append(ops, a)
		}
	}
	if len(ops) < c.operands() {
		f.AssertAt(call.StartByte(), false)
		return
	}
	ops = ops[:c.operands()] // the rest is a message
	f.AssertAt(call.StartByte(), jsFlow.passes(f, c, ops...))
}

// jsExpectWords are the chains chai reads as English: no check of their own.
var jsExpectWords = map[string]bool{"to": true, "be": true, "been": true, "is": true, "that": true, "which": true, "and": true,
	"has": true, "have": true, "with": true, "at": true, "of": true, "same": true, "but": true, "does": true, "still": true,
	"also": true, "deep": true, "strict": true}

// jsExpectMatchers are Jest's, Vitest's and chai's matchers by what they
// check of expect's value and their own argument.
var jsExpectMatchers = map[string]flowCheck{
	"toBe": checkEqual, "toEqual": checkEqual, "toStrictEqual": checkEqual, "equal": checkEqual, "equals": checkEqual,
	"eq": checkEqual, "eql": checkEqual,
	"toBeTruthy": checkTrue, "ok": checkTrue, "toBeTrue": checkTrue, "true": checkTrue,
	"toBeFalsy": checkFalse, "toBeFalse": checkFalse, "false": checkFalse,
	"toBeNull": checkNull, "null": checkNull, "toBeUndefined": checkUndefined, "undefined": checkUndefined,
	"toBeDefined": checkDefined, "exist": checkNotNull,
	"toBeGreaterThan": checkGreater, "above": checkGreater, "gt": checkGreater, "greaterThan": checkGreater,
	"toBeLessThan": checkLess, "below": checkLess, "lt": checkLess, "lessThan": checkLess,
	"toBeGreaterThanOrEqual": checkGreaterEqual, "least": checkGreaterEqual, "gte": checkGreaterEqual,
	"toBeLessThanOrEqual": checkLessEqual, "most": checkLessEqual, "lte": checkLessEqual,
}

// flowNegate is the check .not makes of a check.
var flowNegate = map[flowCheck]flowCheck{
	checkEqual: checkNotEqual, checkNotEqual: checkEqual, checkTrue: checkFalse, checkFalse: checkTrue,
	checkNull: checkNotNull, checkNotNull: checkNull, checkUndefined: checkDefined, checkDefined: checkUndefined,
	checkLess: checkGreaterEqual, checkGreaterEqual: checkLess, checkGreater: checkLessEqual, checkLessEqual: checkGreater,
}

// jsMatcherCall reads a matcher's call, expect(2).not.toBe(3), from the
// top: it returns the expect(…) call inside and whether the whole cannot
// fail.
func jsMatcherCall(f *File, outer, callee *sitter.Node) (*sitter.Node, bool, bool) {
	var props []string
	n := callee
	for depth := 0; n != nil && n.Type() == "member_expression" && depth < 16; depth++ {
		props = append(props, f.Text(n.ChildByFieldName("property")))
		n = n.ChildByFieldName("object")
	}
	if n == nil || n.Type() != "call_expression" || len(props) == 0 {
		return nil, false, false
	}
	fn, args := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
	if fn == nil || fn.Type() != "identifier" || f.Text(fn) != "expect" || args == nil || args.Type() != "arguments" {
		return nil, false, false
	}
	ops := flowArgs(args)
	if len(ops) != 1 {
		return n, false, true
	}
	check, known := jsExpectMatchers[props[0]]
	for _, p := range props[1:] {
		switch {
		case p == "not":
			check = flowNegate[check]
		case !jsExpectWords[p]:
			known = false
		}
	}
	if !known {
		return n, false, true
	}
	if margs := flowArgs(outer.ChildByFieldName("arguments")); len(margs) > 0 {
		ops = append(ops, margs[0])
	}
	return n, len(ops) >= check.operands() && jsFlow.passes(f, check, ops[:check.operands()]...), true
}

// jsExpectPasses reports an expect chain that cannot fail: expect(2).toBe(2),
// expect(true).toBeTruthy(), expect(1).not.toBe(2), expect(true).to.be.true.
func jsExpectPasses(f *File, call, args *sitter.Node) bool {
	if args.NamedChildCount() != 1 {
		return false
	}
	actual := args.NamedChild(0)
	if _, ok := jsFlow.value(f, actual); !ok {
		return false // the common case, decided without climbing the tree
	}
	neg := false
	c := call
	for depth := 0; depth < 16; depth++ {
		p := c.Parent()
		if p == nil || p.Type() != "member_expression" || !c.Equal(p.ChildByFieldName("object")) {
			return false
		}
		prop := f.Text(p.ChildByFieldName("property"))
		switch {
		case prop == "not":
			neg = !neg
		case jsExpectWords[prop]:
		default:
			check, known := jsExpectMatchers[prop]
			if !known {
				return false
			}
			if neg {
				check = flowNegate[check]
			}
			ops := []*sitter.Node{actual}
			if outer := p.Parent(); outer != nil && outer.Type() == "call_expression" && p.Equal(outer.ChildByFieldName("function")) {
				if margs := outer.ChildByFieldName("arguments"); margs != nil && margs.NamedChildCount() > 0 {
					ops = append(ops, margs.NamedChild(0))
				}
			}
			if len(ops) < check.operands() {
				return false
			}
			return jsFlow.passes(f, check, ops...)
		}
		c = p
	}
	return false
}
