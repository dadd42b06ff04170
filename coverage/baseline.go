package coverage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gitsentinel/sentinel/internal/textpos"
)

// BaselineVersion is the baseline format this sentinel reads and writes.
const BaselineVersion = 1

// BaselinePath is the baseline's path relative to the work tree's root.
const BaselinePath = ".sentinel/baseline.json"

// Figure names, as the baseline spells them.
const (
	FigureTests      = "tests"
	FigureAssertions = "assertions"
)

// Peak is the highest count of one row (a language, or a scope and a
// language) that the project has reached.
type Peak struct {
	Assertions int `json:"assertions"`
	Tests      int `json:"tests"`
}

// Acceptance records a removal a person intended: who, when, why, and each
// lowered figure as [from, to].
type Acceptance struct {
	At      string                       `json:"at"`
	By      string                       `json:"by"`
	Lowered map[string]map[string][2]int `json:"lowered"`
	Reason  string                       `json:"reason"`
}

// key identifies an acceptance, for the union of two baselines.
func (a Acceptance) key() string { return a.At + "\x00" + a.By + "\x00" + a.Reason }

// Baseline is .sentinel/baseline.json. Its fields are in key order, so that
// the file is written with sorted keys.
type Baseline struct {
	Accepted []Acceptance    `json:"accepted"`
	Peaks    map[string]Peak `json:"peaks"`
	Version  int             `json:"version"`
}

// BaselineError is a baseline that cannot be read; it is never overwritten.
type BaselineError struct {
	// Name is the file (or snapshot:path) it came from.
	Name string
	// Line and Col locate the problem, when known.
	Line, Col int
	// Msg says what is wrong.
	Msg string
}

// Error prints file:line:col: msg and what to do.
func (e *BaselineError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.Name, e.Line, e.Col, e.Msg)
}

// ParseBaseline decodes a baseline strictly: unknown keys, a syntax error,
// a missing version or a newer one are errors.
func ParseBaseline(name string, data []byte) (*Baseline, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var b Baseline
	if err := dec.Decode(&b); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &BaselineError{name, 1, 1, "empty baseline; restore it with `git checkout -- " + BaselinePath + "`, or write a new one with `sentinel init`"}
		}
		line, col := textpos.JSON(data, err)
		return nil, &BaselineError{name, line, col, strings.TrimPrefix(err.Error(), "json: ") + "; fix the file (sentinel leaves it as it is)"}
	}
	if dec.More() {
		line, col := textpos.Position(data, dec.InputOffset())
		return nil, &BaselineError{name, line, col, "trailing data after the baseline; fix the file (sentinel leaves it as it is)"}
	}
	switch {
	case b.Version == 0:
		return nil, &BaselineError{name, 1, 1, "no version; fix the file (sentinel leaves it as it is)"}
	case b.Version > BaselineVersion:
		return nil, &BaselineError{name, 1, 1, fmt.Sprintf("baseline version %d is newer than this sentinel reads (%d): upgrade sentinel", b.Version, BaselineVersion)}
	}
	if b.Peaks == nil {
		b.Peaks = map[string]Peak{}
	}
	for k, p := range b.Peaks {
		if p.Tests < 0 || p.Assertions < 0 {
			return nil, &BaselineError{name, 1, 1, fmt.Sprintf("peak %s is negative; fix the file (sentinel leaves it as it is)", k)}
		}
	}
	return &b, nil
}

// Marshal writes the baseline in its stable form: sorted keys, two-space
// indent, a trailing newline.
func (b *Baseline) Marshal() []byte {
	out := *b
	if out.Accepted == nil {
		out.Accepted = []Acceptance{}
	}
	if out.Peaks == nil {
		out.Peaks = map[string]Peak{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		panic(err) // plain data: cannot fail
	}
	return buf.Bytes()
}

// NewBaseline makes a baseline whose peaks are the counts.
func NewBaseline(c *Counts) *Baseline {
	b := &Baseline{Version: BaselineVersion, Peaks: map[string]Peak{}}
	for k, f := range c.Rows() {
		b.Peaks[k] = Peak{Tests: f.Tests, Assertions: f.Assertions}
	}
	return b
}

// Row is one row of a comparison of counts with peaks.
type Row struct {
	// Key is the language (or scope/language).
	Key string `json:"key"`
	// Now are the current figures.
	Now Figures `json:"now"`
	// Peak is the baseline's peak; zero for a row the baseline lacks.
	Peak Peak `json:"peak"`
}

// Below lists the figures of the row that are under their peak.
func (r Row) Below() []string {
	var out []string
	if r.Now.Tests < r.Peak.Tests {
		out = append(out, FigureTests)
	}
	if r.Now.Assertions < r.Peak.Assertions {
		out = append(out, FigureAssertions)
	}
	return out
}

// Above reports whether a figure is over its peak.
func (r Row) Above() bool {
	return r.Now.Tests > r.Peak.Tests || r.Now.Assertions > r.Peak.Assertions
}

// Compare lines the counts up with the peaks, one row per key of either.
func Compare(c *Counts, b *Baseline) []Row {
	langs := c.Rows()
	keys := map[string]bool{}
	for k := range langs {
		keys[k] = true
	}
	for k := range b.Peaks {
		keys[k] = true
	}
	var rows []Row
	for k := range keys {
		r := Row{Key: k, Peak: b.Peaks[k]}
		if f := langs[k]; f != nil {
			r.Now = *f
		}
		rows = append(rows, r)
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Key < rows[j].Key })
	return rows
}

// Raise returns a copy of the baseline with each peak raised to the counts
// where they are higher; the bool says whether anything rose.
func (b *Baseline) Raise(rows []Row) (*Baseline, bool) {
	out := b.clone()
	raised := false
	for _, r := range rows {
		p := out.Peaks[r.Key]
		if r.Now.Tests > p.Tests {
			p.Tests, raised = r.Now.Tests, true
		}
		if r.Now.Assertions > p.Assertions {
			p.Assertions, raised = r.Now.Assertions, true
		}
		out.Peaks[r.Key] = p
	}
	return out, raised
}

func (b *Baseline) clone() *Baseline {
	out := &Baseline{Version: b.Version, Peaks: map[string]Peak{}, Accepted: append([]Acceptance(nil), b.Accepted...)}
	for k, v := range b.Peaks {
		out.Peaks[k] = v
	}
	return out
}
