package coverage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

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
	// AssistedBy, with Commit, makes the record an attestation: a person
	// says after the fact that the commit was made with this agent
	// ("AGENT:MODEL", the Assisted-by it lacked), and sentinel ci takes the
	// commit's attribution as mended, with no rewrite of history.
	AssistedBy string `json:"assisted_by,omitempty"`
	At         string `json:"at"`
	By         string `json:"by"`
	// Commit, when set, is the commit whose losses the acceptance lets go
	// after the fact (accept --rev): the tests it names that that commit
	// lost, and the peaks of Lowered that it lowered, are accepted as if
	// in it, by a person's later commit instead of a rewrite of history.
	Commit string `json:"commit,omitempty"`
	// Harness, with Commit, says a person accepts that commit's change to
	// the runner's harness ([ratchet] harness = "person").
	Harness bool                         `json:"harness,omitempty"`
	Lowered map[string]map[string][2]int `json:"lowered"`
	Reason  string                       `json:"reason"`
	// Tests are the tests the acceptance lets go, by language, file and
	// name: a test lost while the totals hold lowers no figure.
	Tests []AcceptedTest `json:"tests,omitempty"`
}

// AcceptedTest names one test an acceptance lets go.
type AcceptedTest struct {
	Language string `json:"language"`
	Name     string `json:"name"`
	Path     string `json:"path"`
}

// Key identifies the test, as Loss.Key does.
func (t AcceptedTest) Key() string { return t.Language + "\x00" + t.Path + "\x00" + t.Name }

// key identifies an acceptance, for the union of two baselines.
func (a Acceptance) key() string { return a.At + "\x00" + a.By + "\x00" + a.Reason }

// Baseline is .sentinel/baseline.json. Its fields are in key order, so that
// the file is written with sorted keys.
type Baseline struct {
	Accepted []Acceptance    `json:"accepted"`
	Peaks    map[string]Peak `json:"peaks"`
	Version  int             `json:"version"`
}

// RestoreBaseline is the command that puts the committed baseline back in
// the work tree and the index.
const RestoreBaseline = "git checkout HEAD -- " + BaselinePath

// ErrNewerBaseline is what the BaselineError of a baseline written by a
// newer sentinel wraps: upgrading sentinel, not restoring the file, is the
// fix.
var ErrNewerBaseline = errors.New("the baseline is newer than this sentinel reads")

// BaselineError is a baseline that cannot be read; it is never overwritten.
type BaselineError struct {
	// Name is the file as file:line:col prints it: the path, or REV:path
	// for a revision's copy.
	Name string
	// Line and Col locate the offending byte, key or value.
	Line, Col int
	// Msg says what is wrong.
	Msg string
	// Restore is the command that puts a good copy back, for the work
	// tree's copy and the staged one; the message ends with it.
	Restore string
	// err is ErrNewerBaseline, or nil.
	err error
}

// Error prints file:line:col: msg and, where there is one, the command that
// restores the file.
func (e *BaselineError) Error() string {
	s := fmt.Sprintf("%s:%d:%d: %s", e.Name, e.Line, e.Col, e.Msg)
	if e.Restore != "" {
		s += "; restore it: run `" + e.Restore + "`"
	}
	return s
}

// Unwrap returns ErrNewerBaseline for a baseline of a newer version.
func (e *BaselineError) Unwrap() error { return e.err }

// ParseBaseline reads a baseline strictly and accepts exactly the form
// Marshal writes, so that any baseline it returns writes back byte for
// byte. name is where data came from: BaselinePath for the work tree's
// copy, StagedBaselineName for the index's (printed as BaselinePath, so
// that the position reads file:line:col, and marked as the staged copy),
// REV:path for a revision's.
// Every error is a *BaselineError at the offending byte, key or value; for
// the work tree's and the index's copies it ends with the command that
// restores the file.
func ParseBaseline(name string, data []byte) (*Baseline, error) {
	b, f := decodeBaseline(data)
	if f == nil {
		return b, nil
	}
	line, col := textpos.Position(data, int64(f.off))
	e := &BaselineError{Name: name, Line: line, Col: col, Msg: f.msg}
	switch name {
	case StagedBaselineName:
		e.Name = BaselinePath
		e.Msg += " (in the staged copy)"
		e.Restore = RestoreBaseline
	case BaselinePath:
		e.Restore = RestoreBaseline
	}
	if f.newer {
		// The file is fine for the sentinel that wrote it.
		e.Restore, e.err = "", ErrNewerBaseline
	}
	return nil, e
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
