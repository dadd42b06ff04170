package languages

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// csharpFlow is how C# writes constants and leaves blocks; #if false is
// an if like any other.
var csharpFlow = &flowDialect{
	bools:      flowSet("boolean_literal"),
	numbers:    flowSet("integer_literal", "real_literal"),
	strs:       flowSet("string_literal", "verbatim_string_literal", "raw_string_literal"),
	chars:      flowSet("character_literal"),
	nulls:      flowSet("null_literal"),
	wrappers:   flowSet("parenthesized_expression", "argument"),
	unary:      flowSet("prefix_unary_expression"),
	binary:     flowSet("binary_expression"),
	logical:    `(binary_expression operator: ["&&" "||"])`,
	ifs:        flowSet("if_statement", "conditional_expression", "preproc_if", "preproc_elif"),
	whiles:     flowSet("while_statement"),
	blocks:     flowSet("block"),
	jumps:      flowSet("return_statement", "throw_statement", "break_statement", "continue_statement", "goto_statement"),
	statements: flowSet("expression_statement", "await_expression"),
	truthy:     flowTruthStrict,
	skip:       csharpSkip,
	skipWords:  []string{"Ignore", "Inconclusive", "Skip", "Pass", "Assume", "Exception"},
	named:      csharpNamed,
}

// csharpSkip reports the calls that end a test as skipped or inconclusive
// (NUnit's Assert.Ignore and Assert.Inconclusive, MSTest's
// Assert.Inconclusive, xUnit v3's Assert.Skip, SkipWhen and SkipUnless,
// Xunit.SkippableFact's Skip.If and Skip.IfNot, NUnit's Assume.That on a
// constant, and the exceptions behind them) and NUnit's Assert.Pass, which
// ends it as passed.
func csharpSkip(d *flowDialect, f *File, n *sitter.Node) flowExit {
	switch n.Type() {
	case "object_creation_expression":
		switch typ := f.Text(n.ChildByFieldName("type")); typ[strings.LastIndexByte(typ, '.')+1:] {
		case "SkipException", "IgnoreException", "InconclusiveException", "AssertInconclusiveException", "SkipTestException":
			return exitSkip
		}
	case "invocation_expression":
		fn := n.ChildByFieldName("function")
		if fn == nil || fn.Type() != "member_access_expression" {
			return exitNone
		}
		obj, name := f.Text(fn.ChildByFieldName("expression")), f.Text(fn.ChildByFieldName("name"))
		obj = obj[strings.LastIndexByte(obj, '.')+1:]
		args := flowArgs(n.ChildByFieldName("arguments"))
		when := func(check flowCheck) flowExit {
			if len(args) > 0 && d.passes(f, check, args[0]) {
				return exitSkip
			}
			return exitNone
		}
		switch obj + "." + name {
		case "Assert.Ignore", "Assert.Inconclusive", "Assert.Skip", "ClassicAssert.Ignore", "ClassicAssert.Inconclusive":
			return exitSkip
		case "Assert.Pass", "ClassicAssert.Pass":
			return exitReturn
		case "Assert.SkipWhen", "Skip.If":
			return when(checkTrue)
		case "Assert.SkipUnless", "Skip.IfNot", "Assume.That":
			return when(checkFalse)
		}
	}
	return exitNone
}

// csharpAttrArg returns the value of an attribute's named argument
// (Skip = "…"), or nil.
func csharpAttrArg(f *File, attr *sitter.Node, name string) *sitter.Node {
	for _, a := range flowDescendants(attr, 3) {
		if a.Type() == "assignment_expression" && f.Text(a.ChildByFieldName("left")) == name {
			return a.ChildByFieldName("right")
		}
	}
	return nil
}

// csharpOff reports the attributes that switch a test (or a class of
// tests) off: [Ignore], NUnit's [Explicit], xUnit's Skip = "reason" unless
// xUnit v3's SkipUnless or SkipWhen makes it conditional, and
// Explicit = true.
func csharpOff(f *File, attrs map[string]*sitter.Node) bool {
	if attrs["Ignore"] != nil || attrs["Explicit"] != nil {
		return true
	}
	for _, a := range attrs {
		if v := csharpAttrArg(f, a, "Explicit"); v != nil {
			if truth, ok := csharpFlow.truth(f, v); ok && truth {
				return true
			}
		}
		v := csharpAttrArg(f, a, "Skip")
		if v == nil || csharpAttrArg(f, a, "SkipUnless") != nil || csharpAttrArg(f, a, "SkipWhen") != nil {
			continue
		}
		// Skip = null or "" runs the test; any other reason skips it.
		if val, ok := csharpFlow.value(f, v); ok && (val.kind == flowNull || val.kind == flowString && val.text == "") {
			continue
		}
		return true
	}
	return false
}

// csharpAssertChecks are xUnit's, NUnit's and MSTest's assertions by what
// they check of their operands.
var csharpAssertChecks = map[string]flowCheck{
	"Equal": checkEqual, "StrictEqual": checkEqual, "Same": checkEqual, "AreEqual": checkEqual, "AreSame": checkEqual,
	"NotEqual": checkNotEqual, "NotStrictEqual": checkNotEqual, "NotSame": checkNotEqual, "AreNotEqual": checkNotEqual, "AreNotSame": checkNotEqual,
	"True": checkTrue, "IsTrue": checkTrue, "That": checkTrue, "False": checkFalse, "IsFalse": checkFalse,
	"Null": checkNull, "IsNull": checkNull, "NotNull": checkNotNull, "IsNotNull": checkNotNull,
	"Greater": checkGreater, "Less": checkLess, "GreaterOrEqual": checkGreaterEqual, "LessOrEqual": checkLessEqual,
}

// csharpConstraints are NUnit's constraints in Assert.That(x, Is.…).
var csharpConstraints = map[string]flowCheck{
	"Is.True": checkTrue, "Is.False": checkFalse, "Is.Null": checkNull, "Is.Not.Null": checkNotNull,
	"Is.EqualTo": checkEqual, "Is.SameAs": checkEqual, "Is.Not.EqualTo": checkNotEqual, "Is.Not.SameAs": checkNotEqual,
}

// csharpVacuous reports an assertion on constants that cannot fail:
// Assert.Equal(3, 3), Assert.AreEqual(1, 1), Assert.IsTrue(true),
// Assert.That(1, Is.EqualTo(1)).
func csharpVacuous(f *File, name string, args []*sitter.Node) bool {
	check := csharpAssertChecks[name]
	if name == "That" && len(args) >= 2 {
		c := csharpFlow.unwrap(args[1])
		if c.Type() == "argument" {
			c = flowOnlyChild(c)
		}
		if c == nil {
			return false
		}
		key, ops := f.Text(c), args[:1]
		if c.Type() == "invocation_expression" {
			key = f.Text(c.ChildByFieldName("function"))
			ops = append(ops, flowArgs(c.ChildByFieldName("arguments"))...)
		}
		check = csharpConstraints[strings.Join(strings.Fields(key), "")]
		if check == 0 || len(ops) < check.operands() {
			return false
		}
		return csharpFlow.passes(f, check, ops[:check.operands()]...)
	}
	if check == 0 || len(args) < check.operands() {
		return false
	}
	return csharpFlow.passes(f, check, args[:check.operands()]...)
}

// csharpShouldChecks are FluentAssertions' checks after x.Should().
var csharpShouldChecks = map[string]flowCheck{
	"Be": checkEqual, "NotBe": checkNotEqual, "BeTrue": checkTrue, "BeFalse": checkFalse, "BeNull": checkNull, "NotBeNull": checkNotNull,
	"BeGreaterThan": checkGreater, "BeLessThan": checkLess,
}

// csharpShouldPasses reports a FluentAssertions chain on constants that
// cannot fail: 1.Should().Be(1), true.Should().BeTrue().
func csharpShouldPasses(f *File, subject, should *sitter.Node) bool {
	if _, ok := csharpFlow.value(f, subject); !ok {
		return false // the common case, decided without climbing the tree
	}
	p := should.Parent()
	if p == nil || p.Type() != "member_access_expression" {
		return false
	}
	check := csharpShouldChecks[f.Text(p.ChildByFieldName("name"))]
	ops := []*sitter.Node{subject}
	if call := p.Parent(); call != nil && call.Type() == "invocation_expression" {
		ops = append(ops, flowArgs(call.ChildByFieldName("arguments"))...)
	}
	if check == 0 || len(ops) < check.operands() {
		return false
	}
	return csharpFlow.passes(f, check, ops[:check.operands()]...)
}
