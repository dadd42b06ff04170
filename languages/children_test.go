package languages

import (
	"context"
	"path"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// TestNamedChildrenMatchesNamedChild holds the one-walk listing of a
// node's named children to tree-sitter's own NamedChild(i), on every node
// of every sample of every language.
func TestNamedChildrenMatchesNamedChild(t *testing.T) {
	nodes := 0
	for _, l := range All() {
		for _, s := range l.Samples {
			grammar, ok := l.Grammars[path.Ext(s.Path)]
			if !ok {
				continue
			}
			p := sitter.NewParser()
			p.SetLanguage(grammar())
			tree, err := p.ParseCtx(context.Background(), nil, []byte(s.Source))
			if err != nil {
				t.Fatal(err)
			}
			var walk func(n *sitter.Node)
			walk = func(n *sitter.Node) {
				nodes++
				got := namedChildren(n)
				if len(got) != int(n.NamedChildCount()) {
					t.Fatalf("%s %s: %s has %d named children, the walk found %d", l.Name, s.Path, n.Type(), n.NamedChildCount(), len(got))
				}
				for i, k := range got {
					if want := n.NamedChild(i); !k.Equal(want) {
						t.Fatalf("%s %s: child %d of %s is %s, the walk found %s", l.Name, s.Path, i, n.Type(), want.Type(), k.Type())
					}
					walk(k)
				}
			}
			walk(tree.RootNode())
			tree.Close()
			p.Close()
		}
	}
	if nodes < 10000 {
		t.Fatalf("only %d nodes walked", nodes)
	}
}
