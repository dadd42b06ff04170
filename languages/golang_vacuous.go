package languages

import (
	"strings"
	"unicode"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
)

// The assertions of Go's libraries that cannot fail: testify's and
// gomega's, on literals.

// goVacuousTestify reports a testify assertion whose outcome the code
// under test cannot change and that passes: True(t, true), False(t, false),
// Nil(t, nil), NoError(t, nil), NotNil or Zero of a literal, and a
// comparison of two literals (Equal(t, 3, 3), NotEqual(t, 1, 2)). Fail, and
// literals that always fail (True(t, false), Equal(t, 0, 1)), are explicit
// failures and count.
func goVacuousTestify(f *File, method string, args *sitter.Node) bool {
	if args == nil || method == "" {
		return false
	}
	n := int(args.NamedChildCount())
	arg := func(i int) constant {
		if i+1 < n { // after t
			return goConst(f, args.NamedChild(i+1))
		}
		return unknownConst
	}
	switch strings.TrimSuffix(method, "f") { // Truef is True with a format
	case "Fail", "FailNow":
		return false
	case "True":
		return arg(0).isTrue()
	case "False":
		return arg(0).isFalse()
	case "Nil", "NoError":
		return arg(0).kind == constNil
	case "NotNil":
		return arg(0).value() && arg(0).kind != constNil
	case "Zero", "Empty":
		return arg(0).value() && !arg(0).isTrue()
	case "NotZero", "NotEmpty":
		return arg(0).isTrue()
	}
	// The rest compare their first two arguments: on two literals the
	// outcome is fixed, and vacuous unless it is sure to fail.
	if !arg(0).value() || !arg(1).value() {
		return false
	}
	op := map[string]string{"Equal": "==", "EqualValues": "==", "Exactly": "==", "NotEqual": "!=", "NotEqualValues": "!=",
		"Greater": ">", "GreaterOrEqual": ">=", "Less": "<", "LessOrEqual": "<="}[strings.TrimSuffix(method, "f")]
	return op == "" || !constCompare(op, arg(0), arg(1)).isFalse()
}

// goVacuousGomega reports Expect(literal) matched against a matcher made of
// literals only: Expect(true).To(BeTrue()), Ω(2).Should(Equal(2)).
func goVacuousGomega(f *File, call, args *sitter.Node) bool {
	if args == nil || args.NamedChildCount() == 0 {
		return false
	}
	for i := 0; i < int(args.NamedChildCount()); i++ {
		if !goConst(f, args.NamedChild(i)).value() {
			return false
		}
	}
	sel := call.Parent()
	if sel == nil || sel.Type() != "selector_expression" {
		return false
	}
	outer := sel.Parent()
	if outer == nil || outer.Type() != "call_expression" {
		return false
	}
	switch f.Text(sel.ChildByFieldName("field")) {
	case "To", "ToNot", "NotTo", "Should", "ShouldNot":
	default:
		return false
	}
	margs := outer.ChildByFieldName("arguments")
	return margs != nil && margs.NamedChildCount() == 1 && goLiteralMatcher(f, margs.NamedChild(0))
}

// goLiteralMatcher reports a call of an exported function (a gomega
// matcher) whose arguments are literals or such matchers: Equal(2),
// BeTrue(), And(BeNumerically(">", 1), Not(BeZero())).
func goLiteralMatcher(f *File, n *sitter.Node) bool {
	if !f.descend() {
		return false
	}
	defer f.ascend()
	if n.Type() != "call_expression" {
		return false
	}
	fn := n.ChildByFieldName("function")
	if fn != nil && fn.Type() == "selector_expression" {
		fn = fn.ChildByFieldName("field")
	}
	if fn == nil || (fn.Type() != "identifier" && fn.Type() != "field_identifier") {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(f.Text(fn)); !unicode.IsUpper(r) {
		return false
	}
	args := n.ChildByFieldName("arguments")
	for i := 0; args != nil && i < int(args.NamedChildCount()); i++ {
		a := args.NamedChild(i)
		if !goConst(f, a).value() && !goLiteralMatcher(f, a) {
			return false
		}
	}
	return true
}
