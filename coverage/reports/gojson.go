package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// goEvent is one line of `go test -json` (test2json's TestEvent).
type goEvent struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// parseGoJSON reads `go test -json`: one event per line. A test's last
// pass, fail or skip is its outcome; a test that started and never ended (a
// panic, a timeout, os.Exit in the middle) ran, and failed. Lines that are
// not JSON objects are an error: go test -json writes nothing else to
// stdout, and a build failure's text arrives as events too.
func parseGoJSON(name string, data []byte) ([]Case, error) {
	type key struct{ pkg, test string }
	var (
		cases []Case
		at    = map[key]int{}      // the case's index in cases
		out   = map[key][]string{} // a skipped test's own lines, for its reason
	)
	line, packages := 0, 0
	for len(data) > 0 {
		line++
		var l []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i], data[i+1:]
		} else {
			l, data = data, nil
		}
		l = bytes.TrimSpace(l)
		if len(l) == 0 {
			continue
		}
		var e goEvent
		if l[0] != '{' {
			return nil, &Error{File: name, Line: line, Col: 1, Err: fmt.Errorf("not a go test -json event: %w", ErrFormat)}
		}
		if err := json.Unmarshal(l, &e); err != nil {
			return nil, &Error{File: name, Line: line, Col: 1, Err: fmt.Errorf("not a go test -json event: %w", err)}
		}
		if e.Action == "" {
			return nil, &Error{File: name, Line: line, Col: 1, Err: fmt.Errorf("an event without an Action: %w", ErrFormat)}
		}
		if e.Package != "" {
			packages++
		}
		if e.Test == "" {
			continue
		}
		k := key{e.Package, e.Test}
		i, ok := at[k]
		if !ok && (e.Action == "run" || e.Action == "pass" || e.Action == "fail" || e.Action == "skip") {
			if len(cases) >= MaxCases {
				return nil, &Error{File: name, Line: line, Err: fmt.Errorf("over %d test cases: %w", MaxCases, ErrTooLarge)}
			}
			i, ok = len(cases), true
			at[k] = i
			// Ran until it says otherwise: a test that never ends failed.
			cases = append(cases, Case{Report: name, Line: line, Format: FormatGoJSON, Class: e.Package, Name: e.Test, Outcome: Failed})
		}
		if !ok {
			continue
		}
		switch e.Action {
		case "pass":
			cases[i].Outcome, cases[i].Line = Passed, line
		case "fail":
			cases[i].Outcome, cases[i].Line = Failed, line
		case "skip":
			cases[i].Outcome, cases[i].Line = Skipped, line
			cases[i].Message = strings.Join(out[k], "; ")
		case "output":
			if o := strings.TrimSpace(e.Output); o != "" && !strings.HasPrefix(o, "=== ") && !strings.HasPrefix(o, "--- ") && len(out[k]) < 8 {
				out[k] = append(out[k], o)
			}
		}
	}
	if packages == 0 {
		return nil, &Error{File: name, Err: ErrEmpty}
	}
	return cases, nil
}
