package strictjson

import (
	"errors"
	"strings"
	"testing"
)

func TestParseTree(t *testing.T) {
	data := []byte("{\n  \"a\": [1, -2.5e3, true, null],\n  \"b\\u00e9\": \"x\\ud83d\\ude00\\n\"\n}\n")
	v, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if v.Kind != Object || len(v.Members) != 2 {
		t.Fatalf("root: %+v", v)
	}
	a, b := v.Members[0], v.Members[1]
	if a.Key != "a" || a.KeyOff != 4 || a.Value.Kind != Array || a.Value.Off != 9 || len(a.Value.Elems) != 4 {
		t.Errorf("a: %+v %+v", a, a.Value)
	}
	if el := a.Value.Elems[1]; el.Kind != Number || el.Text != "-2.5e3" || el.Off != 13 {
		t.Errorf("number: %+v", el)
	}
	if el := a.Value.Elems[2]; el.Kind != Bool || !el.Bool {
		t.Errorf("bool: %+v", el)
	}
	if el := a.Value.Elems[3]; el.Kind != Null || el.Describe() != "null" {
		t.Errorf("null: %+v", el)
	}
	if b.Key != "bé" || b.Value.Text != "x😀\n" {
		t.Errorf("b: %q %q", b.Key, b.Value.Text)
	}
}

// TestParseErrors: each error is at the byte at fault, or for a document
// cut short at the end of its last token.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		data string
		off  int
		want string
	}{
		{"", 0, "the file is empty"},
		{" \n\t", 0, "the file is empty"},
		{`{"a": 1, "a": 2}`, 9, `the key "a" appears twice in the object (first at 1:2)`},
		{`{"a": 1, "\u0061": 2}`, 9, `the key "a" appears twice`},
		{`{"a": 1, "A": 2}`, -1, ""}, // case is the caller's to judge
		{"{}\x00", 2, "found a NUL byte after the end of the document"},
		{"{} {}", 3, "found '{' after the end of the document"},
		{"{\n  \"a\": [\n    1,\n", 17, "the file ends inside the list that opens at 2:8"},
		{`{"a": "bc`, 9, "the file ends inside the string that opens at 1:7"},
		{`{"a": "b\`, 9, "the file ends inside a string"},
		{`{"a": tru`, 9, "the file ends inside the object that opens at 1:1"},
		{`{"a": trux}`, 9, "expected the literal true, found 'x'"},
		{`{"a" 1}`, 5, `expected ':' after the key "a", found '1'`},
		{`{"a": 1,}`, 8, "expected a key in double quotes, found '}'"},
		{`{,}`, 1, "expected a key in double quotes or '}', found ','"},
		{`[1,]`, 3, "expected a value, found ']'"},
		{`[1 2]`, 3, "expected ',' or ']', found '2'"},
		{`{"a": 01}`, 6, "a number with a leading zero"},
		{`{"a": -}`, 7, "expected a digit, found '}'"},
		{`{"a": 1.}`, 8, "expected a digit, found '}'"},
		{`{"a": 1e}`, 8, "expected a digit, found '}'"},
		{"{\"a\": \"b\nc\"}", 8, "found a line break inside the string that opens at 1:7"},
		{"{\"a\": \"\xff\"}", 7, "invalid UTF-8 inside a string: the byte 0xff"},
		{"\xef\xbb\xbf{}", 0, "expected a value, found a byte order mark (U+FEFF)"},
		{"{\xff}", 1, "found the byte 0xff, which is not UTF-8"},
		{`"\x"`, 1, `unknown escape \x in a string`},
		{`"\u12g4"`, 5, "the escape that starts at 1:2 needs four hex digits, found 'g'"},
		{`"\ud800"`, 1, `the escape \ud800 is half of a UTF-16 surrogate pair`},
		{`"\ud800\u0041"`, 1, `the escape \ud800 is half`},
		{`"\udc00\ud800"`, 1, `the escape \udc00 is half`},
		{strings.Repeat("[", MaxDepth+1), MaxDepth, "nest deeper than 64 levels"},
	} {
		_, err := Parse([]byte(tc.data))
		if tc.off < 0 {
			if err != nil {
				t.Errorf("%q: %v", tc.data, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: got %v, want an *Error", tc.data, err)
			continue
		}
		if e.Off != tc.off || !strings.Contains(e.Msg, tc.want) {
			t.Errorf("%q: at %d: %s\nwant at %d: %s", tc.data, e.Off, e.Msg, tc.off, tc.want)
		}
	}
}
