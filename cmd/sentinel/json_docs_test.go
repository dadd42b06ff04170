//go:build !sentinel_front

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/internal/jsonout"
)

// jsonDoc is docs/json.md, found before a test moves into a repository.
var jsonDoc, _ = filepath.Abs(filepath.Join("..", "..", "docs", "json.md"))

// docSection is one section of docs/json.md: its text and its ```json
// examples.
type docSection struct {
	text     string
	examples []string
}

// docSections reads docs/json.md into its sections, each under the start
// of its heading that names it (secCheck…), or under the whole heading.
func docSections(t *testing.T) map[string]*docSection {
	t.Helper()
	data, err := os.ReadFile(jsonDoc)
	if err != nil {
		t.Fatal(err)
	}
	return parseDoc(string(data))
}

func parseDoc(doc string) map[string]*docSection {
	known := []string{secAgent, secCheck, secCI, secCount, secDoctor, secList, secHistory, secStatus, secTrailers, secGuardLog, secError, secSARIF}
	out := map[string]*docSection{}
	var cur *docSection
	var example *strings.Builder
	for _, line := range strings.SplitAfter(doc, "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok && example == nil {
			key := strings.TrimSpace(h)
			for _, k := range known {
				if strings.HasPrefix(key, k) {
					key = k
				}
			}
			cur = &docSection{}
			out[key] = cur
			continue
		}
		if cur == nil {
			continue
		}
		switch {
		case example == nil && strings.TrimSpace(line) == "```json":
			example = &strings.Builder{}
		case example != nil && strings.TrimSpace(line) == "```":
			cur.examples = append(cur.examples, example.String())
			example = nil
		case example != nil:
			example.WriteString(line)
		default:
			cur.text += line
		}
	}
	return out
}

// dynamicMaps are the fields whose objects are keyed by data (a language,
// a row, a figure's owner), not by field names.
var dynamicMaps = map[string]bool{"languages": true, "peaks": true, "highs": true, "lowered": true}

// shape is what a set of JSON documents holds: the types found at each
// path ("/drops/*/missing/*/name", with * for an array's elements and a
// dynamic map's keys), and for each object path how many objects were
// there and how many of them had each field.
type shape struct {
	types map[string]map[string]bool
	objs  map[string]int
	keys  map[string]map[string]int
}

func newShape() *shape {
	return &shape{types: map[string]map[string]bool{}, objs: map[string]int{}, keys: map[string]map[string]int{}}
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	}
	return "object"
}

// add walks a document into the shape.
func (s *shape) add(v any, path string, dynamic bool) {
	if s.types[path] == nil {
		s.types[path] = map[string]bool{}
	}
	s.types[path][jsonType(v)] = true
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			s.add(e, path+"/*", false)
		}
	case map[string]any:
		if dynamic {
			for _, e := range v {
				s.add(e, path+"/*", false)
			}
			return
		}
		s.objs[path]++
		if s.keys[path] == nil {
			s.keys[path] = map[string]int{}
		}
		for k, e := range v {
			s.keys[path][k]++
			s.add(e, path+"/"+k, dynamicMaps[k])
		}
	}
}

func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one document")
	}
	return v, nil
}

// firstKey is the first field of a JSON object as written.
func firstKey(data []byte) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return ""
	}
	tok, _ := dec.Token()
	k, _ := tok.(string)
	return k
}

var (
	quotedName = regexp.MustCompile(`"([A-Za-z_][A-Za-z0-9_]*)"`)
	tickedName = regexp.MustCompile("`([A-Za-z_][A-Za-z0-9_]*)`")
)

// checkDoc compares the documents a command wrote with its section of
// docs/json.md, and returns what does not match: a document that is not a
// report (no version first, a null), a field of the output the section
// does not name (as "field" or `field`), and an example whose shape is not
// the output's: a field the output lacks or has with another type, or a
// field every object of the output has and the example leaves out.
func checkDoc(sec *docSection, outputs [][]byte) []string {
	var problems []string
	out := newShape()
	for _, o := range outputs {
		v, err := decodeJSON(o)
		if err != nil {
			problems = append(problems, fmt.Sprintf("output is not JSON: %v\n%s", err, o))
			continue
		}
		if k := firstKey(o); k != "version" {
			problems = append(problems, fmt.Sprintf("output starts with %q, not version:\n%s", k, o))
		}
		if nulls, _ := jsonout.Nulls(o); len(nulls) > 0 {
			problems = append(problems, fmt.Sprintf("output has null at %v:\n%s", nulls, o))
		}
		out.add(v, "", false)
	}
	named := map[string]bool{}
	for _, re := range []*regexp.Regexp{quotedName, tickedName} {
		for _, m := range re.FindAllStringSubmatch(sec.text, -1) {
			named[m[1]] = true
		}
	}
	for _, path := range slices.Sorted(maps.Keys(out.keys)) {
		for _, k := range slices.Sorted(maps.Keys(out.keys[path])) {
			if !named[k] {
				problems = append(problems, fmt.Sprintf("field %s/%s of the output is not documented", path, k))
			}
		}
	}
	if len(sec.examples) == 0 {
		problems = append(problems, "no ```json example")
	}
	for i, ex := range sec.examples {
		v, err := decodeJSON([]byte(ex))
		if err != nil {
			problems = append(problems, fmt.Sprintf("example %d is not JSON: %v", i+1, err))
			continue
		}
		if k := firstKey([]byte(ex)); k != "version" {
			problems = append(problems, fmt.Sprintf("example %d starts with %q, not version", i+1, k))
		}
		es := newShape()
		es.add(v, "", false)
		for _, path := range slices.Sorted(maps.Keys(es.types)) {
			for typ := range es.types[path] {
				switch {
				case out.types[path] == nil:
					problems = append(problems, fmt.Sprintf("example %d has %s, which the output lacks", i+1, path))
				case !out.types[path][typ]:
					problems = append(problems, fmt.Sprintf("example %d has %s as %s, the output as %v", i+1, path, typ, slices.Sorted(maps.Keys(out.types[path]))))
				}
			}
		}
		for _, path := range slices.Sorted(maps.Keys(es.keys)) {
			for k, n := range out.keys[path] {
				if n == out.objs[path] && es.keys[path][k] < es.objs[path] {
					problems = append(problems, fmt.Sprintf("example %d leaves out %s/%s, which the output always has", i+1, path, k))
				}
			}
		}
	}
	slices.Sort(problems)
	return problems
}

// TestJSONMatchesDocs runs every command that writes JSON, in each of its
// modes, in a real repository, and holds what it writes to docs/json.md:
// each report starts with version and has no null; every field it has is
// named in the command's section; and each ```json example there has the
// shape of the real output.
func TestJSONMatchesDocs(t *testing.T) {
	rep := collectReports(t)
	secs := docSections(t)
	for _, name := range slices.Sorted(maps.Keys(rep.json)) {
		sec := secs[name]
		if sec == nil {
			t.Errorf("docs/json.md has no section whose heading starts with %s", name)
			continue
		}
		for _, p := range checkDoc(sec, rep.json[name]) {
			t.Errorf("%s: %s", name, p)
		}
	}
	for name, sec := range secs {
		if len(sec.examples) > 0 && rep.json[name] == nil && name != secSARIF {
			t.Errorf("docs/json.md: the examples under %q are held to no output", name)
		}
	}
}

// TestCheckDocFails makes sure the comparison can fail: a field left out
// of the text, an example with a field the output lacks, one of the wrong
// type, one without a field the output always has, and a null.
func TestCheckDocFails(t *testing.T) {
	doc := "## `sentinel check --format json`\n\n`{\"version\": 1, \"ok\": bool, \"drops\": [...]}`, each drop `{\"key\", \"peak\"}`.\n\n" +
		"```json\n{\"version\": 1, \"ok\": true, \"drops\": [{\"key\": \"go\", \"peak\": 2}]}\n```\n"
	outputs := [][]byte{[]byte(`{"version": 1, "ok": false, "drops": [{"key": "go", "peak": 3}]}`)}
	sec := parseDoc(doc)[secCheck]
	if sec == nil || len(sec.examples) != 1 {
		t.Fatalf("parsed %+v", parseDoc(doc))
	}
	if p := checkDoc(sec, outputs); len(p) > 0 {
		t.Fatalf("a documented report: %v", p)
	}
	for _, c := range []struct{ doc, output, want string }{
		{strings.Replace(doc, `"peak"}`, `}`, 1), "", "field /drops/*/peak of the output is not documented"},
		{strings.Replace(doc, `"peak": 2}`, `"peak": 2, "now": 1}`, 1), "", "example 1 has /drops/*/now, which the output lacks"},
		{strings.Replace(doc, `"peak": 2`, `"peak": "2"`, 1), "", "example 1 has /drops/*/peak as string"},
		{strings.Replace(doc, `, "peak": 2}`, `}`, 1), "", "example 1 leaves out /drops/*/peak"},
		{doc, `{"version": 1, "ok": false, "drops": null}`, "output has null at [/drops]"},
		{doc, `{"ok": false, "version": 1, "drops": []}`, `output starts with "ok"`},
	} {
		outs := outputs
		if c.output != "" {
			outs = [][]byte{[]byte(c.output)}
		}
		p := checkDoc(parseDoc(c.doc)[secCheck], outs)
		if !strings.Contains(strings.Join(p, "\n"), c.want) {
			t.Errorf("want %q among %q", c.want, p)
		}
	}
}
