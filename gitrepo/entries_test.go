package gitrepo

import (
	"fmt"
	"reflect"
	"testing"
)

func TestParseEntries(t *testing.T) {
	ls := func(f []string, path string) Entry {
		return Entry{Mode: f[0], Blob: f[1], Path: path, Stage: len(f[2])}
	}
	got, err := parseEntries([]byte("100644 aaaa 0\ta b/c\x00120000 bbbb 2\tl\tink\x00\x00100644 cccc 0\tlast"), "x", ls)
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{Mode: "100644", Blob: "aaaa", Path: "a b/c", Stage: 1}, {Mode: "120000", Blob: "bbbb", Path: "l\tink", Stage: 1},
		{Mode: "100644", Blob: "cccc", Path: "last", Stage: 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	for _, bad := range []string{"100644 aaaa\tx\x00", "100644 aaaa 0 extra\tx\x00", "no tab\x00"} {
		if _, err := parseEntries([]byte(bad), "x", ls); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if got, err := parseEntries(nil, "x", ls); err != nil || len(got) != 0 {
		t.Errorf("empty: %v %v", got, err)
	}
}

// BenchmarkParseEntries parses an index listing of 100,000 files, the size
// of a large monorepo's.
func BenchmarkParseEntries(b *testing.B) {
	var buf []byte
	for i := 0; i < 100000; i++ {
		buf = fmt.Appendf(buf, "100644 %040x 0\tteam%d/go/src/pkg%d/file%d_test.go\x00", i, i%10, i%997, i)
	}
	ls := func(f []string, path string) Entry { return Entry{Mode: f[0], Blob: f[1], Path: path} }
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseEntries(buf, "x", ls); err != nil {
			b.Fatal(err)
		}
	}
}
