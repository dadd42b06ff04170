package languages

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// kotlinFlow is how Kotlin writes constants and leaves blocks.
var kotlinFlow = &flowDialect{
	bools:     flowSet("boolean_literal"),
	numbers:   flowSet("integer_literal", "long_literal", "hex_literal", "bin_literal", "real_literal", "unsigned_literal"),
	strs:      flowSet("string_literal", "line_string_literal", "multi_line_string_literal"),
	chars:     flowSet("character_literal"),
	nullWords: flowSet("null"),
	wrappers:  flowSet("parenthesized_expression", "value_argument"),
	unary:     flowSet("prefix_expression"),
	binary:    flowSet("conjunction_expression", "disjunction_expression", "equality_expression", "comparison_expression"),
	logical:   `(conjunction_expression) (disjunction_expression)`,
	ifs:       flowSet("if_expression"),
	whiles:    flowSet("while_statement"),
	blocks:    flowSet("statements", "control_structure_body"),
	jumps:     flowSet("jump_expression"),
	truthy:    flowTruthStrict,
	skip:      kotlinSkip,
	skipWords: []string{"assume", "abort", "Exception"},
	named:     kotlinNamed,
}

// kotlinSkip reports JUnit's assumptions that fail on a constant,
// Assumptions.abort(), and the exceptions JUnit reports as a skip.
func kotlinSkip(d *flowDialect, f *File, n *sitter.Node) flowExit {
	if n.Type() != "call_expression" {
		return exitNone
	}
	obj, name, args := kotlinCallParts(f, n)
	if obj == "" {
		if e := jvmSkipException(name); e != exitNone {
			return e
		}
	}
	if obj != "" && obj != "Assumptions" && obj != "Assume" {
		return exitNone
	}
	return jvmAssumption(f, d, name, args)
}

// kotlinCallParts splits a call into its receiver's text (empty for a
// plain call), the function's name and the arguments.
func kotlinCallParts(f *File, call *sitter.Node) (obj, name string, args []*sitter.Node) {
	callee := flowFirstNamed(call)
	if callee == nil {
		return "", "", nil
	}
	switch callee.Type() {
	case "simple_identifier":
		name = f.Text(callee)
	case "navigation_expression":
		obj = f.Text(flowFirstNamed(callee))
		if suffix := flowLastNamed(callee); suffix != nil && suffix.Type() == "navigation_suffix" {
			name = f.Text(flowLastNamed(suffix))
		}
	}
	for i := 0; i < int(call.NamedChildCount()); i++ {
		if s := call.NamedChild(i); s.Type() == "call_suffix" {
			for j := 0; j < int(s.NamedChildCount()); j++ {
				if va := s.NamedChild(j); va.Type() == "value_arguments" {
					args = flowArgs(va)
				}
			}
		}
	}
	return obj, name, args
}

// kotlinVacuous reports an assertion on constants that cannot fail:
// assertEquals(3, 3), assertTrue(true), assert(true).
func kotlinVacuous(f *File, fn string, call *sitter.Node) bool {
	_, _, args := kotlinCallParts(f, call)
	if fn == "assert" {
		return len(args) >= 1 && kotlinFlow.passes(f, checkTrue, args[0])
	}
	return jvmPasses(f, kotlinFlow, jvmAssertChecks[fn], args)
}

// kotestConfigOff reads test("x").config(…): enabled = false, or
// enabledIf = { false }, switches the test off.
func kotestConfigOff(f *File, config *sitter.Node) bool {
	_, _, args := kotlinCallParts(f, config)
	for _, a := range args {
		if a.NamedChildCount() != 2 {
			continue
		}
		key, v := f.Text(a.NamedChild(0)), a.NamedChild(1)
		switch key {
		case "enabled":
		case "enabledIf":
			if v.Type() != "lambda_literal" {
				continue
			}
			if v = flowOnlyChild(v); v == nil || v.Type() != "statements" {
				continue
			}
			v = flowOnlyChild(v)
		default:
			continue
		}
		if truth, ok := kotlinFlow.truth(f, v); ok && !truth {
			return true
		}
	}
	return false
}
