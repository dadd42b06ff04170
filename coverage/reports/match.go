package reports

import (
	"path"
	"regexp"
	"sort"
	"strings"
)

// Causes of a finding: what became of a test the count sees as active.
const (
	// CauseAbsent is a test no report ran or named: deselected, excluded,
	// never compiled, or its file never collected.
	CauseAbsent = "absent"
	// CauseSkipped is a test the runner skipped at run time, for a reason
	// the count cannot see.
	CauseSkipped = "skipped"
	// CausePlatform is a test that did not run here for a reason the count
	// sees: a real condition, another platform. A matrix of jobs runs it.
	CausePlatform = "platform"
)

// Test is one test the static count sees as active, as Match needs it.
type Test struct {
	// Language, Path, Name and Line are the count's identity of the test.
	Language string
	Path     string
	Name     string
	Line     int
	// Scope is where the runner puts the test when its path does not say:
	// a Go package's import path. Empty otherwise.
	Scope string
	// Reason is why the count knows the test may not be built or collected
	// everywhere (its platforms, an import it skips without), empty when it
	// should be in every job's report.
	Reason string
	// Condition is a real condition under which the test skips itself at
	// run time (`testing.Short()`, a skipif on the platform): it explains
	// a skip in the report, never the test's absence from it.
	Condition string
}

// Finding is an active test that no report ran.
type Finding struct {
	// Language, Path, Name and Line say which test.
	Language string `json:"language"`
	Path     string `json:"path"`
	Name     string `json:"name"`
	Line     int    `json:"line"`
	// Cause is CauseAbsent, CauseSkipped or CausePlatform.
	Cause string `json:"cause"`
	// Message is the runner's reason for a skip; Report is the report
	// that skipped it.
	Message string `json:"message,omitempty"`
	Report  string `json:"report,omitempty"`
}

// Text says what became of the test, for people.
func (f Finding) Text() string {
	switch f.Cause {
	case CauseSkipped:
		s := "skipped at run time, for no reason the count can see"
		if f.Message != "" {
			s += " (the runner says: " + f.Message + ")"
		}
		return s
	case CausePlatform:
		return "skipped on this platform"
	}
	return "not in the runner's report: deselected, excluded, never compiled, or its file never collected"
}

// Verdict is what the reports say of the tests the count sees.
type Verdict struct {
	// Reports are the reports read.
	Reports []string `json:"reports"`
	// Tests is how many active tests the count sees; Ran how many of them
	// a report ran (passed or failed), and Cases how many cases of them ran
	// (a parametrisation's instances, subtests).
	Tests int `json:"tests"`
	Ran   int `json:"ran"`
	Cases int `json:"cases"`
	// Lost are the active tests no report ran, and no reason the count
	// sees explains.
	Lost []Finding `json:"lost"`
	// Platform are the tests that did not run here for a reason the count
	// sees.
	Platform []Finding `json:"platform"`
	// Unknown are the cases the reports ran that match no test the count
	// sees: information, or a counting bug to fix.
	Unknown []Case `json:"unknown"`
}

// OK reports that every active test ran, or has a reason not to.
func (v *Verdict) OK() bool { return len(v.Lost) == 0 }

// MaxUnknown is the most unknown cases a verdict lists; the rest are
// counted in UnknownMore.
const MaxUnknown = 50

// Match says which of the tests the cases ran. A test ran when any case
// of any report ran one of its instances (a matrix's jobs combine so); a
// test whose instances were all skipped was skipped. See keys for how a
// runner's names map to the count's.
func Match(tests []Test, s *Set) *Verdict {
	v := &Verdict{Reports: append([]string{}, s.Files...), Tests: len(tests), Lost: []Finding{}, Platform: []Finding{}, Unknown: []Case{}}
	exact := map[string][]int{}
	suffix := map[string][]int{}
	var patterns []int
	for i, t := range tests {
		for _, k := range staticKeys(t) {
			exact[join(k)] = append(exact[join(k)], i)
			for j := 1; j < len(k); j++ {
				suffix[join(k[j:])] = append(suffix[join(k[j:])], i)
			}
		}
		if placeholder.MatchString(t.Name) {
			patterns = append(patterns, i)
		}
	}
	type state struct {
		ran     bool
		cases   map[string]bool
		skipped *Case
	}
	st := make([]state, len(tests))
	hit := func(i int, c *Case) {
		switch c.Outcome {
		case Skipped:
			if st[i].skipped == nil {
				st[i].skipped = c
			}
		default:
			st[i].ran = true
			if st[i].cases == nil {
				st[i].cases = map[string]bool{}
			}
			st[i].cases[c.Class+"\x00"+c.Name] = true
		}
	}
	var unmatched []int
	for ci := range s.Cases {
		c := &s.Cases[ci]
		found := false
		for _, k := range caseKeys(c) {
			ids := lookup(k, exact, suffix)
			for _, i := range ids {
				hit(i, c)
			}
			if len(ids) > 0 {
				found = true
				break
			}
		}
		if !found {
			unmatched = append(unmatched, ci)
		}
	}
	// A title with placeholders (test.each's %s, a template literal's
	// ${…}, Ruby's #{…}) stands for every title it makes, in its file.
	if len(patterns) > 0 && len(unmatched) > 0 {
		compiled := map[string]*regexp.Regexp{}
		left := unmatched[:0]
		for _, ci := range unmatched {
			c := &s.Cases[ci]
			found := false
			for _, i := range patterns {
				if titleMatches(tests[i], c, compiled) {
					hit(i, c)
					found = true
				}
			}
			if !found {
				left = append(left, ci)
			}
		}
		unmatched = left
	}
	for _, ci := range unmatched {
		v.Unknown = append(v.Unknown, s.Cases[ci])
	}
	for i, t := range tests {
		if st[i].ran {
			v.Ran++
			v.Cases += leaves(st[i].cases)
			continue
		}
		f := Finding{Language: t.Language, Path: t.Path, Name: t.Name, Line: t.Line, Cause: CauseAbsent}
		if c := st[i].skipped; c != nil {
			f.Cause, f.Message, f.Report = CauseSkipped, c.Message, c.Report
		}
		if t.Reason != "" || (t.Condition != "" && f.Cause == CauseSkipped) {
			f.Cause = CausePlatform
			v.Platform = append(v.Platform, f)
			continue
		}
		v.Lost = append(v.Lost, f)
	}
	sortFindings(v.Lost)
	sortFindings(v.Platform)
	return v
}

// leaves counts a test's cases: a Go test that ran subtests is its
// subtests, not itself besides them.
func leaves(cases map[string]bool) int {
	parents := map[string]bool{}
	for c := range cases {
		for i := strings.LastIndexByte(c, '/'); i > 0; i = strings.LastIndexByte(c[:i], '/') {
			if parents[c[:i]] {
				break // its own parents are marked already
			}
			parents[c[:i]] = true
		}
	}
	n := 0
	for c := range cases {
		if !parents[c] {
			n++
		}
	}
	return n
}

// lookup finds the tests a report's key names: the same key; a static key
// the report's ends (a runner run below the repository's root names the
// module from there); or a static key that ends the report's (a runner
// that names a class with its namespace, which the count leaves out). A
// suffix is whole segments, at least two, so that a bare method name never
// matches every method of that name. A key of one segment (a runner that
// names the test only) matches by that name alone.
func lookup(k []string, exact, suffix map[string][]int) []int {
	if ids := exact[join(k)]; len(ids) > 0 {
		return ids
	}
	if len(k) >= 2 || (len(k) == 1 && k[0] != "") {
		// One segment: only caseKeys' last resort, a case without scope.
		if ids := suffix[join(k)]; len(ids) > 0 {
			return ids
		}
	}
	for j := 1; j+2 <= len(k); j++ {
		if ids := exact[join(k[j:])]; len(ids) > 0 {
			return ids
		}
	}
	return nil
}

// join makes a key a map key.
func join(k []string) string { return strings.Join(k, "\x1f") }

// titled are the languages whose tests are named by titles ("outer >
// inner > name"), which may hold dots and spaces: their keys are the file
// and the title, never the title split.
var titled = map[string]bool{"javascript": true, "typescript": true, "ruby": true, "kotlin": true, "php": true, "swift": true}

// staticKeys are the keys a test of the count is known by, as segments:
//   - Go: the package's import path and the test (a suite method also as
//     the method under any test of the package, as testify and check.v1
//     run it);
//   - Python: the module's path and the class and function, split at dots,
//     as pytest's classname and name make it;
//   - titles (JS, TS, RSpec, Kotest, Pest, Swift Testing): the file's path
//     and the title, and the title with its " > " as spaces, as jest-junit
//     and rspec_junit_formatter join them;
//   - classes (Java, C#, PHP, C++, Rust, Swift's XCTest): the class's path
//     and the method (Java's package is its directory), and the name split
//     at its separators alone.
func staticKeys(t Test) [][]string {
	dir, file := path.Split(t.Path)
	dirs := splitPath(dir)
	switch {
	case t.Language == "go":
		scope := t.Scope
		if scope == "" {
			scope = strings.TrimSuffix(dir, "/")
		}
		if typ, method, ok := strings.Cut(t.Name, "."); ok && typ != "" {
			return [][]string{{scope, t.Name}, {scope, "\x00suite", method}}
		}
		return [][]string{{scope, t.Name}}
	case t.Language == "python":
		mod := append(dirs, strings.TrimSuffix(file, path.Ext(file)))
		return [][]string{append(mod, strings.Split(t.Name, ".")...)}
	case titled[t.Language] && (strings.Contains(t.Name, " ") || !classStyle.MatchString(t.Name)):
		p := splitPath(t.Path)
		keys := [][]string{append(append([]string{}, p...), t.Name)}
		if sp := strings.ReplaceAll(t.Name, " > ", " "); sp != t.Name {
			keys = append(keys, append(append([]string{}, p...), sp))
		}
		return append(keys, []string{t.Name})
	}
	segs := splitClass(t.Name)
	keys := [][]string{append(append([]string{}, dirs...), segs...), segs}
	if t.Language == "rust" {
		// nextest names an integration test's binary after its file.
		keys = append(keys, append([]string{strings.TrimSuffix(file, ".rs")}, segs...))
	}
	return keys
}

// classStyle is a name of a class's method: no spaces, separators of a
// language (a.b, A::b, A#b, A\B::c).
var classStyle = regexp.MustCompile(`^[\p{L}\p{N}_$\\]+((\.|::|#)[\p{L}\p{N}_$\\]+)+$`)

// caseKeys are the keys a report's case may be known by, the most precise
// first: its file, when the runner wrote it; its classname as a path
// (Vitest) or as a package (gotestsum); its classname as a class with the
// name as the method, parameters taken off; the name as a Rust path; the
// name alone, when the runner gave no scope (jest-junit's default).
func caseKeys(c *Case) [][]string {
	if c.Format == FormatGoJSON {
		return goKeys(c.Class, c.Name)
	}
	var keys [][]string
	name, bare := c.Name, stripParams(c.Name)
	if c.File != "" {
		p := splitPath(cleanFile(c.File))
		keys = append(keys, append(append([]string{}, p...), name))
		// jest-junit with its file attribute: the ancestors' titles in
		// classname, the test's own in name.
		if c.Class != "" && !looksLikePath(c.Class) && c.Class != c.Name {
			keys = append(keys, append(append([]string{}, p...), c.Class+" > "+name), append(append([]string{}, p...), c.Class+" "+name))
		}
		if bare != name {
			keys = append(keys, append(append([]string{}, p...), bare))
		}
		// pytest's xunit1 file attribute, with its classname's class.
		if strings.HasSuffix(c.File, ".py") {
			mod := strings.TrimSuffix(cleanFile(c.File), ".py")
			dotted := strings.ReplaceAll(mod, "/", ".")
			if rest, ok := strings.CutPrefix(c.Class, dotted); ok {
				k := append(splitPath(mod), splitClass(strings.TrimPrefix(rest, "."))...)
				keys = append(keys, append(k, bare))
			}
		}
	}
	if looksLikePath(c.Class) {
		keys = append(keys, append(splitPath(cleanFile(c.Class)), name))
	}
	if strings.Contains(c.Class, "/") && goName.MatchString(c.Name) {
		keys = append(keys, goKeys(c.Class, c.Name)...)
	}
	if c.Class != "" && !looksLikePath(c.Class) && !strings.Contains(c.Class, " ") {
		keys = append(keys, append(splitClass(c.Class), bare))
		// GoogleTest's parameterised suites: Prefix/Suite, and Name/0.
		if strings.Contains(c.Class, "/") {
			_, suite, _ := strings.Cut(c.Class, "/")
			n, _, _ := strings.Cut(bare, "/")
			keys = append(keys, append(splitClass(suite), n))
		}
	}
	if strings.Contains(bare, "::") {
		keys = append(keys, strings.Split(bare, "::"))
	}
	// A runner that names neither file nor class (jest-junit's default,
	// whose classname is the title again) is matched by the title alone.
	// So is an integration test of libtest's JUnit, whose classname is
	// "integration" whatever its file.
	if c.File == "" && (c.Class == "" || c.Class == c.Name || strings.Contains(c.Class, " ") || c.Class == "integration") {
		keys = append(keys, []string{strings.TrimSpace(name)})
	}
	return keys
}

// goKeys are the keys of a Go test: the package and the top-level test,
// and, for a subtest, the package and its first level as a suite method.
func goKeys(pkg, name string) [][]string {
	top, rest, sub := strings.Cut(name, "/")
	keys := [][]string{{pkg, top}}
	if sub {
		method, _, _ := strings.Cut(rest, "/")
		keys = append(keys, []string{pkg, "\x00suite", method})
	}
	return keys
}

// goName is a Go test's name as go test reports it.
var goName = regexp.MustCompile(`^(Test|Fuzz|Example)`)

// stripParams takes a case's parameters off its name: pytest's and JUnit
// 4's test_x[a], JUnit 5's and .NET's m(int)[1], PHPUnit's "m with data set
// #0", Go's TestX/case.
func stripParams(name string) string {
	if i := strings.Index(name, " with data set "); i > 0 {
		name = name[:i]
	}
	if i := strings.IndexAny(name, "[("); i > 0 {
		name = name[:i]
	}
	return strings.TrimSpace(name)
}

// splitPath splits a slash path into its elements, empty ones left out.
func splitPath(p string) []string {
	var out []string
	for _, e := range strings.Split(p, "/") {
		if e != "" && e != "." {
			out = append(out, e)
		}
	}
	return out
}

// splitClass splits a qualified name at its separators: dots, "::", "#",
// backslashes and "$" (a Java inner class).
func splitClass(s string) []string {
	s = strings.NewReplacer("::", ".", "#", ".", `\`, ".", "$", ".").Replace(s)
	var out []string
	for _, e := range strings.Split(s, ".") {
		if e != "" {
			out = append(out, e)
		}
	}
	return out
}

// cleanFile makes a runner's file attribute a slash path without "./" or
// a drive; an absolute path keeps its elements, matched by suffix.
func cleanFile(f string) string {
	f = strings.ReplaceAll(f, `\`, "/")
	if len(f) > 1 && f[1] == ':' {
		f = f[2:]
	}
	return path.Clean("/" + f)[1:]
}

// looksLikePath reports a classname that is a file's path (Vitest's,
// rspec_junit_formatter's with its extension kept).
func looksLikePath(s string) bool {
	if strings.Contains(s, " ") || s == "" {
		return false
	}
	switch path.Ext(s) {
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".rb", ".py", ".php", ".kt", ".swift":
		return true
	}
	return false
}

// placeholder finds a title that stands for several: Jest's and Vitest's
// each formats (%s, %d, %i, %f, %j, %o, %p, %#, $var), ${…} and #{…}.
var placeholder = regexp.MustCompile(`%[sdifjoOp#]|\$\{[^}]*\}|#\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_.]*`)

// titleMatches reports that a case's title is one the test's title with
// placeholders makes, in the test's file (when the case names its file);
// compiled keeps the patterns made.
func titleMatches(t Test, c *Case, compiled map[string]*regexp.Regexp) bool {
	file := ""
	switch {
	case c.File != "":
		file = cleanFile(c.File)
	case looksLikePath(c.Class):
		file = cleanFile(c.Class)
	}
	if file != "" && file != t.Path && !strings.HasSuffix(file, "/"+t.Path) && !strings.HasSuffix(t.Path, "/"+file) {
		return false
	}
	names := []string{c.Name}
	if c.Class != "" && c.Class != c.Name && !looksLikePath(c.Class) {
		names = append(names, c.Class+" > "+c.Name, c.Class+" "+c.Name)
	}
	re, spaced := titlePattern(t.Name, compiled), titlePattern(strings.ReplaceAll(t.Name, " > ", " "), compiled)
	for _, n := range names {
		if re.MatchString(n) || spaced.MatchString(n) {
			return true
		}
	}
	return false
}

// titlePattern makes a title with placeholders a regular expression: each
// placeholder matches anything.
func titlePattern(title string, compiled map[string]*regexp.Regexp) *regexp.Regexp {
	if re := compiled[title]; re != nil {
		return re
	}
	var b strings.Builder
	b.WriteString("^")
	last := 0
	for _, m := range placeholder.FindAllStringIndex(title, -1) {
		b.WriteString(regexp.QuoteMeta(title[last:m[0]]))
		b.WriteString(".*")
		last = m[1]
	}
	b.WriteString(regexp.QuoteMeta(title[last:]))
	b.WriteString("$")
	re := regexp.MustCompile(b.String())
	compiled[title] = re
	return re
}

// sortFindings orders findings by path, line and name.
func sortFindings(fs []Finding) {
	sort.Slice(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Name < b.Name
	})
}

// ModulePath is the module path a go.mod declares, "" when it declares
// none.
func ModulePath(gomod []byte) string {
	for _, l := range strings.Split(string(gomod), "\n") {
		l = strings.TrimSpace(l)
		if rest, ok := strings.CutPrefix(l, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '"') {
			rest = strings.TrimSpace(rest)
			if i := strings.Index(rest, "//"); i >= 0 {
				rest = strings.TrimSpace(rest[:i])
			}
			return strings.Trim(rest, "\"`")
		}
	}
	return ""
}

// ImportPath is the import path of the package in dir (a slash path from
// the repository's root), given the module path of each directory that
// holds a go.mod ("" for the root): the nearest module's path and the rest
// of dir. It is "" when no module holds dir.
func ImportPath(modules map[string]string, dir string) string {
	if dir = strings.Trim(dir, "/"); dir == "." {
		dir = ""
	}
	for d := dir; ; {
		if mod, ok := modules[d]; ok && mod != "" {
			rest := strings.TrimPrefix(strings.TrimPrefix(dir, d), "/")
			if rest == "" {
				return mod
			}
			return mod + "/" + rest
		}
		if d == "" {
			return ""
		}
		if i := strings.LastIndexByte(d, '/'); i >= 0 {
			d = d[:i]
		} else {
			d = ""
		}
	}
}
