package languages

import (
	"bytes"
	"hash/fnv"
	"slices"
	"strconv"

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
			tests[i].Body = bodyHash(f.Src, d.StartByte(), d.EndByte(), n.StartByte(), n.EndByte())
		}
		spans[i] = tests[i].span
		if spans[i].end == 0 {
			spans[i] = rangeSpan{d.StartByte(), d.EndByte()}
		}
	}
	type helperCount struct{ asserts, vacuous int }
	helpers := map[string]*helperCount{}
	for _, a := range f.credits {
		best := -1
		for i, s := range spans {
			if a.at >= s.start && a.at < s.end && (best < 0 || s.end-s.start < spans[best].end-spans[best].start) {
				best = i
			}
		}
		switch {
		case best >= 0 && a.vacuous:
			tests[best].Vacuous++
		case best >= 0:
			tests[best].Assertions++
		default:
			if name := f.helperAt(a.at); name != "" {
				h := helpers[name]
				if h == nil {
					h = &helperCount{}
					helpers[name] = h
				}
				if a.vacuous {
					h.vacuous++
				} else {
					h.asserts++
				}
			}
		}
	}
	// A test that calls a helper of its file makes the helper's
	// assertions: moving checks into a helper empties no test.
	for name, h := range helpers {
		call := []byte(name + "(")
		for i, s := range spans {
			if bytes.Contains(f.Src[s.start:s.end], call) {
				tests[i].Assertions += h.asserts
				tests[i].Vacuous += h.vacuous
			}
		}
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

// helperAt names the function around the byte at, if any.
func (f *File) helperAt(at uint32) string {
	if int(at) > len(f.Src) {
		return ""
	}
	if f.functions != nil {
		// The innermost function around at, as the climb below finds it.
		best := -1
		for i, s := range f.functions {
			if s.start <= at && at < s.end && (best < 0 || s.end-s.start < f.functions[best].end-f.functions[best].start) {
				best = i
			}
		}
		if best < 0 {
			return ""
		}
		return f.functions[best].name
	}
	// The newlines are found once per file: counting them before each
	// assertion made a file of many helper assertions quadratic.
	if f.newlines == nil {
		f.newlines = []uint32{}
		for i, b := range f.Src {
			if b == '\n' {
				f.newlines = append(f.newlines, uint32(i))
			}
		}
	}
	row, _ := slices.BinarySearch(f.newlines, at) // newlines before at
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
