package coverage

import (
	"fmt"
	"math/rand"
	"reflect"
	"sort"
	"testing"

	"github.com/gitsentinel/sentinel/languages"
)

// The scans that the queues of match and fewerAssertions replaced, kept as
// the oracles they must agree with.

// matchScan is match as it was: the first test of a name or a body not
// taken yet, found by a scan from the start.
func matchScan(before, after []*identityOf) []Loss {
	byName := map[string][]*identityOf{}
	byBody := map[string][]*identityOf{}
	for _, a := range after {
		k := a.lang + "\x00" + a.dir + "\x00" + a.t.Name
		byName[k] = append(byName[k], a)
		if a.t.Status == languages.Active && a.t.Body != "" {
			byBody[a.lang+"\x00"+a.t.Body] = append(byBody[a.lang+"\x00"+a.t.Body], a)
		}
	}
	take := func(list []*identityOf) *identityOf {
		for _, a := range list {
			if !a.used {
				a.used = true
				return a
			}
		}
		return nil
	}
	var out []Loss
	var pending []*identityOf
	for _, b := range before {
		a := take(byName[b.lang+"\x00"+b.dir+"\x00"+b.t.Name])
		if a == nil {
			pending = append(pending, b)
			continue
		}
		loss := Loss{Language: b.lang, Name: b.t.Name, Path: b.path, Line: b.t.Line, Assertions: b.t.Assertions}
		switch {
		case a.t.Status != languages.Active:
			loss.Cause, loss.Path, loss.Line = LostSkipped, a.path, a.t.Line
			out = append(out, loss)
		case b.t.Assertions > 0 && a.t.Assertions == 0:
			loss.Cause, loss.Path, loss.Line = LostEmptied, a.path, a.t.Line
			out = append(out, loss)
		}
	}
	for _, b := range pending {
		if b.t.Body != "" && take(byBody[b.lang+"\x00"+b.t.Body]) != nil {
			continue
		}
		out = append(out, Loss{Language: b.lang, Name: b.t.Name, Path: b.path, Line: b.t.Line, Cause: LostMissing, Assertions: b.t.Assertions})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Line < out[j].Line
	})
	return out
}

// randomTests draws tests of few names and few bodies, so that both
// repeat, in a few directories.
func randomTests(r *rand.Rand, n int) []*identityOf {
	var out []*identityOf
	for i := 0; i < n; i++ {
		t := languages.Test{Name: fmt.Sprintf("T%d", r.Intn(5)), Line: i + 1, Status: languages.Active,
			Assertions: r.Intn(3), Body: []string{"", "b1", "b2"}[r.Intn(3)]}
		if r.Intn(5) == 0 {
			t.Status = languages.Skipped
		}
		dir := []string{"a", "b"}[r.Intn(2)]
		out = append(out, &identityOf{lang: "go", dir: dir, path: fmt.Sprintf("%s/f%d_test.go", dir, i), t: t})
	}
	return out
}

// clone copies tests, untaken.
func clone(ts []*identityOf) []*identityOf {
	out := make([]*identityOf, len(ts))
	for i, t := range ts {
		c := *t
		out[i] = &c
	}
	return out
}

// TestMatchMatchesScan holds the queues to the scan, on tests of repeated
// names and bodies.
func TestMatchMatchesScan(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	for round := 0; round < 500; round++ {
		before, after := randomTests(r, r.Intn(20)), randomTests(r, r.Intn(20))
		got := match(clone(before), clone(after))
		want := matchScan(clone(before), clone(after))
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: match %+v, the scan %+v", round, got, want)
		}
	}
}

// fewerScan is fewerAssertions's pairing of one file's tests as it was:
// each test of the reference with the first test of its name not taken,
// found by a scan of the file's tests.
func fewerScan(rf, nf File) []Fewer {
	var out []Fewer
	used := map[int]bool{}
	for _, rt := range rf.Tests {
		for i, nt := range nf.Tests {
			if used[i] || nt.Name != rt.Name {
				continue
			}
			used[i] = true
			if nt.Assertions < rt.Assertions {
				out = append(out, Fewer{Name: nt.Name, Path: nf.Path, Line: nt.Line, Before: rt.Assertions, Now: nt.Assertions,
					Vacuous: max(0, nt.Vacuous-rt.Vacuous)})
			}
			break
		}
	}
	return out
}

// TestFewerMatchesScan holds fewerAssertions's pairing to the scan, on a
// file whose tests repeat their names.
func TestFewerMatchesScan(t *testing.T) {
	r := rand.New(rand.NewSource(12))
	file := func(n int) File {
		res := &languages.Result{Language: "go"}
		for i := 0; i < n; i++ {
			a := r.Intn(4)
			res.Tests = append(res.Tests, languages.Test{Name: fmt.Sprintf("T%d", r.Intn(4)), Line: i + 1, Status: languages.Active,
				Assertions: a, Vacuous: r.Intn(2)})
			res.Assertions += a
		}
		return File{Path: "a_test.go", Result: res}
	}
	for round := 0; round < 500; round++ {
		rf, nf := file(r.Intn(12)), file(r.Intn(12))
		rf.Assertions += 100 // a fall, so that the file's tests are paired
		got := fewerAssertions(&Counts{Files: []File{rf}}, &Counts{Files: []File{nf}}, "go")
		var named []Fewer
		for _, f := range got {
			if f.Name != "" {
				named = append(named, f)
			}
		}
		want := fewerScan(rf, nf)
		sort.SliceStable(want, func(i, j int) bool { return want[i].Name != "" && want[j].Name == "" })
		if !reflect.DeepEqual(named, want) {
			t.Fatalf("round %d: paired %+v, the scan %+v", round, named, want)
		}
	}
}
