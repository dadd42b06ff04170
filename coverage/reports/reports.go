// Package reports reads test runners' own reports of what they ran (JUnit
// XML from pytest, Surefire, jest-junit, Vitest, nextest, RSpec, PHPUnit,
// gotestsum and .NET, and `go test -json`), and matches them with the tests
// the static count sees: in CI, a test the count sees as active that the
// runner never ran is a loss, however the harness arranged it.
//
// A report is untrusted input: every read is bounded in size, XML depth and
// number of cases, and a report that cannot be read, or holds no test, is
// an error naming the file, never a pass.
package reports

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Outcome is what the runner says became of one case.
type Outcome string

// The outcomes of a case. A failure and an error both ran the test:
// failures are the runner's business, not sentinel's.
const (
	Passed  Outcome = "passed"
	Failed  Outcome = "failed"
	Skipped Outcome = "skipped"
)

// Format names a report's format.
const (
	FormatJUnit  = "junit"
	FormatGoJSON = "go-json"
)

// Bounds on what a report may hold: a report is written by the job's own
// code, which the check must survive.
const (
	// MaxFileSize is the largest report read.
	MaxFileSize = 64 << 20
	// MaxTotalSize is the most read over every report of a run.
	MaxTotalSize = 512 << 20
	// MaxFiles is the most reports read in a run.
	MaxFiles = 10000
	// MaxDepth is the deepest XML element nesting read.
	MaxDepth = 64
	// MaxCases is the most cases read from one report.
	MaxCases = 2_000_000
)

// Case is one test case as a report names it.
type Case struct {
	// Report is the report's path, as given; Line is the case's line in it.
	Report string `json:"report"`
	Line   int    `json:"line"`
	// Format is FormatJUnit or FormatGoJSON.
	Format string `json:"format"`
	// Suite is the JUnit testsuite's name.
	Suite string `json:"suite,omitempty"`
	// Class is the JUnit classname, or the Go package's import path.
	Class string `json:"class,omitempty"`
	// Name is the JUnit name, or the Go test's full name, subtests and all.
	Name string `json:"name"`
	// File is the JUnit file attribute, as the runner wrote it.
	File string `json:"file,omitempty"`
	// Outcome is what became of the case; Message is a skip's reason.
	Outcome Outcome `json:"outcome"`
	Message string  `json:"message,omitempty"`
}

// Set is the cases of every report read.
type Set struct {
	// Files are the reports read, in the order read.
	Files []string
	// Cases are their cases, report by report.
	Cases []Case
}

// Error is a report that could not be read: it names the file, and where in
// it when it can.
type Error struct {
	// File is the report's path; Line and Col are 1-based, 0 when unknown.
	File      string
	Line, Col int
	// Err is what went wrong.
	Err error
}

// Error is "file:line:col: msg", as a compiler writes it.
func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %v", e.File, e.Line, e.Col, e.Err)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

// Unwrap returns what went wrong.
func (e *Error) Unwrap() error { return e.Err }

// ErrFormat is a report in neither format.
var ErrFormat = errors.New("not a JUnit XML report nor go test -json output")

// ErrEmpty is a report that says nothing of any run: no package, no suite.
var ErrEmpty = errors.New("the report is empty: it names no package, suite or test case")

// ErrTooLarge is a report, or a set of reports, over the bounds.
var ErrTooLarge = errors.New("too large")

// Parse reads one report, whose format it tells from the content. name
// names it in errors and in its cases. A report that ran no case but says
// what it ran (a package whose TestMain exits first, a suite of no case,
// as JUnit's console launcher writes for an engine it did not use) is
// read: each test it should have run is then a loss by name. A report that
// says nothing at all (an empty file, <testsuites/>, no package) is
// ErrEmpty.
func Parse(name string, data []byte) ([]Case, error) {
	body := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	var cs []Case
	var err error
	switch {
	case len(body) == 0:
		return nil, &Error{File: name, Err: ErrEmpty}
	case body[0] == '<':
		cs, err = parseJUnit(name, data)
	case body[0] == '{':
		cs, err = parseGoJSON(name, data)
	default:
		return nil, &Error{File: name, Line: 1, Col: 1, Err: ErrFormat}
	}
	if err != nil {
		return nil, err
	}
	return cs, nil
}

// Load reads every report the paths name: a file, a directory (its *.xml
// and *.json files, recursively) or a glob. A path that names nothing is an
// error, as is any report that does not read.
func Load(paths []string) (*Set, error) {
	var files []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			files = append(files, p)
		}
	}
	for _, p := range paths {
		matches := []string{p}
		if strings.ContainsAny(p, "*?[") {
			var err error
			if matches, err = filepath.Glob(p); err != nil {
				return nil, fmt.Errorf("--results %s: %w", p, err)
			}
			if len(matches) == 0 {
				return nil, fmt.Errorf("--results %s: no file matches; run the tests so that they write their report there first", p)
			}
			sort.Strings(matches)
		}
		for _, m := range matches {
			fi, err := os.Stat(m)
			if err != nil {
				return nil, fmt.Errorf("--results: %w", err)
			}
			if !fi.IsDir() {
				add(m)
				continue
			}
			n := len(files)
			err = filepath.WalkDir(m, func(q string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if !d.IsDir() && (strings.HasSuffix(q, ".xml") || strings.HasSuffix(q, ".json")) {
					add(q)
				}
				if len(files) > MaxFiles {
					return fmt.Errorf("%s: over %d reports: %w", m, MaxFiles, ErrTooLarge)
				}
				return nil
			})
			if err != nil {
				return nil, fmt.Errorf("--results: %w", err)
			}
			if len(files) == n {
				return nil, fmt.Errorf("--results %s: the directory holds no *.xml or *.json report; run the tests so that they write their report there first", m)
			}
		}
	}
	if len(files) > MaxFiles {
		return nil, fmt.Errorf("--results: over %d reports: %w", MaxFiles, ErrTooLarge)
	}
	s := &Set{}
	var total int64
	for _, f := range files {
		data, err := readBounded(f)
		if err != nil {
			return nil, &Error{File: f, Err: err}
		}
		if total += int64(len(data)); total > MaxTotalSize {
			return nil, &Error{File: f, Err: fmt.Errorf("the reports together are over %d MiB: %w", MaxTotalSize>>20, ErrTooLarge)}
		}
		cs, err := Parse(f, data)
		if err != nil {
			return nil, err
		}

		s.Files = append(s.Files, f)
		s.Cases = append(s.Cases, cs...)
	}
	return s, nil
}

// readBounded reads a regular file of at most MaxFileSize bytes; a FIFO or
// a device, which could block or never end, is refused.
func readBounded(name string) ([]byte, error) {
	// Stat before opening: opening a FIFO blocks until a writer comes.
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("over %d MiB: %w", MaxFileSize>>20, ErrTooLarge)
	}
	return data, nil
}
