package languages

import (
	"bytes"
	"math/rand"
	"slices"
	"testing"
)

// randomSpans draws n spans over [0, size), nested, disjoint, overlapping
// and empty ones alike, many of the same length.
func randomSpans(r *rand.Rand, n, size int) []rangeSpan {
	out := make([]rangeSpan, n)
	for i := range out {
		a, b := uint32(r.Intn(size)), uint32(r.Intn(size))
		if r.Intn(4) == 0 {
			b = a + uint32(r.Intn(3))
		}
		out[i] = rangeSpan{min(a, b), max(a, b)}
	}
	return out
}

// TestInnermostMatchesScan holds innermost to the scan it replaced: for
// each point, the strictly shortest span that holds it, the first of
// equals.
func TestInnermostMatchesScan(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for round := 0; round < 300; round++ {
		spans := randomSpans(r, r.Intn(40), 60)
		points := make([]uint32, r.Intn(40))
		for i := range points {
			points[i] = uint32(r.Intn(70))
		}
		got := innermost(spans, points)
		for i, at := range points {
			best := -1
			for j, s := range spans {
				if at >= s.start && at < s.end && (best < 0 || s.end-s.start < spans[best].end-spans[best].start) {
					best = j
				}
			}
			if got[i] != best {
				t.Fatalf("round %d: point %d: innermost %d, the scan %d (spans %v)", round, at, got[i], best, spans)
			}
		}
	}
}

// TestStabberMatchesScan holds the stabber to a scan of every span.
func TestStabberMatchesScan(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for round := 0; round < 300; round++ {
		spans := randomSpans(r, r.Intn(70), 80)
		s := newStabber(spans)
		for q := 0; q < 30; q++ {
			a := uint32(r.Intn(90))
			b := a + uint32(r.Intn(10))
			var got, want []int
			s.each(a, b, func(i int) { got = append(got, i) })
			for i, sp := range spans {
				if sp.start <= a && b <= sp.end {
					want = append(want, i)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("round %d: [%d, %d): stabbed %v, the scan %v (spans %v)", round, a, b, got, want, spans)
			}
		}
	}
}

// TestUnionMatchesScan holds the merged spans to a scan of them all.
func TestUnionMatchesScan(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for round := 0; round < 300; round++ {
		spans := randomSpans(r, r.Intn(30), 60)
		u := unionOf(spans)
		for at := uint32(0); at < 70; at++ {
			want := false
			for _, s := range spans {
				want = want || s.start <= at && at < s.end
			}
			if u.has(at) != want {
				t.Fatalf("round %d: %d in %v: %v, the scan %v", round, at, spans, u.has(at), want)
			}
		}
	}
}

// TestNameCallsMatchesIndex holds the matching of many helper names at
// once to bytes.Index for each, overlapping names and names with a
// parenthesis included.
func TestNameCallsMatchesIndex(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	alphabet := []byte("ab(c!")
	for round := 0; round < 300; round++ {
		src := make([]byte, r.Intn(200))
		for i := range src {
			src[i] = alphabet[r.Intn(len(alphabet))]
		}
		var names []string
		for i := r.Intn(6); i >= 0; i-- {
			name := make([]byte, 1+r.Intn(3))
			for j := range name {
				name[j] = alphabet[r.Intn(len(alphabet))]
			}
			if !slices.Contains(names, string(name)) {
				names = append(names, string(name))
			}
		}
		end := "(!"[r.Intn(2)]
		got := nameCalls(src, names, end)
		for i, name := range names {
			var want []uint32
			call := append([]byte(name), end)
			for at := 0; at+len(call) <= len(src); at++ {
				if bytes.HasPrefix(src[at:], call) {
					want = append(want, uint32(at))
				}
			}
			if !slices.Equal(got[i], want) {
				t.Fatalf("round %d: %q in %q: %v, bytes.Index %v", round, name, src, got[i], want)
			}
		}
	}
}

// TestCoverSetMatchesScan holds the cover set, asked between additions,
// to a scan of the spans added so far.
func TestCoverSetMatchesScan(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for round := 0; round < 200; round++ {
		var c coverSet
		var added []rangeSpan
		for step := 0; step < 60; step++ {
			if r.Intn(2) == 0 {
				s := randomSpans(r, 1, 80)[0]
				c.add(s)
				added = append(added, s)
				continue
			}
			a := uint32(r.Intn(90))
			b := a + uint32(r.Intn(12))
			want := false
			for _, s := range added {
				want = want || s.start <= a && b <= s.end
			}
			if c.covers(a, b) != want {
				t.Fatalf("round %d: [%d, %d) in %v: %v, the scan %v", round, a, b, added, !want, want)
			}
		}
	}
}

// nestedSpans draws spans that nest or lie apart, as a tree's nodes do,
// equal ones included.
func nestedSpans(r *rand.Rand, start, end uint32, depth int, out *[]rangeSpan) {
	for at := start; at < end && depth > 0; {
		w := uint32(r.Intn(int(end-at) + 1))
		s := rangeSpan{at, at + w}
		*out = append(*out, s)
		if r.Intn(5) == 0 {
			*out = append(*out, s)
		}
		nestedSpans(r, s.start, s.end, depth-1, out)
		at = s.end + uint32(r.Intn(3))
	}
}

// TestNestingMatchesScan holds the climb of a nesting to a scan of every
// span for the ones around a range, the first of equal spans first.
func TestNestingMatchesScan(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	for round := 0; round < 300; round++ {
		var spans []rangeSpan
		nestedSpans(r, 0, 60, 4, &spans)
		r.Shuffle(len(spans), func(i, j int) { spans[i], spans[j] = spans[j], spans[i] })
		n := newNesting(spans)
		for q := 0; q < 40; q++ {
			a := uint32(r.Intn(64))
			b := a + 1 + uint32(r.Intn(4)) // a range of the tree: not empty
			strict := r.Intn(2) == 0
			var got []int
			for i := n.around(a, b, strict); i >= 0; i = n.up(i) {
				got = append(got, i)
			}
			// Around: innermost first, by length, then by index.
			var want []int
			for i, s := range spans {
				if s.start <= a && b <= s.end && (!strict || s.start < a) {
					want = append(want, i)
				}
			}
			slices.SortStableFunc(want, func(x, y int) int {
				lx, ly := spans[x].end-spans[x].start, spans[y].end-spans[y].start
				if lx != ly {
					return int(lx) - int(ly)
				}
				return x - y
			})
			if !slices.Equal(got, want) {
				t.Fatalf("round %d: [%d, %d) strict %v: climbed %v, the scan %v (spans %v)", round, a, b, strict, got, want, spans)
			}
		}
	}
}

// TestLastBeforeMatchesScan holds lastBefore to a scan in order that keeps
// each key below the bound.
func TestLastBeforeMatchesScan(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for round := 0; round < 300; round++ {
		keys := make([]uint32, r.Intn(20))
		for i := range keys {
			keys[i] = uint32(r.Intn(30))
		}
		l := newLastBefore(keys)
		for bound := uint32(0); bound < 32; bound++ {
			want := -1
			for i, k := range keys {
				if k < bound {
					want = i
				}
			}
			if got := l.find(bound); got != want {
				t.Fatalf("round %d: below %d in %v: %d, the scan %d", round, bound, keys, got, want)
			}
		}
	}
}
