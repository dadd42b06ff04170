package coverage

import (
	"encoding/json"
	"io"
)

// ListedTest is one test in `count --list --format json`.
type ListedTest struct {
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Language string `json:"language"`
	Name     string `json:"name"`
	Status   string `json:"status"`
	// Platforms names the platforms the test is built for, when it is not
	// built for all; it is active all the same, as it runs on their CI.
	Platforms []string `json:"platforms,omitempty"`
	// Note says where the name, the number or the status is an
	// approximation, or why a whole file's tests are off.
	Note string `json:"note,omitempty"`
}

// WriteListJSON prints every test, as WriteList does, then the files with
// parse errors and the files skipped, as JSON.
func (c *Counts) WriteListJSON(w io.Writer) error {
	out := struct {
		Tests       []ListedTest  `json:"tests"`
		ParseErrors []string      `json:"parse_errors"`
		Skipped     []SkippedFile `json:"skipped"`
	}{Tests: []ListedTest{}, ParseErrors: c.ParseErrors(), Skipped: c.Skipped}
	for _, f := range c.Files {
		for _, t := range f.Tests {
			out.Tests = append(out.Tests, ListedTest{Path: f.Path, Line: t.Line, Language: f.Language, Name: t.Name,
				Status: string(t.Status), Platforms: t.Platforms, Note: t.Note})
		}
	}
	if out.ParseErrors == nil {
		out.ParseErrors = []string{}
	}
	if out.Skipped == nil {
		out.Skipped = []SkippedFile{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
