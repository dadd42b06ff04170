package languages

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// cppFlow is how C and C++ write constants and leave blocks; #if 0 is an
// if like any other. The file's top level is not a block: a Catch2 test's
// body sits there after its macro, and one test's skip ends no other.
var cppFlow = &flowDialect{
	bools:      flowSet("true", "false"),
	numbers:    flowSet("number_literal"),
	strs:       flowSet("string_literal", "raw_string_literal"),
	chars:      flowSet("char_literal"),
	nulls:      flowSet("null"),
	nullWords:  flowSet("NULL", "nullptr"),
	wrappers:   flowSet("parenthesized_expression", "condition_clause"),
	unary:      flowSet("unary_expression"),
	binary:     flowSet("binary_expression"),
	logical:    `(binary_expression operator: ["&&" "||"])`,
	ifs:        flowSet("if_statement", "conditional_expression", "preproc_if", "preproc_elif"),
	whiles:     flowSet("while_statement"),
	blocks:     flowSet("compound_statement", "else_clause"),
	jumps:      flowSet("return_statement", "throw_statement", "break_statement", "continue_statement", "goto_statement"),
	statements: flowSet("expression_statement"),
	truthy:     flowTruthC,
	skip:       cppSkip,
	skipWords:  []string{"SKIP"},
}

// cppSkip reports GoogleTest's GTEST_SKIP() (with or without a message
// streamed into it) and Catch2's SKIP().
func cppSkip(d *flowDialect, f *File, n *sitter.Node) flowExit {
	for n != nil && n.Type() == "binary_expression" && f.Text(n.ChildByFieldName("operator")) == "<<" {
		n = n.ChildByFieldName("left")
	}
	if n == nil || n.Type() != "call_expression" {
		return exitNone
	}
	switch f.Text(n.ChildByFieldName("function")) {
	case "GTEST_SKIP", "SKIP":
		return exitSkip
	}
	return exitNone
}

// cppChecks are GoogleTest's comparisons by their suffix.
var cppChecks = map[string]flowCheck{
	"EQ": checkEqual, "NE": checkNotEqual, "TRUE": checkTrue, "FALSE": checkFalse, "LT": checkLess, "LE": checkLessEqual,
	"GT": checkGreater, "GE": checkGreaterEqual, "STREQ": checkEqual, "STRNE": checkNotEqual, "FLOAT_EQ": checkEqual,
	"DOUBLE_EQ": checkEqual, "NEAR": checkEqual,
}

// cppVacuous reports an assertion on constants that cannot fail:
// EXPECT_EQ(1, 1), ASSERT_TRUE(true), REQUIRE(1 == 1), CHECK_FALSE(false).
func cppVacuous(f *File, fn string, args []*sitter.Node) bool {
	var check flowCheck
	switch {
	case strings.HasPrefix(fn, "EXPECT_") || strings.HasPrefix(fn, "ASSERT_"):
		check = cppChecks[fn[strings.IndexByte(fn, '_')+1:]]
	case strings.HasSuffix(fn, "_FALSE"):
		check = checkFalse
	case fn == "REQUIRE" || fn == "CHECK" || fn == "STATIC_REQUIRE" || fn == "STATIC_CHECK":
		check = checkTrue
	}
	return check != 0 && len(args) >= check.operands() && cppFlow.passes(f, check, args[:check.operands()]...)
}
