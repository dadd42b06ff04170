package languages

import (
	"regexp"

	sitter "github.com/smacker/go-tree-sitter"
)

// jsAliasSrc finds, cheaply and before any tree walk, the names given a
// test or describe function picked by a condition:
// const describeIf = hasDB ? describe : describe.skip.
var jsAliasSrc = regexp.MustCompile(`\b([A-Za-z_$][\w$]*)\s*=\s*[^;\n]*?\?\s*\(?\s*(?:describe|context|suite|it|test|specify|xdescribe|xit)\b`)

// jsAliases maps each such name to the expression it is given, so that a
// call of the name reads as a call of the expression: the tests it
// declares are counted, active unless the condition is constant.
func jsAliases(f *File) map[string]*sitter.Node {
	ms := jsAliasSrc.FindAllSubmatch(f.Src, -1)
	if len(ms) == 0 {
		return nil
	}
	names := map[string]bool{}
	for _, m := range ms {
		names[string(m[1])] = true
	}
	out := map[string]*sitter.Node{}
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
			if name != nil && value != nil && name.Type() == "identifier" && names[f.Text(name)] {
				// A name given twice is not one function: leave it out.
				if _, seen := out[f.Text(name)]; seen {
					out[f.Text(name)] = nil
				} else {
					out[f.Text(name)] = value
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
