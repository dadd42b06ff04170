package languages

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// The functions below are the scans that the indexes of spans.go, the
// Python indentation lines and the C3 merge replaced, kept as the oracles
// the replacements must agree with.

// pyMergeScan is C3's merge as a scan of every tail for every candidate.
func pyMergeScan(seqs [][]pyObj) []pyObj {
	same := func(a, b pyObj) bool { return a.path == b.path && a.cls == b.cls }
	var out []pyObj
	for {
		var live [][]pyObj
		for _, s := range seqs {
			if len(s) > 0 {
				live = append(live, s)
			}
		}
		if len(live) == 0 {
			return out
		}
		seqs = live
		var next *pyObj
		for _, s := range seqs {
			cand := s[0]
			inTail := false
			for _, t := range seqs {
				for _, x := range t[1:] {
					if same(x, cand) {
						inTail = true
					}
				}
			}
			if !inTail {
				next = &cand
				break
			}
		}
		if next == nil {
			next = &seqs[0][0]
		}
		n := *next
		out = append(out, n)
		for i, s := range seqs {
			if same(s[0], n) {
				seqs[i] = s[1:]
			}
		}
	}
}

// TestPyMergeMatchesScan holds the merge to the scan, on orders C3 can
// merge and on orders it cannot, repeated classes included.
func TestPyMergeMatchesScan(t *testing.T) {
	r := rand.New(rand.NewSource(8))
	classes := make([]PyClass, 6)
	for round := 0; round < 2000; round++ {
		seqs := make([][]pyObj, r.Intn(4))
		for i := range seqs {
			for j := r.Intn(5); j > 0; j-- {
				seqs[i] = append(seqs[i], pyObj{kind: objClass, path: "m.py", cls: &classes[r.Intn(len(classes))]})
			}
		}
		copied := make([][]pyObj, len(seqs))
		for i := range seqs {
			copied[i] = slices.Clone(seqs[i])
		}
		got, want := pyMerge(seqs), pyMergeScan(copied)
		if len(got) != len(want) {
			t.Fatalf("round %d: merged %d classes, the scan %d", round, len(got), len(want))
		}
		for i := range got {
			if got[i].cls != want[i].cls {
				t.Fatalf("round %d: class %d differs", round, i)
			}
		}
	}
}

// pyContextByIndentScan finds the classes around a def from the lines
// above it, splitting the file up to the def for each def.
func pyContextByIndentScan(src []byte, def *sitter.Node, inString map[int]bool) (classes []string, nested bool) {
	lines := strings.Split(string(src[:def.StartByte()]), "\n")
	current := int(def.StartPoint().Column)
	for i := len(lines) - 2; i >= 0 && current > 0; i-- {
		line := lines[i]
		body := strings.TrimLeft(line, " \t")
		if body == "" || strings.HasPrefix(body, "#") || inString[i] {
			continue
		}
		indent := len(line) - len(body)
		if indent >= current {
			continue
		}
		current = indent
		switch {
		case strings.HasPrefix(body, "class "):
			name := strings.TrimPrefix(body, "class ")
			if j := strings.IndexAny(name, "(:"); j >= 0 {
				name = name[:j]
			}
			classes = append([]string{strings.TrimSpace(name)}, classes...)
		case strings.HasPrefix(body, "def "), strings.HasPrefix(body, "async def "):
			return nil, true
		}
	}
	return classes, false
}

// TestPyIndentsMatchScan holds the indentation index to the scan for
// every def of broken Python files, written at random from indented
// lines, strings that span lines, comments, blank and tab-indented lines.
func TestPyIndentsMatchScan(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	pieces := []string{"class A:", "class B(object):", "def f():", "async def g():", "def test_x(self):", "x = (", "pass",
		"'''doc", "more'''", "# comment", "", "\tdef tabbed():", "y = 1 +", "\r", "class  C :"}
	sp := sitter.NewParser()
	defer sp.Close()
	sp.SetLanguage(Python.Grammars[".py"]())
	defs := 0
	for round := 0; round < 300; round++ {
		var b strings.Builder
		for i := r.Intn(30); i >= 0; i-- {
			b.WriteString(strings.Repeat("    ", r.Intn(4)))
			b.WriteString(pieces[r.Intn(len(pieces))])
			b.WriteString("\n")
		}
		src := []byte(b.String())
		tree, err := sp.ParseCtx(context.Background(), nil, src)
		if err != nil {
			t.Fatal(err)
		}
		f := &File{Src: src, Root: tree.RootNode(), Lang: Python}
		f.q = mustQueries(t, Python, ".py")
		f.cursor = sitter.NewQueryCursor()
		strs := pyStringLines(f)
		ix := newPyIndents(src, strs)
		var walk func(n *sitter.Node)
		walk = func(n *sitter.Node) {
			if n.Type() == "function_definition" {
				defs++
				gotC, gotN := ix.context(src, n)
				wantC, wantN := pyContextByIndentScan(src, n, strs)
				if gotN != wantN || fmt.Sprint(gotC) != fmt.Sprint(wantC) {
					t.Fatalf("round %d: def at %d of %q: %v %v, the scan %v %v", round, n.StartByte(), src, gotC, gotN, wantC, wantN)
				}
			}
			for _, k := range namedChildren(n) {
				walk(k)
			}
		}
		walk(f.Root)
		f.cursor.Close()
		tree.Close()
	}
	if defs < 500 {
		t.Fatalf("only %d defs compared", defs)
	}
}

// mustQueries compiles a language's queries for one of its extensions.
func mustQueries(t *testing.T, l *Language, ext string) *compiledQueries {
	t.Helper()
	f := queriesFor(l, ext, l.Grammars[ext])
	<-f.done
	if f.err != nil {
		t.Fatal(f.err)
	}
	return f.cq
}
