package script

import (
	"strconv"
	"strings"
	"sync"
)

// phpMarkers is PHP's prefilter; function names are matched without case,
// so the source is lowered first.
var phpMarkers = []string{
	"system", "exec", "passthru", "popen", "proc_open", "`", "unlink", "rmdir", "file", "fopen", "readfile",
	"highlight", "show_source", "touch", "symlink", "link", "copy", "rename", "chmod", "chown", "chgrp", "eval",
	"assert", "create_function", "call_user_func", "array_", "usort", "include", "require", "$", "register_",
	"parse_ini", "iterator_apply",
}

// phpRules is what PHP calls do, each with its samples.
func phpRules() []scriptRule {
	return []scriptRule{
		{apis: []string{"system", "exec", "shell_exec", "passthru", "popen", "`", "expect_popen"},
			fn: shellAt(0, ""),
			samples: []scriptSample{
				{"system('rm -rf /');", []string{`exec sh "rm -rf /"`}},
				{"echo shell_exec(\"cat \" . '/etc/passwd');", []string{`exec sh "cat /etc/passwd"`}},
				{"$d = '/'; passthru(\"rm -rf $d\");", []string{`exec sh "rm -rf /"`}},
				{"exec('git push -f ' . $argv[1], $out);", []string{`exec sh ? "git push -f …"`}},
				{"echo `ls -la ~`;", []string{`exec sh "ls -la ~"`}},
				{"<?php\n$h = popen('id', 'r');", []string{`exec sh "id"`}},
				{"SYSTEM('reboot');", []string{`exec sh "reboot"`}},
				{"\\system(\"echo \\x41\");", []string{`exec sh "echo A"`}},
			}},
		{apis: []string{"proc_open"},
			fn: func(c *scall) []Effect {
				v := c.at(0)
				if v.isList {
					return []Effect{argvEffect(c.api, v.list)}
				}
				return shellAt(0, "")(c)
			},
			samples: []scriptSample{
				{"proc_open('rm -rf /', [], $p);", []string{`exec sh "rm -rf /"`}},
				{"proc_open(['git', 'clean', '-fdx'], [], $p);", []string{`exec "git" "clean" "-fdx"`}},
			}},
		{apis: []string{"pcntl_exec"},
			fn: func(c *scall) []Effect {
				args := []sval{c.at(0)}
				if a, ok := c.arg(1, ""); ok {
					if a.isList {
						args = append(args, a.list...)
					} else {
						args = append(args, unknownVal)
					}
				}
				return []Effect{argvEffect(c.api, args)}
			},
			samples: []scriptSample{
				{"pcntl_exec('/bin/rm', ['-rf', '/']);", []string{`exec "/bin/rm" "-rf" "/"`}},
			}},
		{apis: []string{"unlink", "rmdir"},
			fn: pathAt("remove", 0, ""),
			samples: []scriptSample{
				{"unlink('.env');", []string{`remove ".env"`}},
				{"rmdir(getenv('HOME') . '/.ssh');", []string{`remove "~/.ssh"`}},
				{"array_map('unlink', glob('*'));", []string{`remove ?`}},
			}},
		{apis: []string{"file_get_contents", "file", "readfile", "parse_ini_file", "highlight_file", "show_source", "php_strip_whitespace", "gzfile", "gzopen"},
			fn: pathAt("read", 0, ""),
			samples: []scriptSample{
				{"echo file_get_contents('/etc/shadow');", []string{`read "/etc/shadow"`}},
				{"$l = file(__DIR__ . '/.env');", []string{`read ? "…/.env"`}},
				{"readfile('id_rsa');", []string{`read "id_rsa"`}},
			}},
		{apis: []string{"fopen", "SplFileObject"},
			fn: func(c *scall) []Effect {
				mode, ok := c.arg(1, "")
				if !ok {
					return []Effect{pathEffect(c, "read", c.at(0))}
				}
				m, known := mode.str()
				if !known {
					e := pathEffect(c, "write", c.at(0))
					e.Known = false
					return []Effect{e}
				}
				var out []Effect
				if strings.ContainsRune(m, 'r') {
					out = append(out, pathEffect(c, "read", c.at(0)))
				}
				if strings.ContainsAny(m, "waxc+") {
					out = append(out, pathEffect(c, "write", c.at(0)))
				}
				return out
			},
			samples: []scriptSample{
				{"$f = fopen('.env', 'r');", []string{`read ".env"`}},
				{"$f = fopen('.git/config', 'w');", []string{`write ".git/config"`}},
			}},
		{apis: []string{"file_put_contents", "touch"},
			fn: pathAt("write", 0, ""),
			samples: []scriptSample{
				{"file_put_contents('.git/hooks/pre-commit', '');", []string{`write ".git/hooks/pre-commit"`}},
				{"touch('x');", []string{`write "x"`}},
			}},
		{apis: []string{"symlink", "link"},
			fn: pathAt("write", 1, ""),
			samples: []scriptSample{
				{"symlink('/etc/passwd', 'p');", []string{`write "p"`}},
			}},
		{apis: []string{"copy"},
			fn: copyFrom(0, 1),
			samples: []scriptSample{
				{"copy('.env', '/tmp/e');", []string{`read ".env"`, `write "/tmp/e"`}},
			}},
		{apis: []string{"rename"},
			fn: renameFrom(0, 1),
			samples: []scriptSample{
				{"rename('.git', '/tmp/g');", []string{`rename ".git" "/tmp/g"`}},
			}},
		{apis: []string{"chmod", "chown", "chgrp", "lchown", "lchgrp"},
			fn: pathAt("chmod", 0, ""),
			samples: []scriptSample{
				{"chmod('/etc/sudoers', 0777);", []string{`chmod "/etc/sudoers"`}},
			}},
		{apis: []string{"eval", "assert", "create_function"},
			fn: func(c *scall) []Effect {
				i := 0
				if c.api == "create_function" {
					i = 1
				}
				if v := c.at(i); v.known && v.isStr() {
					return nil
				}
				return unknownExec(c)
			},
			samples: []scriptSample{
				{"eval('system(\"id\");');", []string{`exec sh "id"`}},
				{"eval(base64_decode($x));", []string{`exec ?`}},
				{"$f = create_function('', $body);", []string{`exec ?`}},
			}},
		{apis: []string{"include", "require", "include_once", "require_once"},
			fn: func(c *scall) []Effect {
				if v := c.at(0); v.known {
					return nil
				}
				return unknownExec(c)
			},
			samples: []scriptSample{
				{"include $_GET['page'];", []string{`exec ?`}},
				{"require 'vendor/autoload.php';", nil},
			}},
	}
}

// phpExtraSamples are the samples no single rule covers.
var phpExtraSamples = []scriptSample{
	{"echo 'hello';", nil},
	{"echo json_encode(['a' => 1]);", nil},
	{"<?php echo PHP_VERSION;", nil},
	{"$x = 'system(\"rm -rf /\")'; echo $x;", nil},
	{"// system('rm -rf /');\necho 1;", nil},
	{"$f = 'sys' . 'tem'; $f('id');", []string{`exec sh "id"`}},
	{"$f($x);", []string{`exec ?`}},
	{"call_user_func('exec', 'reboot');", []string{`exec sh "reboot"`}},
	{"call_user_func_array('system', ['id']);", []string{`exec sh "id"`}},
	{"$p = '/tmp'; $p = '/'; system(\"rm -rf $p\");", []string{`exec sh ? "rm -rf …"`}},
	{"function f($p) { unlink($p); }", []string{`remove ? "…"`}},
	{"system('echo ' . escapeshellarg('a b'));", []string{`exec sh "echo 'a b'"`}},
	{"$c = <<<EOT\nrm -rf /\nEOT;\nsystem($c);", []string{`exec sh "rm -rf /"`}},
}

var phpTable = sync.OnceValue(func() *apiTable { return scriptTable(phpRules()) })

// phpCallbacks take a function's name as their first argument (or, for
// array_map, also as their first), and call it.
var phpCallbacks = map[string]int{"array_map": 0, "array_walk": 1, "array_filter": 1, "usort": 1, "uasort": 1, "uksort": 1,
	"array_reduce": 1, "register_shutdown_function": 0, "register_tick_function": 0, "iterator_apply": 1,
	"forward_static_call": 0, "forward_static_call_array": 0, "set_error_handler": 0, "set_exception_handler": 0,
	"spl_autoload_register": 0, "ob_start": 0, "array_walk_recursive": 1, "preg_replace_callback": 1}

type phpReader struct {
	treeReader
}

func readPHP(r *scriptRun, src string) error {
	if !strings.Contains(src, "<?") {
		// php -r code and eval'd code have no opening tag.
		src = "<?php " + src
	}
	p := &phpReader{treeReader: newTreeReader(r, []byte(src))}
	return readTree(r, "php", p.src, p.bind, p.visit)
}

func (p *phpReader) dirty(n *tnode) {
	n.walk(func(x *tnode) {
		if x.typ == "variable_name" {
			p.unset(p.text(x))
		}
	})
}

func (p *phpReader) bind(n *tnode) {
	switch n.typ {
	case "assignment_expression":
		left := n.child("left")
		if left != nil && left.typ == "variable_name" {
			p.set(p.text(left), &binding{node: n.child("right")})
		} else {
			p.dirty(left)
		}
	case "augmented_assignment_expression", "reference_assignment_expression":
		p.dirty(n.child("left"))
	case "update_expression", "formal_parameters", "foreach_statement", "global_declaration", "static_variable_declaration", "list_literal", "anonymous_function_use_clause":
		if n.typ == "foreach_statement" {
			for _, k := range n.namedKids()[1:] {
				if k.field != "body" {
					p.dirty(k)
				}
			}
			return
		}
		p.dirty(n)
	case "function_call_expression":
		// extract() and parse_str() set variables by name.
		if f := strings.ToLower(p.text(n.child("function"))); f == "extract" || f == "parse_str" {
			for _, b := range p.binds {
				b.dirty = true
			}
		}
	}
}

func (p *phpReader) lookup(name string) sval {
	b, ok := p.binds[name]
	if !ok || b.dirty {
		return unknownVal
	}
	return b.value(p.eval)
}

// eval computes an expression's value as far as literals allow.
func (p *phpReader) eval(n *tnode) sval {
	if n == nil {
		return unknownVal
	}
	switch n.typ {
	case "string", "encapsed_string", "heredoc", "nowdoc", "shell_command_expression":
		return p.str(n)
	case "parenthesized_expression", "argument":
		if k := n.namedKids(); len(k) == 1 {
			return p.eval(k[0])
		}
	case "boolean":
		if strings.EqualFold(p.text(n), "true") {
			return sval{truth: 1}
		}
		return sval{truth: -1}
	case "array_creation_expression":
		var items []sval
		for _, k := range n.namedKids() {
			ks := k.namedKids()
			switch {
			case len(ks) == 1 && k.typ == "array_element_initializer":
				items = append(items, p.eval(ks[0]))
			default:
				items = append(items, unknownVal)
			}
		}
		return listVal(items)
	case "variable_name":
		return p.lookup(p.text(n))
	case "binary_expression":
		if p.text(n.child("operator")) == "." {
			return concat(p.eval(n.child("left")), p.eval(n.child("right")))
		}
	case "function_call_expression":
		api := p.funcName(n.child("function"))
		c := p.args(api, n.child("arguments"))
		switch api {
		case "getenv":
			return envValue(c.at(0))
		case "implode", "join":
			return joinVals(c.at(1), c.at(0))
		case "escapeshellarg":
			if s, ok := c.at(0).str(); ok {
				return lit("'" + strings.ReplaceAll(s, "'", `'\''`) + "'")
			}
		case "strval", "trim":
			return c.at(0)
		}
	}
	return unknownVal
}

// funcName names a called function: PHP's names are not case sensitive
// and may be fully qualified.
func (p *phpReader) funcName(fn *tnode) string {
	if fn == nil {
		return ""
	}
	switch fn.typ {
	case "name", "qualified_name":
		return strings.ToLower(strings.TrimPrefix(p.text(fn), `\`))
	case "variable_name", "parenthesized_expression", "binary_expression", "encapsed_string", "string":
		v := p.eval(fn)
		if v.known && v.isStr() {
			return strings.ToLower(strings.TrimPrefix(v.s, `\`))
		}
		return "\x00dynamic"
	}
	return ""
}

func (p *phpReader) args(api string, args *tnode) *scall {
	c := &scall{api: api}
	for _, a := range args.namedKids() {
		if a.typ == "argument" {
			if ks := a.namedKids(); len(ks) > 0 && a.child("name") == nil {
				if strings.HasPrefix(p.text(a), "...") {
					c.spread = true
					continue
				}
				c.args = append(c.args, p.eval(ks[len(ks)-1]))
				continue
			}
			if name := a.child("name"); name != nil {
				if c.kw == nil {
					c.kw = map[string]sval{}
				}
				ks := a.namedKids()
				c.kw[p.text(name)] = p.eval(ks[len(ks)-1])
				continue
			}
		}
		if a.typ == "variadic_unpacking" {
			c.spread = true
			continue
		}
		c.args = append(c.args, p.eval(a))
	}
	return c
}

// visit finds the effects.
func (p *phpReader) visit(n *tnode) {
	switch n.typ {
	case "shell_command_expression":
		p.r.add(shellEffect("`", p.str(n)))
	case "include_expression", "include_once_expression", "require_expression", "require_once_expression":
		ks := n.namedKids()
		v := unknownVal
		if len(ks) > 0 {
			v = p.eval(ks[0])
		}
		if !v.known {
			p.r.add(Effect{Kind: "exec", API: strings.TrimSuffix(n.typ, "_expression")})
		}
	case "function_call_expression", "object_creation_expression":
		var api string
		var c *scall
		if n.typ == "object_creation_expression" {
			ks := n.namedKids()
			if len(ks) < 2 {
				return
			}
			api = strings.ToLower(strings.TrimPrefix(p.text(ks[0]), `\`))
			if api != "splfileobject" {
				return
			}
			api = "SplFileObject"
			c = p.args(api, ks[1])
		} else {
			api = p.funcName(n.child("function"))
			c = p.args(api, n.child("arguments"))
		}
		switch {
		case api == "":
			return
		case api == "\x00dynamic":
			p.r.add(Effect{Kind: "exec", API: p.text(n.child("function"))})
			return
		case api == "call_user_func" || api == "call_user_func_array":
			name := c.at(0)
			if !(name.known && name.isStr()) {
				p.r.add(Effect{Kind: "exec", API: api})
				return
			}
			rest := &scall{api: strings.ToLower(name.s), spread: c.spread}
			if len(c.args) > 1 {
				rest.args = c.args[1:]
				if api == "call_user_func_array" {
					rest.args = nil
					if a := c.args[1]; a.isList {
						rest.args = a.list
					} else {
						rest.spread = true
					}
				}
			}
			p.apply(rest.api, rest)
			return
		}
		if i, ok := phpCallbacks[api]; ok {
			// A callback named by a string is called with arguments
			// the guard does not follow.
			cb := c.at(i)
			if cb.known && cb.isStr() {
				name := strings.ToLower(cb.s)
				if fn, ok := phpTable().lookup(name); ok {
					es := fn(&scall{api: name, spread: true})
					if len(es) > 0 {
						p.r.add(Effect{Kind: es[0].Kind, Shell: es[0].Shell, API: name})
					}
				}
			}
			return
		}
		p.apply(api, c)
	}
}

func (p *phpReader) apply(api string, c *scall) {
	c.api = api
	fn, ok := phpTable().lookup(api)
	if !ok {
		return
	}
	for _, e := range fn(c) {
		p.r.add(e)
	}
	if api == "eval" || api == "assert" || api == "create_function" {
		i := 0
		if api == "create_function" {
			i = 1
		}
		if v := c.at(i); v.known && v.isStr() {
			if err := p.r.read("php", v.s, api); err != nil {
				p.r.add(Effect{Kind: "exec", API: api})
			}
		}
	}
}

// str decodes a PHP string, heredoc or backtick literal; its variables
// are computed where they are literal.
func (p *phpReader) str(n *tnode) sval {
	out := lit("")
	single := n.typ == "string" || n.typ == "nowdoc"
	var walk func(n *tnode)
	walk = func(n *tnode) {
		for _, k := range n.kids {
			switch k.typ {
			case "string_content", "nowdoc_string", "string_value":
				out.s += p.text(k)
			case "escape_sequence":
				e := p.text(k)
				if single {
					out.s += e[1:]
					continue
				}
				d, ok := phpUnescape(e)
				out.s += d
				out.known = out.known && ok
			case "heredoc_body", "nowdoc_body":
				walk(k)
			case "variable_name", "subscript_expression", "member_access_expression", "dynamic_variable_name":
				out = concat(out, p.eval(k))
			case "text_interpolation", "heredoc_start", "heredoc_end":
			default:
				if k.named && k.typ != "heredoc_start" {
					out = concat(out, unknownVal)
				}
			}
		}
	}
	walk(n)
	if n.typ == "heredoc" || n.typ == "nowdoc" {
		out.s = strings.TrimPrefix(strings.TrimSuffix(out.s, "\n"), "\n")
	}
	return out
}

// phpUnescape decodes one escape of a double-quoted string.
func phpUnescape(e string) (string, bool) {
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
	case 'v':
		return "\v", true
	case 'e':
		return "\x1b", true
	case 'f':
		return "\f", true
	case '\\', '$', '"':
		return e[1:2], true
	case 'x':
		v, err := strconv.ParseUint(e[2:], 16, 8)
		if err != nil {
			return Hole, false
		}
		return string([]byte{byte(v)}), true
	case 'u':
		v, err := strconv.ParseUint(strings.Trim(e[2:], "{}"), 16, 32)
		if err != nil {
			return Hole, false
		}
		return string(rune(v)), true
	case '0', '1', '2', '3', '4', '5', '6', '7':
		v, err := strconv.ParseUint(e[1:], 8, 16)
		if err != nil {
			return Hole, false
		}
		return string([]byte{byte(v)}), true
	}
	return e, true
}
