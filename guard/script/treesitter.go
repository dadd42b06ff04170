//go:build !sentinel_front

package script

import (
	"context"
	"fmt"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/php"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/ruby"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// grammar returns the tree-sitter grammar of a name parse takes.
func grammar(name string) *sitter.Language {
	switch name {
	case "javascript":
		return javascript.GetLanguage()
	case "typescript":
		return typescript.GetLanguage()
	case "python":
		return python.GetLanguage()
	case "ruby":
		return ruby.GetLanguage()
	case "php":
		return php.GetLanguage()
	}
	return nil
}

// scriptParsers are the parsers of one Effects call, one per
// grammar, reused by the code that eval of a literal string brings in.
type scriptParsers struct {
	parsers map[string]*sitter.Parser
	types   map[string]map[sitter.Symbol]string
}

func (ps *scriptParsers) close() {
	for _, p := range ps.parsers {
		p.Close()
	}
}

func (ps *scriptParsers) parse(name string, src []byte) (root *tnode, hasError bool, err error) {
	lang := grammar(name)
	if lang == nil {
		return nil, true, fmt.Errorf("no grammar named %q", name)
	}
	if ps.parsers == nil {
		ps.parsers = map[string]*sitter.Parser{}
		ps.types = map[string]map[sitter.Symbol]string{}
	}
	p := ps.parsers[name]
	if p == nil {
		p = sitter.NewParser()
		p.SetLanguage(lang)
		p.SetOperationLimit(int(scriptParseTimeout.Microseconds()))
		ps.parsers[name] = p
		ps.types[name] = map[sitter.Symbol]string{}
	}
	tree, err := p.ParseCtx(context.Background(), nil, src)
	if err != nil {
		p.Reset()
		return nil, true, fmt.Errorf("parse: %w", err)
	}
	defer tree.Close()
	types := ps.types[name]
	cur := sitter.NewTreeCursor(tree.RootNode())
	defer cur.Close()
	mk := func(field string) *tnode {
		n := cur.CurrentNode()
		sym := n.Symbol()
		typ, ok := types[sym]
		if !ok {
			typ = n.Type()
			types[sym] = typ
		}
		return &tnode{typ: typ, field: field, named: n.IsNamed(), start: n.StartByte(), end: n.EndByte()}
	}
	top := mk("")
	hasError = tree.RootNode().HasError()
	stack := []*tnode{top}
	attach := func() {
		n := mk(cur.CurrentFieldName())
		parent := stack[len(stack)-1]
		n.parent = parent
		parent.kids = append(parent.kids, n)
		stack = append(stack, n)
	}
	for {
		if cur.GoToFirstChild() {
			attach()
			continue
		}
		for {
			if len(stack) == 1 {
				return top, hasError, nil
			}
			stack = stack[:len(stack)-1]
			if cur.GoToNextSibling() {
				attach()
				break
			}
			cur.GoToParent()
		}
	}
}
