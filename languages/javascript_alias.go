package languages

import (
	"regexp"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// jsAliasSrc finds, cheaply and before any tree walk, whether a file gives
// a test or describe function another name: picked by a condition (const
// describeIf = hasDB ? describe : describe.skip), taken as it is (const
// group = describe.skip, var test = global.test.skip), or destructured
// (const { skip: group } = describe).
var jsAliasSrc = regexp.MustCompile(`\b[A-Za-z_$][\w$]*\s*=\s*[^;\n]*?\?\s*\(?\s*(?:describe|context|suite|it|test|specify|xdescribe|xit)\b` +
	`|(?:\b[A-Za-z_$][\w$]*|\})\s*=\s*(?:(?:global|globalThis|window|self)\s*\.\s*)?(?:describe|context|suite|it|test|specify|xdescribe|xit|fdescribe|fit)\b`)

// jsAlias is what a name stands for: an expression, and the property taken
// from it when the name was destructured out of it.
type jsAlias struct {
	node *sitter.Node
	prop string
}

// jsAliases maps each name given a test or describe function to what it
// is given, so that a call of the name reads as a call of the function:
// the tests it declares are counted, and switched off when it is. A name
// given twice is not one function: it maps to nil.
func jsAliases(f *File) map[string]*jsAlias {
	if !jsAliasSrc.Match(f.Src) {
		return nil
	}
	out := map[string]*jsAlias{}
	add := func(name string, a *jsAlias) {
		if _, seen := out[name]; seen {
			out[name] = nil
		} else {
			out[name] = a
		}
	}
	// testish says the expression reads as a test or describe function.
	testish := func(n *sitter.Node) bool {
		r := jsCalleeOf(f, n, 1)
		return r.ok && (jsTestFns[r.chain[0]] || jsDescribeFns[r.chain[0]])
	}
	var walk func(n *sitter.Node, depth int)
	walk = func(n *sitter.Node, depth int) {
		if depth > 64 {
			return
		}
		if n.Type() == "variable_declarator" || n.Type() == "assignment_expression" {
			name, value := n.ChildByFieldName("name"), n.ChildByFieldName("value")
			if n.Type() == "assignment_expression" {
				name, value = n.ChildByFieldName("left"), n.ChildByFieldName("right")
			}
			switch {
			case name == nil || value == nil:
			case name.Type() == "identifier" && testish(value):
				add(f.Text(name), &jsAlias{node: value})
			case name.Type() == "object_pattern" && testish(value):
				for _, p := range namedChildren(name) {
					switch p.Type() {
					case "shorthand_property_identifier_pattern":
						add(f.Text(p), &jsAlias{node: value, prop: f.Text(p)})
					case "pair_pattern":
						k, v := p.ChildByFieldName("key"), p.ChildByFieldName("value")
						if k != nil && v != nil && v.Type() == "identifier" {
							add(f.Text(v), &jsAlias{node: value, prop: strings.Trim(f.Text(k), `"'`)})
						}
					}
				}
			}
		}
		for _, c := range namedChildren(n) {
			walk(c, depth+1)
		}
	}
	walk(f.Root, 0)
	return out
}

// jsAliasCallee reads the call of a name given a test or describe
// function as a call of that function; ok is false when the name is given
// more than one.
func jsAliasCallee(f *File, a *jsAlias) jsCallee {
	if a == nil {
		return jsCallee{}
	}
	r := jsCalleeOf(f, a.node, 1)
	if r.ok && a.prop != "" {
		r.chain = append(r.chain, a.prop)
		r.applied = false
	}
	return r
}

// jsUncalled returns the spans of the file's top-level functions that
// nothing calls: declared, not exported, and never named again in the
// file. The tests such a function would register never are.
func jsUncalled(f *File) []rangeSpan {
	if !strings.Contains(string(f.Src), "function") {
		return nil
	}
	var out []rangeSpan
	for _, st := range namedChildren(f.Root) {
		if st.Type() != "function_declaration" && st.Type() != "generator_function_declaration" {
			continue
		}
		name := st.ChildByFieldName("name")
		if name == nil {
			continue
		}
		if len(regexp.MustCompile(`(?:^|[^\w$])`+regexp.QuoteMeta(f.Text(name))+`(?:[^\w$]|$)`).FindAllIndex(f.Src, 2)) == 1 {
			out = append(out, rangeSpan{st.StartByte(), st.EndByte()})
		}
	}
	return out
}
