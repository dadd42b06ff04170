package languages

import (
	"regexp"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// Java, Kotlin and C# switch a test off through a name as Ruby and
// JavaScript do (named_others.go): `static final boolean QUARANTINE = true`
// and then `assumeTrue(!QUARANTINE)`, `const bool Off = true` and then
// `if (Off) return;`, or through a helper of the file that always answers
// the same (`private boolean stable() { return false; }` and then
// `assumeTrue(stable())`). A name counts only when the file binds it once,
// and only where nothing outside the file can bind it again: a final,
// const or readonly field, a private one, a local; a method no subclass
// can override (private, static or final in Java, not open or virtual in
// Kotlin and C#), without parameters, whose body returns one expression.

// staticConstSrc finds, before any tree walk, whether a file binds a name
// or returns from a method a literal the evaluator may fold.
var staticConstSrc = regexp.MustCompile(`(?:[^=!<>]=>?|\breturn\b)\s*[!(\s]*(?:true|false|null|-?\d|"|')`)

// Keys of the names a file binds besides its variables: a method without
// parameters by its name and "()", a type by "type " and its name.
const (
	callKey = "()"
	typeKey = "type "
)

// modifierWords returns the keywords among a declaration's modifiers
// (final, private, const, open…) and whether it carries an annotation or
// an attribute, which a framework may act on (Spring's @Value).
func modifierWords(f *File, decl *sitter.Node) (map[string]bool, bool) {
	words := map[string]bool{}
	annotated := false
	for _, c := range namedChildren(decl) {
		switch c.Type() {
		case "modifier":
			words[strings.TrimSpace(f.Text(c))] = true
		case "attribute_list":
			annotated = true
		case "modifiers":
			for i := 0; i < int(c.ChildCount()); i++ {
				m := c.Child(i)
				switch m.Type() {
				case "marker_annotation", "annotation":
					annotated = true
				default:
					for _, w := range strings.Fields(f.Text(m)) {
						words[w] = true
					}
				}
			}
		}
	}
	return words, annotated
}

// afterEquals is the named node after a declaration's "=", or nil.
func afterEquals(n *sitter.Node) *sitter.Node {
	seen := false
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		if !c.IsNamed() {
			seen = seen || c.Type() == "="
			continue
		}
		if seen && c.Type() != "comment" {
			return c
		}
	}
	return nil
}

// onlyReturn is the expression a method body returns when its one
// statement is a return of a value, or nil.
func onlyReturn(body *sitter.Node) *sitter.Node {
	for depth := 0; body != nil && depth < 3; depth++ {
		switch body.Type() {
		case "block", "function_body", "statements":
		default:
			return nil
		}
		ret := flowOnlyChild(body)
		if ret != nil && ret.ChildCount() > 1 && ret.Child(0).Type() == "return" {
			if v := flowLastNamed(ret); v != nil && v.Type() != "label" {
				return v
			}
			return nil
		}
		body = ret // Kotlin: function_body > statements > return
	}
	return nil
}

// javaNamed is javaFlow's named: a name, a field of this or of a class of
// the file, or a call of one of the file's methods without arguments.
func javaNamed(f *File, n *sitter.Node) *sitter.Node {
	switch n.Type() {
	case "identifier":
		return javaConsts(f)[f.Text(n)]
	case "field_access":
		if c := javaConsts(f); javaOwnObject(f, c, n.ChildByFieldName("object")) {
			return c[f.Text(n.ChildByFieldName("field"))]
		}
	case "method_invocation":
		c := javaConsts(f)
		obj := n.ChildByFieldName("object")
		if args := n.ChildByFieldName("arguments"); args == nil || args.NamedChildCount() != 0 || obj != nil && !javaOwnObject(f, c, obj) {
			return nil
		}
		return c[f.Text(n.ChildByFieldName("name"))+callKey]
	}
	return nil
}

// javaOwnObject reports this, or the name of a class of the file.
func javaOwnObject(f *File, c map[string]*sitter.Node, obj *sitter.Node) bool {
	return obj != nil && (obj.Type() == "this" || obj.Type() == "identifier" && c[typeKey+f.Text(obj)] != nil)
}

func javaConsts(f *File) map[string]*sitter.Node {
	return namedConsts(f, staticConstSrc, func(n *sitter.Node) ([]string, *sitter.Node) {
		name := func(field string) []string {
			if c := n.ChildByFieldName(field); c != nil && c.Type() == "identifier" {
				return []string{f.Text(c)}
			}
			return nil
		}
		switch n.Type() {
		case "variable_declarator":
			var value *sitter.Node
			if p := n.Parent(); p != nil {
				switch p.Type() {
				case "local_variable_declaration", "constant_declaration":
					value = n.ChildByFieldName("value")
				case "field_declaration":
					// A final field, or a private one no framework
					// injects into: nothing outside the file sets it.
					if words, annotated := modifierWords(f, p); words["final"] || words["private"] && !annotated {
						value = n.ChildByFieldName("value")
					}
				}
			}
			return name("name"), value
		case "formal_parameter", "catch_formal_parameter", "enhanced_for_statement", "resource", "instanceof_expression":
			return name("name"), nil
		case "lambda_expression":
			return name("parameters"), nil
		case "inferred_parameters", "type_pattern", "record_pattern_component":
			var names []string
			for _, c := range namedChildren(n) {
				if c.Type() == "identifier" {
					names = append(names, f.Text(c))
				}
			}
			return names, nil
		case "assignment_expression", "update_expression":
			target := n.ChildByFieldName("left")
			if target == nil {
				target = flowFirstNamed(n)
			}
			if target != nil && target.Type() == "field_access" {
				target = target.ChildByFieldName("field")
			}
			if target != nil && target.Type() == "identifier" {
				return []string{f.Text(target)}, nil
			}
		case "method_declaration":
			var value *sitter.Node
			words, _ := modifierWords(f, n)
			if params := n.ChildByFieldName("parameters"); params != nil && params.NamedChildCount() == 0 && (words["private"] || words["static"] || words["final"]) {
				value = onlyReturn(n.ChildByFieldName("body"))
			}
			if m := name("name"); m != nil {
				return []string{m[0] + callKey}, value
			}
		case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration":
			if t := name("name"); t != nil {
				return []string{typeKey + t[0]}, n
			}
		}
		return nil, nil
	})
}

// kotlinNamed is kotlinFlow's named: a val, a property of this or of a
// class or object of the file, or a call of one of the file's functions
// without arguments.
func kotlinNamed(f *File, n *sitter.Node) *sitter.Node {
	switch n.Type() {
	case "simple_identifier":
		return kotlinConsts(f)[f.Text(n)]
	case "navigation_expression":
		c := kotlinConsts(f)
		if recv, suffix := flowFirstNamed(n), flowLastNamed(n); kotlinOwnReceiver(f, c, recv) && suffix != nil && suffix.Type() == "navigation_suffix" {
			return c[f.Text(flowLastNamed(suffix))]
		}
	case "call_expression":
		c := kotlinConsts(f)
		if n.NamedChildCount() != 2 {
			return nil
		}
		callee, suffix := n.NamedChild(0), n.NamedChild(1)
		if suffix.Type() != "call_suffix" || suffix.NamedChildCount() != 1 || suffix.NamedChild(0).Type() != "value_arguments" || suffix.NamedChild(0).NamedChildCount() != 0 {
			return nil
		}
		if callee.Type() == "navigation_expression" {
			recv, nav := flowFirstNamed(callee), flowLastNamed(callee)
			if !kotlinOwnReceiver(f, c, recv) || nav == nil || nav.Type() != "navigation_suffix" {
				return nil
			}
			callee = flowLastNamed(nav)
		}
		if callee != nil && callee.Type() == "simple_identifier" {
			return c[f.Text(callee)+callKey]
		}
	}
	return nil
}

// kotlinOwnReceiver reports this, or the name of a class or object of the
// file.
func kotlinOwnReceiver(f *File, c map[string]*sitter.Node, recv *sitter.Node) bool {
	return recv != nil && (recv.Type() == "this_expression" || recv.Type() == "simple_identifier" && c[typeKey+f.Text(recv)] != nil)
}

// kotlinOverridable are the modifiers that let a subclass, a delegate or
// an initializer give a member another value.
var kotlinOverridable = []string{"open", "abstract", "override", "lateinit", "expect", "external"}

func kotlinConsts(f *File) map[string]*sitter.Node {
	return namedConsts(f, staticConstSrc, func(n *sitter.Node) ([]string, *sitter.Node) {
		ident := func(n *sitter.Node) []string {
			var names []string
			for _, c := range namedChildren(n) {
				if c.Type() == "simple_identifier" {
					names = append(names, f.Text(c))
				}
			}
			return names
		}
		switch n.Type() {
		case "variable_declaration":
			var value *sitter.Node
			if p := n.Parent(); p != nil && p.Type() == "property_declaration" && kotlinFixed(f, p) {
				value = afterEquals(p)
			}
			return ident(n), value
		case "parameter", "class_parameter", "catch_block":
			return ident(n), nil
		case "assignment", "postfix_expression", "prefix_expression":
			if t := flowFirstNamed(n); t != nil && t.Type() == "directly_assignable_expression" {
				return ident(t), nil
			}
			if op := f.Text(n); n.Type() != "assignment" && (strings.Contains(op, "++") || strings.Contains(op, "--")) {
				if t := flowFirstNamed(n); t != nil && t.Type() == "simple_identifier" {
					return []string{f.Text(t)}, nil
				}
			}
		case "function_declaration":
			names := ident(n)
			if len(names) != 1 {
				return nil, nil
			}
			var value *sitter.Node
			if kotlinFinalFunction(f, n) {
				for _, c := range namedChildren(n) {
					if c.Type() != "function_body" {
						continue
					}
					if value = onlyReturn(c); value == nil && c.ChildCount() > 0 && c.Child(0).Type() == "=" {
						value = flowLastNamed(c)
					}
				}
			}
			return []string{names[0] + callKey}, value
		case "class_declaration", "object_declaration":
			for _, c := range namedChildren(n) {
				if c.Type() == "type_identifier" {
					return []string{typeKey + f.Text(c)}, n
				}
			}
		}
		return nil, nil
	})
}

// kotlinFixed reports a val with its value in place: not a var, not
// overridable, with no getter or delegate to compute another.
func kotlinFixed(f *File, prop *sitter.Node) bool {
	words, _ := modifierWords(f, prop)
	for _, w := range kotlinOverridable {
		if words[w] {
			return false
		}
	}
	val := false
	for _, c := range namedChildren(prop) {
		switch c.Type() {
		case "binding_pattern_kind":
			val = strings.TrimSpace(f.Text(c)) == "val"
		case "getter", "setter", "property_delegate":
			return false
		}
	}
	return val
}

// kotlinFinalFunction reports a function without parameters that no
// subclass overrides: not open, abstract or an override, and not a
// member of an interface, whose functions are open.
func kotlinFinalFunction(f *File, fn *sitter.Node) bool {
	words, _ := modifierWords(f, fn)
	for _, w := range kotlinOverridable {
		if words[w] {
			return false
		}
	}
	for _, c := range namedChildren(fn) {
		if c.Type() == "function_value_parameters" && c.NamedChildCount() != 0 {
			return false
		}
		if c.Type() == "user_type" && c.NextSibling() != nil && c.NextSibling().Type() == "." {
			return false // an extension function, called on a receiver
		}
	}
	if body := fn.Parent(); body != nil && body.Type() == "class_body" {
		if cl := body.Parent(); cl != nil && cl.Type() == "class_declaration" && cl.ChildCount() > 0 {
			for i := 0; i < int(cl.ChildCount()); i++ {
				if cl.Child(i).Type() == "interface" {
					return false
				}
			}
		}
	}
	return true
}

// csharpNamed is csharpFlow's named: a name, a member of this or of a type
// of the file, or a call of one of the file's methods without arguments.
func csharpNamed(f *File, n *sitter.Node) *sitter.Node {
	switch n.Type() {
	case "identifier":
		return csharpConsts(f)[f.Text(n)]
	case "member_access_expression":
		if c := csharpConsts(f); csharpOwnObject(f, c, n.ChildByFieldName("expression")) {
			return c[f.Text(n.ChildByFieldName("name"))]
		}
	case "invocation_expression":
		c := csharpConsts(f)
		if args := n.ChildByFieldName("arguments"); args == nil || args.NamedChildCount() != 0 {
			return nil
		}
		fn := n.ChildByFieldName("function")
		if fn != nil && fn.Type() == "member_access_expression" {
			if !csharpOwnObject(f, c, fn.ChildByFieldName("expression")) {
				return nil
			}
			fn = fn.ChildByFieldName("name")
		}
		if fn != nil && fn.Type() == "identifier" {
			return c[f.Text(fn)+callKey]
		}
	}
	return nil
}

// csharpOwnObject reports this, or the name of a type of the file.
func csharpOwnObject(f *File, c map[string]*sitter.Node, obj *sitter.Node) bool {
	return obj != nil && (obj.Type() == "this" || obj.Type() == "identifier" && c[typeKey+f.Text(obj)] != nil)
}

// csharpVirtual are the modifiers that let another declaration give a
// member another value.
var csharpVirtual = []string{"virtual", "override", "abstract", "extern", "partial"}

func csharpConsts(f *File) map[string]*sitter.Node {
	return namedConsts(f, staticConstSrc, func(n *sitter.Node) ([]string, *sitter.Node) {
		name := func(field string) []string {
			if c := n.ChildByFieldName(field); c != nil && c.Type() == "identifier" {
				return []string{f.Text(c)}
			}
			return nil
		}
		idents := func() []string {
			var names []string
			for _, c := range namedChildren(n) {
				if c.Type() == "identifier" {
					names = append(names, f.Text(c))
				}
			}
			return names
		}
		switch n.Type() {
		case "variable_declarator":
			var value *sitter.Node
			if decl := n.Parent(); decl != nil && decl.Type() == "variable_declaration" {
				if holder := decl.Parent(); holder != nil {
					switch holder.Type() {
					case "local_declaration_statement":
						value = afterEquals(n)
					case "field_declaration":
						// A const or readonly field: no other code sets it.
						if words, _ := modifierWords(f, holder); words["const"] || words["readonly"] {
							value = afterEquals(n)
						}
					}
				}
			}
			return name("name"), value
		case "parameter", "catch_declaration", "declaration_expression", "tuple_element":
			return name("name"), nil
		case "foreach_statement":
			if l := n.ChildByFieldName("left"); l != nil && l.Type() == "identifier" {
				return []string{f.Text(l)}, nil
			}
		case "implicit_parameter":
			return []string{f.Text(n)}, nil
		case "declaration_pattern", "var_pattern", "parenthesized_variable_designation", "from_clause", "let_clause", "lambda_expression":
			return idents(), nil
		case "assignment_expression", "postfix_unary_expression", "prefix_unary_expression":
			target := n.ChildByFieldName("left")
			if target == nil {
				target = flowFirstNamed(n)
			}
			if target != nil && target.Type() == "member_access_expression" {
				target = target.ChildByFieldName("name")
			}
			if target != nil && target.Type() == "identifier" && (n.Type() == "assignment_expression" || strings.Contains(f.Text(n), "++") || strings.Contains(f.Text(n), "--")) {
				return []string{f.Text(target)}, nil
			}
		case "property_declaration":
			// static bool Off => true: a property that computes a constant.
			var value *sitter.Node
			if words, _ := modifierWords(f, n); !csharpAny(words, csharpVirtual) {
				if v := n.ChildByFieldName("value"); v != nil && v.Type() == "arrow_expression_clause" {
					value = flowLastNamed(v)
				}
			}
			return name("name"), value
		case "method_declaration", "local_function_statement":
			var value *sitter.Node
			words, _ := modifierWords(f, n)
			params := n.ChildByFieldName("parameters")
			inInterface := n.Parent() != nil && n.Parent().Parent() != nil && n.Parent().Parent().Type() == "interface_declaration"
			if params != nil && params.NamedChildCount() == 0 && !csharpAny(words, csharpVirtual) && !inInterface {
				if body := n.ChildByFieldName("body"); body != nil && body.Type() == "arrow_expression_clause" {
					value = flowLastNamed(body)
				} else {
					value = onlyReturn(body)
				}
			}
			if m := name("name"); m != nil {
				return []string{m[0] + callKey}, value
			}
		case "class_declaration", "struct_declaration", "record_declaration", "interface_declaration", "enum_declaration":
			if t := name("name"); t != nil {
				return []string{typeKey + t[0]}, n
			}
		}
		return nil, nil
	})
}

func csharpAny(words map[string]bool, of []string) bool {
	for _, w := range of {
		if words[w] {
			return true
		}
	}
	return false
}
