package languages

import (
	"regexp"

	sitter "github.com/smacker/go-tree-sitter"
)

// A test switched off through a name (`QUARANTINE = true` and then
// `skip if QUARANTINE`, `const SKIP = true` and then `(SKIP ? it.skip :
// it)(…)`) is as switched off as one under `if true`. Go and Python read
// their named constants in their own evaluators; this file finds Ruby's
// and JavaScript's for the shared one. A name counts only when the file
// binds it exactly once, to anything: bound again (reassigned, shadowed,
// `||=`), it is a variable the evaluator cannot know.

// rubyConstSrc and jsConstSrc find, before any tree walk, whether a file
// binds a name the evaluator may take for a constant.
var (
	rubyConstSrc = regexp.MustCompile(`(?m)(?:^|[^\w:.])[A-Z]\w*\s*=[^=~>]`)
	jsConstSrc   = regexp.MustCompile(`\bconst\s+[A-Za-z_$][\w$]*\s*=`)
)

// rubyNamed is rubyFlow's named: a constant (`QUARANTINE`) assigned once
// in the file.
func rubyNamed(f *File, n *sitter.Node) *sitter.Node {
	if n.Type() != "constant" {
		return nil
	}
	return namedConsts(f, rubyConstSrc, func(n *sitter.Node) ([]string, *sitter.Node) {
		switch n.Type() {
		case "assignment":
			if left := n.ChildByFieldName("left"); left != nil && left.Type() == "constant" {
				return []string{f.Text(left)}, n.ChildByFieldName("right")
			}
		case "operator_assignment":
			if left := n.ChildByFieldName("left"); left != nil && left.Type() == "constant" {
				return []string{f.Text(left)}, nil
			}
		}
		return nil, nil
	})[f.Text(n)]
}

// jsNamed is jsFlow's named: a name declared once in the file, by a
// `const` of a single value; any other binding of it (let, var, an
// assignment, a parameter of that name) leaves it out.
func jsNamed(f *File, n *sitter.Node) *sitter.Node {
	if n.Type() != "identifier" {
		return nil
	}
	return namedConsts(f, jsConstSrc, func(n *sitter.Node) ([]string, *sitter.Node) {
		switch n.Type() {
		case "variable_declarator":
			name := n.ChildByFieldName("name")
			if name == nil || name.Type() != "identifier" {
				return nil, nil
			}
			if p := n.Parent(); p != nil && p.Type() == "lexical_declaration" && p.ChildCount() > 0 && p.Child(0).Type() == "const" {
				return []string{f.Text(name)}, n.ChildByFieldName("value")
			}
			return []string{f.Text(name)}, nil
		case "assignment_expression", "augmented_assignment_expression":
			if left := n.ChildByFieldName("left"); left != nil && left.Type() == "identifier" {
				return []string{f.Text(left)}, nil
			}
		case "arrow_function":
			if p := n.ChildByFieldName("parameter"); p != nil && p.Type() == "identifier" {
				return []string{f.Text(p)}, nil
			}
		case "formal_parameters":
			var names []string
			for _, p := range namedChildren(n) {
				if p.Type() == "identifier" {
					names = append(names, f.Text(p))
				}
			}
			return names, nil
		}
		return nil, nil
	})[f.Text(n)]
}

// namedConsts maps each name the file binds exactly once, with a value, to
// that value, as bind reads each node: the names it binds, with the value
// when it binds one name to a value a constant may be. The map is made once per file; a file
// whose text binds no such name is not walked.
func namedConsts(f *File, src *regexp.Regexp, bind func(n *sitter.Node) ([]string, *sitter.Node)) map[string]*sitter.Node {
	if f.consts != nil {
		return f.consts
	}
	f.consts = map[string]*sitter.Node{}
	if !src.Match(f.Src) {
		return f.consts
	}
	seen := map[string]int{}
	values := map[string]*sitter.Node{}
	var walk func(n *sitter.Node, depth int)
	walk = func(n *sitter.Node, depth int) {
		if depth > 256 {
			// Too deep to read every binding: a name may be bound again
			// below, so none is known.
			seen[""] = -1
			return
		}
		names, value := bind(n)
		for _, name := range names {
			seen[name]++
			values[name] = value
		}
		for _, c := range namedChildren(n) {
			walk(c, depth+1)
		}
	}
	walk(f.Root, 0)
	if seen[""] < 0 {
		return f.consts
	}
	for name, k := range seen {
		if k == 1 && values[name] != nil {
			f.consts[name] = values[name]
		}
	}
	return f.consts
}
