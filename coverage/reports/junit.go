package reports

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gitsentinel/sentinel/internal/textpos"
)

// parseJUnit reads a JUnit XML report: <testsuites> or <testsuite> at the
// root, suites nested in suites (PHPUnit, .NET), and <testcase> elements
// whose <skipped> says the case did not run; <failure> and <error> ran it.
// Each runner fills classname, name and file its own way; they are kept as
// written, and matched later (see Match).
//
// encoding/xml expands no entity beyond XML's five and the character
// references, and a DTD's declarations are never read, so a report cannot
// grow itself; depth and the number of cases are bounded here.
func parseJUnit(name string, data []byte) ([]Case, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	fail := func(err error) error {
		line, col := textpos.Position(data, d.InputOffset())
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			return &Error{File: name, Line: se.Line, Err: errors.New(se.Msg)}
		}
		return &Error{File: name, Line: line, Col: col, Err: err}
	}
	var (
		cases  []Case
		stack  []string
		suites []string
		cur    *Case // the testcase being read
		inSkip bool
		skip   strings.Builder
		root   bool
		depth  int // the testcase's depth in stack
		units  int // the suites read
	)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fail(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			el := t.Name.Local
			if len(stack) >= MaxDepth {
				return nil, fail(fmt.Errorf("elements nested over %d deep", MaxDepth))
			}
			if len(stack) == 0 {
				if el != "testsuites" && el != "testsuite" {
					return nil, fail(fmt.Errorf("an XML document whose root is <%s>, not <testsuites> or <testsuite>: %w", el, ErrFormat))
				}
				root = true
			}
			stack = append(stack, el)
			switch {
			case el == "testsuite":
				suites = append(suites, attr(t, "name"))
				units++
			case el == "testcase" && cur == nil:
				if len(cases) >= MaxCases {
					return nil, fail(fmt.Errorf("over %d test cases: %w", MaxCases, ErrTooLarge))
				}
				line, _ := textpos.Position(data, d.InputOffset())
				c := Case{Report: name, Line: line, Format: FormatJUnit, Name: attr(t, "name"), File: attr(t, "file"), Outcome: Passed}
				if c.Class = attr(t, "classname"); c.Class == "" {
					c.Class = attr(t, "class")
				}
				if len(suites) > 0 {
					c.Suite = suites[len(suites)-1]
				}
				cur, depth = &c, len(stack)
			case cur != nil && el == "skipped" && len(stack) == depth+1:
				// Only the case's own <skipped>, not one in its output.
				if cur.Outcome == Passed {
					cur.Outcome = Skipped
				}
				cur.Message, inSkip = attr(t, "message"), true
				skip.Reset()
			case cur != nil && (el == "failure" || el == "error") && len(stack) == depth+1:
				cur.Outcome = Failed
			}
		case xml.CharData:
			if inSkip && skip.Len() < 1024 {
				skip.Write(t)
			}
		case xml.EndElement:
			el := t.Name.Local
			stack = stack[:len(stack)-1]
			switch el {
			case "testsuite":
				suites = suites[:len(suites)-1]
			case "skipped":
				if inSkip && cur != nil && cur.Message == "" {
					cur.Message = strings.TrimSpace(skip.String())
				}
				inSkip = false
			case "testcase":
				if cur != nil && len(stack) == depth-1 {
					cases = append(cases, *cur)
					cur = nil
				}
			}
		}
	}
	if !root {
		return nil, &Error{File: name, Err: fmt.Errorf("an XML document without <testsuites> or <testsuite>: %w", ErrFormat)}
	}
	if units == 0 && len(cases) == 0 {
		return nil, &Error{File: name, Err: ErrEmpty}
	}
	return cases, nil
}

// attr is the value of an element's attribute, "" when it has none.
func attr(t xml.StartElement, name string) string {
	for _, a := range t.Attr {
		if a.Name.Local == name && a.Name.Space == "" {
			return a.Value
		}
	}
	return ""
}
