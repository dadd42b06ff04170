package script

// The parts every tree-sitter reader shares (Python, JavaScript and
// TypeScript, Ruby, PHP): the run it adds effects to, the source, and what
// each name of the script is bound to.

// binding is what a name is bound to in a script: the one expression
// assigned to it, or an import, or nothing the reader can compute (bound
// more than once, or in a way it does not follow).
type binding struct {
	node   *tnode // the expression assigned, once
	member string // for a destructuring const {member: name} = node
	ref    string // a module or function imported under the name
	dirty  bool   // bound more than once, or in a way not computed
	state  int    // 0 not evaluated, 1 evaluating, 2 done
	val    sval
}

// value is the binding's expression evaluated once, with eval; a name
// whose value needs itself is not computed.
func (b *binding) value(eval func(*tnode) sval) sval {
	switch b.state {
	case 1:
		return unknownVal
	case 0:
		b.state = 1
		b.val = eval(b.node)
		b.state = 2
	}
	return b.val
}

// treeReader is the base of a tree-sitter reader.
type treeReader struct {
	r     *scriptRun
	src   []byte
	binds map[string]*binding
}

func newTreeReader(r *scriptRun, src []byte) treeReader {
	return treeReader{r: r, src: src, binds: map[string]*binding{}}
}

// text is a node's source.
func (t *treeReader) text(n *tnode) string {
	if n == nil {
		return ""
	}
	return string(t.src[n.start:n.end])
}

// set binds name; a second binding makes it not computed, unless both
// import the same thing.
func (t *treeReader) set(name string, b *binding) {
	if old, ok := t.binds[name]; ok {
		if !(b.ref != "" && old.ref == b.ref) {
			old.dirty = true
		}
		return
	}
	t.binds[name] = b
}

// unset marks name as bound in a way the reader does not compute.
func (t *treeReader) unset(name string) {
	t.set(name, &binding{dirty: true})
}

// readTree parses src with the named grammar and runs a reader's two
// passes over the tree: bind, which records what names are bound to, then
// visit, which adds the effects. Code that does not parse whole is read as
// far as it goes and returns ErrSyntax; code that does not parse at all is
// an exec of the language.
func readTree(r *scriptRun, grammar string, src []byte, bind, visit func(*tnode)) error {
	root, hasErr, err := r.parse(grammar, src)
	if err != nil {
		r.add(Effect{Kind: "exec", API: grammar})
		return err
	}
	root.walk(bind)
	root.walk(visit)
	if hasErr {
		return ErrSyntax
	}
	return nil
}

// envValue is the value of an environment variable the script reads: $HOME
// is ~, any other known name is itself as the shell writes it.
func envValue(key sval) sval {
	if key.known && key.isStr() {
		if key.s == "HOME" {
			return lit("~")
		}
		return sval{s: "$" + key.s}
	}
	return unknownVal
}
