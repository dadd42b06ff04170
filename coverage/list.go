package coverage

import (
	"io"

	"github.com/gitsentinel/sentinel/internal/jsonout"
	"github.com/gitsentinel/sentinel/languages"
)

// ListedTest is one test of `count --list --format json`: where it is and
// what the language says of it.
type ListedTest struct {
	// Path is the file's slash path relative to the root.
	Path string `json:"path"`
	// Language is the file's language.
	Language string `json:"language"`
	languages.Test
}

// WriteListJSON prints every test as JSON: {"tests": [...]}, in the order
// of WriteList.
func (c *Counts) WriteListJSON(w io.Writer) error {
	out := struct {
		Tests []ListedTest `json:"tests"`
	}{Tests: []ListedTest{}}
	for _, f := range c.Files {
		for _, t := range f.Tests {
			out.Tests = append(out.Tests, ListedTest{Path: f.Path, Language: f.Language, Test: t})
		}
	}
	return jsonout.Write(w, out)
}
