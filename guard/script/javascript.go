package script

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Refs that name no API: a Bun file object, the global object, a member
// fetched by a computed name.
const (
	jsBunFile = "\x00bunfile"
	jsGlobal  = "\x00global"
	jsDynamic = "\x00dynamic"
)

type jsReader struct {
	treeReader
}

func readJS(r *scriptRun, src string, ts bool) error {
	b := []byte(src)
	// A script with types parses with the TypeScript grammar; plain
	// JavaScript tries its own first, and the other where it fails.
	grammars := []string{"javascript", "typescript"}
	if ts {
		grammars[0], grammars[1] = grammars[1], grammars[0]
	}
	var root *tnode
	var hasErr bool
	for _, g := range grammars {
		t, e, err := r.parse(g, b)
		if err != nil {
			r.add(Effect{Kind: "exec", API: "javascript"})
			return err
		}
		if root == nil || !e {
			root, hasErr = t, e
		}
		if !e {
			break
		}
	}
	p := &jsReader{treeReader: newTreeReader(r, b)}
	root.walk(p.bind)
	root.walk(p.visit)
	if hasErr {
		return ErrSyntax
	}
	return nil
}

func (p *jsReader) dirty(n *tnode) {
	n.walk(func(x *tnode) {
		switch x.typ {
		case "identifier", "shorthand_property_identifier_pattern":
			if x.parent != nil && (x.parent.typ == "member_expression" || x.parent.typ == "subscript_expression") {
				return
			}
			p.set(p.text(x), &binding{dirty: true})
		}
	})
}

// bind records imports, declarations and assignments of one value.
func (p *jsReader) bind(n *tnode) {
	switch n.typ {
	case "import_statement":
		srcNode := n.child("source")
		if srcNode == nil {
			return
		}
		m := jsCanonModule(p.str(srcNode).s)
		for _, cl := range n.namedKids() {
			if cl.typ != "import_clause" {
				continue
			}
			for _, k := range cl.namedKids() {
				switch k.typ {
				case "identifier":
					p.set(p.text(k), &binding{ref: m})
				case "namespace_import":
					for _, id := range k.namedKids() {
						p.set(p.text(id), &binding{ref: m})
					}
				case "named_imports":
					for _, spec := range k.namedKids() {
						if spec.typ != "import_specifier" {
							continue
						}
						name := p.text(spec.child("name"))
						alias := name
						if a := spec.child("alias"); a != nil {
							alias = p.text(a)
						}
						p.set(alias, &binding{ref: m + "." + strings.Trim(name, `"'`)})
					}
				}
			}
		}
	case "variable_declarator":
		name, value := n.child("name"), n.child("value")
		switch {
		case name == nil:
		case name.typ == "identifier" && value != nil:
			p.set(p.text(name), &binding{node: value})
		case name.typ == "identifier":
		case name.typ == "object_pattern" && value != nil:
			for _, k := range name.namedKids() {
				switch k.typ {
				case "shorthand_property_identifier_pattern":
					p.set(p.text(k), &binding{node: value, member: p.text(k)})
				case "pair_pattern":
					if v := k.child("value"); v != nil && v.typ == "identifier" {
						p.set(p.text(v), &binding{node: value, member: strings.Trim(p.text(k.child("key")), `"'`)})
					} else {
						p.dirty(k.child("value"))
					}
				default:
					p.dirty(k)
				}
			}
		default:
			p.dirty(name)
		}
	case "assignment_expression":
		left, right := n.child("left"), n.child("right")
		if left != nil && left.typ == "identifier" {
			p.set(p.text(left), &binding{node: right})
		} else if left != nil && left.typ != "member_expression" && left.typ != "subscript_expression" {
			p.dirty(left)
		}
	case "augmented_assignment_expression":
		p.dirty(n.child("left"))
	case "update_expression":
		p.dirty(n.child("argument"))
	case "formal_parameters", "catch_clause":
		for _, k := range n.namedKids() {
			if k.typ != "statement_block" {
				p.dirty(k)
			}
		}
	case "arrow_function":
		p.dirty(n.child("parameter"))
	case "for_in_statement":
		p.dirty(n.child("left"))
	case "function_declaration", "class_declaration", "generator_function_declaration":
		p.dirty(n.child("name"))
	}
}

// lookup evaluates a bare name.
func (p *jsReader) lookup(name string) sval {
	if strings.Contains(name, `\u`) {
		// An escaped name is the name it spells; read it as anything.
		return sval{s: Hole, ref: jsDynamic}
	}
	b, ok := p.binds[name]
	if !ok {
		if jsGlobals[name] {
			return sval{s: Hole, ref: jsCanon(name)}
		}
		return unknownVal
	}
	switch {
	case b.dirty:
		return unknownVal
	case b.ref != "":
		return sval{s: Hole, ref: b.ref}
	}
	return b.value(func(n *tnode) sval {
		v := p.eval(n)
		if b.member != "" {
			v = p.member(v, lit(b.member))
		}
		return v
	})
}

// member is obj[key] or obj.key as a value.
func (p *jsReader) member(obj, key sval) sval {
	k, known := key.str()
	switch {
	case obj.ref == jsGlobal:
		if !known {
			return sval{s: Hole, ref: jsDynamic}
		}
		return p.lookup(k)
	case obj.ref == jsDynamic:
		return obj
	case obj.obj != nil:
		if v, ok := obj.obj[k]; ok && known {
			return v
		}
		return unknownVal
	case obj.ref == "process.env":
		if known && k == "HOME" {
			return lit("~")
		}
		if known {
			return sval{s: "$" + k}
		}
		return unknownVal
	case obj.ref == jsBunFile:
		return unknownVal
	case obj.ref != "":
		if !known {
			return sval{s: Hole, ref: jsDynamic}
		}
		if obj.ref == "child_process" && k == "default" {
			return obj
		}
		return sval{s: Hole, ref: jsCanon(obj.ref + "." + k)}
	}
	return unknownVal
}

// eval computes an expression's value as far as literals allow.
func (p *jsReader) eval(n *tnode) sval {
	if n == nil {
		return unknownVal
	}
	switch n.typ {
	case "string", "template_string":
		return p.str(n)
	case "parenthesized_expression", "await_expression", "as_expression", "non_null_expression", "satisfies_expression", "type_assertion":
		if k := n.namedKids(); len(k) > 0 {
			return p.eval(k[0])
		}
	case "true":
		return sval{truth: 1}
	case "false", "null", "undefined":
		return sval{truth: -1}
	case "number":
		if t := p.text(n); t == "0" {
			return sval{truth: -1}
		}
		return sval{truth: 1}
	case "unary_expression":
		if p.text(n.child("operator")) == "!" {
			v := p.eval(n.child("argument"))
			return sval{truth: -v.truth}
		}
	case "array":
		var items []sval
		for _, k := range n.namedKids() {
			if k.typ == "spread_element" {
				items = append(items, unknownVal)
				continue
			}
			if k.typ != "comment" {
				items = append(items, p.eval(k))
			}
		}
		return listVal(items)
	case "object":
		o := sval{obj: map[string]sval{}}
		for _, k := range n.namedKids() {
			switch k.typ {
			case "pair":
				key := k.child("key")
				name := p.text(key)
				if key.typ == "string" {
					name = p.str(key).s
				}
				o.obj[name] = p.eval(k.child("value"))
			case "shorthand_property_identifier":
				o.obj[p.text(k)] = p.lookup(p.text(k))
			case "spread_element":
				o.s = Hole // fields may come from elsewhere
			}
		}
		return o
	case "identifier":
		return p.lookup(p.text(n))
	case "member_expression":
		return p.member(p.eval(n.child("object")), lit(p.text(n.child("property"))))
	case "subscript_expression":
		obj := p.eval(n.child("object"))
		idx := n.child("index")
		if obj.isList {
			if i, err := strconv.Atoi(p.text(idx)); err == nil && i >= 0 && i < len(obj.list) {
				return obj.list[i]
			}
			return unknownVal
		}
		return p.member(obj, p.eval(idx))
	case "binary_expression":
		if p.text(n.child("operator")) == "+" {
			return concat(p.eval(n.child("left")), p.eval(n.child("right")))
		}
	case "call_expression":
		return p.callValue(n)
	}
	return unknownVal
}

// callValue is the value a call returns where it matters.
func (p *jsReader) callValue(n *tnode) sval {
	api, recv, c := p.resolveCall(n)
	switch api {
	case "require", "import":
		if v := c.at(0); v.known && v.isStr() {
			return sval{s: Hole, ref: jsCanonModule(v.s)}
		}
	case "path.join", "path.resolve", "path.posix.join", "path.posix.resolve":
		return pathJoin(c.args)
	case "os.homedir":
		return lit("~")
	case "String", "path.normalize":
		return c.at(0)
	case "str.concat":
		out := recv
		for _, a := range c.args {
			out = concat(out, a)
		}
		return out
	case "array.join":
		sep := lit(",")
		if v, ok := c.arg(0, ""); ok {
			sep = v
		}
		return joinVals(recv, sep)
	case "Bun.file":
		v := c.at(0)
		return sval{s: v.s, known: v.known && v.isStr(), ref: jsBunFile}
	case "eval", "Function", "vm.runInThisContext", "vm.runInNewContext", "vm.runInContext", "vm.compileFunction":
		// What evaluated code returns may be anything: eval('require').
		return sval{s: Hole, ref: jsDynamic}
	}
	return unknownVal
}

// resolveCall names a call's function and computes its arguments.
func (p *jsReader) resolveCall(n *tnode) (string, sval, *scall) {
	fn := n.child("function")
	if fn == nil {
		fn = n.child("constructor")
	}
	var api string
	var recv sval
	if fn != nil && fn.typ == "import" {
		api = "import"
	} else if fn != nil && fn.typ == "member_expression" {
		obj := p.eval(fn.child("object"))
		prop := p.text(fn.child("property"))
		switch {
		case obj.isList:
			api, recv = "array."+prop, obj
		case obj.isStr() && obj.known:
			api, recv = "str."+prop, obj
		case obj.ref == jsBunFile:
			api, recv = "Bun.file."+prop, obj
		case prop == "constructor":
			api = "Function" // [].map.constructor is Function
		default:
			api = p.member(obj, lit(prop)).ref
		}
	} else {
		api = p.eval(fn).ref
	}
	c := &scall{api: api}
	args := n.child("arguments")
	if args != nil && args.typ == "template_string" {
		// A tagged template: Bun's $ quotes each substitution as one word.
		c.args = []sval{p.shellTemplate(args)}
		return api, recv, c
	}
	for _, a := range args.namedKids() {
		switch a.typ {
		case "spread_element":
			c.spread = true
		case "comment":
		default:
			c.args = append(c.args, p.eval(a))
			c.texts = append(c.texts, p.text(a))
		}
	}
	c.recv = recv
	return api, recv, c
}

// visit finds the effects.
func (p *jsReader) visit(n *tnode) {
	switch n.typ {
	case "call_expression", "new_expression":
		api, recv, c := p.resolveCall(n)
		switch {
		case api == "":
			return
		case api == jsDynamic:
			p.r.add(Effect{Kind: "exec", API: p.text(n.child("function"))})
			return
		case api == "Bun.file.text" || api == "Bun.file.json" || api == "Bun.file.arrayBuffer" || api == "Bun.file.bytes" || api == "Bun.file.stream":
			p.r.add(Effect{Kind: "read", Args: []string{recv.s}, Known: recv.known, API: "Bun.file"})
			return
		case api == "Bun.file.delete" || api == "Bun.file.unlink":
			p.r.add(Effect{Kind: "remove", Args: []string{recv.s}, Known: recv.known, API: "Bun.file"})
			return
		case api == "Bun.file.write" || api == "Bun.file.writer":
			p.r.add(Effect{Kind: "write", Args: []string{recv.s}, Known: recv.known, API: "Bun.file"})
			return
		case api == "Bun.file":
			return // read where its contents are taken, written by Bun.write
		case api == "require" || api == "import":
			p.moduleUse(n, c)
		}
		if fn, ok := jsTable().lookup(api); ok {
			for _, e := range fn(c) {
				p.r.add(e)
			}
			if api == "eval" || api == "Function" || strings.HasPrefix(api, "vm.") {
				p.evalArgs(api, c)
			}
		}
	case "identifier", "member_expression", "subscript_expression":
		if !p.isMention(n) {
			return
		}
		v := p.eval(n)
		if v.ref == "" || v.ref == jsGlobal {
			return
		}
		if v.ref == jsDynamic {
			p.r.add(Effect{Kind: "exec", API: p.text(n)})
			return
		}
		if fn, ok := jsTable().lookup(v.ref); ok && v.ref != "require" {
			es := fn(&scall{api: v.ref, spread: true})
			kind := "exec"
			if len(es) > 0 {
				kind = es[0].Kind
			}
			p.r.add(Effect{Kind: kind, Shell: len(es) > 0 && es[0].Shell, API: v.ref})
		} else if jsExecModules[v.ref] {
			p.r.add(Effect{Kind: "exec", API: v.ref})
		}
	}
}

// moduleUse flags a module that runs code loaded where its use cannot be
// followed: import('child_process').then(…), f(require('vm')).
func (p *jsReader) moduleUse(n *tnode, c *scall) {
	v := c.at(0)
	if !v.known || !jsExecModules[jsCanonModule(v.s)] {
		return
	}
	par := n.parent
	for par != nil && (par.typ == "await_expression" || par.typ == "parenthesized_expression") {
		par = par.parent
	}
	if par == nil {
		return
	}
	switch {
	case par.typ == "variable_declarator" || par.typ == "assignment_expression" && par.child("left").typ == "identifier":
		return
	case par.typ == "member_expression" || par.typ == "subscript_expression":
		if prop := par.child("property"); prop != nil && p.text(prop) == "then" {
			break
		}
		return
	case par.typ == "expression_statement":
		return
	}
	p.r.add(Effect{Kind: "exec", API: jsCanonModule(v.s)})
}

// evalArgs reads literal code given to eval, Function and vm.
func (p *jsReader) evalArgs(api string, c *scall) {
	var code []string
	args := c.args
	if api == "Function" && len(args) > 0 {
		args = args[len(args)-1:] // the body; the others are parameter names
	}
	for _, a := range args {
		if a.known && a.isStr() {
			if api == "Function" {
				a.s = "(function () {" + a.s + "\n})"
			}
			code = append(code, a.s)
		}
	}
	for _, s := range code {
		if err := p.r.read("javascript", s, api); err != nil {
			p.r.add(Effect{Kind: "exec", API: api})
		}
	}
}

// isMention reports a name used as a value without being called.
func (p *jsReader) isMention(n *tnode) bool {
	par := n.parent
	if par == nil {
		return false
	}
	switch par.typ {
	case "member_expression", "subscript_expression":
		return false // the outermost decides
	case "call_expression", "new_expression":
		return n.field != "function" && n.field != "constructor"
	case "variable_declarator":
		if n.field != "value" {
			return false
		}
		if name := par.child("name"); name != nil && name.typ == "identifier" {
			if b := p.binds[p.text(name)]; b != nil && !b.dirty {
				return false
			}
		}
		if name := par.child("name"); name != nil && name.typ == "object_pattern" {
			return false
		}
	case "assignment_expression":
		if n.field == "left" {
			return false
		}
		if l := par.child("left"); l != nil && l.typ == "identifier" {
			if b := p.binds[p.text(l)]; b != nil && !b.dirty {
				return false
			}
		}
	case "import_specifier", "import_clause", "namespace_import", "formal_parameters", "arrow_function", "function_declaration", "pair_pattern", "object_pattern", "array_pattern", "catch_clause", "labeled_statement", "break_statement", "continue_statement", "shorthand_property_identifier_pattern", "class_declaration", "method_definition":
		return false
	}
	return n.typ != "identifier" || p.binds[p.text(n)] != nil || jsGlobals[p.text(n)] || strings.Contains(p.text(n), `\u`)
}

// str decodes a string or template literal; a template's substitutions
// are computed where they are literal.
func (p *jsReader) str(n *tnode) sval {
	out := lit("")
	for _, k := range n.kids {
		switch k.typ {
		case "string_fragment":
			out.s += p.text(k)
		case "escape_sequence":
			d, ok := jsUnescape(p.text(k))
			out.s += d
			out.known = out.known && ok
		case "template_substitution":
			var expr *tnode
			if ks := k.namedKids(); len(ks) == 1 {
				expr = ks[0]
			}
			out = concat(out, p.eval(expr))
		}
	}
	return out
}

// shellTemplate renders Bun's $`…`: each substitution is one word, quoted.
func (p *jsReader) shellTemplate(n *tnode) sval {
	out := lit("")
	for _, k := range n.kids {
		switch k.typ {
		case "string_fragment":
			out.s += p.text(k)
		case "escape_sequence":
			d, ok := jsUnescape(p.text(k))
			out.s += d
			out.known = out.known && ok
		case "template_substitution":
			var v sval = unknownVal
			if ks := k.namedKids(); len(ks) == 1 {
				v = p.eval(ks[0])
			}
			if s, ok := v.str(); ok {
				out.s += "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
			} else {
				out = concat(out, unknownVal)
			}
		}
	}
	return out
}

// jsUnescape decodes one escape sequence.
func jsUnescape(e string) (string, bool) {
	if len(e) < 2 {
		return e, true
	}
	switch e[1] {
	case 'n':
		return "\n", true
	case 't':
		return "\t", true
	case 'r':
		return "\r", true
	case 'b':
		return "\b", true
	case 'f':
		return "\f", true
	case 'v':
		return "\v", true
	case '0':
		if len(e) == 2 {
			return "\x00", true
		}
	case '\n', '\r':
		return "", true
	case 'x', 'u':
		h := strings.Trim(e[2:], "{}")
		v, err := strconv.ParseUint(h, 16, 32)
		if err != nil || !utf8.ValidRune(rune(v)) {
			return Hole, false
		}
		return string(rune(v)), true
	}
	if e[1] >= '1' && e[1] <= '7' {
		return Hole, false // legacy octal
	}
	return e[1:], true
}
