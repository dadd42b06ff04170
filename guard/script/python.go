package script

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Refs that name no API: a path object, the builtins' namespace, a name
// spelled outside ASCII, a module computed at run time.
const (
	pyPathObj   = "\x00path"
	pyNamespace = "\x00namespace"
	pyNonASCII  = "\x00nonascii"
	pyDynamic   = "\x00dynamic"
)

type pyReader struct {
	treeReader
	stars []string
}

func readPython(r *scriptRun, src string) error {
	p := &pyReader{treeReader: newTreeReader(r, []byte(src))}
	return readTree(r, "python", p.src, p.bind, p.visit)
}

func (p *pyReader) bindRef(name, ref string) {
	p.set(name, &binding{ref: ref})
}

func (p *pyReader) bindExpr(name string, n *tnode) {
	p.set(name, &binding{node: n})
}

func (p *pyReader) dirty(n *tnode) {
	n.walk(func(x *tnode) {
		if x.typ == "identifier" {
			p.unset(p.text(x))
		}
	})
}

// bind records what names are bound to: imports, assignments of one
// value, and every other binding as not computed.
func (p *pyReader) bind(n *tnode) {
	switch n.typ {
	case "import_statement":
		for _, k := range n.kids {
			switch k.typ {
			case "dotted_name":
				first := p.text(k.namedKids()[0])
				p.bindRef(first, first)
			case "aliased_import":
				p.bindRef(p.text(k.child("alias")), p.text(k.child("name")))
			}
		}
	case "import_from_statement":
		mod := n.child("module_name")
		if mod == nil || mod.typ != "dotted_name" {
			p.dirty(n)
			return
		}
		m := p.text(mod)
		for _, k := range n.kids {
			if k == mod {
				continue
			}
			switch k.typ {
			case "dotted_name":
				p.bindRef(p.text(k), m+"."+p.text(k))
			case "aliased_import":
				p.bindRef(p.text(k.child("alias")), m+"."+p.text(k.child("name")))
			case "wildcard_import":
				p.stars = append(p.stars, m)
			}
		}
	case "assignment":
		left, right := n.child("left"), n.child("right")
		for right != nil && right.typ == "assignment" {
			right = right.child("right")
		}
		if left != nil && left.typ == "identifier" && right != nil && n.parent != nil && n.parent.typ != "assignment" {
			p.bindExpr(p.text(left), right)
		} else if left != nil && left.typ != "identifier" {
			p.dirty(left)
		} else if left != nil && n.parent != nil && n.parent.typ == "assignment" {
			p.dirty(left)
		}
	case "named_expression":
		if name := n.child("name"); name != nil {
			p.bindExpr(p.text(name), n.child("value"))
		}
	case "augmented_assignment", "for_statement", "for_in_clause":
		p.dirty(n.child("left"))
	case "as_pattern_target", "global_statement", "nonlocal_statement", "delete_statement", "case_pattern":
		p.dirty(n)
	case "function_definition", "class_definition":
		p.dirty(n.child("name"))
	case "parameters", "lambda_parameters":
		for _, k := range n.namedKids() {
			switch k.typ {
			case "identifier":
				p.dirty(k)
			case "default_parameter", "typed_default_parameter":
				p.dirty(k.child("name"))
			case "typed_parameter", "list_splat_pattern", "dictionary_splat_pattern":
				for _, kk := range k.namedKids() {
					if kk.typ == "identifier" {
						p.dirty(kk)
					}
				}
			}
		}
	}
}

// lookup evaluates a bare name.
func (p *pyReader) lookup(name string) sval {
	b, ok := p.binds[name]
	if !ok {
		for _, m := range p.stars {
			if _, known := pyTable().lookup(pyCanon(m + "." + name)); known {
				return sval{s: Hole, ref: pyCanon(m + "." + name)}
			}
		}
		if pyBuiltins[name] {
			return sval{s: Hole, ref: pyCanon(name)}
		}
		if !isASCIIIdent(name) {
			// Python folds identifiers to NFKC: ｅｘｅｃ is exec.
			return sval{s: Hole, ref: pyNonASCII}
		}
		return unknownVal
	}
	switch {
	case b.dirty:
		return unknownVal
	case b.ref != "":
		return sval{s: Hole, ref: pyCanon(b.ref)}
	}
	return b.value(p.eval)
}

// eval computes an expression's value as far as literals allow.
func (p *pyReader) eval(n *tnode) sval {
	if n == nil {
		return unknownVal
	}
	switch n.typ {
	case "string":
		return p.str(n)
	case "concatenated_string":
		out := lit("")
		for _, k := range n.namedKids() {
			out = concat(out, p.eval(k))
		}
		return out
	case "parenthesized_expression":
		if k := n.namedKids(); len(k) == 1 {
			return p.eval(k[0])
		}
	case "true":
		return sval{truth: 1}
	case "false", "none":
		return sval{truth: -1}
	case "integer":
		if p.text(n) == "0" {
			return sval{truth: -1}
		}
		return sval{truth: 1}
	case "list", "tuple":
		var items []sval
		for _, k := range n.namedKids() {
			if k.typ == "list_splat" {
				items = append(items, unknownVal)
				continue
			}
			items = append(items, p.eval(k))
		}
		return listVal(items)
	case "identifier":
		return p.lookup(p.text(n))
	case "attribute":
		obj := p.eval(n.child("object"))
		attr := p.text(n.child("attribute"))
		return p.attr(obj, attr)
	case "binary_operator":
		l, r := p.eval(n.child("left")), p.eval(n.child("right"))
		switch p.text(n.child("operator")) {
		case "+":
			if l.isList && r.isList {
				return listVal(append(append([]sval(nil), l.list...), r.list...))
			}
			return concat(l, r)
		case "/":
			if l.ref == pyPathObj {
				j := pathJoin([]sval{{s: l.s, known: l.known}, pyPathArg(r)})
				return sval{s: j.s, known: j.known, ref: pyPathObj}
			}
		}
	case "subscript":
		return p.subscript(n)
	case "call":
		return p.callValue(n)
	}
	return unknownVal
}

// attr is obj.attr as a value: a module's member, or an environment
// lookup.
func (p *pyReader) attr(obj sval, attr string) sval {
	switch {
	case obj.ref == pyNonASCII || obj.ref == pyDynamic:
		return obj
	case obj.ref == pyNamespace:
		if attr == "__dict__" {
			return obj
		}
		return p.lookupGlobal(attr)
	case obj.ref == pyPathObj || obj.isStr():
		return unknownVal
	case obj.ref != "":
		if !isASCIIIdent(attr) {
			return sval{s: Hole, ref: pyNonASCII}
		}
		return sval{s: Hole, ref: pyCanon(obj.ref + "." + attr)}
	}
	return unknownVal
}

// subscript reads os.environ['HOME'], sys.modules['os'],
// module.__dict__['name'] and a list's element.
func (p *pyReader) subscript(n *tnode) sval {
	obj := p.eval(n.child("value"))
	key := p.eval(n.child("subscript"))
	switch {
	case obj.ref == "os.environ":
		return envValue(key)
	case obj.ref == "sys.modules":
		if key.known && key.isStr() {
			return sval{s: Hole, ref: pyCanon(key.s)}
		}
		return sval{s: Hole, ref: pyDynamic}
	case strings.HasSuffix(obj.ref, ".__dict__") || obj.ref == "__dict__" || obj.ref == pyNamespace:
		base := strings.TrimSuffix(strings.TrimSuffix(obj.ref, "__dict__"), ".")
		if base == pyNamespace {
			base = ""
		}
		if key.known && key.isStr() {
			if base == "" {
				return p.lookupGlobal(key.s)
			}
			return sval{s: Hole, ref: pyCanon(base + "." + key.s)}
		}
		return sval{s: Hole, ref: pyDynamic}
	case obj.isList:
		if i, err := strconv.Atoi(p.text(n.child("subscript"))); err == nil && i >= 0 && i < len(obj.list) {
			return obj.list[i]
		}
	}
	return unknownVal
}

// lookupGlobal is globals()['name']: a builtin, or a name of the script.
func (p *pyReader) lookupGlobal(name string) sval {
	if name == "__builtins__" {
		return sval{s: Hole, ref: pyNamespace}
	}
	return p.lookup(name)
}

// pyPathArg reads a path argument, which may be a path object.
func pyPathArg(v sval) sval {
	if v.ref == pyPathObj {
		return sval{s: v.s, known: v.known}
	}
	return v
}

// callValue is the value a call returns, where it matters: a path object,
// a joined path or string, a module, a function fetched by name.
func (p *pyReader) callValue(n *tnode) sval {
	api, recv, c := p.resolveCall(n)
	switch api {
	case "pathlib.Path":
		var parts []sval
		for _, a := range c.args {
			parts = append(parts, pyPathArg(a))
		}
		if len(parts) == 0 {
			parts = []sval{lit(".")}
		}
		j := pathJoin(parts)
		return sval{s: j.s, known: j.known && !c.spread, ref: pyPathObj}
	case "pathlib.Path.home":
		return sval{s: "~", known: true, ref: pyPathObj}
	case "pathlib.Path.expanduser", "pathlib.Path.resolve", "pathlib.Path.absolute", "pathlib.Path.joinpath":
		if api == "pathlib.Path.joinpath" {
			parts := []sval{{s: recv.s, known: recv.known}}
			for _, a := range c.args {
				parts = append(parts, pyPathArg(a))
			}
			j := pathJoin(parts)
			return sval{s: j.s, known: j.known, ref: pyPathObj}
		}
		return recv
	case "os.path.join":
		var parts []sval
		for _, a := range c.args {
			parts = append(parts, pyPathArg(a))
		}
		return pathJoin(parts)
	case "os.path.expanduser", "os.path.abspath", "os.path.realpath", "os.path.normpath", "str", "os.fspath", "bytes", "os.fsencode", "os.fsdecode":
		return pyPathArg(c.at(0))
	case "os.getenv", "os.environ.get":
		return envValue(c.at(0))
	case "os.path.expandvars":
		return unknownVal
	case "os.getcwd":
		return lit(".")
	case "str.join":
		return joinVals(c.at(0), recv)
	case "shlex.split":
		v := c.at(0)
		return sval{s: v.s, known: v.known, words: true}
	case "__import__", "importlib.import_module":
		if v := c.at(0); v.known && v.isStr() {
			return sval{s: Hole, ref: pyCanon(v.s)}
		}
	case "getattr":
		obj, name := c.at(0), c.at(1)
		if name.known && name.isStr() {
			return p.attr(obj, name.s)
		}
	case "globals", "locals":
		return sval{s: Hole, ref: pyNamespace}
	case "eval", "exec", "compile", "execfile":
		// What evaluated code returns may be anything: eval('os').
		return sval{s: Hole, ref: pyDynamic}
	case "vars":
		if v := c.at(0); v.ref != "" {
			return sval{s: Hole, ref: v.ref + ".__dict__"}
		}
		return sval{s: Hole, ref: pyNamespace}
	}
	return unknownVal
}

// resolveCall names a call's function and computes its arguments.
func (p *pyReader) resolveCall(n *tnode) (string, sval, *scall) {
	fn := n.child("function")
	var api string
	var recv sval
	if fn != nil && fn.typ == "attribute" {
		obj := p.eval(fn.child("object"))
		attr := p.text(fn.child("attribute"))
		switch {
		case obj.ref == pyPathObj:
			api, recv = "pathlib.Path."+attr, obj
		case obj.isStr() && obj.known:
			api, recv = "str."+attr, obj
		default:
			api = p.attr(obj, attr).ref
		}
	} else {
		api = p.eval(fn).ref
	}
	c := &scall{api: api, kw: map[string]sval{}}
	if args := n.child("arguments"); args != nil && args.typ == "argument_list" {
		for _, a := range args.namedKids() {
			switch a.typ {
			case "keyword_argument":
				c.kw[p.text(a.child("name"))] = p.eval(a.child("value"))
			case "list_splat", "dictionary_splat":
				c.spread = true
			case "comment":
			default:
				c.args = append(c.args, p.eval(a))
				c.texts = append(c.texts, p.text(a))
			}
		}
	} else if args != nil {
		// f(x for x in y): one generator argument.
		c.args = append(c.args, unknownVal)
	}
	c.recv = recv
	return api, recv, c
}

// visit finds the effects: calls of the table's APIs, and the table's
// functions handed around without being called.
func (p *pyReader) visit(n *tnode) {
	switch n.typ {
	case "call":
		api, _, c := p.resolveCall(n)
		if api == "" {
			return
		}
		if api == pyNonASCII || api == pyDynamic || api == pyNamespace {
			p.r.add(Effect{Kind: "exec", API: p.text(n.child("function"))})
			return
		}
		if fn, ok := pyTable().lookup(api); ok {
			for _, e := range fn(c) {
				if e.API == "" {
					e.API = api
				}
				p.r.add(e)
			}
			if api == "eval" || api == "exec" || api == "compile" || api == "execfile" {
				if v := c.at(0); v.known && v.isStr() {
					if err := p.r.read("python", v.s, api); err != nil {
						p.r.add(Effect{Kind: "exec", API: api})
					}
				}
			}
		}
	case "identifier", "attribute":
		if !p.isMention(n) {
			return
		}
		v := p.eval(n)
		if v.ref == "" {
			return
		}
		if v.ref == pyNonASCII {
			p.r.add(Effect{Kind: "exec", API: p.text(n)})
			return
		}
		if _, ok := pyTable().lookup(v.ref); ok {
			p.r.add(Effect{Kind: pyKindOf(v.ref), API: v.ref})
		}
	}
}

// isMention reports a name used as a value that is not called: a
// function handed to map(), an alias bound more than once.
func (p *pyReader) isMention(n *tnode) bool {
	par := n.parent
	if par == nil {
		return false
	}
	switch par.typ {
	case "attribute":
		return false // the outermost attribute decides
	case "call":
		return n.field != "function"
	case "import_statement", "import_from_statement", "dotted_name", "aliased_import", "keyword_argument",
		"function_definition", "class_definition", "parameters", "default_parameter", "global_statement":
		if par.typ == "keyword_argument" {
			return n.field == "value"
		}
		return false
	case "assignment":
		if n.field == "left" {
			return false
		}
		if l := par.child("left"); l != nil && l.typ == "identifier" {
			if b := p.binds[p.text(l)]; b != nil && !b.dirty {
				return false // the alias is followed where it is called
			}
		}
	}
	return true
}

// str decodes a Python string literal; an f-string's holes are computed
// where they are literal.
func (p *pyReader) str(n *tnode) sval {
	prefix := ""
	for _, k := range n.kids {
		if k.typ == "string_start" {
			prefix = strings.ToLower(strings.TrimRight(p.text(k), `"'`))
		}
	}
	raw := strings.Contains(prefix, "r")
	out := lit("")
	for _, k := range n.kids {
		switch k.typ {
		case "string_content":
			pos := k.start
			for _, e := range k.kids {
				out.s += string(p.src[pos:e.start])
				switch {
				case e.typ == "escape_interpolation":
					out.s += p.text(e)[:1]
				case raw:
					out.s += p.text(e)
				default:
					d, ok := pyUnescape(p.text(e))
					out.s += d
					out.known = out.known && ok
				}
				pos = e.end
			}
			out.s += string(p.src[pos:k.end])
		case "interpolation":
			expr := k.child("expression")
			if k.child("type_conversion") != nil || k.child("format_specifier") != nil {
				out = concat(out, unknownVal)
				continue
			}
			out = concat(out, p.eval(expr))
		}
	}
	return out
}

// pyUnescape decodes one escape sequence.
func pyUnescape(e string) (string, bool) {
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
	case '\\', '\'', '"':
		return e[1:2], true
	case 'a':
		return "\a", true
	case 'b':
		return "\b", true
	case 'f':
		return "\f", true
	case 'v':
		return "\v", true
	case '\n':
		return "", true
	case 'x', 'u', 'U':
		v, err := strconv.ParseUint(e[2:], 16, 32)
		if err != nil {
			return Hole, false
		}
		if e[1] == 'x' && v < 0x100 {
			return string([]byte{byte(v)}), true
		}
		if !utf8.ValidRune(rune(v)) {
			return Hole, false
		}
		return string(rune(v)), true
	case '0', '1', '2', '3', '4', '5', '6', '7':
		v, err := strconv.ParseUint(e[1:], 8, 16)
		if err != nil || v > 0xff {
			return Hole, false
		}
		return string([]byte{byte(v)}), true
	}
	return Hole, false
}
