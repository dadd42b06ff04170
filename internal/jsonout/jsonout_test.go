package jsonout

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

type inner struct {
	Names []string `json:"names"`
}

type report struct {
	OK      bool              `json:"ok"`
	Drops   []inner           `json:"drops"`
	Peaks   map[string]int    `json:"peaks"`
	Nested  *inner            `json:"nested"`
	Absent  []string          `json:"absent,omitempty"`
	Any     any               `json:"any"`
	ByKey   map[string]inner  `json:"by_key"`
	Raw     []byte            `json:"raw,omitempty"`
	When    time.Time         `json:"when"`
	Hidden  []string          `json:"-"`
	Fixed   [1]inner          `json:"fixed"`
	private []string          // not encoded
	Embed   map[string][]bool `json:"embed"`
}

// TestWriteShape checks the report's shape: version first, two-space
// indent, a newline at the end, < and > left as they are.
func TestWriteShape(t *testing.T) {
	var b strings.Builder
	if err := Write(&b, struct {
		OK  bool   `json:"ok"`
		Who string `json:"who"`
	}{true, "Jane <jane@example.com>"}); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"version\": 1,\n  \"ok\": true,\n  \"who\": \"Jane <jane@example.com>\"\n}\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := Write(&b, struct{}{}); err != nil {
		t.Fatal(err)
	}
	if b.String() != "{\n  \"version\": 1\n}\n" {
		t.Errorf("an empty report: got %q", b.String())
	}
}

// TestWriteFillsNils checks that no nil slice or map, however deep, is
// written as null, and that the value written is left as it was.
func TestWriteFillsNils(t *testing.T) {
	r := report{Drops: []inner{{}}, Nested: &inner{}, Any: &inner{}, ByKey: map[string]inner{"go": {}},
		Embed: map[string][]bool{"x": nil}, private: []string{"not encoded"}}
	data, err := Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	nulls, err := Nulls(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(nulls) > 0 {
		t.Errorf("nulls at %v in\n%s", nulls, data)
	}
	for _, want := range []string{`"absent"`, `"raw"`, `"Hidden"`, `"private"`} {
		if strings.Contains(string(data), want) {
			t.Errorf("%s written in\n%s", want, data)
		}
	}
	if r.Drops[0].Names != nil || r.Nested.Names != nil || r.Peaks != nil || r.Embed["x"] != nil {
		t.Errorf("the value written was changed: %+v", r)
	}
}

// TestWriteRefuses checks what is not a report: not an object, or one
// with a version of its own.
func TestWriteRefuses(t *testing.T) {
	for _, doc := range []any{[]int{1}, "text", struct {
		Version int `json:"version"`
	}{2}} {
		if _, err := Marshal(doc); err == nil {
			t.Errorf("%#v: no error", doc)
		}
	}
}

// TestWriteError checks the report of a failure.
func TestWriteError(t *testing.T) {
	var b strings.Builder
	if err := WriteError(&b, errors.New(`no "baseline" <here>`)); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"version\": 1,\n  \"error\": \"no \\\"baseline\\\" <here>\"\n}\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestNulls checks that every null is found, with its JSON pointer.
func TestNulls(t *testing.T) {
	got, err := Nulls([]byte(`{"a": null, "b": [1, null, {"c/d": null}], "e": {"f~": null}, "g": 0}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/a", "/b/1", "/b/2/c~1d", "/e/f~0"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if _, err := Nulls([]byte(`{"a": `)); err == nil {
		t.Error("a broken document: no error")
	}
}
