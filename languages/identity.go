package languages

import (
	"bytes"
	"hash/fnv"
	"slices"
	"sort"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// definitionTypes are the grammar nodes that hold a whole test definition
// in some language: a function or method, or the call (it, test, TEST,
// Pest's it) whose arguments carry its body.
var definitionTypes = map[string]bool{
	"function_declaration": true, "method_declaration": true, "function_definition": true,
	"function_item": true, "call_expression": true, "call": true, "method": true,
	"function_call_expression": true, "member_call_expression": true, "macro_invocation": true,
	"constructor_declaration": true, "local_function_statement": true, "singleton_method": true,
}

// definition returns the node that holds the whole definition of the test
// named at n: the nearest enclosing function, method or call.
func definition(n *sitter.Node) *sitter.Node {
	for a := n; a != nil; a = a.Parent() {
		if definitionTypes[a.Type()] {
			return a
		}
	}
	return n
}

// callTitle is the title of a test declared by a call, its first
// argument (PHP wraps it in an argument node), or the call itself when it
// has none.
func callTitle(call *sitter.Node) *sitter.Node {
	args := call.ChildByFieldName("arguments")
	if args == nil || args.NamedChildCount() == 0 {
		return call
	}
	t := args.NamedChild(0)
	if t.Type() == "argument" && t.NamedChildCount() > 0 {
		t = t.NamedChild(0)
	}
	return t
}

// identify gives each test its own assertion counts and body hash, from
// the spans of their code; a nested test (a describe's it) claims its
// assertions before the enclosing one would. An assertion in no test but
// in a helper function of the file goes to each test that calls the
// helper by name.
func (f *File) identify() {
	tests := f.Result.Tests
	defer func() {
		f.credits = nil
		for i := range tests {
			tests[i].span = rangeSpan{} // a cached result has none either
		}
	}()
	if len(f.testNodes) != len(tests) {
		return
	}
	spans := make([]rangeSpan, len(tests))
	for i, n := range f.testNodes {
		d := definition(n)
		if tests[i].Body == "" { // a test a macro wrote has its own
			// A test declared by a call (it('adds', …)) is recorded at the
			// call itself: its name is the title, not the whole call, or
			// every such test would hash alike and any one would pass for
			// a rename of any other.
			name := n
			if d == n {
				name = callTitle(n)
			}
			tests[i].Body = bodyHash(f.Src, d.StartByte(), d.EndByte(), name.StartByte(), name.EndByte())
		}
		spans[i] = tests[i].span
		if spans[i].end == 0 {
			spans[i] = rangeSpan{d.StartByte(), d.EndByte()}
		}
	}
	points := make([]uint32, len(f.credits))
	for i, a := range f.credits {
		points[i] = a.at
	}
	owner := innermost(spans, points)
	// The assertions in no test, by the function of the file they are in.
	type helperCount struct{ asserts, vacuous int }
	helpers := map[string]*helperCount{}
	var loose []uint32
	var looseVacuous []bool
	for i, a := range f.credits {
		switch best := owner[i]; {
		case best >= 0 && f.offUncounted && tests[best].Status != Active:
			// The runner never runs a skipped test's body: what it would
			// assert is not an assertion of the suite.
			if a.vacuous {
				f.Result.Vacuous--
			} else {
				f.Result.Assertions--
			}
		case best >= 0 && a.vacuous:
			tests[best].Vacuous++
		case best >= 0:
			tests[best].Assertions++
		default:
			loose = append(loose, a.at)
			looseVacuous = append(looseVacuous, a.vacuous)
		}
	}
	for i, name := range f.helpersAt(loose) {
		if name == "" {
			continue
		}
		h := helpers[name]
		if h == nil {
			h = &helperCount{}
			helpers[name] = h
		}
		if looseVacuous[i] {
			h.vacuous++
		} else {
			h.asserts++
		}
	}
	if len(helpers) == 0 {
		return
	}
	// A test that calls a helper of its file makes the helper's
	// assertions: moving checks into a helper empties no test. A call is
	// the helper's name and "(" anywhere in the test's code; each test
	// takes a helper's assertions once, however often it calls it.
	names := make([]string, 0, len(helpers))
	for name := range helpers {
		names = append(names, name)
	}
	sort.Strings(names)
	stab := newStabber(spans)
	credited := make([]int, len(tests)) // the last helper credited to each test, plus one
	calls := nameCalls(f.Src, names, '(')
	for hi, name := range names {
		h := helpers[name]
		width := uint32(len(name) + 1)
		for _, at := range calls[hi] {
			stab.each(at, at+width, func(i int) {
				if credited[i] != hi+1 {
					credited[i] = hi + 1
					tests[i].Assertions += h.asserts
					tests[i].Vacuous += h.vacuous
				}
			})
		}
	}
}

// identifyBy gives the test just recorded its body hash from the code
// between start and end, the name written at title left out, for a test
// whose name is not where it was recorded (GoogleTest's TEST(Suite, Name),
// recorded at its macro) or whose code no one node holds (Catch2's
// TEST_CASE and the block after it).
func (f *File) identifyBy(start, end uint32, title *sitter.Node) {
	if f.tooMany || len(f.Result.Tests) == 0 || title == nil {
		return
	}
	f.Result.Tests[len(f.Result.Tests)-1].Body = bodyHash(f.Src, start, end, title.StartByte(), title.EndByte())
}

// nameCalls returns, for each name, where the name followed by the byte
// end ("(" for a call, "!" for a Rust macro's) is in src, in order, as
// bytes.Index finds each.
func nameCalls(src []byte, names []string, end byte) [][]uint32 {
	out := make([][]uint32, len(names))
	newNameMatcher(names, end).find(src, func(i int, at uint32) {
		out[i] = append(out[i], at)
	})
	return out
}

// nameMatcher finds many names, each followed by one byte, in one reading
// of a text: backwards from each end byte through a trie of the names
// reversed. A name without that byte stops each walk at the one before, so
// the text is read about twice whatever the number of names. A name that
// holds it, which only a broken tree gives, is looked for on its own.
type nameMatcher struct {
	names []string
	end   byte
	root  *nameTrie
	alone []int // the names that hold the end byte
}

type nameTrie struct {
	next  map[byte]*nameTrie
	names []int
}

func newNameMatcher(names []string, end byte) *nameMatcher {
	m := &nameMatcher{names: names, end: end, root: &nameTrie{}}
	for i, name := range names {
		if strings.IndexByte(name, end) >= 0 {
			m.alone = append(m.alone, i)
			continue
		}
		n := m.root
		for j := len(name) - 1; j >= 0; j-- {
			if n.next == nil {
				n.next = map[byte]*nameTrie{}
			}
			k := n.next[name[j]]
			if k == nil {
				k = &nameTrie{}
				n.next[name[j]] = k
			}
			n = k
		}
		n.names = append(n.names, i)
	}
	return m
}

// find calls fn with each name's index and where it is in src before
// the end byte: a name's places in order, the names held by the end byte
// first.
func (m *nameMatcher) find(src []byte, fn func(name int, at uint32)) {
	for _, i := range m.alone {
		call := append([]byte(m.names[i]), m.end)
		for at := 0; ; at++ {
			j := bytes.Index(src[at:], call)
			if j < 0 {
				break
			}
			at += j
			fn(i, uint32(at))
		}
	}
	for p := bytes.IndexByte(src, m.end); p >= 0; {
		n := m.root
		for j := p - 1; j >= 0 && n != nil; j-- {
			if n = n.next[src[j]]; n != nil {
				for _, i := range n.names {
					fn(i, uint32(j))
				}
			}
		}
		next := bytes.IndexByte(src[p+1:], m.end)
		if next < 0 {
			break
		}
		p += 1 + next
	}
}

// helperTypes are the grammar nodes of a function that can hold a test
// helper's assertions.
var helperTypes = map[string]bool{
	"function_declaration": true, "method_declaration": true, "function_definition": true,
	"function_item": true, "method": true, "method_definition": true, "function": true,
}

// namedSpan is a function's bytes and its name, empty when it has none.
type namedSpan struct {
	start, end uint32
	name       string
}

// helpersAt names the function around each byte of ats, "" where there
// is none.
func (f *File) helpersAt(ats []uint32) []string {
	out := make([]string, len(ats))
	if len(ats) == 0 {
		return out
	}
	if f.functions != nil {
		// The innermost function around each byte, as the climb below
		// finds it.
		spans := make([]rangeSpan, len(f.functions))
		for i, s := range f.functions {
			spans[i] = rangeSpan{s.start, s.end}
		}
		for i, best := range innermost(spans, ats) {
			if best >= 0 && int(ats[i]) <= len(f.Src) {
				out[i] = f.functions[best].name
			}
		}
		return out
	}
	for i, at := range ats {
		out[i] = f.helperAt(at)
	}
	return out
}

// helperAt names the function around the byte at, if any, climbing the
// tree from the byte.
func (f *File) helperAt(at uint32) string {
	if int(at) > len(f.Src) {
		return ""
	}
	row := f.newlinesBefore(at)
	col := at
	if row > 0 {
		col = at - f.newlines[row-1] - 1
	}
	p := sitter.Point{Row: uint32(row), Column: col}
	n := f.Root.NamedDescendantForPointRange(p, p)
	for ; n != nil; n = n.Parent() {
		if helperTypes[n.Type()] {
			if name := n.ChildByFieldName("name"); name != nil {
				return f.Text(name)
			}
			return ""
		}
	}
	return ""
}

// newlinesBefore counts the newlines of the file before the byte at. The
// newlines are found once per file: counting them for each assertion or
// test made a file of many quadratic.
func (f *File) newlinesBefore(at uint32) int {
	if f.newlines == nil {
		f.newlines = []uint32{}
		for i, b := range f.Src {
			if b == '\n' {
				f.newlines = append(f.newlines, uint32(i))
			}
		}
	}
	row, _ := slices.BinarySearch(f.newlines, at)
	return row
}

// bodyHash hashes src[start:end] without the name in [nameStart:nameEnd]
// and without whitespace: the definition as its tokens run, whatever the
// test is called and however it is laid out.
func bodyHash(src []byte, start, end, nameStart, nameEnd uint32) string {
	if int(end) > len(src) || start > end {
		return ""
	}
	h := fnv.New64a()
	var buf [1]byte
	for i := start; i < end; i++ {
		if i >= nameStart && i < nameEnd {
			continue
		}
		switch c := src[i]; c {
		case ' ', '\t', '\n', '\r', '\f', '\v':
		default:
			buf[0] = c
			h.Write(buf[:])
		}
	}
	return strconv.FormatUint(h.Sum64(), 36)
}
