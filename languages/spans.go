package languages

import (
	"container/heap"
	"slices"
	"sort"
)

// A file of many tests asks the same questions of many byte ranges: which
// test holds this assertion, is this code dead, which module is this test
// in. Asked by scanning every range for every question, a file of n tests
// costs n² (a generated file of 100,000 tests took minutes); the helpers
// here answer each in O(log n) once the ranges are sorted, and give the
// same answer the scan gave, ties included.

// innermost returns, for each point, the index of the shortest span that
// holds it (start <= point < end), the first such span in spans among
// spans of the same length, or -1 when none does: what a scan of the spans
// for each point, keeping a strictly shorter one, finds. It sweeps the
// points in order with a heap of the spans begun, O((s + p) log s).
func innermost(spans []rangeSpan, points []uint32) []int {
	out := make([]int, len(points))
	byStart := make([]int32, len(spans))
	for i := range byStart {
		byStart[i] = int32(i)
	}
	sort.Slice(byStart, func(a, b int) bool { return spans[byStart[a]].start < spans[byStart[b]].start })
	byAt := make([]int32, len(points))
	for i := range byAt {
		byAt[i] = int32(i)
	}
	sort.Slice(byAt, func(a, b int) bool { return points[byAt[a]] < points[byAt[b]] })
	h := &spanHeap{spans: spans}
	next := 0
	for _, q := range byAt {
		at := points[q]
		for next < len(byStart) && spans[byStart[next]].start <= at {
			heap.Push(h, byStart[next])
			next++
		}
		// A span that ends at or before this point ends before every
		// later one too: the points come in order.
		for h.Len() > 0 && spans[h.idx[0]].end <= at {
			heap.Pop(h)
		}
		out[q] = -1
		if h.Len() > 0 {
			out[q] = int(h.idx[0])
		}
	}
	return out
}

// spanHeap orders span indexes by length, then by index.
type spanHeap struct {
	spans []rangeSpan
	idx   []int32
}

func (h *spanHeap) Len() int { return len(h.idx) }
func (h *spanHeap) Less(a, b int) bool {
	sa, sb := h.spans[h.idx[a]], h.spans[h.idx[b]]
	la, lb := sa.end-sa.start, sb.end-sb.start
	return la < lb || la == lb && h.idx[a] < h.idx[b]
}
func (h *spanHeap) Swap(a, b int) { h.idx[a], h.idx[b] = h.idx[b], h.idx[a] }
func (h *spanHeap) Push(x any)    { h.idx = append(h.idx, x.(int32)) }
func (h *spanHeap) Pop() any {
	last := h.idx[len(h.idx)-1]
	h.idx = h.idx[:len(h.idx)-1]
	return last
}

// spanUnion is the union of byte ranges, merged and in order, for asking
// whether a byte is in any of them.
type spanUnion []rangeSpan

// unionOf merges spans, in any order, into their union.
func unionOf(spans []rangeSpan) spanUnion {
	sorted := slices.Clone(spans)
	slices.SortFunc(sorted, func(a, b rangeSpan) int { return int(a.start) - int(b.start) })
	var out spanUnion
	for _, s := range sorted {
		if s.end <= s.start {
			continue
		}
		if n := len(out); n > 0 && s.start <= out[n-1].end {
			out[n-1].end = max(out[n-1].end, s.end)
			continue
		}
		out = append(out, s)
	}
	return out
}

// has reports whether at is in one of the spans.
func (u spanUnion) has(at uint32) bool {
	i := sort.Search(len(u), func(i int) bool { return u[i].end > at })
	return i < len(u) && u[i].start <= at
}

// stabber lists the spans that hold a range, for many ranges: spans
// sorted by start under a tree of the largest end in each part of that
// order, so that a query visits only the parts with a span that reaches
// far enough, O((1 + found) log n).
type stabber struct {
	order  []int32    // span indexes by start
	start  []uint32   // their starts, in that order
	maxEnd [][]uint32 // maxEnd[k][i]: the largest end of order[i<<k : (i+1)<<k]
	spans  []rangeSpan
}

func newStabber(spans []rangeSpan) *stabber {
	s := &stabber{spans: spans, order: make([]int32, len(spans))}
	for i := range s.order {
		s.order[i] = int32(i)
	}
	sort.SliceStable(s.order, func(a, b int) bool { return spans[s.order[a]].start < spans[s.order[b]].start })
	s.start = make([]uint32, len(spans))
	level := make([]uint32, len(spans))
	for i, o := range s.order {
		s.start[i] = spans[o].start
		level[i] = spans[o].end
	}
	s.maxEnd = append(s.maxEnd, level)
	for len(level) > 1 {
		up := make([]uint32, (len(level)+1)/2)
		for i := range up {
			up[i] = level[2*i]
			if 2*i+1 < len(level) {
				up[i] = max(up[i], level[2*i+1])
			}
		}
		s.maxEnd = append(s.maxEnd, up)
		level = up
	}
	return s
}

// each calls fn with the index of every span that holds [start, end):
// start >= its start and end <= its end.
func (s *stabber) each(start, end uint32, fn func(i int)) {
	n := sort.Search(len(s.start), func(i int) bool { return s.start[i] > start })
	if n == 0 {
		return
	}
	var walk func(k, i int)
	walk = func(k, i int) {
		lo := i << k
		if lo >= n || s.maxEnd[k][i] < end {
			return
		}
		if k == 0 {
			fn(int(s.order[i]))
			return
		}
		walk(k-1, 2*i)
		if (2*i+1)<<(k-1) < len(s.start) {
			walk(k-1, 2*i+1)
		}
	}
	walk(len(s.maxEnd)-1, 0)
}

// nesting is a family of spans that nest or lie apart, as the nodes of a
// tree do, arranged as a forest: each span's parent is the shortest span
// around it. Of two equal spans the one first in spans is the inner, so
// that a climb meets it first, as a scan in order would.
type nesting struct {
	spans  []rangeSpan
	starts []uint32 // by order
	order  []int32
	parent []int32 // by span index; -1 for none
}

// newNesting arranges spans, which must nest or lie apart.
func newNesting(spans []rangeSpan) *nesting {
	n := &nesting{spans: spans, order: make([]int32, len(spans)), parent: make([]int32, len(spans))}
	for i := range n.order {
		n.order[i] = int32(i)
	}
	sort.Slice(n.order, func(a, b int) bool {
		sa, sb := spans[n.order[a]], spans[n.order[b]]
		if sa.start != sb.start {
			return sa.start < sb.start
		}
		if sa.end != sb.end {
			return sa.end > sb.end
		}
		return n.order[a] > n.order[b]
	})
	n.starts = make([]uint32, len(spans))
	var stack []int32
	for k, i := range n.order {
		s := spans[i]
		n.starts[k] = s.start
		for len(stack) > 0 && spans[stack[len(stack)-1]].end < s.end {
			stack = stack[:len(stack)-1]
		}
		n.parent[i] = -1
		if len(stack) > 0 {
			n.parent[i] = stack[len(stack)-1]
		}
		stack = append(stack, i)
	}
	return n
}

// around returns the innermost span that holds [start, end), a range that
// is not empty, and begins before start (strict) or at it, or -1: the climb from the span that
// begins last before it meets each span around it, innermost first.
func (n *nesting) around(start, end uint32, strict bool) int {
	k := sort.Search(len(n.starts), func(i int) bool {
		if strict {
			return n.starts[i] >= start
		}
		return n.starts[i] > start
	})
	if k == 0 {
		return -1
	}
	for i := n.order[k-1]; i >= 0; i = n.parent[i] {
		if s := n.spans[i]; s.start <= start && end <= s.end && (!strict || s.start < start) {
			return int(i)
		}
	}
	return -1
}

// up returns the span around span i, or -1.
func (n *nesting) up(i int) int {
	return int(n.parent[i])
}

// coverSet holds spans as they are found, in any order, and tells whether
// one of those found so far holds a range. It keeps them in sorted runs
// of sizes that are powers of two, each with the largest end up to each
// start, merging two runs of a size as a binary counter carries: adding
// is O(log n) amortised, asking O(log² n).
type coverSet struct {
	runs []coverRun
}

type coverRun struct {
	spans  []rangeSpan // by start
	maxEnd []uint32    // maxEnd[i]: the largest end of spans[:i+1]
}

// add puts a span in the set.
func (c *coverSet) add(s rangeSpan) {
	run := []rangeSpan{s}
	for len(c.runs) > 0 && len(c.runs[len(c.runs)-1].spans) <= len(run) {
		last := c.runs[len(c.runs)-1].spans
		c.runs = c.runs[:len(c.runs)-1]
		merged := make([]rangeSpan, 0, len(last)+len(run))
		i, j := 0, 0
		for i < len(last) || j < len(run) {
			if j == len(run) || i < len(last) && last[i].start <= run[j].start {
				merged = append(merged, last[i])
				i++
			} else {
				merged = append(merged, run[j])
				j++
			}
		}
		run = merged
	}
	r := coverRun{spans: run, maxEnd: make([]uint32, len(run))}
	for i, s := range run {
		r.maxEnd[i] = s.end
		if i > 0 {
			r.maxEnd[i] = max(r.maxEnd[i], r.maxEnd[i-1])
		}
	}
	c.runs = append(c.runs, r)
}

// covers reports whether a span of the set holds [start, end).
func (c *coverSet) covers(start, end uint32) bool {
	for _, r := range c.runs {
		k := sort.Search(len(r.spans), func(i int) bool { return r.spans[i].start > start })
		if k > 0 && r.maxEnd[k-1] >= end {
			return true
		}
	}
	return false
}

// eachBefore calls fn with the index of every span that begins before
// start (strictly) and ends at end or after: the classes around a method.
func (s *stabber) eachBefore(start, end uint32, fn func(i int)) {
	if start > 0 {
		s.each(start-1, end, fn)
	}
}

// lastBefore finds, among keys in any order, the last (by index) whose key
// is below a bound: what a scan in order that keeps each match finds.
type lastBefore struct {
	keys []uint32 // sorted
	best []int    // best[i]: the largest index among keys[:i+1]
}

func newLastBefore(keys []uint32) *lastBefore {
	order := make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return keys[order[a]] < keys[order[b]] })
	l := &lastBefore{keys: make([]uint32, len(keys)), best: make([]int, len(keys))}
	for i, o := range order {
		l.keys[i], l.best[i] = keys[o], o
		if i > 0 {
			l.best[i] = max(l.best[i], l.best[i-1])
		}
	}
	return l
}

// find returns the last index whose key is below bound, or -1.
func (l *lastBefore) find(bound uint32) int {
	k := sort.Search(len(l.keys), func(i int) bool { return l.keys[i] >= bound })
	if k == 0 {
		return -1
	}
	return l.best[k-1]
}
