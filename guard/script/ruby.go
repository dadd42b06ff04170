package script

import (
	"strings"
	"sync"
)

// rbMarkers is Ruby's prefilter.
var rbMarkers = []string{
	"system", "exec", "spawn", "`", "%x", "popen", "Open3", "open", "File", "Dir", "IO", "Pathname",
	"delete", "unlink", "rm", "remove", "read", "write", "eval", "send", "method", "touch", "cp", "mv",
	"copy", "move", "rename", "chmod", "chown", "ln", "install", "symlink", "binding", "Process",
}

// rbRules is what Ruby calls do, each with its samples.
func rbRules() []scriptRule {
	return []scriptRule{
		{apis: []string{"system", "exec", "spawn", "Process.spawn", "Process.exec", "IO.popen", "Open3.capture2", "Open3.capture2e", "Open3.capture3",
			"Open3.popen2", "Open3.popen2e", "Open3.popen3", "Open3.pipeline", "Open3.pipeline_r", "Open3.pipeline_w", "Open3.pipeline_rw", "Open3.pipeline_start", "PTY.spawn"},
			fn: rbCommand,
			samples: []scriptSample{
				{`system "rm -rf /"`, []string{`exec sh "rm -rf /"`}},
				{`system("git", "push", "--force")`, []string{`exec "git" "push" "--force"`}},
				{`Kernel.exec({"A" => "1"}, "ls -l", chdir: "/")`, []string{`exec sh "ls -l"`}},
				{`d = "/"; system("rm -rf #{d}")`, []string{`exec sh "rm -rf /"`}},
				{`system("rm -rf #{ARGV[0]}")`, []string{`exec sh ? "rm -rf …"`}},
				{`require "open3"; out, st = Open3.capture2("git", "reset", "--hard")`, []string{`exec "git" "reset" "--hard"`}},
				{`IO.popen(["rm", "-r", "x"]).read`, []string{`exec "rm" "-r" "x"`}},
				{`IO.popen("cat ~/.netrc")`, []string{`exec sh "cat ~/.netrc"`}},
				{`spawn(["/bin/sh", "sh"], "-c", "id")`, []string{`exec "/bin/sh" "-c" "id"`}},
				{`require "shellwords"; system(*Shellwords.split("rm -rf /"))`, []string{`exec sh "rm -rf /"`}},
			}},
		{apis: []string{"`"},
			fn: shellAt(0, ""),
			samples: []scriptSample{
				{"puts `cat /etc/shadow`", []string{`exec sh "cat /etc/shadow"`}},
				{"x = %x(rm -rf #{dir})", []string{`exec sh ? "rm -rf …"`}},
			}},
		{apis: []string{"open", "IO.read", "IO.readlines", "IO.foreach", "IO.write", "IO.binread", "File.open", "File.new", "IO.sysopen", "URI.open"},
			fn: rbOpen,
			samples: []scriptSample{
				{`open("| rm -rf /")`, []string{`exec sh " rm -rf /"`}},
				{`puts File.open("/etc/passwd").read`, []string{`read "/etc/passwd"`}},
				{`File.open(".git/hooks/pre-commit", "w") { |f| f.puts "" }`, []string{`write ".git/hooks/pre-commit"`}},
				{`IO.read(".env")`, []string{`read ".env"`}},
				{`File.open("a", mode)`, []string{`write ? "a"`}},
			}},
		{apis: []string{"File.delete", "File.unlink", "FileUtils.rm", "FileUtils.rm_f", "FileUtils.remove", "FileUtils.remove_file", "FileUtils.safe_unlink", "FileUtils.rmdir", "Dir.rmdir", "Dir.delete", "Dir.unlink"},
			fn: eachPath("remove", 0, false),
			samples: []scriptSample{
				{`File.delete(".env")`, []string{`remove ".env"`}},
				{`require "fileutils"; FileUtils.rm(["a", "b"])`, []string{`remove "a"`, `remove "b"`}},
				{`Dir.rmdir(File.join(Dir.home, ".ssh"))`, []string{`remove "~/.ssh"`}},
			}},
		{apis: []string{"FileUtils.rm_r", "FileUtils.rm_rf", "FileUtils.rmtree", "FileUtils.remove_dir", "FileUtils.remove_entry", "FileUtils.remove_entry_secure"},
			fn: eachPath("remove", 0, true),
			samples: []scriptSample{
				{`require "fileutils"; FileUtils.rm_rf("/")`, []string{`remove -r "/"`}},
				{`FileUtils::rm_r Dir.home`, []string{`remove -r "~"`}},
				{`p = ENV["HOME"]; FileUtils.rm_rf(p, secure: true)`, []string{`remove -r "~"`}},
				{`FileUtils.rm_rf(Dir.glob("*"))`, []string{`remove -r ? "…"`}},
			}},
		{apis: []string{"Pathname.delete", "Pathname.unlink", "Pathname.rmdir"},
			fn: recvPath("remove", false),
			samples: []scriptSample{
				{`require "pathname"; Pathname.new(".env").delete`, []string{`remove ".env"`}},
			}},
		{apis: []string{"Pathname.rmtree"},
			fn: recvPath("remove", true),
			samples: []scriptSample{
				{`Pathname("/srv").rmtree`, []string{`remove -r "/srv"`}},
			}},
		{apis: []string{"File.read", "File.readlines", "File.foreach", "File.binread"},
			fn: pathAt("read", 0, ""),
			samples: []scriptSample{
				{`puts File.read(File.expand_path("~/.ssh/id_rsa"))`, []string{`read "~/.ssh/id_rsa"`}},
				{`File.readlines(".env").each { |l| puts l }`, []string{`read ".env"`}},
			}},
		{apis: []string{"Pathname.read", "Pathname.readlines", "Pathname.binread", "Pathname.each_line"},
			fn: recvPath("read", false),
			samples: []scriptSample{
				{`Pathname.new(Dir.home).join(".aws/credentials").read`, []string{`read "~/.aws/credentials"`}},
			}},
		{apis: []string{"File.write", "File.binwrite", "FileUtils.touch", "File.truncate"},
			fn: rbWrite,
			samples: []scriptSample{
				{`File.write(".git/HEAD", "x")`, []string{`write ".git/HEAD"`}},
				{`FileUtils.touch(%w[a b])`, []string{`write "a"`, `write "b"`}},
			}},
		{apis: []string{"Pathname.write", "Pathname.binwrite"},
			fn: recvPath("write", false),
			samples: []scriptSample{
				{`Pathname.new("a").write("x")`, []string{`write "a"`}},
			}},
		{apis: []string{"File.symlink", "File.link", "FileUtils.ln", "FileUtils.ln_s", "FileUtils.ln_sf"},
			fn: pathAt("write", 1, ""),
			samples: []scriptSample{
				{`File.symlink("/etc/passwd", "p")`, []string{`write "p"`}},
			}},
		{apis: []string{"FileUtils.cp", "FileUtils.copy", "FileUtils.cp_r", "FileUtils.copy_file", "FileUtils.copy_entry", "FileUtils.install", "IO.copy_stream"},
			fn: copyFrom(0, 1),
			samples: []scriptSample{
				{`FileUtils.cp("~/.ssh/id_rsa", "/tmp/k")`, []string{`read "~/.ssh/id_rsa"`, `write "/tmp/k"`}},
			}},
		{apis: []string{"FileUtils.mv", "FileUtils.move", "File.rename"},
			fn: renameFrom(0, 1),
			samples: []scriptSample{
				{`File.rename(".git", "g")`, []string{`rename ".git" "g"`}},
			}},
		{apis: []string{"File.chmod", "File.lchmod", "FileUtils.chmod", "FileUtils.chmod_R"},
			fn: eachPath("chmod", 1, false),
			samples: []scriptSample{
				{`File.chmod(0777, "/etc/sudoers")`, []string{`chmod "/etc/sudoers"`}},
			}},
		{apis: []string{"File.chown", "File.lchown", "FileUtils.chown", "FileUtils.chown_R"},
			fn: eachPath("chmod", 2, false),
			samples: []scriptSample{
				{`FileUtils.chown("root", nil, "x")`, []string{`chmod "x"`}},
			}},
		{apis: []string{"eval", "instance_eval", "class_eval", "module_eval", "binding.eval", "RubyVM::InstructionSequence.compile", "instance_exec"},
			fn: rbEval,
			samples: []scriptSample{
				{`eval("system('id')")`, []string{`exec sh "id"`}},
				{`eval(ARGV[0])`, []string{`exec ?`}},
				{`Object.new.instance_eval(code)`, []string{`exec ?`}},
			}},
		{apis: []string{"send", "public_send", "__send__"},
			fn: unknownExec,
			samples: []scriptSample{
				{`Kernel.send(:system, "reboot")`, []string{`exec sh "reboot"`}},
				{`FileUtils.public_send("rm_rf", "/")`, []string{`remove -r "/"`}},
				{`Kernel.send(m, "x")`, []string{`exec ?`}},
				{`method(:system).call("id")`, []string{`exec sh "id"`}},
			}},
	}
}

// rbExtraSamples are the samples no single rule covers.
var rbExtraSamples = []scriptSample{
	{`puts "hello"`, nil},
	{`puts Dir.pwd`, nil},
	{`puts ARGF.read.upcase`, nil},
	{`x = "system('rm -rf /')"; puts x`, nil},
	{"# system('rm -rf /')\nputs 1", nil},
	{`require "json"; puts JSON.pretty_generate(JSON.parse(STDIN.read))`, nil},
	{`p = "/tmp"; p = "/"; FileUtils.rm_rf(p)`, []string{`remove -r ? "…"`}},
	{`def go(x) system(x) end`, []string{`exec sh ? "…"`}},
	{`system 'echo \n'`, []string{`exec sh "echo \\n"`}},
	{`system "echo \t"`, []string{`exec sh "echo \t"`}},
}

var rbTable = sync.OnceValue(func() *apiTable { return scriptTable(rbRules()) })

// rbPathObj marks a Pathname value.
const rbPathObj = "\x00pathname"

type rbReader struct {
	treeReader
}

func readRuby(r *scriptRun, src string) error {
	p := &rbReader{treeReader: newTreeReader(r, []byte(src))}
	return readTree(r, "ruby", p.src, p.bind, p.visit)
}

func (p *rbReader) dirty(n *tnode) {
	n.walk(func(x *tnode) {
		switch x.typ {
		case "identifier", "instance_variable", "global_variable", "class_variable":
			p.unset(p.text(x))
		}
	})
}

func (p *rbReader) bind(n *tnode) {
	switch n.typ {
	case "assignment":
		left, right := n.child("left"), n.child("right")
		if left == nil {
			return
		}
		switch left.typ {
		case "identifier", "instance_variable", "global_variable", "class_variable", "constant":
			p.set(p.text(left), &binding{node: right})
		default:
			p.dirty(left)
		}
	case "operator_assignment":
		p.dirty(n.child("left"))
	case "method_parameters", "block_parameters", "lambda_parameters", "parameters":
		p.dirty(n)
	case "for":
		p.dirty(n.child("pattern"))
	case "exception_variable":
		p.dirty(n)
	}
}

func (p *rbReader) lookup(name string) sval {
	b, ok := p.binds[name]
	if !ok || b.dirty {
		return unknownVal
	}
	return b.value(p.eval)
}

// eval computes an expression's value as far as literals allow.
func (p *rbReader) eval(n *tnode) sval {
	if n == nil {
		return unknownVal
	}
	switch n.typ {
	case "string", "subshell", "bare_string", "heredoc_body":
		return p.str(n)
	case "simple_symbol":
		return lit(strings.TrimPrefix(p.text(n), ":"))
	case "hash_key_symbol":
		return lit(p.text(n))
	case "delimited_symbol":
		return p.str(n)
	case "parenthesized_statements":
		if k := n.namedKids(); len(k) == 1 {
			return p.eval(k[0])
		}
	case "true":
		return sval{truth: 1}
	case "false", "nil":
		return sval{truth: -1}
	case "array", "string_array", "symbol_array":
		var items []sval
		for _, k := range n.namedKids() {
			if k.typ == "splat_argument" {
				items = append(items, unknownVal)
				continue
			}
			items = append(items, p.eval(k))
		}
		return listVal(items)
	case "hash":
		o := sval{obj: map[string]sval{}}
		for _, k := range n.namedKids() {
			if k.typ == "pair" {
				o.obj[p.eval(k.child("key")).s] = p.eval(k.child("value"))
			}
		}
		return o
	case "identifier", "instance_variable", "global_variable", "class_variable":
		return p.lookup(p.text(n))
	case "constant":
		if b, ok := p.binds[p.text(n)]; ok && !b.dirty {
			return p.lookup(p.text(n))
		}
		return sval{s: Hole, ref: p.text(n)}
	case "scope_resolution":
		scope := p.eval(n.child("scope"))
		if scope.ref != "" {
			return sval{s: Hole, ref: scope.ref + "::" + p.text(n.child("name"))}
		}
	case "element_reference":
		obj := p.eval(n.child("object"))
		ks := n.namedKids()
		if obj.ref == "ENV" && len(ks) == 2 {
			return envValue(p.eval(ks[1]))
		}
	case "binary":
		if p.text(n.child("operator")) == "+" {
			l := p.eval(n.child("left"))
			r := p.eval(n.child("right"))
			if l.ref == rbPathObj {
				j := pathJoin([]sval{{s: l.s, known: l.known}, r})
				return sval{s: j.s, known: j.known, ref: rbPathObj}
			}
			return concat(l, r)
		}
	case "call":
		return p.callValue(n)
	}
	return unknownVal
}

// callValue is the value a call returns where it matters.
func (p *rbReader) callValue(n *tnode) sval {
	api, recv, c := p.resolveCall(n)
	switch api {
	case "File.join":
		return pathJoin(pathsOf(c.args))
	case "File.expand_path", "File.absolute_path", "String", "Pathname.to_s", "Pathname.expand_path":
		if api == "Pathname.to_s" || api == "Pathname.expand_path" {
			return sval{s: recv.s, known: recv.known}
		}
		return c.at(0)
	case "Dir.home":
		return lit("~")
	case "Dir.pwd", "Dir.getwd":
		return lit(".")
	case "ENV.fetch":
		return envValue(c.at(0))
	case "Pathname.new", "Pathname":
		v := c.at(0)
		return sval{s: v.s, known: v.known && v.isStr(), ref: rbPathObj}
	case "Pathname.join":
		j := pathJoin(append([]sval{{s: recv.s, known: recv.known}}, c.args...))
		return sval{s: j.s, known: j.known, ref: rbPathObj}
	case "Shellwords.split", "Shellwords.shellsplit", "str.shellsplit":
		v := c.at(0)
		if api == "str.shellsplit" {
			v = recv
		}
		return sval{s: v.s, known: v.known, words: true}
	case "array.join":
		sep := lit("")
		if v, ok := c.arg(0, ""); ok {
			sep = v
		}
		return joinVals(recv, sep)
	case "method":
		if v := c.at(0); v.known {
			return sval{s: Hole, ref: rbCanon(v.s)}
		}
	}
	return unknownVal
}

// rbAnyReceiver are the methods that act the same on any receiver.
var rbAnyReceiver = map[string]bool{"send": true, "public_send": true, "__send__": true, "instance_eval": true,
	"class_eval": true, "module_eval": true, "instance_exec": true, "eval": true}

// rbCanon folds Kernel's and Object's own functions into their bare names.
func rbCanon(api string) string {
	for _, k := range []string{"Kernel.", "Object.", "::"} {
		api = strings.TrimPrefix(api, k)
	}
	return strings.ReplaceAll(api, "::", ".")
}

// resolveCall names a call's method and computes its arguments.
func (p *rbReader) resolveCall(n *tnode) (string, sval, *scall) {
	method := p.text(n.child("method"))
	var api string
	var recv sval
	if rn := n.child("receiver"); rn != nil {
		obj := p.eval(rn)
		switch {
		case obj.ref == rbPathObj:
			api, recv = "Pathname."+method, obj
		case obj.isList:
			api, recv = "array."+method, obj
		case obj.isStr() && obj.known:
			api, recv = "str."+method, obj
		case obj.ref != "":
			api = rbCanon(obj.ref + "." + method)
			if method == "call" {
				api = obj.ref // method(:system).call
			}
		case rbAnyReceiver[method]:
			// send reaches Kernel's private methods from any object, and
			// instance_eval runs code on any object.
			api = method
		}
	} else {
		api = rbCanon(method)
	}
	c := &scall{api: api}
	for _, a := range n.child("arguments").namedKids() {
		switch a.typ {
		case "splat_argument":
			v := unknownVal
			if ks := a.namedKids(); len(ks) == 1 {
				v = p.eval(ks[0])
			}
			if v.words || v.isList {
				c.args = append(c.args, v)
			} else {
				c.spread = true
			}
		case "hash_splat_argument", "block_argument":
		case "pair":
			if c.kw == nil {
				c.kw = map[string]sval{}
			}
			c.kw[p.eval(a.child("key")).s] = p.eval(a.child("value"))
		case "comment":
		default:
			c.args = append(c.args, p.eval(a))
		}
	}
	c.recv = recv
	return api, recv, c
}

// visit finds the effects.
func (p *rbReader) visit(n *tnode) {
	switch n.typ {
	case "subshell":
		p.r.add(shellEffect("`", p.str(n)))
	case "call":
		api, _, c := p.resolveCall(n)
		if api == "" {
			return
		}
		if m := strings.TrimPrefix(api, "Kernel."); m == "send" || m == "public_send" || m == "__send__" || strings.HasSuffix(api, ".send") || strings.HasSuffix(api, ".public_send") || strings.HasSuffix(api, ".__send__") {
			p.send(n, api, c)
			return
		}
		p.apply(api, c)
	}
}

// send re-dispatches obj.send(:name, args…) as obj.name(args…).
func (p *rbReader) send(n *tnode, api string, c *scall) {
	name := c.at(0)
	base, _ := splitAPI(api)
	if !(name.known && name.isStr()) {
		// A computed name may be any method, Kernel's included.
		p.r.add(Effect{Kind: "exec", API: api})
		return
	}
	target := name.s
	if base != "" {
		target = base + "." + name.s
	}
	var rest []sval
	if len(c.args) > 0 {
		rest = c.args[1:]
	}
	p.apply(rbCanon(target), &scall{api: rbCanon(target), args: rest, kw: c.kw, spread: c.spread})
}

func (p *rbReader) apply(api string, c *scall) {
	fn, ok := rbTable().lookup(api)
	if !ok {
		return
	}
	for _, e := range fn(c) {
		p.r.add(e)
	}
	if api == "eval" || strings.HasSuffix(api, "_eval") || api == "binding.eval" || strings.HasSuffix(api, ".eval") {
		if v := c.at(0); v.known && v.isStr() {
			if err := p.r.read("ruby", v.s, api); err != nil {
				p.r.add(Effect{Kind: "exec", API: api})
			}
		}
	}
}

// str decodes a string, symbol, heredoc or backtick literal; its
// interpolations are computed where they are literal.
func (p *rbReader) str(n *tnode) sval {
	out := lit("")
	for _, k := range n.kids {
		switch k.typ {
		case "string_content", "heredoc_content":
			out.s += p.text(k)
		case "escape_sequence":
			d, ok := pyUnescape(p.text(k))
			if p.text(k) == `\e` {
				d, ok = "\x1b", true
			} else if p.text(k) == `\s` {
				d, ok = " ", true
			}
			out.s += d
			out.known = out.known && ok
		case "interpolation":
			var v sval = unknownVal
			if ks := k.namedKids(); len(ks) == 1 {
				v = p.eval(ks[0])
			}
			out = concat(out, v)
		}
	}
	if n.typ == "heredoc_body" {
		out.s = strings.TrimPrefix(out.s, "\n")
	}
	return out
}

// rbCommand reads system, exec, spawn, IO.popen and Open3: an
// environment hash first and an options hash last are not the command;
// one string is a shell line, more are an argv.
func rbCommand(c *scall) []Effect {
	args := c.args
	if len(args) > 0 && args[0].obj != nil {
		args = args[1:]
	}
	if len(args) > 1 && args[len(args)-1].obj != nil {
		args = args[:len(args)-1]
	}
	if len(args) == 0 {
		return unknownExec(c)
	}
	if len(args) == 1 && !c.spread {
		v := args[0]
		switch {
		case v.words:
			return []Effect{shellEffect(c.api, sval{s: v.s, known: v.known})}
		case v.isList && c.api == "IO.popen":
			return []Effect{argvEffect(c.api, v.list)}
		case v.isList:
			// [cmd, argv0] alone: the program, without arguments.
			return []Effect{argvEffect(c.api, []sval{v})}
		}
		return []Effect{shellEffect(c.api, v)}
	}
	e := argvEffect(c.api, args)
	if c.spread {
		e.Known = false
	}
	return []Effect{e}
}

// rbOpen reads Kernel#open and IO.read: a path starting with | runs a
// command; otherwise the mode decides.
func rbOpen(c *scall) []Effect {
	v := c.at(0)
	if strings.HasPrefix(v.s, "|") && c.api != "File.open" && c.api != "File.new" {
		line := sval{s: v.s[1:], known: v.known}
		return []Effect{shellEffect(c.api, line)}
	}
	if !v.known && c.api != "File.open" && c.api != "File.new" && strings.HasPrefix(v.s, Hole) {
		// open(x) with x computed may be a pipe.
		return []Effect{{Kind: "exec", Shell: true, Args: []string{Hole}, API: c.api}}
	}
	switch c.api {
	case "IO.write":
		return []Effect{pathEffect(c, "write", v)}
	case "IO.read", "IO.readlines", "IO.foreach", "IO.binread":
		return []Effect{pathEffect(c, "read", v)}
	}
	mode, ok := c.arg(1, "")
	if !ok {
		if m, has := c.kw["mode"]; has {
			mode, ok = m, true
		}
	}
	if !ok {
		return []Effect{pathEffect(c, "read", v)}
	}
	m, known := mode.str()
	if !known {
		e := pathEffect(c, "write", v)
		e.Known = false
		return []Effect{e}
	}
	var out []Effect
	if strings.ContainsRune(m, 'r') {
		out = append(out, pathEffect(c, "read", v))
	}
	if strings.ContainsAny(m, "wa+") {
		out = append(out, pathEffect(c, "write", v))
	}
	return out
}

// rbWrite writes the first argument, or each listed path for touch.
func rbWrite(c *scall) []Effect {
	if c.api == "FileUtils.touch" {
		return eachPath("write", 0, false)(c)
	}
	return pathAt("write", 0, "")(c)
}

// rbEval reads eval of code: literal code is read in turn by the caller.
func rbEval(c *scall) []Effect {
	if v := c.at(0); v.known && v.isStr() {
		return nil
	}
	return unknownExec(c)
}
