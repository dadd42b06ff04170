package script

import (
	"strings"
	"sync"
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
