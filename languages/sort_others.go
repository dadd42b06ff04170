package languages

import (
	"sort"

	sitter "github.com/smacker/go-tree-sitter"
)

// sortTests puts a file's tests in line order, each with the node its
// assertions are credited by (see identify): the languages that find
// tests in more than one pass (JUnit functions and kotest blocks, RSpec
// blocks and Minitest methods) add them out of order.
func (f *File) sortTests() {
	tests := f.Result.Tests
	if len(f.testNodes) != len(tests) {
		sort.SliceStable(tests, func(i, j int) bool { return tests[i].Line < tests[j].Line })
		return
	}
	order := make([]int, len(tests))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return tests[order[i]].Line < tests[order[j]].Line })
	sorted := make([]Test, len(tests))
	nodes := make([]*sitter.Node, len(tests))
	for i, k := range order {
		sorted[i], nodes[i] = tests[k], f.testNodes[k]
	}
	copy(tests, sorted)
	copy(f.testNodes, nodes)
}
