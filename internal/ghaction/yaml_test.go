package ghaction

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseYAML(t *testing.T) {
	doc := `# a comment
name: x   # trailing comment
quoted: 'it''s: here'
dq: "a\tb"
empty:
list:
  - plain
  - key: v
    other: "w"
  -
    nested: y
run: |
  echo one

  echo "two: #not a comment"
strip: |-
  a
folded: >
  a
  b
after: z
`
	got, err := parseYAML("doc.yml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"name": "x", "quoted": "it's: here", "dq": "a\tb", "empty": "",
		"list": []any{"plain", map[string]any{"key": "v", "other": "w"}, map[string]any{"nested": "y"}},
		"run":  "echo one\n\necho \"two: #not a comment\"\n", "strip": "a", "folded": "a b\n", "after": "z",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v\nwant %#v", got, want)
	}
}

func TestParseYAMLErrors(t *testing.T) {
	for doc, want := range map[string]string{
		"a: 1\na: 2\n":          "doc.yml:2:1: a appears twice",
		"a: [1, 2]\n":           "doc.yml:1:4: '[' starts YAML",
		"a: 'open\n":            "doc.yml:1:4: an unterminated quoted scalar",
		"a:\n  - x\n  y: 1\n":   "doc.yml:3:3: expected a sequence item",
		"a: 1\n   b: 2\n":       "doc.yml:2:4: unexpected indentation",
		"just text\n":           "doc.yml:1:1: expected key: value",
		"a: |\n  x\n y\nb: 1\n": "doc.yml:3:2: less indented than the block's first line",
	} {
		_, err := parseYAML("doc.yml", []byte(doc))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", doc, err, want)
		}
	}
}
