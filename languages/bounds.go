package languages

import (
	"bytes"
	"context"
	"errors"
	"fmt"
)

// A repository is untrusted input: a test file may be written to make
// counting slow, hungry or fatal. Every analysis is linear in the file (or
// n log n), and these bounds stop what still grows beyond it:
//
//   - MaxTests: a file holds at most that many tests, pytest's inherited
//     ones included. The largest test file of the corpora sentinel is
//     measured on (Go's and CPython's tests, the Go modules and Python
//     packages of a developer's machine: 14,000 files) holds 1,675; a
//     generated file of 100,000 tests takes 8 to 18 s of one core
//     (docs/benchmarks.md).
//   - MaxNesting: the tree of a file goes at most that deep, and so do its
//     brackets. Tree-sitter's query engine keeps a match in progress for
//     each level above the node it reads, so that a chain of 10,000
//     additions took it seconds and one of millions hours; the parser's
//     stack takes memory for each level (an 8 MiB file of nested
//     parentheses took 1.4 GB to parse); and the analysis, which reads
//     expressions and blocks recursively, overflowed Go's stack and killed
//     the whole count. The deepest of those 14,000 files, CPython's tests
//     of deeply nested code, go 808 deep; the median file 14.
//   - maxDepthSum: the depths of a file's nodes add up to at most 128 for
//     each node, plus 16 million: the query engine's work, which a file
//     of many chains each under MaxNesting could still make quadratic.
//     The deepest of the 14,000 files on average go 51 deep.
//   - HeavyFile: a file larger than that is parsed and analysed one at a
//     time in the process, whatever the number of workers: its tree and
//     its analysis take a few hundred bytes per byte of source, so that
//     two such files at once doubled the count's peak memory.
//
// A file past MaxTests, MaxNesting or maxDepthSum is refused, never
// counted in part: the count reports it, with what to do, and the ratchet
// holds its tests as lost, as it does a file past the size limit.

// MaxTests is the most tests one file may hold.
const MaxTests = 100_000

// maxTests is MaxTests, lowered by the tests of the bound.
var maxTests = MaxTests

// MaxNesting is the deepest a file's tree, and its brackets, may go.
const MaxNesting = 4096

// depthPerNode is what the depth of each node of a tree may add to the
// sum maxDepthSum bounds.
const depthPerNode = 128

// maxDepthSum is the most the depths of a tree of n nodes may add up to.
func maxDepthSum(nodes uint64) uint64 {
	return depthPerNode*nodes + 16<<20
}

// HeavyFile is the size past which a file is parsed alone.
const HeavyFile = 1 << 20

// ErrTooManyTests is returned for a file with more than MaxTests tests.
var ErrTooManyTests = errors.New("too many tests")

// ErrTooDeep is returned for a file nested more than MaxNesting deep.
var ErrTooDeep = errors.New("nested too deep")

// TooManyTestsReason says why a file past MaxTests is not counted, and
// what to do about it.
func TooManyTestsReason() string {
	return fmt.Sprintf("more than %d tests in one file; split it into smaller files", MaxTests)
}

// TooDeepReason says why a file past MaxNesting is not counted, and what
// to do about it.
func TooDeepReason() string {
	return fmt.Sprintf("nested more than %d deep; move such data out of the test file", MaxNesting)
}

// bracketDepth is how deep the brackets of src nest, counting only those
// that close: a bracket in a string or a comment that is never closed,
// such as the "(" of a parser's test, nests nothing. The brackets are
// paired by kind on a stack, as a parser would pair them, a closing that
// matches no opening left out; the pairs nest, and the depth is that of
// the pairs alone. The first reading finds the openings left unpaired,
// those on the stack at the end; the second replays the first, counting
// the others. Past limit it returns limit+1; it takes four bytes of
// memory for each opening bracket.
func bracketDepth(src []byte, limit int) int {
	// An opening on the stack is its index among the openings and its
	// kind, in four bytes; the stack is made once, as large as the
	// openings are many.
	stack := make([]uint32, 0, openings(src))
	// walk reads the brackets, calling push with the index of each opening
	// and pop for each pair closed.
	walk := func(push func(at uint32), pop func()) {
		stack = stack[:0]
		n := uint32(0)
		for _, b := range src {
			switch b {
			case '(', '[', '{':
				stack = append(stack, n<<2|bracketKind(b))
				push(n)
				n++
			case ')', ']', '}':
				if k := len(stack); k > 0 && stack[k-1]&3 == bracketKind(b) {
					stack = stack[:k-1]
					pop()
				}
			}
		}
	}
	most := 0
	walk(func(uint32) { most = max(most, len(stack)) }, func() {})
	if len(stack) == 0 {
		// Every opening was closed: the deepest stack is the depth.
		return min(most, limit+1)
	}
	// The openings left on the stack, in the order they come.
	unpaired := make([]uint32, len(stack))
	for i, o := range stack {
		unpaired[i] = o >> 2
	}
	next, depth, deepest := 0, 0, 0
	walk(func(at uint32) {
		if next < len(unpaired) && unpaired[next] == at {
			next++
			return
		}
		depth++
		deepest = max(deepest, depth)
	}, func() {
		// What is popped was paired: an unpaired opening stays to the end.
		depth--
	})
	return min(deepest, limit+1)
}

// openings counts the opening brackets of src.
func openings(src []byte) int {
	return bytes.Count(src, []byte{'('}) + bytes.Count(src, []byte{'['}) + bytes.Count(src, []byte{'{'})
}

// bracketsTooDeep reports brackets nested past MaxNesting. Brackets nest no
// deeper than they are many: most files are decided by a count.
func bracketsTooDeep(src []byte) bool {
	return openings(src) > MaxNesting && bracketDepth(src, MaxNesting) > MaxNesting
}

// bracketKind numbers the kinds of brackets, opening or closing.
func bracketKind(b byte) uint32 {
	switch b {
	case '(', ')':
		return 0
	case '[', ']':
		return 1
	}
	return 2
}

// heavy admits one file past HeavyFile at a time into the parsers of the
// process.
var heavy = make(chan struct{}, 1)

// admitHeavy waits for the turn of a large file; release ends it, once the
// file's tree is freed, and hands the memory it took back to the system
// before the next large file takes its own: freed but kept by the Go heap
// and by the C allocator of another thread, two large files in turn took
// as much as two at once.
func admitHeavy(ctx context.Context, size int) (release func(), err error) {
	if size <= HeavyFile {
		return func() {}, nil
	}
	select {
	case heavy <- struct{}{}:
		return func() {
			freeMemory()
			<-heavy
		}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// descend enters one level of a recursive reading of the tree. Past
// MaxNesting it records the file as too deep, which refuses it, and
// reports false: the caller reads no further.
func (f *File) descend() bool {
	if f.depth >= MaxNesting {
		f.tooDeep = true
		return false
	}
	f.depth++
	return true
}

// ascend leaves the level descend entered.
func (f *File) ascend() {
	f.depth--
}
