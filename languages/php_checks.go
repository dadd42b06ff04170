package languages

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// phpFlow is how PHP writes constants and leaves blocks.
var phpFlow = &flowDialect{
	bools:      flowSet("boolean"),
	numbers:    flowSet("integer", "float"),
	strs:       flowSet("string", "encapsed_string"),
	nulls:      flowSet("null"),
	wrappers:   flowSet("parenthesized_expression", "argument"),
	unary:      flowSet("unary_op_expression"),
	binary:     flowSet("binary_expression"),
	logical:    `(binary_expression operator: ["&&" "||" "and" "or"])`,
	ifs:        flowSet("if_statement", "else_if_clause", "conditional_expression"),
	whiles:     flowSet("while_statement"),
	blocks:     flowSet("compound_statement", "else_clause", "colon_block"),
	jumps:      flowSet("return_statement", "throw_expression", "break_statement", "continue_statement"),
	statements: flowSet("expression_statement"),
	truthy:     flowTruthPHP,
	skip:       phpSkip,
	skipWords:  []string{"markTest"},
}

// flowTruthPHP is PHP's truthiness: JavaScript's, and "0" is false too.
func flowTruthPHP(v flowValue) (bool, bool) {
	if v.kind == flowString && v.text == "0" {
		return false, true
	}
	return flowTruthJS(v)
}

// phpSkip reports PHPUnit's markTestSkipped and markTestIncomplete (an
// incomplete test is reported as such, not as passed), called on $this,
// self or static.
func phpSkip(d *flowDialect, f *File, n *sitter.Node) flowExit {
	var obj string
	switch n.Type() {
	case "member_call_expression":
		obj = f.Text(n.ChildByFieldName("object"))
	case "scoped_call_expression":
		obj = f.Text(n.ChildByFieldName("scope"))
	default:
		return exitNone
	}
	if obj != "$this" && obj != "self" && obj != "static" && !strings.HasSuffix(obj, "TestCase") {
		return exitNone
	}
	switch f.Text(n.ChildByFieldName("name")) {
	case "markTestSkipped", "markTestIncomplete":
		return exitSkip
	}
	return exitNone
}
