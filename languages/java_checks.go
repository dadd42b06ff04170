package languages

import (
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// javaFlow is how Java writes constants and leaves blocks.
var javaFlow = &flowDialect{
	bools: flowSet("true", "false"),
	numbers: flowSet("decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal",
		"decimal_floating_point_literal", "hex_floating_point_literal"),
	strs:       flowSet("string_literal"),
	chars:      flowSet("character_literal"),
	nulls:      flowSet("null_literal"),
	wrappers:   flowSet("parenthesized_expression"),
	unary:      flowSet("unary_expression"),
	binary:     flowSet("binary_expression"),
	logical:    `(binary_expression operator: ["&&" "||"])`,
	ifs:        flowSet("if_statement", "ternary_expression"),
	whiles:     flowSet("while_statement"),
	blocks:     flowSet("block"),
	jumps:      flowSet("return_statement", "throw_statement", "break_statement", "continue_statement", "yield_statement"),
	statements: flowSet("expression_statement"),
	truthy:     flowTruthStrict,
	skip:       javaSkip,
	skipWords:  []string{"assume", "abort", "Exception"},
	named:      javaNamed,
}

// javaSkip reports JUnit's assumptions that fail on a constant
// (assumeTrue(false), Assume.assumeFalse(true)), Assumptions.abort(), and
// the exceptions that JUnit and TestNG report as a skip when thrown.
func javaSkip(d *flowDialect, f *File, n *sitter.Node) flowExit {
	switch n.Type() {
	case "method_invocation":
		obj := f.Text(n.ChildByFieldName("object"))
		if obj != "" && obj != "Assumptions" && obj != "Assume" && !strings.HasSuffix(obj, ".Assumptions") && !strings.HasSuffix(obj, ".Assume") {
			return exitNone
		}
		return jvmAssumption(f, d, f.Text(n.ChildByFieldName("name")), flowArgs(n.ChildByFieldName("arguments")))
	case "object_creation_expression":
		return jvmSkipException(f.Text(n.ChildByFieldName("type")))
	}
	return exitNone
}

// jvmAssumption reads an assumption call by name, the same in Java and
// Kotlin: one that fails on a constant skips the test.
func jvmAssumption(f *File, d *flowDialect, name string, args []*sitter.Node) flowExit {
	switch name {
	case "abort":
		return exitSkip
	case "assumeTrue", "assumeFalse":
		check := checkFalse // assumeTrue skips when its condition is false
		if name == "assumeFalse" {
			check = checkTrue
		}
		if jvmPasses(f, d, check, args) {
			return exitSkip
		}
	}
	return exitNone
}

// jvmSkipException reports the exceptions that skip a test when thrown:
// JUnit 5's TestAbortedException, JUnit 4's AssumptionViolatedException,
// TestNG's SkipException.
func jvmSkipException(typ string) flowExit {
	if k := strings.LastIndexByte(typ, '.'); k >= 0 {
		typ = typ[k+1:]
	}
	switch typ {
	case "TestAbortedException", "AssumptionViolatedException", "SkipException":
		return exitSkip
	}
	return exitNone
}

// jvmAssertChecks are JUnit's, TestNG's and kotlin.test's assertions by
// what they check of their operands.
var jvmAssertChecks = map[string]flowCheck{
	"assertEquals": checkEqual, "assertSame": checkEqual, "assertArrayEquals": checkEqual, "assertIterableEquals": checkEqual,
	"assertLinesMatch": checkEqual, "assertContentEquals": checkEqual,
	"assertNotEquals": checkNotEqual, "assertNotSame": checkNotEqual,
	"assertTrue": checkTrue, "assertFalse": checkFalse, "assertNull": checkNull, "assertNotNull": checkNotNull,
}

// jvmThatChecks are AssertJ's and Truth's checks after assertThat(x).
var jvmThatChecks = map[string]flowCheck{
	"isEqualTo": checkEqual, "isSameAs": checkEqual, "isNotEqualTo": checkNotEqual, "isNotSameAs": checkNotEqual,
	"isTrue": checkTrue, "isFalse": checkFalse, "isNull": checkNull, "isNotNull": checkNotNull,
	"isGreaterThan": checkGreater, "isLessThan": checkLess, "isGreaterThanOrEqualTo": checkGreaterEqual,
	"isLessThanOrEqualTo": checkLessEqual, "isAtLeast": checkGreaterEqual, "isAtMost": checkLessEqual,
}

// jvmPasses reports an assertion on constants that cannot fail, reading
// its operands in both orders JUnit uses: the message last (JUnit 5,
// TestNG, kotlin.test) or first (JUnit 4).
func jvmPasses(f *File, d *flowDialect, check flowCheck, args []*sitter.Node) bool {
	if check == 0 {
		return false
	}
	k := check.operands()
	if len(args) >= k && d.passes(f, check, args[:k]...) {
		return true
	}
	if len(args) > k && d.isString(f, args[0]) {
		return d.passes(f, check, args[1:k+1]...)
	}
	return false
}

// jvmAnnotationsOff reports the annotations that switch a test or a
// class off: JUnit's @Disabled and @Ignore, kotest's @Ignored, TestNG's
// @Test(enabled = false), Spring's @EnabledIf("false") and
// @DisabledIf("true"), and JUnit's @EnabledIf("m") and @DisabledIf("m")
// on a method m of the file that always returns the value that switches
// the test off (no method is called true or false).
func jvmAnnotationsOff(f *File, d *flowDialect, ann map[string]*sitter.Node) bool {
	if ann["Disabled"] != nil || ann["Ignore"] != nil || ann["Ignored"] != nil {
		return true
	}
	arg := func(a *sitter.Node, keys ...string) *sitter.Node {
		if a == nil {
			return nil
		}
		for _, c := range flowDescendants(a, 5) {
			switch c.Type() {
			case "element_value_pair", "value_argument":
				key := f.Text(flowField(c, "key"))
				if key == "" {
					key = f.Text(flowFirstNamed(c))
				}
				for _, k := range keys {
					if key == k {
						return flowLastNamed(c)
					}
				}
			}
		}
		if len(keys) > 0 && keys[0] == "value" {
			for _, c := range flowDescendants(a, 5) {
				if d.strs[c.Type()] {
					return c
				}
			}
		}
		return nil
	}
	if v := arg(ann["Test"], "enabled"); v != nil {
		if truth, ok := d.truth(f, v); ok && !truth {
			return true
		}
	}
	for name, want := range map[string]string{"EnabledIf": "false", "DisabledIf": "true"} {
		if v := arg(ann[name], "value", "expression"); v != nil && d.isString(f, v) {
			val, _ := d.value(f, v)
			if strings.EqualFold(strings.TrimSpace(val.text), want) {
				return true
			}
			// JUnit's names a condition method: one of the file's that
			// always returns the same decides.
			if ret := jvmConditionMethod(f, d, strings.TrimSpace(val.text)); ret != nil {
				if truth, ok := d.truth(f, ret); ok && strconv.FormatBool(truth) == want {
					return true
				}
			}
		}
	}
	return false
}

// jvmConditionMethod is the expression that the condition method a JUnit
// @EnabledIf or @DisabledIf names ("m", "Cls#m") always returns, when it
// is a method of the file that the dialect folds, or nil; a method of a
// class of another file ("com.x.Other#m") is not.
func jvmConditionMethod(f *File, d *flowDialect, name string) *sitter.Node {
	consts := javaConsts
	if d == kotlinFlow {
		consts = kotlinConsts
	}
	if cls, m, ok := strings.Cut(name, "#"); ok {
		cls = cls[strings.LastIndexByte(cls, '.')+1:]
		if consts(f)[typeKey+cls] == nil {
			return nil
		}
		name = m
	}
	if name == "" || strings.ContainsAny(name, " (.${}") {
		return nil
	}
	return consts(f)[name+callKey]
}

// javaThatPasses reads AssertJ's and Truth's assertThat(x).isEqualTo(y)
// and Hamcrest's assertThat([reason,] x, is(y)).
func javaThatPasses(f *File, inv *sitter.Node, args []*sitter.Node) bool {
	if len(args) == 1 {
		if _, ok := javaFlow.value(f, args[0]); !ok {
			return false // the common case, decided without climbing the tree
		}
		c := inv
		for depth := 0; depth < 8; depth++ {
			p := c.Parent()
			if p == nil || p.Type() != "method_invocation" || !c.Equal(p.ChildByFieldName("object")) {
				return false
			}
			name := f.Text(p.ChildByFieldName("name"))
			switch name {
			case "as", "describedAs", "withFailMessage", "overridingErrorMessage":
				c = p
				continue
			}
			check := jvmThatChecks[name]
			if check == 0 {
				return false
			}
			ops := append([]*sitter.Node{args[0]}, flowArgs(p.ChildByFieldName("arguments"))...)
			return len(ops) >= check.operands() && javaFlow.passes(f, check, ops[:check.operands()]...)
		}
		return false
	}
	if len(args) < 2 {
		return false
	}
	actual, matcher := args[len(args)-2], args[len(args)-1]
	check := checkEqual
	for depth := 0; depth < 8 && matcher != nil && matcher.Type() == "method_invocation"; depth++ {
		margs := flowArgs(matcher.ChildByFieldName("arguments"))
		switch f.Text(matcher.ChildByFieldName("name")) {
		case "is", "equalTo", "sameInstance", "theInstance":
			if len(margs) != 1 {
				return false
			}
			matcher = margs[0]
			if matcher.Type() != "method_invocation" {
				return javaFlow.passes(f, check, actual, matcher)
			}
		case "not":
			if len(margs) != 1 {
				return false
			}
			check = flowNegate[check]
			matcher = margs[0]
			if matcher.Type() != "method_invocation" {
				return javaFlow.passes(f, check, actual, matcher)
			}
		case "nullValue":
			return javaFlow.passes(f, map[flowCheck]flowCheck{checkEqual: checkNull, checkNotEqual: checkNotNull}[check], actual)
		case "notNullValue":
			return javaFlow.passes(f, map[flowCheck]flowCheck{checkEqual: checkNotNull, checkNotEqual: checkNull}[check], actual)
		default:
			return false
		}
	}
	return false
}
