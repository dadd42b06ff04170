package languages

import (
	"bytes"

	sitter "github.com/smacker/go-tree-sitter"
)

// swiftFlow is how Swift writes constants and leaves blocks; a guard is an
// if whose else block must leave.
var swiftFlow = &flowDialect{
	bools:      flowSet("boolean_literal"),
	numbers:    flowSet("integer_literal", "real_literal", "hex_literal", "oct_literal", "bin_literal"),
	strs:       flowSet("line_string_literal", "multi_line_string_literal"),
	nullWords:  flowSet("nil"),
	wrappers:   flowSet("tuple_expression", "value_argument"),
	unary:      flowSet("prefix_expression"),
	binary:     flowSet("conjunction_expression", "disjunction_expression", "equality_expression", "comparison_expression"),
	logical:    `(conjunction_expression) (disjunction_expression)`,
	ifs:        flowSet("if_statement", "ternary_expression", "guard_statement"),
	whiles:     flowSet("while_statement"),
	blocks:     flowSet("statements"),
	jumps:      flowSet("control_transfer_statement"),
	statements: flowSet("try_expression", "await_expression"),
	truthy:     flowTruthStrict,
	skip:       swiftSkip,
	skipWords:  []string{"XCTSkip", "XCTExpectFailure"},
}

// swiftSkip reports XCTest's skips: throw XCTSkip(…), XCTSkipIf on a
// constant truth, XCTSkipUnless on a constant false, and XCTExpectFailure
// without a closure, which marks every later failure of the test as
// expected: a test that hides its failure checks nothing.
func swiftSkip(d *flowDialect, f *File, n *sitter.Node) flowExit {
	if n.Type() != "call_expression" {
		return exitNone
	}
	callee := flowFirstNamed(n)
	if callee == nil || callee.Type() != "simple_identifier" {
		return exitNone
	}
	suffix := flowLastNamed(n)
	var args []*sitter.Node
	closure := false
	if suffix != nil && suffix.Type() == "call_suffix" {
		for i := 0; i < int(suffix.NamedChildCount()); i++ {
			switch c := suffix.NamedChild(i); c.Type() {
			case "value_arguments":
				args = flowArgs(c)
			case "lambda_literal", "annotated_lambda":
				closure = true
			}
		}
	}
	switch f.Text(callee) {
	case "XCTSkip":
		if p := n.Parent(); p != nil && p.Type() == "control_transfer_statement" {
			return exitSkip
		}
	case "XCTSkipIf":
		if len(args) > 0 && d.passes(f, checkTrue, args[0]) {
			return exitSkip
		}
	case "XCTSkipUnless":
		if len(args) > 0 && d.passes(f, checkFalse, args[0]) {
			return exitSkip
		}
	case "XCTExpectFailure":
		if !closure {
			return exitSkip
		}
	}
	return exitNone
}

// swiftTraitsOff reads Swift Testing's traits on @Test or @Suite:
// .disabled() and .disabled("reason") switch off, .disabled(if: c) when c
// is a constant truth, .enabled(if: c) when c is a constant false.
func swiftTraitsOff(f *File, decl *sitter.Node, attribute string) bool {
	for i := 0; i < int(decl.NamedChildCount()); i++ {
		mods := decl.NamedChild(i)
		if mods.Type() != "modifiers" {
			continue
		}
		for j := 0; j < int(mods.NamedChildCount()); j++ {
			a := mods.NamedChild(j)
			if a.Type() != "attribute" || f.Text(flowFirstNamed(a)) != attribute {
				continue
			}
			for k := 0; k < int(a.NamedChildCount()); k++ {
				if swiftTraitOff(f, a.NamedChild(k)) {
					return true
				}
			}
		}
	}
	return false
}

func swiftTraitOff(f *File, trait *sitter.Node) bool {
	if trait.Type() != "call_expression" {
		return false
	}
	callee, suffix := flowFirstNamed(trait), flowLastNamed(trait)
	if callee == nil || callee.Type() != "prefix_expression" || suffix == nil || suffix.Type() != "call_suffix" {
		return false
	}
	name := f.Text(callee.ChildByFieldName("target"))
	var cond *sitter.Node
	for i := 0; i < int(suffix.NamedChildCount()); i++ {
		if va := suffix.NamedChild(i); va.Type() == "value_arguments" {
			for _, arg := range flowArgs(va) {
				if label := arg.ChildByFieldName("name"); label != nil && f.Text(label) == "if" {
					cond = arg
				}
			}
		}
	}
	switch name {
	case "disabled":
		if cond == nil {
			return true
		}
		return swiftFlow.passes(f, checkTrue, cond)
	case "enabled":
		return cond != nil && swiftFlow.passes(f, checkFalse, cond)
	}
	return false
}

// swiftAssertChecks are XCTest's assertions by what they check.
var swiftAssertChecks = map[string]flowCheck{
	"XCTAssertEqual": checkEqual, "XCTAssertIdentical": checkEqual, "XCTAssertNotEqual": checkNotEqual, "XCTAssertNotIdentical": checkNotEqual,
	"XCTAssert": checkTrue, "XCTAssertTrue": checkTrue, "XCTAssertFalse": checkFalse, "XCTAssertNil": checkNull, "XCTAssertNotNil": checkNotNull,
	"XCTAssertGreaterThan": checkGreater, "XCTAssertLessThan": checkLess, "XCTAssertGreaterThanOrEqual": checkGreaterEqual,
	"XCTAssertLessThanOrEqual": checkLessEqual,
}

// swiftVacuous reports an XCTest assertion on constants that cannot fail:
// XCTAssertEqual(1, 1), XCTAssertTrue(true).
func swiftVacuous(f *File, fn string, call *sitter.Node) bool {
	check := swiftAssertChecks[fn]
	var args []*sitter.Node
	if suffix := flowLastNamed(call); suffix != nil && suffix.Type() == "call_suffix" {
		if va := flowFirstNamed(suffix); va != nil && va.Type() == "value_arguments" {
			args = flowArgs(va)
		}
	}
	return check != 0 && len(args) >= check.operands() && swiftFlow.passes(f, check, args[:check.operands()]...)
}

// swiftMacroChecks counts the #expect and #require of a test, found in
// its text, less those that cannot run; those that cannot fail
// (#expect(true), #expect(1 == 1)) are vacuous. The grammar gives each an
// ERROR node for its name, followed by its parenthesised condition.
func swiftMacroChecks(f *File, fl *flow, fn *sitter.Node) {
	conds := map[uint32]*sitter.Node{}
	var walk func(n *sitter.Node, depth int)
	walk = func(n *sitter.Node, depth int) {
		if depth > 64 {
			return
		}
		kids := fl.children(n)
		for i, m := range kids {
			if m.Type() != "ERROR" || m.EndByte()-m.StartByte() > 8 {
				walk(m, depth+1)
				continue
			}
			if text := f.Text(m); text != "#expect" && text != "#require" {
				walk(m, depth+1)
				continue
			}
			// The condition follows, or opens the next statement list.
			if i+1 < len(kids) {
				next := kids[i+1]
				if next.Type() == "statements" {
					next = flowFirstNamed(next)
				}
				if next != nil && next.Type() == "tuple_expression" {
					conds[m.StartByte()] = next
				}
			}
		}
	}
	walk(fn, 0)
	start := fn.StartByte()
	body := f.Src[start:fn.EndByte()]
	for _, macro := range []string{"#expect(", "#require("} {
		for i := 0; ; {
			k := bytes.Index(body[i:], []byte(macro))
			if k < 0 {
				break
			}
			at := start + uint32(i+k)
			i += k + len(macro)
			cond := conds[at]
			if cond != nil && fl.dead(cond) || cond == nil && fl.deadAt(at) {
				continue
			}
			f.AssertAt(at, cond != nil && swiftFlow.passes(f, checkTrue, cond))
		}
	}
}
