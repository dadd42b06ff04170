package runners

import (
	"context"
	"encoding/json"
	"path"
	"regexp"
	"strings"

	"github.com/gitsentinel/sentinel/languages"
	"github.com/gobwas/glob"
)

// maxConfigSize bounds what is read of a package.json or a runner's config:
// a config is small, and a larger one is someone else's content.
const maxConfigSize = 1 << 20

// jsSelection decides which JavaScript and TypeScript files are test files
// the way each package's test runner does: the runner is detected from the
// nearest package.json above a file, and its defaults and static config say
// which files it runs. The old name globs (*.test.*, *.spec.*, __tests__)
// stay the rule for files under no package with a known runner.
type jsSelection struct {
	pkgs map[string]*jsPackage // by directory, "" for the root
}

// jsPackage is one package.json and the files its runners run.
type jsPackage struct {
	dir     string
	runners []string
	include []*glob.Pattern // over the path relative to dir
	exclude []*glob.Pattern
	regex   []*regexp.Regexp // Jest's testRegex, over "/" + the relative path
	ignore  []*regexp.Regexp // Jest's testPathIgnorePatterns, likewise
	roots   []string         // Jest's roots, relative to dir; none is dir itself
}

// packageJSON is what sentinel reads of a package.json.
type packageJSON struct {
	Dependencies    map[string]json.RawMessage `json:"dependencies"`
	DevDependencies map[string]json.RawMessage `json:"devDependencies"`
	Scripts         map[string]json.RawMessage `json:"scripts"`
	Mocha           *mochaConfig               `json:"mocha"`
	Jest            *jestConfig                `json:"jest"`
	Ava             *struct {
		Files stringList `json:"files"`
	} `json:"ava"`
}

type mochaConfig struct {
	Spec      stringList `json:"spec"`
	Recursive bool       `json:"recursive"`
	Extension stringList `json:"extension"`
}

type jestConfig struct {
	TestMatch              stringList `json:"testMatch"`
	TestRegex              stringList `json:"testRegex"`
	TestPathIgnorePatterns stringList `json:"testPathIgnorePatterns"`
	Roots                  stringList `json:"roots"`
	RootDir                string     `json:"rootDir"`
}

// stringList is a config value that is a string or a list of strings.
type stringList []string

func (s *stringList) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*s = []string{one}
		return nil
	}
	var many []string
	if json.Unmarshal(b, &many) == nil {
		*s = many
	}
	// Anything else (an object, a number) is not a list of paths: ignore it
	// rather than lose the rest of the package.json.
	return nil
}

// The runners' own defaults.
var (
	nodeTestDefaults = []string{"**/*.test.{,c,m}js", "**/*-test.{,c,m}js", "**/*_test.{,c,m}js",
		"**/test-*.{,c,m}js", "**/test.{,c,m}js", "**/test/**/*.{,c,m}js"}
	jestDefaults   = []string{"**/__tests__/**/*.[jt]s{,x}", "**/{,*.}{spec,test}.[jt]s{,x}"}
	vitestDefaults = []string{"**/*.{test,spec}.{,c,m}[jt]s{,x}"}
	vitestExcludes = []string{"**/dist/**", "**/cypress/**", "**/.{idea,git,cache,output,temp}/**"}
	tapDefaults    = []string{"{test,tests,__test__,__tests__}/**/*.{,c,m}{js,ts}{,x}", "**/*.{test,tests,spec}.{,c,m}{js,ts}{,x}", "test{,s}.{,c,m}{js,ts}{,x}"}
	avaDefaults    = []string{"test.{,c,m}js", "{src,source}/test.{,c,m}js", "**/test-*.{,c,m}js", "**/*.{spec,test}.{,c,m}js",
		"**/test/**/*.{,c,m}js", "**/tests/**/*.{,c,m}js", "**/__tests__/**/*.{,c,m}js"}
	// avaExcludes are the helpers and fixtures AVA never runs as tests.
	avaExcludes = []string{"**/_*", "**/_*/**", "**/fixtures/**", "**/helpers/**"}
	mochaExts   = "{js,cjs,mjs}"
)

// jsConfig reports the base name of a runner's static config that a
// package's selection reads beside its package.json.
func jsConfig(base string) bool {
	switch base {
	case ".mocharc.json", ".mocharc.yml", ".mocharc.yaml", ".mocharc.js", ".mocharc.cjs", "jest.config.json",
		"vitest.config.ts", "vitest.config.js", "vitest.config.mjs", "vitest.config.mts":
		return true
	}
	return false
}

// newJSSelection reads the package.json files of the snapshot and their
// runners' static configs, from the snapshot itself: the work tree's files,
// or the blobs of the index or of the revision being counted.
func newJSSelection(ctx context.Context, t Tree) *jsSelection {
	sel := &jsSelection{pkgs: map[string]*jsPackage{}}
	byPath := map[string]int{}
	var manifests []string
	for i := range t.Len() {
		p, regular := t.File(i)
		if inNodeModules(p) || !regular {
			continue
		}
		switch base := path.Base(p); {
		case base == "package.json":
			manifests = append(manifests, p)
			byPath[p] = i
		case jsConfig(base):
			byPath[p] = i
		}
	}
	if len(manifests) == 0 {
		return sel
	}
	// The directories are listed only when a runner is given a path that
	// may be one: most snapshots never need them.
	var dirs map[string]bool
	isDir := func(p string) bool {
		if dirs == nil {
			dirs = map[string]bool{}
			for i := range t.Len() {
				f, _ := t.File(i)
				for d := path.Dir(f); d != "." && !dirs[d]; d = path.Dir(d) {
					dirs[d] = true
				}
			}
		}
		return dirs[p]
	}
	read := func(p string) []byte {
		i, ok := byPath[p]
		if !ok {
			return nil
		}
		b, err := t.Read(ctx, i)
		if err != nil || len(b) > maxConfigSize {
			return nil
		}
		return b
	}
	for _, m := range manifests {
		dir := path.Dir(m)
		if dir == "." {
			dir = ""
		}
		var pj packageJSON
		if json.Unmarshal(read(m), &pj) != nil {
			continue
		}
		sel.pkgs[dir] = buildJSPackage(dir, &pj, func(name string) []byte { return read(path.Join(dir, name)) },
			func(rel string) bool { return isDir(path.Join(dir, rel)) })
	}
	return sel
}

// buildJSPackage works out the runners of one package and their patterns.
// readFile reads a file of the package's directory; isDir tells whether a
// path relative to it is a directory of the snapshot.
func buildJSPackage(dir string, pj *packageJSON, readFile func(string) []byte, isDir func(string) bool) *jsPackage {
	p := &jsPackage{dir: dir}
	cmds := scriptCommands(expandScript(pj, "test", 0))
	has := func(dep string) bool {
		_, a := pj.Dependencies[dep]
		_, b := pj.DevDependencies[dep]
		return a || b
	}
	var includes, excludes []string
	// The test script says which runner runs; the dependencies are the
	// evidence when the script runs them in some other way.
	mochaArgs, inScript := cmds["mocha"]
	if inScript || has("mocha") {
		p.runners = append(p.runners, "mocha")
		includes = append(includes, mochaPatterns(pj, mochaArgs, readFile, isDir)...)
	}
	if args, ok := cmds["tape"]; ok || has("tape") {
		p.runners = append(p.runners, "tape")
		globs := positional(args, nil)
		if len(globs) == 0 {
			globs = []string{"test/**/*.js"}
		}
		includes = append(includes, globs...)
	}
	if args, ok := cmds["tap"]; ok || has("tap") {
		// node-tap: the paths its script passes it, else its default of
		// test directories and *.test.* / *.spec.* files.
		p.runners = append(p.runners, "tap")
		globs := positional(args, tapValueFlags)
		if len(globs) > 0 && globs[0] == "run" {
			globs = globs[1:]
		}
		if len(globs) == 0 {
			globs = tapDefaults
		}
		for _, g := range globs {
			includes = append(includes, dirOrGlob(g, "**/*", isDir))
		}
	}
	if args, ok := cmds["node --test"]; ok {
		p.runners = append(p.runners, "node:test")
		globs := positional(args, nodeValueFlags)
		if len(globs) == 0 {
			globs = nodeTestDefaults
		}
		for _, g := range globs {
			includes = append(includes, dirOrGlob(g, "**/*."+mochaExts, isDir))
		}
	}
	if _, ok := cmds["jest"]; ok || has("jest") {
		p.runners = append(p.runners, "jest")
		jc := pj.Jest
		if jc == nil {
			jc = &jestConfig{}
			_ = json.Unmarshal(readFile("jest.config.json"), jc)
		}
		// <rootDir> is the package's directory unless rootDir moves it;
		// roots default to it.
		root := strings.Trim(strings.TrimPrefix(path.Clean("/"+jc.RootDir), "/"), "/")
		atRoot := func(s string) string {
			s = strings.ReplaceAll(s, "<rootDir>", "/"+root)
			return strings.TrimPrefix(path.Clean("/"+s), "/")
		}
		if len(jc.Roots) == 0 && root != "" {
			jc.Roots = []string{"<rootDir>"}
		}
		for _, r := range jc.TestRegex {
			if re, err := regexp.Compile(r); err == nil {
				p.regex = append(p.regex, re)
			}
		}
		if len(jc.TestRegex) == 0 {
			match := jc.TestMatch
			if len(match) == 0 {
				match = jestDefaults
			}
			for _, m := range match {
				if strings.HasPrefix(m, "<rootDir>") {
					m = atRoot(m)
				}
				includes = append(includes, strings.TrimPrefix(m, "./"))
			}
		}
		for _, r := range jc.TestPathIgnorePatterns {
			r = strings.ReplaceAll(r, "<rootDir>", strings.TrimSuffix("/"+root, "/"))
			if re, err := regexp.Compile(r); err == nil {
				p.ignore = append(p.ignore, re)
			}
		}
		for _, r := range jc.Roots {
			if strings.HasPrefix(r, "<rootDir>") {
				r = atRoot(r)
			} else {
				r = strings.TrimPrefix(path.Clean("/"+root+"/"+r), "/")
			}
			if r == "" {
				p.roots = nil
				break
			}
			p.roots = append(p.roots, r)
		}
	}
	if _, ok := cmds["vitest"]; ok || has("vitest") {
		p.runners = append(p.runners, "vitest")
		inc, exc := vitestConfig(readFile)
		if len(inc) == 0 {
			inc = vitestDefaults
		}
		if len(exc) == 0 {
			exc = vitestExcludes
		}
		includes = append(includes, inc...)
		excludes = append(excludes, exc...)
	}
	if _, ok := cmds["ava"]; ok || has("ava") {
		p.runners = append(p.runners, "ava")
		files := avaDefaults
		if pj.Ava != nil && len(pj.Ava.Files) > 0 {
			files = nil
			for _, f := range pj.Ava.Files {
				if strings.HasPrefix(f, "!") {
					excludes = append(excludes, f[1:])
				} else {
					files = append(files, f)
				}
			}
		}
		includes = append(includes, files...)
		excludes = append(excludes, avaExcludes...)
	}
	p.include = compileJSGlobs(includes)
	p.exclude = compileJSGlobs(excludes)
	return p
}

// mochaPatterns is what mocha runs: the spec paths of the test script, else
// of .mocharc.{json,yml,yaml}, else of package.json's mocha key, else
// ./test; a directory stands for its files with mocha's extensions, and its
// subdirectories' only with --recursive.
func mochaPatterns(pj *packageJSON, args []string, readFile func(string) []byte, isDir func(string) bool) []string {
	recursive := false
	exts := []string{"js", "cjs", "mjs"}
	for i, a := range args {
		switch {
		case a == "--recursive":
			recursive = true
		case a == "--extension" && i+1 < len(args):
			exts = append(exts, strings.TrimPrefix(args[i+1], "."))
		case strings.HasPrefix(a, "--extension="):
			exts = append(exts, strings.TrimPrefix(strings.TrimPrefix(a, "--extension="), "."))
		}
	}
	spec := positional(args, mochaValueFlags)
	rc := &mochaConfig{}
	if b := readFile(".mocharc.json"); b != nil {
		_ = json.Unmarshal(b, rc)
	} else if b := readFile(".mocharc.yml"); b != nil {
		rc = yamlMocha(b)
	} else if b := readFile(".mocharc.yaml"); b != nil {
		rc = yamlMocha(b)
	} else if pj.Mocha != nil {
		rc = pj.Mocha
	}
	recursive = recursive || rc.Recursive
	if len(spec) == 0 {
		spec = rc.Spec
	}
	if len(spec) == 0 {
		spec = []string{"test"}
		// A .mocharc.js may set a spec sentinel cannot read: the files
		// named like tests stay test files beside mocha's default.
		if readFile(".mocharc.js") != nil || readFile(".mocharc.cjs") != nil {
			spec = append(spec, "**/*.{test,spec}.*", "**/__tests__/**")
		}
	}
	for _, e := range rc.Extension {
		exts = append(exts, strings.TrimPrefix(e, "."))
	}
	each := "*.{" + strings.Join(exts, ",") + "}"
	if recursive {
		each = "**/" + each
	}
	var out []string
	for _, s := range spec {
		out = append(out, dirOrGlob(s, each, isDir))
	}
	return out
}

// dirOrGlob turns a path a runner is given into a glob: a directory stands
// for the files under it that each matches.
func dirOrGlob(s, each string, isDir func(string) bool) string {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "./"), "/")
	if !strings.ContainsAny(s, "*?[{") && isDir(s) {
		return s + "/" + each
	}
	return s
}

// yamlMocha reads spec, extension and recursive from a .mocharc.yml: a
// scalar or a block or flow list, which is all they are written as in
// practice.
func yamlMocha(b []byte) *mochaConfig {
	rc := &mochaConfig{}
	var list *stringList // the list whose block items follow
	for _, line := range strings.Split(string(b), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case list != nil && strings.HasPrefix(t, "- "):
			*list = append(*list, yamlScalar(t[2:]))
			continue
		case strings.HasPrefix(t, "#") || t == "":
			continue
		}
		list = nil
		key, val, ok := strings.Cut(t, ":")
		if !ok || line != strings.TrimLeft(line, " \t") {
			continue
		}
		val = strings.TrimSpace(val)
		var dst *stringList
		switch strings.Trim(key, `"'`) {
		case "spec":
			dst = &rc.Spec
		case "extension":
			dst = &rc.Extension
		case "recursive":
			rc.Recursive = val == "true"
		}
		if dst == nil {
			continue
		}
		switch {
		case val == "":
			list = dst
		case strings.HasPrefix(val, "["):
			for _, v := range strings.Split(strings.Trim(val, "[]"), ",") {
				if v = yamlScalar(v); v != "" {
					*dst = append(*dst, v)
				}
			}
		default:
			*dst = []string{yamlScalar(val)}
		}
	}
	return rc
}

func yamlScalar(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, " #"); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return strings.Trim(s, `"'`)
}

// vitestStringList matches `include: [...]` of string literals only; a
// config that computes its lists is not static and keeps the defaults.
var vitestStringList = regexp.MustCompile(`(?s)\b(include|exclude)\s*:\s*\[((?:\s*(?:'[^'\n]*'|"[^"\n]*")\s*,?)*)\s*\]`)

var jsStringLit = regexp.MustCompile(`'([^'\n]*)'|"([^"\n]*)"`)

// vitestConfig reads the test include and exclude lists of a
// vitest.config.* where they are written as lists of string literals.
func vitestConfig(readFile func(string) []byte) (include, exclude []string) {
	for _, name := range []string{"vitest.config.ts", "vitest.config.mts", "vitest.config.js", "vitest.config.mjs"} {
		b := readFile(name)
		if b == nil {
			continue
		}
		for _, m := range vitestStringList.FindAllSubmatch(b, -1) {
			var list []string
			for _, s := range jsStringLit.FindAllSubmatch(m[2], -1) {
				list = append(list, string(s[1])+string(s[2]))
			}
			if string(m[1]) == "include" {
				include = append(include, list...)
			} else {
				exclude = append(exclude, list...)
			}
		}
		return include, exclude
	}
	return nil, nil
}

// Options that take a value, so that the value is not read as a spec path.
var (
	mochaValueFlags = map[string]bool{"-R": true, "--reporter": true, "-O": true, "--reporter-option": true, "--reporter-options": true,
		"-r": true, "--require": true, "-t": true, "--timeout": true, "--timeouts": true, "-s": true, "--slow": true, "-u": true, "--ui": true,
		"-g": true, "--grep": true, "-f": true, "--fgrep": true, "--file": true, "--extension": true, "--config": true, "--package": true,
		"--ignore": true, "--exclude": true, "-j": true, "--jobs": true, "--retries": true, "--node-option": true, "-n": true}
	tapValueFlags = map[string]bool{"-R": true, "--reporter": true, "-t": true, "--timeout": true, "-j": true, "--jobs": true,
		"--node-arg": true, "-i": true, "--include": true, "--exclude": true, "--coverage-report": true, "--plugin": true}
	nodeValueFlags = map[string]bool{"--require": true, "-r": true, "--import": true, "--loader": true, "--experimental-loader": true,
		"--test-reporter": true, "--test-reporter-destination": true, "--test-name-pattern": true, "--test-concurrency": true,
		"--test-timeout": true, "--env-file": true, "--conditions": true, "-C": true}
)

// positional returns the arguments that are not options nor their values.
func positional(args []string, valueFlags map[string]bool) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case strings.HasPrefix(a, "-"):
			if !strings.Contains(a, "=") && valueFlags[a] {
				i++
			}
		case a != "":
			out = append(out, a)
		}
	}
	return out
}

// npmRun matches a script that runs another of the package's scripts.
var npmRun = regexp.MustCompile(`\b(?:npm|yarn|pnpm)\s+(?:run(?:-script)?\s+)?([\w:.-]+)`)

// expandScript returns the named script with the package's scripts it runs
// (npm run tests-only, yarn unit) written out in their place, a few levels
// deep.
func expandScript(pj *packageJSON, name string, depth int) string {
	var script string
	if raw, ok := pj.Scripts[name]; !ok || json.Unmarshal(raw, &script) != nil || depth > 4 {
		return ""
	}
	return npmRun.ReplaceAllStringFunc(script, func(m string) string {
		sub := npmRun.FindStringSubmatch(m)[1]
		if sub == "install" || sub == "ci" || sub == "exec" || sub == "x" {
			return m
		}
		if sub == "t" {
			sub = "test"
		}
		if _, ok := pj.Scripts[sub]; !ok || sub == name {
			return m
		}
		return "; " + expandScript(pj, sub, depth+1) + " ;"
	})
}

// scriptCommands splits a test script into its commands and returns the
// arguments of each runner it calls: "mocha" (also _mocha, through nyc or
// c8), "tape", "jest", "vitest", "ava" and "node --test".
func scriptCommands(script string) map[string][]string {
	out := map[string][]string{}
	repl := strings.NewReplacer("&&", ";", "||", ";", "|", ";", "\n", ";")
	for _, cmd := range strings.Split(repl.Replace(script), ";") {
		words := strings.Fields(cmd)
		for i := range words {
			words[i] = strings.Trim(words[i], `"'`)
		}
		for i, w := range words {
			base := path.Base(w)
			name := ""
			switch base {
			case "mocha", "_mocha":
				name = "mocha"
			case "tape", "tap", "jest", "vitest", "ava":
				name = base
			case "node":
				for _, a := range words[i+1:] {
					if a == "--test" {
						name = "node --test"
					}
				}
			}
			if name == "" {
				continue
			}
			var args []string
			for _, a := range words[i+1:] {
				if a != "--test" {
					args = append(args, a)
				}
			}
			if name == "vitest" && len(args) > 0 && (args[0] == "run" || args[0] == "watch") {
				args = args[1:]
			}
			out[name] = append(out[name], args...)
			break
		}
	}
	return out
}

// compileJSGlobs compiles runner globs, in the extglob forms the runners
// use (?(c|m), +(spec|test)) turned into alternatives; a glob that does not
// compile is left out.
func compileJSGlobs(gs []string) []*glob.Pattern {
	var out []*glob.Pattern
	for _, g := range gs {
		g = strings.TrimPrefix(g, "./")
		g = extglob.ReplaceAllStringFunc(g, func(m string) string {
			alts := strings.Split(m[2:len(m)-1], "|")
			if m[0] == '?' || m[0] == '*' {
				alts = append([]string{""}, alts...)
			}
			return "{" + strings.Join(alts, ",") + "}"
		})
		c := glob.Compiler{Separators: []rune{'/'}, Globstar: true}
		if p, err := c.Compile(g); err == nil {
			out = append(out, p)
		}
	}
	return out
}

var extglob = regexp.MustCompile(`[?*+@]\([^()]*\)`)

func inNodeModules(p string) bool {
	return strings.HasPrefix(p, "node_modules/") || strings.Contains(p, "/node_modules/")
}

// language returns the language that counts the file at the slash path, as
// languages.ForPath does, with JavaScript and TypeScript files chosen by
// their package's runners.
func (sel *jsSelection) language(p string) *languages.Language {
	if _, ok := languages.JavaScript.Grammars[path.Ext(p)]; !ok {
		return languages.ForPath(p)
	}
	if inNodeModules(p) {
		return nil
	}
	pkg := sel.packageOf(p)
	if pkg == nil {
		return languages.ForPath(p)
	}
	if pkg.runs(p) {
		return languages.JavaScript
	}
	return nil
}

// packageOf returns the nearest package above p whose runner is known: a
// workspace package without one of its own is run from an enclosing one.
func (sel *jsSelection) packageOf(p string) *jsPackage {
	if len(sel.pkgs) == 0 {
		return nil
	}
	for d := path.Dir(p); ; d = path.Dir(d) {
		if d == "." {
			d = ""
		}
		if pkg := sel.pkgs[d]; pkg != nil && len(pkg.runners) > 0 {
			return pkg
		}
		if d == "" {
			return nil
		}
	}
}

// runs reports whether one of the package's runners runs the file.
func (pkg *jsPackage) runs(p string) bool {
	rel := p
	if pkg.dir != "" {
		rel = strings.TrimPrefix(p, pkg.dir+"/")
	}
	if len(pkg.roots) > 0 {
		in := false
		for _, r := range pkg.roots {
			if strings.HasPrefix(rel, r+"/") {
				in = true
			}
		}
		if !in {
			return false
		}
	}
	for _, re := range pkg.ignore {
		if re.MatchString("/" + rel) {
			return false
		}
	}
	for _, g := range pkg.exclude {
		if g.Match(rel) {
			return false
		}
	}
	for _, g := range pkg.include {
		if g.Match(rel) {
			return true
		}
	}
	for _, re := range pkg.regex {
		if re.MatchString("/" + rel) {
			return true
		}
	}
	return false
}

// JSCandidate reports a JavaScript or TypeScript file that a runner may
// run although its name does not say test.
func JSCandidate(p string) bool {
	_, ok := languages.JavaScript.Grammars[path.Ext(p)]
	return ok && !inNodeModules(p)
}
