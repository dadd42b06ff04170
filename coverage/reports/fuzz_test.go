package reports

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse feeds the parsers anything: they return cases or an *Error
// naming the file, never panic, and every case is in the report read.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.*"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil && filepath.Ext(p) != ".md" {
			f.Add(data)
		}
	}
	f.Add([]byte(`<testsuite><testcase name="a"><skipped message="m"/></testcase></testsuite>`))
	f.Add([]byte("{\"Action\":\"run\",\"Package\":\"p\",\"Test\":\"TestA/b\"}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cs, err := Parse("r", data)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("%T %v", err, err)
			}
			return
		}
		tests := []Test{{Language: "go", Path: "a_test.go", Name: "TestA", Scope: "p"}, {Language: "javascript", Path: "a.test.js", Name: "a > %s"},
			{Language: "python", Path: "t/test_a.py", Name: "C.test_a"}, {Language: "java", Path: "src/A.java", Name: "A#m"}}
		v := Match(tests, &Set{Files: []string{"r"}, Cases: cs})
		if v.Ran+len(v.Lost)+len(v.Platform) != len(tests) {
			t.Fatalf("%d tests, ran %d, lost %d", len(tests), v.Ran, len(v.Lost))
		}
		for _, c := range cs {
			if c.Report != "r" || (c.Outcome != Passed && c.Outcome != Failed && c.Outcome != Skipped) {
				t.Fatalf("%+v", c)
			}
		}
	})
}
