package coverage

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// FuzzBaseline holds the baseline's parser, writer and merge driver to
// their contracts for any input: a baseline that writes back to exactly
// the input, or a BaselineError at a position inside the input; a merge
// that keeps every peak a side holds, never goes negative, and does not
// depend on which side is ours.
func FuzzBaseline(f *testing.F) {
	f.Add([]byte(goodBaseline))
	f.Add((&Baseline{Version: 1}).Marshal())
	f.Add([]byte(`{"accepted": [], "peaks": {"go": {"assertions": 3, "tests": 2}}, "version": 1}`))
	f.Add([]byte(`{"accepted": [{"at": "2026-11-29T12:00:00Z", "by": "A <a@example.com>", "lowered": {"go": {"tests": [3, 2]}}, "reason": "r"}], "peaks": {"go": {"assertions": 3, "tests": 2}, "py": {"assertions": 0, "tests": 1}}, "version": 1}`))
	f.Add([]byte(`{"peaks": {"go": {"tests": 9223372036854775807}}, "version": 1}`))
	f.Add([]byte(`{"peaks": {"go": {"tests": -1}}, "version": 1}`))
	f.Add([]byte(`{"version": 2}`))
	f.Add([]byte(`{"version": 1} {}`))
	f.Add([]byte("{\"peaks\": {\"\xff\": {}}, \"version\": 1}"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ParseBaseline("baseline.json", data)
		if err != nil {
			var be *BaselineError
			if !errors.As(err, &be) {
				t.Fatalf("error is not a BaselineError: %v", err)
			}
			if !insideInput(data, be.Line, be.Col) {
				t.Fatalf("position %d:%d outside the input: %v", be.Line, be.Col, err)
			}
			if !strings.HasPrefix(err.Error(), fmt.Sprintf("baseline.json:%d:%d: ", be.Line, be.Col)) {
				t.Fatalf("error does not read file:line:col: %v", err)
			}
			return
		}
		out := b.Marshal()
		if !bytes.Equal(out, data) {
			t.Fatalf("accepted a baseline that does not write back as it was:\n%q\n%q", data, out)
		}
		if l := Lowered(b, b); len(l) != 0 {
			t.Fatalf("a baseline lowers itself: %+v", l)
		}
		// theirs grew every peak by one since the base; ours is the base.
		theirs := &Baseline{Version: b.Version, Accepted: b.Accepted, Peaks: map[string]Peak{}}
		for k, p := range b.Peaks {
			theirs.Peaks[k] = Peak{Tests: p.Tests + 1, Assertions: p.Assertions + 1}
		}
		for _, m := range []*Baseline{MergeBaselines(b, b, theirs), MergeBaselines(b, theirs, b)} {
			if !reflect.DeepEqual(m.Peaks, theirs.Peaks) && !overflows(b) {
				t.Fatalf("merge lost a side's growth: %+v, want %+v", m.Peaks, theirs.Peaks)
			}
			for k, p := range m.Peaks {
				if p.Tests < 0 || p.Assertions < 0 {
					t.Fatalf("merge made peak %s negative: %+v", k, p)
				}
			}
			if _, err := ParseBaseline("merged", m.Marshal()); err != nil {
				t.Fatalf("the merge wrote what sentinel cannot read: %v", err)
			}
		}
		if !reflect.DeepEqual(MergeBaselines(nil, b, theirs).Peaks, MergeBaselines(nil, theirs, b).Peaks) {
			t.Fatal("merge without a base depends on which side is ours")
		}
	})
}

// insideInput reports whether line:col names a byte of data, or the end of
// one of its lines, or the end of data.
func insideInput(data []byte, line, col int) bool {
	if line < 1 || col < 1 {
		return false
	}
	lines := bytes.Split(data, []byte("\n"))
	return line <= len(lines) && col <= len(lines[line-1])+1
}

func overflows(b *Baseline) bool {
	for _, p := range b.Peaks {
		if p.Tests == maxInt || p.Assertions == maxInt {
			return true
		}
	}
	return false
}

const maxInt = int(^uint(0) >> 1)
