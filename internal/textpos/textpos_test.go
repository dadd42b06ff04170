package textpos

import (
	"encoding/json"
	"testing"
)

func TestPosition(t *testing.T) {
	data := []byte("ab\ncd\n\nef")
	for _, tc := range []struct {
		off       int64
		line, col int
	}{{0, 1, 1}, {1, 1, 2}, {3, 2, 1}, {4, 2, 2}, {6, 3, 1}, {8, 4, 2}, {-5, 1, 1}, {100, 4, 3}} {
		if l, c := Position(data, tc.off); l != tc.line || c != tc.col {
			t.Errorf("Position(%d) = %d:%d, want %d:%d", tc.off, l, c, tc.line, tc.col)
		}
	}
}

func TestJSON(t *testing.T) {
	data := []byte("{\n  \"a\": 1,\n  oops\n}")
	var v any
	err := json.Unmarshal(data, &v)
	if l, c := JSON(data, err); l != 3 || c != 3 {
		t.Errorf("syntax error at %d:%d, want 3:3", l, c)
	}
	data = []byte("{\"a\":\n \"x\"}")
	var s struct{ A int }
	err = json.Unmarshal(data, &s)
	if l, _ := JSON(data, err); l != 2 {
		t.Errorf("type error on line %d, want 2", l)
	}
}
