package coverage

import (
	"path"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/languages"
)

func TestMatch(t *testing.T) {
	type tt struct {
		path, name, body string
		asserts          int
		skipped          bool
	}
	mk := func(list []tt) []*identityOf {
		var out []*identityOf
		for _, x := range list {
			st := languages.Active
			if x.skipped {
				st = languages.Skipped
			}
			out = append(out, &identityOf{lang: "go", dir: path.Dir(x.path), path: x.path,
				t: languages.Test{Name: x.name, Line: 1, Status: st, Body: x.body, Assertions: x.asserts}})
		}
		return out
	}
	for _, tc := range []struct {
		name          string
		before, after []tt
		want          string
	}{
		{"unchanged", []tt{{"a_test.go", "TestA", "b1", 1, false}}, []tt{{"a_test.go", "TestA", "b1", 1, false}}, ""},
		{"renamed", []tt{{"a_test.go", "TestA", "b1", 1, false}}, []tt{{"a_test.go", "TestB", "b1", 1, false}}, ""},
		{"renamed and moved away", []tt{{"a/a_test.go", "TestA", "b1", 1, false}}, []tt{{"b/b_test.go", "TestZ", "b1", 1, false}}, ""},
		{"moved in the package", []tt{{"a/a_test.go", "TestA", "b1", 1, false}}, []tt{{"a/b_test.go", "TestA", "b2", 1, false}}, ""},
		{"same name, other package, other body", []tt{{"a/a_test.go", "TestA", "b1", 1, false}}, []tt{{"b/a_test.go", "TestA", "b2", 1, false}}, "TestA missing"},
		{"edited", []tt{{"a_test.go", "TestA", "b1", 2, false}}, []tt{{"a_test.go", "TestA", "b2", 1, false}}, ""},
		{"emptied", []tt{{"a_test.go", "TestA", "b1", 2, false}}, []tt{{"a_test.go", "TestA", "b2", 0, false}}, "TestA emptied"},
		{"never asserted", []tt{{"a_test.go", "TestA", "b1", 0, false}}, []tt{{"a_test.go", "TestA", "b2", 0, false}}, ""},
		{"skipped", []tt{{"a_test.go", "TestA", "b1", 1, false}}, []tt{{"a_test.go", "TestA", "b1", 1, true}}, "TestA skipped"},
		{"skipped copy does not rename", []tt{{"a_test.go", "TestA", "b1", 1, false}}, []tt{{"a_test.go", "TestB", "b1", 1, true}}, "TestA missing"},
		{"replaced", []tt{{"a_test.go", "TestA", "b1", 1, false}, {"a_test.go", "TestB", "b2", 1, false}},
			[]tt{{"a_test.go", "TestA", "b1", 1, false}, {"a_test.go", "TestC", "b3", 1, false}}, "TestB missing"},
		{"one body, two tests", []tt{{"a_test.go", "TestA", "b1", 1, false}, {"a_test.go", "TestB", "b1", 1, false}},
			[]tt{{"a_test.go", "TestC", "b1", 1, false}}, "TestB missing"},
		{"new test", nil, []tt{{"a_test.go", "TestA", "b1", 1, false}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, l := range match(mk(tc.before), mk(tc.after)) {
				got = append(got, l.Name+" "+l.Cause)
			}
			if strings.Join(got, ", ") != tc.want {
				t.Errorf("losses %q, want %q", strings.Join(got, ", "), tc.want)
			}
		})
	}
}
