package languages

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// rubyFlow is how Ruby writes constants and leaves blocks: unless and
// until run on a false condition, only nil and false are false, and next
// leaves an example's block as return leaves a method.
var rubyFlow = &flowDialect{
	bools:      flowSet("true", "false"),
	numbers:    flowSet("integer", "float"),
	strs:       flowSet("string"),
	symbols:    flowSet("simple_symbol", "delimited_symbol"),
	nulls:      flowSet("nil"),
	wrappers:   flowSet("parenthesized_statements"),
	unary:      flowSet("unary"),
	binary:     flowSet("binary"),
	logical:    `(binary operator: ["&&" "||" "and" "or"])`,
	ifs:        flowSet("if", "unless", "if_modifier", "unless_modifier", "conditional", "elsif"),
	negated:    flowSet("unless", "unless_modifier", "until", "until_modifier"),
	whiles:     flowSet("while", "while_modifier", "until", "until_modifier"),
	blocks:     flowSet("body_statement", "block_body", "then", "else", "begin", "program"),
	jumps:      flowSet("return", "next", "break", "redo", "retry"),
	throwCalls: flowSet("raise", "fail"),
	truthy:     flowTruthRuby,
	skip:       rubySkip,
	skipWords:  []string{"skip", "pending", "omit", "pend"},
	named:      rubyNamed,
}

// rubySkip reports RSpec's and Minitest's skip, RSpec's pending (the
// example is reported pending, its failures expected), test-unit's omit
// and pend, and test-unit's omit_if and omit_unless on a constant.
func rubySkip(d *flowDialect, f *File, n *sitter.Node) flowExit {
	name := ""
	var args []*sitter.Node
	switch n.Type() {
	case "identifier":
		name = f.Text(n)
	case "call":
		if n.ChildByFieldName("receiver") != nil || n.ChildByFieldName("block") != nil {
			return exitNone
		}
		name = f.Text(n.ChildByFieldName("method"))
		args = flowArgs(n.ChildByFieldName("arguments"))
	default:
		return exitNone
	}
	switch name {
	case "skip", "pending", "omit", "pend":
		return exitSkip
	case "omit_if", "omit_unless":
		check := checkTrue
		if name == "omit_unless" {
			check = checkFalse
		}
		if len(args) > 0 && d.passes(f, check, args[0]) {
			return exitSkip
		}
	}
	return exitNone
}

// rubyAssertChecks are Minitest's assertions by what they check.
var rubyAssertChecks = map[string]flowCheck{
	"assert": checkTrue, "refute": checkFalse, "assert_equal": checkEqual, "assert_same": checkEqual, "refute_equal": checkNotEqual,
	"refute_same": checkNotEqual, "assert_nil": checkNull, "refute_nil": checkNotNull,
}

// rubyMatchers are RSpec's matchers by what they check.
var rubyMatchers = map[string]flowCheck{
	"eq": checkEqual, "eql": checkEqual, "equal": checkEqual, "be": checkEqual,
	"be_truthy": checkTrue, "be_falsey": checkFalse, "be_falsy": checkFalse, "be_nil": checkNull,
}
