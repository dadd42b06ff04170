package runners

import (
	"context"
	"path"
	"regexp"
	"strings"

	"github.com/gitsentinel/sentinel/languages"
	"github.com/gobwas/glob"
)

// rubySelection decides which Ruby files are test files the way each
// project's runners find them: RSpec's --pattern under its --default-path,
// the files of a Rakefile's Rake::TestTask or Minitest::TestTask, and
// `bin/rails test`'s test/**/*_test.rb. A file decides by the projects
// above it whose runners claim it; a file no runner claims keeps the
// Ruby globs.
type rubySelection struct {
	projects map[string]*rubyProject // by directory, "" for the root
}

// rubyProject is one project root and the runners found in it.
type rubyProject struct {
	dir     string
	runners []*rubyRunner
}

// rubyRunner is one runner of a project: the files it runs, and the files
// it claims, which are decided by the runners alone. A runner whose config
// sentinel could not read claims nothing, so that the globs decide.
type rubyRunner struct {
	name    string
	include []*glob.Pattern // over the path relative to the project
	exclude []*glob.Pattern
	claims  func(rel string) bool
}

// The runners' own defaults, as rspec-core 3.12, rake 13, minitest 5.17
// and railties 6.1 define them.
const (
	rspecDefaultPath    = "spec"
	rspecDefaultPattern = "**{,/*/**}/*_spec.rb"
	rakeDefaultPattern  = "test/test*.rb"
	railsTestGlob       = "test/**/*_test.rb"
	railsTestExclude    = "test/{system,dummy}/**/*_test.rb"
)

// minitestTaskGlobs are Minitest::TestTask's default test_globs.
var minitestTaskGlobs = []string{"test/**/test_*.rb", "test/**/*_test.rb"}

// rubyConfig reports the base names that mark a Ruby project or hold its
// runners' settings: task files (*.rake) too, since a Rakefile's test
// tasks may be defined in the files it imports or rakelib/ holds.
func rubyConfig(base string) bool {
	switch base {
	case ".rspec", ".rspec-local", "Rakefile", "rakefile", "Rakefile.rb", "Gemfile", "gems.rb", "application.rb":
		return true
	}
	return strings.HasSuffix(base, ".rake")
}

// newRubySelection reads the Ruby projects of the snapshot, or returns nil
// when it holds none.
func newRubySelection(ctx context.Context, pf *projectFiles) runnerSelection {
	sel := &rubySelection{projects: map[string]*rubyProject{}}
	roots := map[string]bool{}
	var rakeFiles []string
	for _, p := range pf.paths(rubyConfig) {
		if strings.HasSuffix(p, ".rake") {
			rakeFiles = append(rakeFiles, p)
			continue
		}
		dir := path.Dir(p)
		if path.Base(p) == "application.rb" {
			// Only a Rails app's config/application.rb marks a project.
			if path.Base(dir) != "config" {
				continue
			}
			dir = path.Dir(dir)
		}
		if dir == "." {
			dir = ""
		}
		roots[dir] = true
	}
	// A task file belongs to the nearest project above it.
	tasks := map[string][]string{}
	for _, p := range rakeFiles {
		for d := path.Dir(p); ; d = path.Dir(d) {
			if d == "." {
				d = ""
			}
			if roots[d] {
				tasks[d] = append(tasks[d], p)
				break
			}
			if d == "" {
				break
			}
		}
	}
	for dir := range roots {
		if prj := buildRubyProject(ctx, pf, dir, tasks[dir]); len(prj.runners) > 0 {
			sel.projects[dir] = prj
		}
	}
	if len(sel.projects) == 0 {
		return nil
	}
	return sel
}

// buildRubyProject finds the runners of the project at dir, whose task
// files are rakeFiles.
func buildRubyProject(ctx context.Context, pf *projectFiles, dir string, rakeFiles []string) *rubyProject {
	prj := &rubyProject{dir: dir}
	at := func(name string) string { return path.Join(dir, name) }
	has := func(name string) bool { return pf.has(at(name)) }

	// RSpec: `rspec` run at the root reads .rspec, then .rspec-local, a
	// later file's options overriding an earlier one's.
	opts := rspecOptions{defaultPath: rspecDefaultPath, pattern: rspecDefaultPattern}
	readable, found := true, false
	for _, name := range []string{".rspec", ".rspec-local"} {
		if !has(name) {
			continue
		}
		found = true
		if !opts.parse(pf.read(ctx, at(name))) {
			readable = false
		}
	}
	if found || pf.isDir(at(rspecDefaultPath)) {
		prj.runners = append(prj.runners, rspecRunner(opts, readable))
	}

	for _, name := range []string{"Rakefile", "rakefile", "Rakefile.rb"} {
		if !has(name) {
			continue
		}
		// Rake runs from the Rakefile's directory: the patterns of the
		// task files it loads are relative to it too.
		prj.runners = append(prj.runners, rakeRunners(pf.read(ctx, at(name)))...)
		for _, p := range rakeFiles {
			prj.runners = append(prj.runners, rakeRunners(pf.read(ctx, p))...)
		}
		break
	}
	if pf.has(at("config/application.rb")) {
		prj.runners = append(prj.runners, &rubyRunner{
			name:    "rails",
			include: compileRubyGlobs([]string{railsTestGlob}),
			exclude: compileRubyGlobs([]string{railsTestExclude}),
			claims:  claimsTests(nil),
		})
	}
	return prj
}

// rspecOptions are the options of .rspec files that choose the files.
type rspecOptions struct {
	defaultPath, pattern, exclude string
}

// parse reads an options file: each line split as a shell splits it, the
// way RSpec reads it. It returns false when the file cannot be read
// statically (missing, too large, or ERB, which RSpec evaluates first).
func (o *rspecOptions) parse(b []byte) bool {
	if b == nil || strings.Contains(string(b), "<%") {
		return false
	}
	var args []string
	for _, line := range strings.Split(string(b), "\n") {
		words, ok := shellWords(line)
		if !ok {
			return false
		}
		args = append(args, words...)
	}
	pattern := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, inline := strings.Cut(a, "=")
		if !strings.HasPrefix(a, "--") {
			name, val, inline = a, "", false
			if strings.HasPrefix(a, "-P") && len(a) > 2 {
				name, val, inline = "-P", a[2:], true
			}
		}
		switch name {
		case "-P", "--pattern", "--exclude-pattern", "--default-path":
		default:
			continue
		}
		if !inline {
			if i+1 >= len(args) {
				return false
			}
			i++
			val = args[i]
		}
		switch name {
		case "-P", "--pattern":
			// Within one file, patterns add up; across files the later
			// file's replaces the earlier's.
			if pattern != "" {
				pattern += "," + val
			} else {
				pattern = val
			}
		case "--exclude-pattern":
			o.exclude = val
		case "--default-path":
			o.defaultPath = strings.TrimSuffix(strings.TrimPrefix(val, "./"), "/")
		}
	}
	if pattern != "" {
		o.pattern = pattern
	}
	return true
}

// rspecRunner is RSpec's selection: the pattern and the exclude pattern,
// each under the default path unless it starts with it. It claims every
// *_spec.rb and every file under the default path and under the pattern's
// fixed directories.
func rspecRunner(o rspecOptions, readable bool) *rubyRunner {
	r := &rubyRunner{name: "rspec", claims: func(string) bool { return false }}
	if !readable || path.IsAbs(o.defaultPath) || o.defaultPath == "" {
		return r
	}
	include := rspecGlobs(o.defaultPath, o.pattern)
	r.include = compileRubyGlobs(include)
	if o.exclude != "" {
		r.exclude = compileRubyGlobs(rspecGlobs(o.defaultPath, o.exclude))
	}
	dirs := append(fixedDirs(include), o.defaultPath)
	r.claims = func(rel string) bool {
		if strings.HasSuffix(rel, "_spec.rb") {
			return true
		}
		for _, d := range dirs {
			if d == "" || strings.HasPrefix(rel, d+"/") {
				return true
			}
		}
		return false
	}
	return r
}

// rspecGlobs is RSpec's file_glob_from: the comma-separated patterns,
// joined to the default path unless the pattern starts with it.
func rspecGlobs(defaultPath, pattern string) []string {
	var out []string
	for _, p := range splitTopCommas(pattern) {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if !strings.HasPrefix(strings.TrimPrefix(pattern, "./"), defaultPath) {
			p = defaultPath + "/" + strings.TrimPrefix(p, "./")
		}
		out = append(out, p)
	}
	return out
}

// splitTopCommas splits s at the commas outside braces.
func splitTopCommas(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// rakeTask matches the start of a test task in a Rakefile; rakeEnd, the
// start of a task that is not one, so that its settings are not read as
// the test task's.
var (
	rakeTask   = regexp.MustCompile(`\b(?:Rake::TestTask\.new|Minitest::TestTask\.create)\b`)
	rakeOther  = regexp.MustCompile(`\b(?:RSpec::Core::RakeTask|Rake::\w*Task|Cucumber::Rake::Task)\.new\b`)
	rakeAssign = regexp.MustCompile(`\b\w+\.(pattern|test_files|test_globs)\s*=[ \t]*`)
	// rakeModify matches a change to the list other than an assignment
	// (+=, <<, .include), which sentinel does not follow.
	rakeModify = regexp.MustCompile(`\b\w+\.(?:pattern|test_files|test_globs)\s*(?:\+=|<<|\.\w)`)
)

// rakeRunners reads the test tasks of a Rakefile. A task whose files are
// not all written as literals claims nothing, so the globs decide; a task
// with neither pattern nor test_files runs Rake's default test/test*.rb
// (Minitest::TestTask: test/**/{test_*,*_test}.rb).
func rakeRunners(b []byte) []*rubyRunner {
	if b == nil {
		return nil
	}
	src := string(b)
	starts := rakeTask.FindAllStringIndex(src, -1)
	var out []*rubyRunner
	for i, st := range starts {
		end := len(src)
		if i+1 < len(starts) {
			end = starts[i+1][0]
		}
		if o := rakeOther.FindStringIndex(src[st[1]:end]); o != nil {
			end = st[1] + o[0]
		}
		body := src[st[1]:end]
		minitest := strings.HasPrefix(src[st[0]:], "Minitest")
		r := &rubyRunner{name: "rake"}
		var include, exclude []string
		static, set := !rakeModify.MatchString(body), false
		for _, m := range rakeAssign.FindAllStringSubmatchIndex(body, -1) {
			set = true
			inc, exc, ok := rubyLiteralFiles(body[m[1]:])
			if !ok {
				static = false
				continue
			}
			include = append(include, inc...)
			exclude = append(exclude, exc...)
		}
		switch {
		case !static:
			r.claims = func(string) bool { return false }
			out = append(out, r)
			continue
		case !set && minitest:
			include = minitestTaskGlobs
		case !set:
			include = []string{rakeDefaultPattern}
		}
		r.include = compileRubyGlobs(include)
		r.exclude = compileRubyGlobs(exclude)
		r.claims = claimsTests(fixedDirs(include))
		out = append(out, r)
	}
	return out
}

// claimsTests claims the files a Minitest or test-unit runner is meant to
// run: those named *_test.rb or test_*.rb, those under test/, and those
// under the given directories.
func claimsTests(dirs []string) func(rel string) bool {
	return func(rel string) bool {
		base := path.Base(rel)
		if strings.HasSuffix(base, "_test.rb") || strings.HasPrefix(base, "test_") || strings.HasPrefix(rel, "test/") {
			return true
		}
		for _, d := range dirs {
			if d == "" || strings.HasPrefix(rel, d+"/") {
				return true
			}
		}
		return false
	}
}

// fixedDirs returns the directory each glob starts with before its first
// wildcard: the runner owns what is under it.
func fixedDirs(globs []string) []string {
	var out []string
	for _, g := range globs {
		g = strings.TrimPrefix(g, "./")
		i := strings.IndexAny(g, "*?[{")
		if i < 0 {
			i = len(g)
		}
		d := path.Dir(g[:i] + "x")
		if d == "." {
			d = ""
		}
		out = append(out, d)
	}
	return out
}

var (
	rubyStrings = regexp.MustCompile(`^\s*(?:'([^'\\\n#]*)'|"([^"\\\n#]*)")\s*`)
	rubyWords   = regexp.MustCompile(`^%[wW]\s*([\[({<])([^\])}>]*)[\])}>]\s*`)
	rubyCall    = regexp.MustCompile(`^(?:(?:Rake::)?FileList(?:\.new)?|Dir(?:\.glob)?)\s*[\[(]\s*`)
	rubyExclude = regexp.MustCompile(`^\.exclude\s*[\[(]\s*`)
)

// rubyLiteralFiles reads the value of a pattern, test_files or test_globs
// assignment: a string, a list of strings, FileList[…], Dir[…] or
// Dir.glob(…) of strings, with an optional .exclude(…) of strings. ok is
// false for anything else, such as interpolation or a computed list.
func rubyLiteralFiles(s string) (include, exclude []string, ok bool) {
	rest := s
	if m := rubyCall.FindStringIndex(rest); m != nil {
		rest = rest[m[1]:]
		var close bool
		if include, rest, close = rubyStringList(rest); !close {
			return nil, nil, false
		}
	} else if m := rubyWords.FindStringSubmatch(rest); m != nil {
		include = strings.Fields(m[2])
		rest = rest[len(m[0]):]
	} else if strings.HasPrefix(strings.TrimSpace(rest), "[") {
		var close bool
		if include, rest, close = rubyStringList(strings.TrimSpace(rest)[1:]); !close {
			return nil, nil, false
		}
	} else if m := rubyStrings.FindStringSubmatch(rest); m != nil {
		include = []string{m[1] + m[2]}
		rest = rest[len(m[0]):]
	} else {
		return nil, nil, false
	}
	if m := rubyExclude.FindStringIndex(rest); m != nil {
		var close bool
		if exclude, rest, close = rubyStringList(rest[m[1]:]); !close {
			return nil, nil, false
		}
	}
	// The statement must end here: anything more changes the list.
	line, _, _ := strings.Cut(rest, "\n")
	if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "#") && t != "end" && t != "}" {
		return nil, nil, false
	}
	return include, exclude, len(include) > 0
}

// rubyStringList reads string literals separated by commas, in an
// optional inner [ ], up to the closing bracket or parenthesis.
func rubyStringList(s string) (list []string, rest string, ok bool) {
	s = strings.TrimLeft(s, " \t\r\n")
	inner := strings.HasPrefix(s, "[")
	if inner {
		s = s[1:]
	}
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		m := rubyStrings.FindStringSubmatch(s)
		if m == nil {
			break
		}
		list = append(list, m[1]+m[2])
		s = strings.TrimLeft(s[len(m[0]):], " \t\r\n")
		if !strings.HasPrefix(s, ",") {
			break
		}
		s = s[1:]
	}
	if inner {
		if !strings.HasPrefix(s, "]") {
			return nil, s, false
		}
		s = strings.TrimLeft(s[1:], " \t\r\n")
	}
	if !strings.HasPrefix(s, "]") && !strings.HasPrefix(s, ")") {
		return nil, s, false
	}
	return list, s[1:], len(list) > 0
}

// compileRubyGlobs compiles Ruby Dir globs: ** before a slash matches
// any number of directories, none included, and RSpec's {,/*/**} (which
// follows symlinked directories) adds nothing over it.
func compileRubyGlobs(gs []string) []*glob.Pattern {
	var out []*glob.Pattern
	for _, g := range gs {
		g = strings.ReplaceAll(strings.TrimPrefix(g, "./"), "**{,/*/**}/", "**/")
		c := glob.Compiler{Separators: []rune{'/'}, Globstar: true}
		if p, err := c.Compile(g); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// decide returns Ruby for a file a runner of a project above it runs, nil
// for one they claim but do not run, and leaves the rest to the globs.
func (sel *rubySelection) decide(p string) (*languages.Language, bool) {
	if path.Ext(p) != ".rb" {
		return nil, false
	}
	claimed := false
	for d := path.Dir(p); ; d = path.Dir(d) {
		if d == "." {
			d = ""
		}
		if prj := sel.projects[d]; prj != nil {
			rel := p
			if d != "" {
				rel = strings.TrimPrefix(p, d+"/")
			}
			for _, r := range prj.runners {
				if !r.claims(rel) {
					continue
				}
				claimed = true
				if r.runs(rel) {
					return languages.Ruby, true
				}
			}
		}
		if d == "" {
			break
		}
	}
	return nil, claimed
}

// runs reports whether the runner runs the file at rel.
func (r *rubyRunner) runs(rel string) bool {
	for _, g := range r.exclude {
		if g.Match(rel) {
			return false
		}
	}
	for _, g := range r.include {
		if g.Match(rel) {
			return true
		}
	}
	return false
}

// shellWords splits a line as a POSIX shell splits words: quotes and
// backslashes, no expansions. ok is false for an unterminated quote.
func shellWords(line string) (words []string, ok bool) {
	var cur strings.Builder
	in := false
	var quote rune
	esc := false
	for _, c := range line {
		switch {
		case esc:
			cur.WriteRune(c)
			esc = false
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				cur.WriteRune(c)
			}
		case quote == '"':
			switch c {
			case '"':
				quote = 0
			case '\\':
				esc = true
			default:
				cur.WriteRune(c)
			}
		case c == '\\':
			esc, in = true, true
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t' || c == '\r':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(c)
			in = true
		}
	}
	if quote != 0 {
		return nil, false
	}
	if in {
		words = append(words, cur.String())
	}
	return words, true
}
