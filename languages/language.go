// Package languages finds tests, skipped tests and assertions in source
// files with tree-sitter grammars: one file per language, each declaring its
// extensions, test-file globs, a byte prefilter, its grammar, its queries,
// how a test's stable name is built, and its own samples.
package languages

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/gobwas/glob"
	sitter "github.com/smacker/go-tree-sitter"
)

// Version changes whenever a change to a language can change a count, so
// that cached results of an older engine are never reused.
const Version = 20

// Status is whether a test runs.
type Status string

// The statuses of a test.
const (
	Active  Status = "active"
	Skipped Status = "skipped"
)

// Test is one test definition.
type Test struct {
	// Name is the test's stable name (Go TestFoo, Python Cls.test_x, JS
	// outer > inner > name, Rust module::name, Java Class#method).
	Name string `json:"name"`
	// Line is the 1-based line of the definition.
	Line int `json:"line"`
	// Status says whether the test runs.
	Status Status `json:"status"`
	// Conditional says the test runs only where a condition holds that
	// sentinel cannot know ("importorskip": Python's pytest.importorskip
	// at the module's top level or in the test); the test stays active.
	Conditional string `json:"conditional,omitempty"`
	// Assertions and Vacuous count the assertions in the test's own code,
	// and in the helpers of its file that it calls: a drop in assertions
	// names the test that lost them, and a test emptied of them is a loss
	// even when it keeps its name.
	Assertions int `json:"-"`
	Vacuous    int `json:"-"`
	// Body identifies the test's definition apart from its name: a hash
	// of its source with the name taken out and whitespace ignored, so
	// that a renamed test is known for the same test.
	Body string `json:"-"`
	// Platforms names the platforms the test is built for, when it is not
	// built for all: it runs on their CI, and stays active everywhere.
	Platforms []string `json:"platforms,omitempty"`
	// Note says where the test's name or number is an approximation, such
	// as a call of a macro that could not be expanded.
	Note string `json:"note,omitempty"`

	span rangeSpan // the test's own code, while the file is analysed
}

// Result is what one file holds.
type Result struct {
	// Language is the language's name.
	Language string `json:"language"`
	// Tests are the test definitions, in source order.
	Tests []Test `json:"tests,omitempty"`
	// Assertions counts assertion calls and statements, vacuous ones not included.
	Assertions int `json:"assertions"`
	// Vacuous counts assertions that cannot fail (assert True).
	Vacuous int `json:"vacuous"`
	// Benchmarks counts benchmark definitions (Go Benchmark…).
	Benchmarks int `json:"benchmarks"`
	// Subtests counts subtests (Go t.Run).
	Subtests int `json:"subtests"`
	// ParseError reports that the tree has ERROR nodes; the file is counted
	// from the error-tolerant tree all the same.
	ParseError bool `json:"parse_error,omitempty"`
	// Constraint is the file's build constraint (Go's //go:build), which
	// Settle reads against the file's name and its module.
	Constraint string `json:"-"`
	// PackageOff says why the file switches off every test of its package
	// (Go's TestMain that never runs m.Run, or hides its result): the count
	// applies it to the package's other files, which the file's own
	// content cannot reach.
	PackageOff string `json:"-"`
	// Filtered reports that the prefilter found no test marker, so the
	// file was never parsed and holds nothing.
	Filtered bool `json:"-"`
	// Python is a Python module's classes, functions and imports, from
	// which the count of a project decides what pytest collects.
	Python *PyModule `json:"-"`
}

// Active returns the number of tests that run.
func (r *Result) Active() int {
	n := 0
	for _, t := range r.Tests {
		if t.Status == Active {
			n++
		}
	}
	return n
}

// Sample is a source file with the result a language must find in it.
type Sample struct {
	// Path is the file's path, which decides whether it is a test file.
	Path string
	// Source is the file's content.
	Source string
	// Tests are the expected tests as "name status" strings, in order, with
	// the platforms after them when the test is built for some only
	// ("TestA active [windows]").
	Tests []string
	// Manifest is the content of the nearest manifest of the sample's
	// project (Language.Manifest); empty when it has none.
	Manifest string
	// Assertions and Vacuous are the expected figures.
	Assertions, Vacuous int
	// Benchmarks and Subtests are the expected figures.
	Benchmarks, Subtests int
	// Conditions, when set, are the expected "name: condition" of each
	// test that skips itself under a condition the count cannot decide.
	Conditions []string
}

// Language describes one language.
type Language struct {
	// Name is the language's name in reports ("go").
	Name string
	// Grammars maps each file extension to its tree-sitter grammar.
	Grammars map[string]func() *sitter.Language
	// TestFiles are globs over the slash-separated path that make a file a
	// test file; a glob without a slash matches the base name, and "**/"
	// matches any number of directories, none included.
	TestFiles []string
	// AllFiles makes every file with one of the extensions a candidate,
	// for languages whose unit tests live beside the code (Rust).
	AllFiles bool
	// Gate, when set, is what a file's bytes must pass to count when none
	// of TestFiles matches its path: with AllFiles every file is a
	// candidate, but a C++ source counts only under a test name or when it
	// includes a test framework's header, since a runner builds a test
	// file by what it links, not by its name.
	Gate func(src []byte) bool
	// Markers is the prefilter: a file with none of them is never parsed.
	Markers []string
	// Decode, when set, turns a file's bytes into the UTF-8 text the
	// language's tools read (Python honours a coding declaration); without
	// it a file must be UTF-8. See Text.
	Decode func(src []byte) ([]byte, error)
	// Queries are the named tree-sitter queries the analysis runs.
	Queries map[string]string
	// Analyze finds the tests and assertions of one parsed file.
	Analyze func(f *File)
	// Ignore, when set, reports a candidate file that the runner never
	// builds, whatever its name says (Go's testdata, _ and . directories).
	Ignore func(p string) bool
	// Manifest is the base name of the file that declares a project of the
	// language (go.mod); the nearest one above a file is handed to Settle.
	Manifest string
	// Settle, when set, completes a file's result with what depends on its
	// place rather than its content (a Go file's module, a Rust file's
	// module path). Counts are cached by content, so Settle runs on every
	// count, cached or not: it must be cheap, and must not change r, which
	// the cache holds, but return a changed copy.
	Settle func(r *Result, p Place) *Result
	// Samples are the language's positive and negative examples.
	Samples []Sample

	globs    []*glob.Pattern
	globOnce sync.Once
}

// All is every language sentinel counts, in report order.
func All() []*Language {
	return all
}

var all = []*Language{Go, Python, JavaScript, Rust, Java, Ruby, CPP, PHP, CSharp, Kotlin, Swift}

// ByName returns the language with the name, or nil.
func ByName(name string) *Language {
	for _, l := range all {
		if l.Name == name {
			return l
		}
	}
	return nil
}

// ForPath returns the language that counts the file at the slash path, or
// nil when the file is not a candidate test file.
func ForPath(p string) *Language {
	ext := path.Ext(p)
	for _, l := range all {
		if _, ok := l.Grammars[ext]; !ok {
			continue
		}
		if (l.AllFiles || l.isTestFile(p)) && (l.Ignore == nil || !l.Ignore(p)) {
			return l
		}
	}
	return nil
}

func (l *Language) isTestFile(p string) bool {
	l.globOnce.Do(func() {
		for _, g := range l.TestFiles {
			c := glob.Compiler{Separators: []rune{'/'}, Globstar: true}
			p, err := c.Compile(g)
			if err != nil {
				panic(fmt.Sprintf("languages: %s glob %q: %v", l.Name, g, err))
			}
			l.globs = append(l.globs, p)
		}
	})
	base := path.Base(p)
	for i, g := range l.globs {
		target := p
		if !strings.Contains(l.TestFiles[i], "/") {
			target = base
		}
		if g.Match(target) {
			return true
		}
	}
	return false
}

// Gated reports whether the file at p counts only if its bytes pass the
// language's Gate. A count cached by content must tell the two apart.
func (l *Language) Gated(p string) bool {
	return l.Gate != nil && !l.isTestFile(p)
}

// Admits reports whether a candidate file at p with the bytes src may hold
// a test or an assertion: its prefilter passes and, when its path is
// gated, so does the Gate.
func (l *Language) Admits(p string, src []byte) bool {
	return l.Prefilter(src) && (!l.Gated(p) || l.Gate(src))
}

// Prefilter reports whether src may hold a test or an assertion.
func (l *Language) Prefilter(src []byte) bool {
	for _, m := range l.Markers {
		if bytes.Contains(src, []byte(m)) {
			return true
		}
	}
	return false
}

type compiledQueries struct {
	lang    *sitter.Language
	queries map[string]*sitter.Query
	// predicates says which queries have predicates to filter on.
	predicates map[string]bool
	// captures holds each query's capture names by id, read once here
	// rather than through a cgo call for every capture of every match.
	captures map[string][]string
}

// compileFor compiles the language's queries for a grammar.
func (l *Language) compileFor(lang *sitter.Language) (*compiledQueries, error) {
	cq := &compiledQueries{lang: lang, queries: map[string]*sitter.Query{}, predicates: map[string]bool{}, captures: map[string][]string{}}
	for name, src := range l.Queries {
		q, err := sitter.NewQuery([]byte(src), cq.lang)
		if err != nil {
			cq.close()
			return nil, fmt.Errorf("%s query %s: %w", l.Name, name, err)
		}
		cq.queries[name] = q
		names := make([]string, q.CaptureCount())
		for i := range names {
			names[i] = q.CaptureNameForId(uint32(i))
		}
		cq.captures[name] = names
		for i := uint32(0); i < q.PatternCount(); i++ {
			if len(q.PredicatesForPattern(i)) > 0 {
				cq.predicates[name] = true
			}
		}
	}
	return cq, nil
}

func (cq *compiledQueries) close() {
	for _, q := range cq.queries {
		q.Close()
	}
}

// ErrParseTimeout is returned for a file the grammar could not parse in
// time: some grammars loop on some inputs (tree-sitter-swift does).
var ErrParseTimeout = errors.New("the parser gave up")

// DefaultParseTimeout bounds the parse of one file.
const DefaultParseTimeout = 5 * time.Second

// Parser parses files of every language; it is not safe for concurrent use,
// so each worker owns one, with its own tree-sitter parsers, compiled
// queries and query cursor, all freed by Close.
type Parser struct {
	// Timeout bounds the parse of one file.
	Timeout time.Duration

	parsers map[*sitter.Language]*sitter.Parser
	queries map[*Language]map[string]*compiledQueries // by extension
	cursor  *sitter.QueryCursor
}

// NewParser returns a parser; Close it when done.
func NewParser() *Parser {
	return &Parser{
		Timeout: DefaultParseTimeout,
		parsers: map[*sitter.Language]*sitter.Parser{},
		queries: map[*Language]map[string]*compiledQueries{},
		cursor:  sitter.NewQueryCursor(),
	}
}

// Close frees the parser's tree-sitter state; the compiled queries are the
// process's (sharedQueries).
func (p *Parser) Close() {
	for _, sp := range p.parsers {
		sp.Close()
	}
	p.cursor.Close()
}

// queryFuture is a language's queries for one extension, compiled once per
// process and shared by every Parser: a compiled query is read-only, each
// worker walking it with a cursor of its own. Two workers each compiled
// the Go queries (3.4 ms of CPU) when a commit changed two files.
type queryFuture struct {
	done chan struct{}
	lang *sitter.Language
	cq   *compiledQueries
	err  error
}

type queryKey struct {
	l   *Language
	ext string
}

var sharedQueries sync.Map // queryKey → *queryFuture

// queriesFor returns the future of l's queries for ext, starting their
// compile on another core for the first caller, which parses meanwhile.
func queriesFor(l *Language, ext string, grammar func() *sitter.Language) *queryFuture {
	k := queryKey{l, ext}
	if f, ok := sharedQueries.Load(k); ok {
		return f.(*queryFuture)
	}
	f := &queryFuture{done: make(chan struct{}), lang: grammar()}
	if was, loaded := sharedQueries.LoadOrStore(k, f); loaded {
		return was.(*queryFuture)
	}
	go func() {
		defer close(f.done)
		f.cq, f.err = l.compileFor(f.lang)
	}()
	return f
}

// Count parses src as a file of language l at path p and counts it.
func (p *Parser) Count(ctx context.Context, l *Language, filePath string, src []byte) (*Result, error) {
	// A file nested past MaxNesting is refused before it is parsed: the
	// parse alone would take hundreds of bytes of memory per byte.
	if bracketsTooDeep(src) {
		return nil, fmt.Errorf("%s: %w", filePath, ErrTooDeep)
	}
	ext := path.Ext(filePath)
	cq := p.queries[l][ext]
	var lang *sitter.Language
	var compiled *queryFuture
	if cq != nil {
		lang = cq.lang
	} else {
		// The first file of a language: its queries compile on another
		// core while the file is parsed (a few ms each, on a hook's
		// critical path when one file changed).
		grammar, ok := l.Grammars[ext]
		if !ok {
			return nil, fmt.Errorf("%s: no grammar for %q", l.Name, ext)
		}
		compiled = queriesFor(l, ext, grammar)
		lang = compiled.lang
	}
	sp := p.parsers[lang]
	if sp == nil {
		sp = sitter.NewParser()
		sp.SetLanguage(lang)
		p.parsers[lang] = sp
	}
	sp.SetOperationLimit(int(p.Timeout.Microseconds()))
	release, err := admitHeavy(ctx, len(src))
	if err != nil {
		return nil, err
	}
	defer release()
	tree, err := sp.ParseCtx(ctx, nil, src)
	if compiled != nil {
		<-compiled.done
		if cerr := compiled.err; cerr != nil {
			if err == nil {
				tree.Close()
			}
			return nil, cerr
		}
		cq = compiled.cq
		if p.queries[l] == nil {
			p.queries[l] = map[string]*compiledQueries{}
		}
		p.queries[l][ext] = cq
	}
	if errors.Is(err, sitter.ErrOperationLimit) {
		sp.Reset()
		return nil, fmt.Errorf("parse %s: %w after %v", filePath, ErrParseTimeout, p.Timeout)
	}
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", filePath, err)
	}
	defer tree.Close()
	root := tree.RootNode()
	// A tree too deep for the query engine and the analysis, by brackets
	// in a string or by a construct without them, is refused before
	// either reads it.
	if treeTooDeep(root) {
		return nil, fmt.Errorf("%s: %w", filePath, ErrTooDeep)
	}
	cursor := p.cursor
	if len(src) > HeavyFile {
		// A cursor keeps the last tree it walked, and the tree its Go
		// nodes: a large file's own cursor lets them go before the
		// memory is handed back.
		cursor = sitter.NewQueryCursor()
		defer func() {
			cursor.Close()
			runtime.SetFinalizer(cursor, nil)
		}()
	}
	f := &File{
		Path:   filePath,
		Src:    src,
		Root:   root,
		Result: &Result{Language: l.Name, ParseError: root.HasError()},
		Lang:   l,
		q:      cq,
		cursor: cursor,
	}
	l.Analyze(f)
	f.identify()
	switch {
	case f.tooDeep:
		return nil, fmt.Errorf("%s: %w", filePath, ErrTooDeep)
	case f.tooMany || len(f.Result.Tests) > maxTests:
		return nil, fmt.Errorf("%s: %w", filePath, ErrTooManyTests)
	}
	return f.Result, nil
}

// File is one parsed file under analysis.
type File struct {
	// Path is the slash-separated path.
	Path string
	// Src is the content.
	Src []byte
	// Root is the tree's root.
	Root *sitter.Node
	// Result collects what the analysis finds.
	Result *Result
	// Lang is the language being analysed.
	Lang *Language

	q      *compiledQueries
	cursor *sitter.QueryCursor
	// at is where the match being handled starts, testNodes the name nodes
	// of the tests, and credits where each assertion was: the per-test
	// figures come from them once the analysis is done.
	at        uint32
	testNodes []*sitter.Node
	// match holds the captures of the match being handled; at is read
	// from them only when an assertion asks (atStale), which saves a cgo
	// call per capture for the analyses that credit by position instead.
	match   []sitter.QueryCapture
	atStale bool
	credits []assertAt
	// offUncounted says the assertions inside a skipped test are not
	// counted: set by the languages whose skipped tests never run their
	// body (it.skip, xit).
	offUncounted bool
	// consts are the file's own named constants, for the constant
	// evaluators; constDepth bounds a chain of them.
	consts     map[string]*sitter.Node
	constDepth int
	// newlines are the offsets of the file's newlines, for helperAt.
	newlines []uint32
	// functions, when the analysis fills it, holds every node of the
	// file that helperAt looks for (helperTypes), so that helperAt reads
	// it instead of climbing the tree through a cgo call per node.
	functions []namedSpan
	// depth is how far a recursive reading of the tree has descended;
	// tooDeep and tooMany record a file past MaxNesting or MaxTests,
	// which Count refuses.
	depth            int
	tooDeep, tooMany bool
}

// Each runs the named query over node and calls fn with the captures of
// each match whose predicates hold, by capture name.
func (f *File) Each(query string, node *sitter.Node, fn func(caps map[string]*sitter.Node)) {
	q := f.q.queries[query]
	filter := f.q.predicates[query]
	names := f.q.captures[query]
	if q == nil {
		panic(fmt.Sprintf("languages: no query %q", query))
	}
	f.cursor.Exec(q, node)
	for {
		m, ok := f.cursor.NextMatch()
		if !ok {
			return
		}
		if filter {
			// smacker does not apply predicates on its own; a match that
			// fails them comes back with no captures.
			m = f.cursor.FilterPredicates(m, f.Src)
			if len(m.Captures) == 0 {
				continue
			}
		}
		caps := make(map[string]*sitter.Node, len(m.Captures))
		for _, c := range m.Captures {
			caps[names[c.Index]] = c.Node
		}
		f.match, f.atStale = m.Captures, true
		fn(caps)
	}
}

// matchStart is where the match being handled starts: the first byte of
// its captures.
func (f *File) matchStart() uint32 {
	if f.atStale {
		f.at = ^uint32(0)
		for _, c := range f.match {
			f.at = min(f.at, c.Node.StartByte())
		}
		f.atStale = false
	}
	return f.at
}

// setAt makes at the place the next assertion is credited to.
func (f *File) setAt(at uint32) {
	f.at, f.atStale = at, false
}

// Text returns the source text of a node.
func (f *File) Text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return n.Content(f.Src)
}

// Line returns the 1-based line where a node starts.
func Line(n *sitter.Node) int {
	return int(n.StartPoint().Row) + 1
}

// AddTest records a test; past MaxTests, it records that there are too
// many instead, and the file is refused.
func (f *File) AddTest(name string, n *sitter.Node, skipped bool) {
	if len(f.Result.Tests) >= maxTests {
		f.tooMany = true
		return
	}
	st := Active
	if skipped {
		st = Skipped
	}
	f.Result.Tests = append(f.Result.Tests, Test{Name: cleanName(name), Line: Line(n), Status: st})
	f.testNodes = append(f.testNodes, n)
}

// cleanName keeps a name on one line, so that `count --list` stays one test
// per line, and gives an empty name, as in it(""), a visible form.
func cleanName(name string) string {
	name = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, name)
	if strings.TrimSpace(name) == "" {
		return `""`
	}
	return name
}

// Assert records an assertion, or a vacuous one.
func (f *File) Assert(vacuous bool) {
	if vacuous {
		f.Result.Vacuous++
	} else {
		f.Result.Assertions++
	}
	f.credits = append(f.credits, assertAt{f.matchStart(), vacuous})
}
