package script

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// jsMarkers is JavaScript's prefilter. Modules are reached through
// require or import, globals by name; \u escapes can spell any name.
var jsMarkers = []string{
	"require", "import", "child_process", "exec", "spawn", "fork", "eval", "Function", "constructor", "vm",
	"Bun", "Deno", "process", "globalThis", "global", "window", "self", "rm", "unlink", "read", "write",
	"append", "copy", "cp", "rename", "move", "chmod", "chown", "symlink", "truncate", "open", "remove",
	"emptyDir", "rimraf", "Stream", `\u`,
}

// fsNames spells an fs function the ways a script reaches it: fs, its
// promises, fs-extra, and Deno's and Bun's own names are listed apart.
func fsNames(names ...string) []string {
	var out []string
	for _, n := range names {
		out = append(out, "fs."+n, "fs-extra."+n)
		if !strings.HasSuffix(n, "Sync") && !strings.HasPrefix(n, "create") {
			out = append(out, "fs.promises."+n, "fs-extra.promises."+n)
		}
	}
	return out
}

// jsRules is what JavaScript calls do, each with its samples.
func jsRules() []scriptRule {
	return []scriptRule{
		{apis: []string{"child_process.exec", "child_process.execSync", "shelljs.exec"},
			fn: shellAt(0, ""),
			samples: []scriptSample{
				{"require('child_process').execSync('rm -rf /')", []string{`exec sh "rm -rf /"`}},
				{"const cp = require('node:child_process'); cp.exec('git push -f', () => {})", []string{`exec sh "git push -f"`}},
				{"const {execSync: run} = require('child_process'); run(`ls ${dir}`)", []string{`exec sh ? "ls …"`}},
				{"import {execSync} from 'node:child_process'; execSync('cat .env')", []string{`exec sh "cat .env"`}},
				{"import * as cp from 'child_process'; cp.execSync('a' + 'b')", []string{`exec sh "ab"`}},
				{"import cp from 'child_process'; const c = 'reboot'; cp.execSync(c)", []string{`exec sh "reboot"`}},
				{"const shell = require('shelljs'); shell.exec('npm publish')", []string{`exec sh "npm publish"`}},
				{"const { exec } = await import('child_process'); exec('id')", []string{`exec sh "id"`}},
				{"const u = require('util'); u.promisify(require('child_process').exec)('id')", []string{`exec sh ?`}},
				{"require('child_process').execSync(`echo \\x41${'b'}`)", []string{`exec sh "echo Ab"`}},
			}},
		{apis: []string{"child_process.spawn", "child_process.spawnSync", "child_process.execFile", "child_process.execFileSync"},
			fn: jsSpawn,
			samples: []scriptSample{
				{"require('child_process').spawnSync('rm', ['-rf', '/'])", []string{`exec "rm" "-rf" "/"`}},
				{"const {spawn} = require('child_process'); spawn('git', ['reset', '--hard'], {stdio: 'inherit'})", []string{`exec "git" "reset" "--hard"`}},
				{"require('child_process').spawn('rm -rf /', {shell: true})", []string{`exec sh "rm -rf /"`}},
				{"require('child_process').spawn('rm', ['-rf', '/'], {shell: true})", []string{`exec sh "rm -rf /"`}},
				{"require('child_process').execFileSync('/bin/ls')", []string{`exec "/bin/ls"`}},
				{"require('child_process').spawn(cmd, args)", []string{`exec ? "…" "…"`}},
			}},
		{apis: []string{"child_process.fork"},
			fn: func(c *scall) []Effect {
				args := []sval{lit("node"), c.at(0)}
				if a, ok := c.arg(1, ""); ok && a.isList {
					args = append(args, a.list...)
				}
				return []Effect{argvEffect(c.api, args)}
			},
			samples: []scriptSample{
				{"require('child_process').fork('worker.js', ['a'])", []string{`exec "node" "worker.js" "a"`}},
			}},
		{apis: []string{"Bun.spawn", "Bun.spawnSync"},
			fn: func(c *scall) []Effect {
				v := c.at(0)
				if v.obj != nil {
					v = v.obj["cmd"]
				}
				return argvAt(0, "")(&scall{api: c.api, args: []sval{v}})
			},
			samples: []scriptSample{
				{"Bun.spawn(['rm', '-rf', '/'])", []string{`exec "rm" "-rf" "/"`}},
				{"Bun.spawnSync({cmd: ['git', 'clean', '-fdx']})", []string{`exec "git" "clean" "-fdx"`}},
			}},
		{apis: []string{"Bun.$"},
			fn: shellAt(0, ""),
			samples: []scriptSample{
				{"await Bun.$`rm -rf ${dir}`", []string{`exec sh ? "rm -rf …"`}},
				{"import {$} from 'bun'; await $`git push --force ${'origin'}`", []string{`exec sh "git push --force 'origin'"`}},
			}},
		{apis: []string{"Deno.Command", "Deno.run"},
			fn: func(c *scall) []Effect {
				v := c.at(0)
				if v.obj != nil { // Deno.run({cmd: […]})
					return argvAt(0, "")(&scall{api: c.api, args: []sval{v.obj["cmd"]}})
				}
				args := []sval{v}
				if o, ok := c.arg(1, ""); ok {
					a, has := o.obj["args"]
					switch {
					case has && a.isList:
						args = append(args, a.list...)
					case has || o.obj == nil:
						args = append(args, unknownVal)
					}
				}
				return []Effect{argvEffect(c.api, args)}
			},
			samples: []scriptSample{
				{"new Deno.Command('rm', {args: ['-rf', '/']}).outputSync()", []string{`exec "rm" "-rf" "/"`}},
				{"Deno.run({cmd: ['ls']})", []string{`exec "ls"`}},
			}},
		{apis: append(fsNames("rmSync", "rm", "rmdirSync", "rmdir", "unlinkSync", "unlink", "lchown"), "Deno.remove", "Deno.removeSync"),
			fn: jsRemove,
			samples: []scriptSample{
				{"require('fs').rmSync('/', {recursive: true, force: true})", []string{`remove -r "/"`}},
				{"const fs = require('fs'); fs.unlinkSync('.env')", []string{`remove ".env"`}},
				{"import {rm} from 'fs/promises'; await rm(process.env.HOME, {recursive: !0})", []string{`remove -r "~"`}},
				{"require('fs').promises.rm('x')", []string{`remove "x"`}},
				{"const fs = require('fs'), path = require('path'); fs.rmdirSync(path.join(require('os').homedir(), '.ssh'), {recursive: true})", []string{`remove -r "~/.ssh"`}},
				{"await Deno.remove('/srv', {recursive: true})", []string{`remove -r "/srv"`}},
				{"require('fs').rmSync(p, opts)", []string{`remove -r ? "…"`}},
			}},
		{apis: append(fsNames("remove", "removeSync", "emptyDir", "emptyDirSync"), "rimraf", "rimraf.sync", "rimraf.rimraf", "rimraf.rimrafSync", "rimraf.default"),
			fn: eachPath("remove", 0, true),
			samples: []scriptSample{
				{"require('fs-extra').removeSync('/home')", []string{`remove -r "/home"`}},
				{"const rimraf = require('rimraf'); rimraf.sync('node_modules')", []string{`remove -r "node_modules"`}},
				{"import {rimraf} from 'rimraf'; await rimraf('dist')", []string{`remove -r "dist"`}},
			}},
		{apis: []string{"shelljs.rm"},
			fn: jsShellRm,
			samples: []scriptSample{
				{"require('shelljs').rm('-rf', '/etc')", []string{`remove -r "/etc"`}},
			}},
		{apis: append(fsNames("readFileSync", "readFile", "createReadStream", "readlinkSync"), "Deno.readTextFile", "Deno.readTextFileSync", "Deno.readFile", "Deno.readFileSync", "Bun.file", "shelljs.cat"),
			fn: pathAt("read", 0, ""),
			samples: []scriptSample{
				{"console.log(require('fs').readFileSync('/etc/shadow', 'utf8'))", []string{`read "/etc/shadow"`}},
				{"import fs from 'node:fs'; fs.createReadStream('.env').pipe(process.stdout)", []string{`read ".env"`}},
				{"import {readFile} from 'node:fs/promises'; await readFile(`${process.env.HOME}/.npmrc`)", []string{`read "~/.npmrc"`}},
				{"console.log(await Bun.file('.env').text())", []string{`read ".env"`}},
				{"await Deno.readTextFile('id_rsa')", []string{`read "id_rsa"`}},
			}},
		{apis: append(fsNames("writeFileSync", "writeFile", "appendFileSync", "appendFile", "createWriteStream", "truncateSync", "truncate", "outputFileSync", "outputFile", "writeJsonSync", "writeJson"),
			"Deno.writeTextFile", "Deno.writeTextFileSync", "Deno.writeFile", "Deno.writeFileSync", "Deno.truncate", "Bun.write"),
			fn: func(c *scall) []Effect {
				v := c.at(0)
				if v.ref == jsBunFile {
					v = sval{s: v.s, known: v.known}
				}
				return []Effect{pathEffect(c, "write", v)}
			},
			samples: []scriptSample{
				{"require('fs').writeFileSync('.git/hooks/pre-push', '')", []string{`write ".git/hooks/pre-push"`}},
				{"const fs = require('fs'); fs.appendFileSync(require('os').homedir() + '/.bashrc', 'x')", []string{`write "~/.bashrc"`}},
				{"await Bun.write(Bun.file('out.txt'), 'x')", []string{`write "out.txt"`}},
				{"await Bun.write('a.txt', data)", []string{`write "a.txt"`}},
			}},
		{apis: fsNames("symlinkSync", "symlink", "linkSync", "link"),
			fn: pathAt("write", 1, ""),
			samples: []scriptSample{
				{"require('fs').symlinkSync('/etc/passwd', 'p')", []string{`write "p"`}},
			}},
		{apis: append(fsNames("copyFileSync", "copyFile", "cpSync", "cp", "copySync", "copy"), "Deno.copyFile", "shelljs.cp"),
			fn: copyFrom(0, 1),
			samples: []scriptSample{
				{"require('fs').copyFileSync('.env', '/tmp/e')", []string{`read ".env"`, `write "/tmp/e"`}},
			}},
		{apis: append(fsNames("renameSync", "rename", "moveSync", "move"), "Deno.rename", "shelljs.mv"),
			fn: renameFrom(0, 1),
			samples: []scriptSample{
				{"require('fs').renameSync('.git', 'old')", []string{`rename ".git" "old"`}},
			}},
		{apis: append(fsNames("chmodSync", "chmod", "chownSync", "chown", "lchownSync"), "Deno.chmod", "Deno.chown", "shelljs.chmod"),
			fn: pathAt("chmod", 0, ""),
			samples: []scriptSample{
				{"require('fs').chmodSync('/usr/bin/sudo', 0o777)", []string{`chmod "/usr/bin/sudo"`}},
			}},
		{apis: fsNames("openSync", "open"),
			fn: jsOpen,
			samples: []scriptSample{
				{"require('fs').openSync('a', 'w')", []string{`write "a"`}},
				{"require('fs').openSync('a')", []string{`read "a"`}},
			}},
		{apis: []string{"eval", "Function", "vm.runInThisContext", "vm.runInNewContext", "vm.runInContext", "vm.Script", "vm.compileFunction"},
			fn: jsEval,
			samples: []scriptSample{
				{"eval(\"require('child_process').execSync('id')\")", []string{`exec sh "id"`}},
				{"eval(atob(s))", []string{`exec ?`}},
				{"new Function('a', body)(1)", []string{`exec ?`}},
				{"require('vm').runInNewContext(code)", []string{`exec ?`}},
				{"eval('1 + 2')", nil},
			}},
		{apis: []string{"require", "import", "process.binding", "process._linkedBinding", "process.dlopen", "module.constructor._load", "Module._load"},
			fn: jsRequire,
			samples: []scriptSample{
				{"require(name)", []string{`exec ?`}},
				{"const m = await import(`./${x}.js`)", []string{`exec ?`}},
				{"process.binding('spawn_sync').spawn(o)", []string{`exec ?`}},
				{"require('path').join('a', 'b')", nil},
			}},
	}
}

// jsExtraSamples are the samples no single rule covers.
var jsExtraSamples = []scriptSample{
	{"console.log(1)", nil},
	{"console.log(process.argv.slice(2).join(' '))", nil},
	{"const x = require('path').resolve('.'); console.log(x)", nil},
	{"JSON.parse(require('fs').existsSync('a') ? '1' : '2')", nil},
	{"// require('child_process').execSync('rm -rf /')\nconsole.log(2)", nil},
	{"let s = \"require('child_process').execSync('x')\"", nil},
	{"const cp = require('child_process'); cp[m]('id')", []string{`exec ?`}},
	{"require('child_process')['exec' + 'Sync']('id')", []string{`exec sh "id"`}},
	{"import('child_process').then(cp => cp.execSync('id'))", []string{`exec ?`}},
	{"globalThis.eval(s)", []string{`exec ?`}},
	{"\\u0065val(s)", []string{`exec ?`}},
	{"[].map.constructor('return process')()", []string{`exec ?`}},
	{"eval('require')('child_process').execSync('id')", []string{`exec ?`}},
	{"Function('return this')().process.mainModule.require('child_process').execSync('id')", []string{`exec ?`}},
	{"let p = '/tmp'; p = '/'; require('fs').rmSync(p, {recursive: true})", []string{`remove -r ? "…"`}},
	{"const fs = require('fs'); const f = (p) => fs.unlinkSync(p)", []string{`remove ? "…"`}},
	{"const x: string = 'a'; require('fs').unlinkSync(x as string)", []string{`remove "a"`}},
	{"const {execSync} = require('child_process'); [1].forEach(() => execSync('id'))", []string{`exec sh "id"`}},
	{"process.mainModule.require('child_process').execSync('id')", []string{`exec sh "id"`}},
	{"require('child_process').execSync('a\\nb')", []string{`exec sh "a\nb"`}},
}

// jsGlobals are the names a script reaches without importing them.
var jsGlobals = map[string]bool{"require": true, "eval": true, "Function": true, "Bun": true, "Deno": true, "process": true,
	"globalThis": true, "global": true, "window": true, "self": true, "module": true, "Module": true}

// Refs that name no API: a Bun file object, the global object, a member
// fetched by a computed name.
const (
	jsBunFile = "\x00bunfile"
	jsGlobal  = "\x00global"
	jsDynamic = "\x00dynamic"
)

// jsExecModules are modules that run code: handing one around unread is
// an effect of its own.
var jsExecModules = map[string]bool{"child_process": true, "vm": true, "shelljs": true, "worker_threads": true}

var jsTable = sync.OnceValue(func() *apiTable { return scriptTable(jsRules()) })

// jsCanonModule names a module as the table does.
func jsCanonModule(m string) string {
	m = strings.TrimPrefix(m, "node:")
	switch m {
	case "fs/promises":
		return "fs.promises"
	case "fs-extra/esm":
		return "fs-extra"
	case "bun":
		return "Bun"
	}
	return m
}

// jsCanon folds the global object's members and aliases into their names.
func jsCanon(ref string) string {
	for _, g := range []string{"globalThis.", "global.", "window.", "self.", "process.mainModule.", "module."} {
		if strings.HasPrefix(ref, g) && ref != "module.constructor._load" {
			return jsCanon(ref[len(g):])
		}
	}
	if ref == "globalThis" || ref == "global" || ref == "window" || ref == "self" {
		return jsGlobal
	}
	return ref
}

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

// jsSpawn reads spawn(file, args, {shell}) and execFile alike.
func jsSpawn(c *scall) []Effect {
	file := c.at(0)
	var args, opts sval
	if a, ok := c.arg(1, ""); ok {
		if a.obj != nil {
			opts = a
		} else {
			args = a
			opts, _ = c.arg(2, "")
		}
	}
	vals := []sval{file}
	switch {
	case args.isList:
		vals = append(vals, args.list...)
	case c.spread || args.s != "" || args.ref != "":
		vals = append(vals, unknownVal)
	}
	shell := opts.obj["shell"]
	if opts.obj == nil && (c.spread || opts.s != "") {
		shell = sval{}
		shell.s = Hole
	}
	switch {
	case shell.truth == 1 || shell.isStr() && shell.known && shell.s != "":
		// Node joins the file and its arguments with spaces.
		return []Effect{shellEffect(c.api, joinVals(listVal(vals), lit(" ")))}
	case shell.s == Hole:
		e := shellEffect(c.api, joinVals(listVal(vals), lit(" ")))
		e.Known = false
		return []Effect{e}
	}
	e := argvEffect(c.api, vals)
	return []Effect{e}
}

// jsRemove reads rm(p, {recursive}) and its kin.
func jsRemove(c *scall) []Effect {
	e := pathEffect(c, "remove", c.at(0))
	if opts, ok := c.arg(1, ""); ok {
		switch r := opts.obj["recursive"]; {
		case opts.obj == nil || r.truth == 0 && r.s == Hole:
			e.Recursive, e.Known = true, false
		case r.truth == 1:
			e.Recursive = true
		}
	}
	return []Effect{e}
}

// jsShellRm reads shelljs's rm('-rf', paths…).
func jsShellRm(c *scall) []Effect {
	recursive := false
	var paths []sval
	for _, a := range pathsOf(c.args) {
		if a.known && strings.HasPrefix(a.s, "-") {
			recursive = recursive || strings.ContainsAny(a.s, "rR")
			continue
		}
		paths = append(paths, a)
	}
	out := eachPath("remove", 0, recursive)(&scall{api: c.api, args: paths, spread: c.spread})
	return out
}

// jsOpen reads fs.open(p, flags).
func jsOpen(c *scall) []Effect {
	flags, ok := c.arg(1, "")
	if !ok {
		return []Effect{pathEffect(c, "read", c.at(0))}
	}
	f, known := flags.str()
	if !known {
		e := pathEffect(c, "write", c.at(0))
		e.Known = false
		return []Effect{e}
	}
	if strings.ContainsAny(f, "wa+") {
		return []Effect{pathEffect(c, "write", c.at(0))}
	}
	return []Effect{pathEffect(c, "read", c.at(0))}
}

// jsEval reads eval and its kin: literal code is read in turn.
func jsEval(c *scall) []Effect {
	args := c.args
	if c.api == "Function" && len(args) > 0 {
		args = args[len(args)-1:]
	}
	if len(args) == 0 && !c.spread {
		return nil
	}
	for _, a := range args {
		if !(a.known && a.isStr()) {
			return unknownExec(c)
		}
	}
	if c.spread {
		return unknownExec(c)
	}
	return nil
}

// jsRequire reads require(name) and import(name): a computed name may
// load anything.
func jsRequire(c *scall) []Effect {
	if c.api != "require" && c.api != "import" {
		return unknownExec(c)
	}
	if v := c.at(0); v.known && v.isStr() {
		return nil
	}
	return unknownExec(c)
}
