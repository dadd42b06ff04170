package script

import (
	"strings"
	"sync"
)

// pyMarkers is Python's prefilter: every name the reader resolves to an
// effect ends in one of these.
var pyMarkers = []string{
	"system", "popen", "exec", "spawn", "subprocess", "run", "call", "check_", "Popen", "getoutput",
	"remove", "unlink", "rmdir", "rmtree", "truncate", "open", "read", "write", "copy", "move",
	"rename", "replace", "chmod", "chown", "symlink", "link", "touch", "eval", "compile",
	"__import__", "import_module", "getattr", "__dict__", "globals", "vars", "__builtins__", "builtins",
	"ctypes", "cffi", "pickle", "marshal", "runpy", "sh", "pty", "os", "shutil", "Path",
}

// pyRules is what Python calls do, each with its samples.
func pyRules() []scriptRule {
	return []scriptRule{
		{apis: []string{"os.system", "os.popen", "platform.popen", "commands.getoutput", "commands.getstatusoutput", "subprocess.getoutput", "subprocess.getstatusoutput", "asyncio.create_subprocess_shell"},
			fn: shellAt(0, "cmd"),
			samples: []scriptSample{
				{"import os; os.system('rm -rf /')", []string{`exec sh "rm -rf /"`}},
				{"import os\nos.popen('cat ~/.ssh/id_rsa').read()", []string{`exec sh "cat ~/.ssh/id_rsa"`}},
				{"from os import system as s\ns('ls ' + x)", []string{`exec sh ? "ls …"`}},
				{"import subprocess as sp; print(sp.getoutput('git push --force'))", []string{`exec sh "git push --force"`}},
				{"import os; cmd = 'rm -rf ' + '/tmp/x'; os.system(cmd)", []string{`exec sh "rm -rf /tmp/x"`}},
				{"import os; os.system(f'echo {x}')", []string{`exec sh ? "echo …"`}},
				{"import os; os.system(' '.join(['git', 'reset', '--hard']))", []string{`exec sh "git reset --hard"`}},
			}},
		{apis: []string{"subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output", "subprocess.Popen"},
			fn: pySubprocess,
			samples: []scriptSample{
				{"import subprocess\nsubprocess.run(['rm', '-rf', '/'])", []string{`exec "rm" "-rf" "/"`}},
				{"import subprocess; subprocess.call('rm -rf ~', shell=True)", []string{`exec sh "rm -rf ~"`}},
				{"import subprocess; subprocess.check_output('ls')", []string{`exec "ls"`}},
				{"from subprocess import Popen; Popen(('git', 'push', '-f'))", []string{`exec "git" "push" "-f"`}},
				{"import subprocess; subprocess.run(['ls', d])", []string{`exec ? "ls" "…"`}},
				{"import subprocess; subprocess.run(cmd, shell=True)", []string{`exec sh ? "…"`}},
				{"import subprocess; subprocess.run('rm -rf /', shell=flag)", []string{`exec sh ? "rm -rf /"`}},
				{"import subprocess, shlex; subprocess.run(shlex.split('rm -rf /'))", []string{`exec sh "rm -rf /"`}},
				{"import subprocess; subprocess.run(['x', '-c', 'rm -rf /'], executable='/bin/sh')", []string{`exec "/bin/sh" "-c" "rm -rf /"`}},
				{"import subprocess; subprocess.run(args=['rm', 'a'])", []string{`exec "rm" "a"`}},
			}},
		{apis: []string{"os.execl", "os.execle", "os.execlp", "os.execlpe", "os.execv", "os.execve", "os.execvp", "os.execvpe",
			"os.spawnl", "os.spawnle", "os.spawnlp", "os.spawnlpe", "os.spawnv", "os.spawnve", "os.spawnvp", "os.spawnvpe",
			"os.posix_spawn", "os.posix_spawnp"},
			fn: pyExecFamily,
			samples: []scriptSample{
				{"import os; os.execvp('rm', ['rm', '-rf', '/'])", []string{`exec "rm" "-rf" "/"`}},
				{"import os; os.execl('/bin/sh', 'sh', '-c', 'reboot')", []string{`exec "/bin/sh" "-c" "reboot"`}},
				{"import os; os.spawnlp(os.P_WAIT, 'git', 'git', 'clean', '-fdx')", []string{`exec "git" "clean" "-fdx"`}},
				{"import os; os.posix_spawn('/bin/rm', ['rm', '-r', 'x'], {})", []string{`exec "/bin/rm" "-r" "x"`}},
			}},
		{apis: []string{"pty.spawn", "asyncio.create_subprocess_exec", "sh.Command"},
			fn: pyArgvRest,
			samples: []scriptSample{
				{"import pty; pty.spawn('/bin/bash')", []string{`exec "/bin/bash"`}},
				{"import pty; pty.spawn(['sh', '-c', 'id'])", []string{`exec "sh" "-c" "id"`}},
				{"import asyncio; asyncio.create_subprocess_exec('rm', '-rf', 'x')", []string{`exec "rm" "-rf" "x"`}},
			}},
		{apis: []string{"sh.*"},
			fn: pyShModule,
			samples: []scriptSample{
				{"import sh; sh.rm('-rf', '/srv')", []string{`exec "rm" "-rf" "/srv"`}},
				{"from sh import git; git('push', '--force')", []string{`exec "git" "push" "--force"`}},
			}},
		{apis: []string{"os.remove", "os.unlink", "os.rmdir", "os.removedirs", "pathlib.Path.unlink", "pathlib.Path.rmdir"},
			fn: pyRemove,
			samples: []scriptSample{
				{"import os; os.remove('.env')", []string{`remove ".env"`}},
				{"import os; os.unlink(os.path.join('a', 'b'))", []string{`remove "a/b"`}},
				{"from pathlib import Path; Path('/etc/passwd').unlink()", []string{`remove "/etc/passwd"`}},
				{"import pathlib; p = pathlib.Path.home() / '.ssh'; p.rmdir()", []string{`remove "~/.ssh"`}},
				{"import os; os.rmdir(d)", []string{`remove ? "…"`}},
				{"import os; list(map(os.remove, files))", []string{`remove ?`}},
			}},
		{apis: []string{"shutil.rmtree"},
			fn: removeAt(0, "path", true),
			samples: []scriptSample{
				{"import shutil; shutil.rmtree('/')", []string{`remove -r "/"`}},
				{"import shutil\np = '/'\nshutil.rmtree(p)", []string{`remove -r "/"`}},
				{"import shutil, os; shutil.rmtree(os.path.expanduser('~'))", []string{`remove -r "~"`}},
				{"import shutil, os; shutil.rmtree(os.environ['HOME'])", []string{`remove -r "~"`}},
				{"import shutil\np = '/tmp/a'\nif x: p = '/'\nshutil.rmtree(p)", []string{`remove -r ? "…"`}},
				{"import shutil\ndef f(p):\n    shutil.rmtree(p)\np = 'build'", []string{`remove -r ? "…"`}},
			}},
		{apis: []string{"open", "os.open", "pathlib.Path.open"},
			fn: pyOpen,
			samples: []scriptSample{
				{"print(open('/etc/shadow').read())", []string{`read "/etc/shadow"`}},
				{"open('.env', 'rb')", []string{`read ".env"`}},
				{"with open('.git/hooks/pre-commit', 'w') as f: f.write('')", []string{`write ".git/hooks/pre-commit"`}},
				{"open('a.txt', mode='a')", []string{`write "a.txt"`}},
				{"open('a.txt', 'r+')", []string{`read "a.txt"`, `write "a.txt"`}},
				{"open('a.txt', m)", []string{`write ? "a.txt"`}},
				{"import io; io.open('.env')", []string{`read ".env"`}},
				{"import os; os.open('x', os.O_WRONLY | os.O_CREAT)", []string{`write "x"`}},
				{"from pathlib import Path\nwith Path('k').open('w') as f: pass", []string{`write "k"`}},
				{"open(f'{d}/id_rsa')", []string{`read ? "…/id_rsa"`}},
			}},
		{apis: []string{"pathlib.Path.read_text", "pathlib.Path.read_bytes"},
			fn: recvPath("read", false),
			samples: []scriptSample{
				{"from pathlib import Path; print(Path('~/.aws/credentials').expanduser().read_text())", []string{`read "~/.aws/credentials"`}},
				{"import pathlib; pathlib.Path('/etc', 'hosts').read_bytes()", []string{`read "/etc/hosts"`}},
			}},
		{apis: []string{"pathlib.Path.write_text", "pathlib.Path.write_bytes", "pathlib.Path.touch", "pathlib.Path.symlink_to", "pathlib.Path.hardlink_to"},
			fn: recvPath("write", false),
			samples: []scriptSample{
				{"from pathlib import Path; Path('.git/config').write_text('')", []string{`write ".git/config"`}},
				{"from pathlib import Path as P; (P('a') / 'b.txt').touch()", []string{`write "a/b.txt"`}},
			}},
		{apis: []string{"os.truncate"},
			fn: pathAt("write", 0, "path"),
			samples: []scriptSample{
				{"import os; os.truncate('.git/HEAD', 0)", []string{`write ".git/HEAD"`}},
			}},
		{apis: []string{"os.symlink", "os.link"},
			fn: pathAt("write", 1, "dst"),
			samples: []scriptSample{
				{"import os; os.symlink('/etc/passwd', 'p')", []string{`write "p"`}},
			}},
		{apis: []string{"shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree"},
			fn: copyFrom(0, 1),
			samples: []scriptSample{
				{"import shutil; shutil.copy('~/.ssh/id_rsa', '/tmp/k')", []string{`read "~/.ssh/id_rsa"`, `write "/tmp/k"`}},
				{"import shutil; shutil.copytree('src', 'dst')", []string{`read "src"`, `write "dst"`}},
			}},
		{apis: []string{"shutil.move", "os.rename", "os.replace", "os.renames"},
			fn: renameFrom(0, 1),
			samples: []scriptSample{
				{"import shutil; shutil.move('.git', '/tmp/g')", []string{`rename ".git" "/tmp/g"`}},
				{"import os; os.replace('a', 'b')", []string{`rename "a" "b"`}},
			}},
		{apis: []string{"pathlib.Path.rename", "pathlib.Path.replace"},
			fn: func(c *scall) []Effect {
				return []Effect{pathEffect(c, "rename", sval{s: c.recv.s, known: c.recv.known}, pyPathArg(c.at(0)))}
			},
			samples: []scriptSample{
				{"from pathlib import Path; Path('a').rename('b')", []string{`rename "a" "b"`}},
			}},
		{apis: []string{"os.chmod", "os.chown", "os.lchown", "os.lchmod", "shutil.chown"},
			fn: pathAt("chmod", 0, "path"),
			samples: []scriptSample{
				{"import os; os.chmod('/etc/sudoers', 0o777)", []string{`chmod "/etc/sudoers"`}},
			}},
		{apis: []string{"pathlib.Path.chmod", "pathlib.Path.lchmod"},
			fn: recvPath("chmod", false),
			samples: []scriptSample{
				{"from pathlib import Path; Path('x').chmod(0o777)", []string{`chmod "x"`}},
			}},
		{apis: []string{"eval", "exec", "compile", "execfile"},
			fn: pyEval,
			samples: []scriptSample{
				{"exec(\"import os; os.system('reboot')\")", []string{`exec sh "reboot"`}},
				{"eval(input())", []string{`exec ?`}},
				{"exec(code)", []string{`exec ?`}},
				{"import base64; exec(base64.b64decode('aW1wb3J0IG9z'))", []string{`exec ?`}},
				{"eval('1 + 1')", nil},
			}},
		{apis: []string{"__import__", "importlib.import_module"},
			fn: pyImport,
			samples: []scriptSample{
				{"__import__('os').system('id')", []string{`exec sh "id"`}},
				{"import importlib; importlib.import_module('shutil').rmtree('/x')", []string{`remove -r "/x"`}},
				{"m = __import__(name)", []string{`exec ?`}},
				{"__import__('json').dumps(1)", nil},
			}},
		{apis: []string{"getattr"},
			fn: pyGetattr,
			samples: []scriptSample{
				{"import os; getattr(os, 'sys' + 'tem')('rm -rf /')", []string{`exec sh "rm -rf /"`}},
				{"import os; getattr(os, name)('x')", []string{`exec ?`}},
				{"getattr(self, name)()", nil},
			}},
		{apis: []string{"ctypes.*", "cffi.*", "pickle.loads", "pickle.load", "marshal.loads", "_posixsubprocess.fork_exec", "code.interact", "os.fork"},
			fn: unknownExec,
			samples: []scriptSample{
				{"import ctypes; ctypes.CDLL(None).system(b'id')", []string{`exec ?`}},
				{"import pickle; pickle.loads(data)", []string{`exec ?`}},
			}},
		{apis: []string{"runpy.run_path", "runpy.run_module"},
			fn: func(c *scall) []Effect {
				return []Effect{argvEffect(c.api, []sval{lit("python3"), c.at(0)})}
			},
			samples: []scriptSample{
				{"import runpy; runpy.run_path('evil.py')", []string{`exec "python3" "evil.py"`}},
			}},
	}
}

// pyExtraSamples are the samples of what no single rule covers: negatives,
// and reading that spans rules.
var pyExtraSamples = []scriptSample{
	{"print('hello')", nil},
	{"import os; print(os.getcwd())", nil},
	{"import os; print(os.path.join('a', 'b'), os.environ.get('X'))", nil},
	{"import json, sys; json.dump(json.load(sys.stdin), sys.stdout, indent=2)", nil},
	{"import subprocess; print(subprocess.PIPE)", nil},
	{"def open(p): pass\nopen('x')", nil},
	{"x = 'os.system(\"rm -rf /\")'", nil},
	{"# os.system('rm -rf /')\nprint(1)", nil},
	{"import sys; print(sys.version)", nil},
	{"data = [l.strip() for l in open('in.txt')]", []string{`read "in.txt"`}},
	{"import os as o, shutil as s; s.rmtree(o.getcwd())", []string{`remove -r "."`}},
	{"import os.path; os.remove('y')", []string{`remove "y"`}},
	{"from os import *; system('reboot')", []string{`exec sh "reboot"`}},
	{"import posix; posix.system('id')", []string{`exec sh "id"`}},
	{"import sys; sys.modules['os'].system('id')", []string{`exec sh "id"`}},
	{"f = __import__('os').system; f('id')", []string{`exec sh "id"`}},
	{"import builtins; builtins.exec('import shutil; shutil.rmtree(\"/\")')", []string{`remove -r "/"`}},
	{"__builtins__.__dict__['ev' + 'al']('x')", nil},
	{"globals()['__builtins__'].eval(s)", []string{`exec ?`}},
	{"ｅｘｅｃ('x')", []string{`exec ?`}},
	{"eval(\"__import__('os')\").system('id')", []string{`exec ?`}},
	{"import os; os.system(r'echo \\n')", []string{`exec sh "echo \\n"`}},
	{"import os; os.system('echo \\x41\\n')", []string{`exec sh "echo A\n"`}},
	{"import os; os.system('a' 'b')", []string{`exec sh "ab"`}},
	{"import os; os.system(b'id')", []string{`exec sh "id"`}},
	{"import os; os.system(f'ls {\"-l\"}')", []string{`exec sh "ls -l"`}},
	{"import os; os.system('rm -rf %s' % d)", []string{`exec sh ? "…"`}},
}

// pyCanonical maps module spellings to the names of the table.
var pyCanonical = map[string]string{
	"posix": "os", "nt": "os", "builtins": "", "__builtins__": "", "__builtin__": "", "io.open": "open", "codecs.open": "open",
	"pathlib.PosixPath": "pathlib.Path", "pathlib.PurePath": "pathlib.Path", "pathlib.PurePosixPath": "pathlib.Path",
	"pathlib.WindowsPath": "pathlib.Path", "Path": "pathlib.Path",
}

func pyCanon(ref string) string {
	for i := len(ref); ; {
		if to, ok := pyCanonical[ref[:i]]; ok {
			rest := strings.TrimPrefix(ref[i:], ".")
			switch {
			case to == "" && rest == "":
				return pyNamespace
			case to == "":
				return rest
			case rest == "":
				return to
			}
			return to + "." + rest
		}
		j := strings.LastIndexByte(ref[:i], '.')
		if j < 0 {
			return ref
		}
		i = j
	}
}

// pyBuiltins are the builtin names a bare identifier refers to.
var pyBuiltins = map[string]bool{"open": true, "eval": true, "exec": true, "compile": true, "execfile": true,
	"__import__": true, "getattr": true, "globals": true, "locals": true, "vars": true, "__builtins__": true, "Path": true}

// pyTable is pyRules by API.
var pyTable = sync.OnceValue(func() *apiTable { return scriptTable(pyRules()) })

// pyKindOf is the kind of effect an API has, for a mention of it.
func pyKindOf(api string) string {
	fn, _ := pyTable().lookup(api)
	es := fn(&scall{api: api, spread: true})
	if len(es) > 0 {
		return es[0].Kind
	}
	return "exec"
}

// pySubprocess follows subprocess's own reading of args, shell= and
// executable=.
func pySubprocess(c *scall) []Effect {
	args, ok := c.arg(0, "args")
	if !ok {
		return []Effect{{Kind: "exec", API: c.api}}
	}
	shell, hasShell := c.kw["shell"]
	if hasShell && shell.truth == 0 {
		// shell=flag: either reading may hold; the guard asks.
		e := shellEffect(c.api, args)
		if args.isList && len(args.list) > 0 {
			e = shellEffect(c.api, args.list[0])
		}
		e.Shell, e.Known = true, false
		return []Effect{e}
	}
	if shell.truth == 1 {
		// POSIX: [sh, -c, args[0], args[1:]…] — args[0] is the line.
		if args.isList {
			if len(args.list) == 0 {
				return []Effect{{Kind: "exec", Shell: true, API: c.api}}
			}
			return []Effect{shellEffect(c.api, args.list[0])}
		}
		return []Effect{shellEffect(c.api, args)}
	}
	var e Effect
	switch {
	case args.isList || args.words:
		e = argvEffect(c.api, []sval{args})
	case args.isStr():
		// Without a shell a string is the program's name, alone.
		s, k := args.str()
		e = Effect{Kind: "exec", Args: []string{s}, Known: k, API: c.api}
	default:
		e = Effect{Kind: "exec", API: c.api}
	}
	if exe, ok := c.kw["executable"]; ok && !e.Shell {
		s, k := exe.str()
		if len(e.Args) > 0 {
			e.Args = append([]string{s}, e.Args[1:]...)
		} else {
			e.Args = []string{s}
		}
		e.Known = e.Known && k
	}
	return []Effect{e}
}

// pyExecFamily reads os.exec*, os.spawn* and os.posix_spawn*: the path or
// file, then the argv whose first element is only argv[0].
func pyExecFamily(c *scall) []Effect {
	_, name := splitAPI(c.api)
	args := c.args
	if strings.HasPrefix(name, "spawn") {
		if len(args) == 0 {
			return unknownExec(c)
		}
		args = args[1:] // the mode
	}
	if len(args) == 0 {
		return unknownExec(c)
	}
	prog := args[0]
	var argv []sval
	switch {
	case strings.Contains(name, "v") || strings.HasPrefix(name, "posix_spawn"):
		if len(args) < 2 || !args[1].isList {
			e := argvEffect(c.api, []sval{prog, unknownVal})
			e.Args = e.Args[:1]
			e.Known = false
			return []Effect{e}
		}
		argv = args[1].list
	default:
		argv = args[1:]
		if strings.HasSuffix(name, "e") && len(argv) > 0 {
			argv = argv[:len(argv)-1] // the environment
		}
	}
	vals := []sval{prog}
	if len(argv) > 1 {
		vals = append(vals, argv[1:]...)
	}
	e := argvEffect(c.api, vals)
	if c.spread {
		e.Known = false
	}
	return []Effect{e}
}

// pyArgvRest reads pty.spawn(argv) and create_subprocess_exec(prog, *args).
func pyArgvRest(c *scall) []Effect {
	if len(c.args) == 1 {
		return argvAt(0, "")(c)
	}
	return argvRest(0)(c)
}

// pyShModule reads the sh package: sh.rm('-rf', p) runs rm.
func pyShModule(c *scall) []Effect {
	_, prog := splitAPI(c.api)
	return argvRest(0)(&scall{api: c.api, args: append([]sval{lit(prog)}, c.args...), spread: c.spread})
}

// pyRemove reads os.remove(p) and Path(p).unlink().
func pyRemove(c *scall) []Effect {
	if strings.HasPrefix(c.api, "pathlib.Path.") {
		return recvPath("remove", false)(c)
	}
	v, ok := c.arg(0, "path")
	if !ok {
		v = unknownVal
	}
	return []Effect{pathEffect(c, "remove", pyPathArg(v))}
}

// pyOpen reads open(file, mode) and os.open(path, flags).
func pyOpen(c *scall) []Effect {
	var target, mode sval
	var hasMode bool
	if c.api == "pathlib.Path.open" {
		target = sval{s: c.recv.s, known: c.recv.known}
		mode, hasMode = c.arg(0, "mode")
	} else {
		var ok bool
		target, ok = c.arg(0, "file")
		if !ok {
			target, _ = c.arg(0, "path")
		}
		target = pyPathArg(target)
		mode, hasMode = c.arg(1, "mode")
		if !hasMode {
			mode, hasMode = c.arg(1, "flags")
		}
	}
	if c.api == "os.open" {
		flags := ""
		if len(c.texts) > 1 {
			flags = c.texts[1]
		}
		if strings.Contains(flags, "WRONLY") || strings.Contains(flags, "RDWR") || strings.Contains(flags, "CREAT") || strings.Contains(flags, "TRUNC") || strings.Contains(flags, "APPEND") {
			return []Effect{pathEffect(c, "write", target)}
		}
		if !hasMode || strings.Contains(flags, "RDONLY") {
			return []Effect{pathEffect(c, "read", target)}
		}
		e := pathEffect(c, "write", target)
		e.Known = false
		return []Effect{e}
	}
	if !hasMode {
		return []Effect{pathEffect(c, "read", target)}
	}
	m, known := mode.str()
	if !known {
		e := pathEffect(c, "write", target)
		e.Known = false
		return []Effect{e}
	}
	var out []Effect
	if strings.ContainsRune(m, 'r') || !strings.ContainsAny(m, "wax") {
		out = append(out, pathEffect(c, "read", target))
	}
	if strings.ContainsAny(m, "wax+") {
		out = append(out, pathEffect(c, "write", target))
	}
	return out
}

// pyEval reads eval/exec of code: literal code is read in turn (by the
// caller); any other is not known.
func pyEval(c *scall) []Effect {
	if v := c.at(0); v.known && v.isStr() {
		return nil
	}
	return unknownExec(c)
}

// pyImport reads __import__(name): a computed module name is not known.
func pyImport(c *scall) []Effect {
	if v := c.at(0); v.known && v.isStr() {
		return nil
	}
	return unknownExec(c)
}

// pyGetattr reads getattr(module, name): a computed name on a module may
// reach any of its functions.
func pyGetattr(c *scall) []Effect {
	obj, name := c.at(0), c.at(1)
	if obj.ref != "" && obj.ref != pyPathObj && !(name.known && name.isStr()) {
		return unknownExec(c)
	}
	return nil
}
