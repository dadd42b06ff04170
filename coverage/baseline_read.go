package coverage

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/gitsentinel/sentinel/internal/strictjson"
)

// The baseline is evidence that the pre-commit hook, ci and the merge
// driver each read, so it is read strictly: one spelling of each key, in the
// one form sentinel writes. A case variant or a repeated key would let the
// file say two things at once (encoding/json keeps the last); a null or an
// empty acceptance would pass for a record that says nothing.

// notCanonical opens the message for a baseline that is valid but not
// written the way sentinel writes it.
const notCanonical = "not in the form sentinel writes (keys sorted, two-space indent, one newline at the end)"

// The keys of each object of the format, sorted as the file holds them.
var (
	baselineKeys   = []string{"accepted", "peaks", "version"}
	peakKeys       = []string{FigureAssertions, FigureTests}
	acceptanceKeys = []string{"assisted_by", "at", "by", "commit", "harness", "lowered", "reason", "tests"}
	// requiredAcceptanceKeys are the keys every acceptance has; "tests" is
	// there only when it names tests, "commit" only for one recorded after
	// the fact.
	requiredAcceptanceKeys = []string{"at", "by", "lowered", "reason"}
	acceptedTestKeys       = []string{"language", "name", "path"}
)

// fault is a problem at an offset of a baseline, before the file it came
// from is known.
type fault struct {
	off int
	msg string
	// newer marks a version this sentinel does not read.
	newer bool
}

func faultf(off int, format string, args ...any) *fault {
	return &fault{off: off, msg: fmt.Sprintf(format, args...)}
}

// decodeBaseline reads a baseline by the format's rules, then holds it to the
// form Marshal writes, so that whatever it accepts writes back byte for
// byte: a file that reads one way and would be written another is one that
// a review of its diff can misread.
func decodeBaseline(data []byte) (*Baseline, *fault) {
	root, err := strictjson.Parse(data)
	if err != nil {
		var se *strictjson.Error
		if !errors.As(err, &se) {
			return nil, faultf(0, "%v", err)
		}
		return nil, &fault{off: se.Off, msg: se.Msg}
	}
	if root.Kind != strictjson.Object {
		return nil, faultf(root.Off, "expected the baseline, an object, found %s", root.Describe())
	}
	// A newer sentinel may write keys and values this one does not know:
	// the version says so before they are taken for mistakes.
	for _, m := range root.Members {
		if m.Key != "version" || m.Value.Kind != strictjson.Number {
			continue
		}
		if n, err := strconv.Atoi(m.Value.Text); err == nil && n > BaselineVersion {
			return nil, &fault{off: m.Value.Off, newer: true,
				msg: fmt.Sprintf("baseline version %d is newer than this sentinel reads (%d): upgrade sentinel", n, BaselineVersion)}
		}
	}

	b := &Baseline{Peaks: map[string]Peak{}, Accepted: []Acceptance{}}
	f := readObject(root, "the baseline", baselineKeys, true, func(m strictjson.Member) *fault {
		switch m.Key {
		case "accepted":
			if m.Value.Kind != strictjson.Array {
				return faultf(m.Value.Off, "expected the list of acceptances, found %s", m.Value.Describe())
			}
			for _, el := range m.Value.Elems {
				a, f := readAcceptance(el)
				if f != nil {
					return f
				}
				b.Accepted = append(b.Accepted, a)
			}
		case "peaks":
			return readRows(m.Value, "the peaks", func(key string, v *strictjson.Value) *fault {
				p, f := readPeak(key, v)
				b.Peaks[key] = p
				return f
			})
		case "version":
			n, f := readInt(m.Value, "the version")
			if f != nil {
				return f
			}
			if n < 1 {
				return faultf(m.Value.Off, "version %d is not a baseline version (this sentinel writes %d)", n, BaselineVersion)
			}
			b.Version = n
		}
		return nil
	})
	if f != nil {
		return nil, f
	}

	if out := b.Marshal(); !bytes.Equal(out, data) {
		d := 0
		for d < len(out) && d < len(data) && out[d] == data[d] {
			d++
		}
		return nil, faultf(d, "%s: expected %s here, found %s", notCanonical, strictjson.Describe(out, d), strictjson.Describe(data, d))
	}
	return b, nil
}

// readObject walks an object of fixed keys in document order, so the first
// problem reported is the first in the file: a key that is not one of keys
// (which are sorted), a key out of order, then, when every key is
// required, a key missing.
func readObject(v *strictjson.Value, what string, keys []string, required bool, read func(strictjson.Member) *fault) *fault {
	if v.Kind != strictjson.Object {
		return faultf(v.Off, "expected %s, an object, found %s", what, v.Describe())
	}
	seen := map[string]bool{}
	for i, m := range v.Members {
		if !slices.Contains(keys, m.Key) {
			return unknownKey(m, what, keys)
		}
		if i > 0 && m.Key < v.Members[i-1].Key {
			return faultf(m.KeyOff, "%s: %q comes before %q", notCanonical, m.Key, v.Members[i-1].Key)
		}
		seen[m.Key] = true
		if f := read(m); f != nil {
			return f
		}
	}
	for _, k := range keys {
		if required && !seen[k] {
			return faultf(v.Off, "%s has no %q (it needs %s)", what, k, quoteList(keys))
		}
	}
	return nil
}

// readRows walks an object keyed by row (a language, or scope/language):
// any key but the empty one, in sorted order.
func readRows(v *strictjson.Value, what string, read func(string, *strictjson.Value) *fault) *fault {
	if v.Kind != strictjson.Object {
		return faultf(v.Off, "expected %s, an object, found %s", what, v.Describe())
	}
	for i, m := range v.Members {
		if m.Key == "" {
			return faultf(m.KeyOff, "an empty row name in %s (a row is a language, or scope/language)", what)
		}
		if i > 0 && m.Key < v.Members[i-1].Key {
			return faultf(m.KeyOff, "%s: %q comes before %q", notCanonical, m.Key, v.Members[i-1].Key)
		}
		if f := read(m.Key, m.Value); f != nil {
			return f
		}
	}
	return nil
}

func unknownKey(m strictjson.Member, what string, keys []string) *fault {
	for _, k := range keys {
		if strings.EqualFold(k, m.Key) {
			return faultf(m.KeyOff, "unknown key %q in %s: the key is %q, in lower case", m.Key, what, k)
		}
	}
	return faultf(m.KeyOff, "unknown key %q in %s, which has only %s", m.Key, what, quoteList(keys))
}

// quoteList prints keys as `"a", "b" and "c"`.
func quoteList(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = strconv.Quote(k)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// readInt reads a whole number written as digits: the format has no
// fractions, and an exponent or a fraction would not write back as it was.
func readInt(v *strictjson.Value, what string) (int, *fault) {
	if v.Kind != strictjson.Number {
		return 0, faultf(v.Off, "expected %s, a whole number, found %s", what, v.Describe())
	}
	if strings.ContainsAny(v.Text, ".eE") {
		return 0, faultf(v.Off, "%s is %s: expected a whole number in plain digits", what, v.Text)
	}
	n, err := strconv.Atoi(v.Text)
	if err != nil {
		return 0, faultf(v.Off, "%s is %s, a number too large", what, v.Text)
	}
	return n, nil
}

func readPeak(key string, v *strictjson.Value) (Peak, *fault) {
	var p Peak
	f := readObject(v, "the peak of "+key, peakKeys, true, func(m strictjson.Member) *fault {
		what := fmt.Sprintf("the peak of %s %s", key, m.Key)
		n, f := readInt(m.Value, what)
		if f != nil {
			return f
		}
		if n < 0 {
			return faultf(m.Value.Off, "%s is negative (%d)", what, n)
		}
		if m.Key == FigureTests {
			p.Tests = n
		} else {
			p.Assertions = n
		}
		return nil
	})
	return p, f
}

// readAcceptance reads one acceptance. Each says when, who and why, and
// lowers at least one figure from a count to a lower one: a record missing
// any of them is no record of a decision.
func readAcceptance(v *strictjson.Value) (Acceptance, *fault) {
	var a Acceptance
	text := func(m strictjson.Member, need string) (string, *fault) {
		if m.Value.Kind != strictjson.String {
			return "", faultf(m.Value.Off, "expected the acceptance's %q, a string, found %s", m.Key, m.Value.Describe())
		}
		if strings.TrimSpace(m.Value.Text) == "" {
			return "", faultf(m.Value.Off, "the acceptance's %q is empty: it needs %s", m.Key, need)
		}
		return m.Value.Text, nil
	}
	seen := map[string]bool{}
	f := readObject(v, "an acceptance", acceptanceKeys, false, func(m strictjson.Member) *fault {
		seen[m.Key] = true
		var f *fault
		switch m.Key {
		case "at":
			if a.At, f = text(m, "the time of the acceptance"); f != nil {
				return f
			}
			if _, err := time.Parse(time.RFC3339, a.At); err != nil {
				return faultf(m.Value.Off, "the acceptance's \"at\" is %q, not an RFC 3339 time such as 2026-11-29T14:00:00Z", a.At)
			}
		case "by":
			a.By, f = text(m, "the person who accepted")
		case "reason":
			a.Reason, f = text(m, "why the tests went")
		case "lowered":
			a.Lowered, f = readLowered(m.Value)
		case "tests":
			a.Tests, f = readAcceptedTests(m.Value)
		case "assisted_by":
			if a.AssistedBy, f = text(m, "the agent the commit was made with"); f == nil && strings.ContainsFunc(a.AssistedBy, unicode.IsControl) {
				f = faultf(m.Value.Off, "the acceptance's \"assisted_by\" holds a control character")
			}
		case "harness":
			if m.Value.Kind != strictjson.Bool {
				return faultf(m.Value.Off, "the acceptance's \"harness\" is not true or false")
			}
			a.Harness = m.Value.Bool
		case "commit":
			if a.Commit, f = text(m, "the commit it accepts after the fact"); f == nil && !fullCommitID(a.Commit) {
				f = faultf(m.Value.Off, "the acceptance's \"commit\" is %q, not a full commit id", a.Commit)
			}
		}
		return f
	})
	if f != nil {
		return a, f
	}
	for _, k := range requiredAcceptanceKeys {
		if !seen[k] {
			return a, faultf(v.Off, "an acceptance has no %q (it needs %s)", k, quoteList(requiredAcceptanceKeys))
		}
	}
	if a.AssistedBy != "" && a.Commit == "" {
		return a, faultf(v.Off, "the attestation names no \"commit\": it attests the attribution of one commit")
	}
	if a.Harness && a.Commit == "" {
		return a, faultf(v.Off, "the acceptance of a harness change names no \"commit\": it accepts the change one commit made")
	}
	if len(a.Lowered) == 0 && len(a.Tests) == 0 && a.AssistedBy == "" && !a.Harness {
		return a, faultf(v.Off, "the acceptance lowers no figure and names no test: an acceptance records a loss")
	}
	return a, nil
}

// fullCommitID reports 40 or 64 lowercase hex digits.
func fullCommitID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, r := range s {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return false
		}
	}
	return true
}

// readAcceptedTests reads the tests an acceptance lets go: each with its
// language, name and path, none empty.
func readAcceptedTests(v *strictjson.Value) ([]AcceptedTest, *fault) {
	if v.Kind != strictjson.Array {
		return nil, faultf(v.Off, "expected the acceptance's \"tests\", a list, found %s", v.Describe())
	}
	var out []AcceptedTest
	for _, el := range v.Elems {
		var t AcceptedTest
		f := readObject(el, "an accepted test", acceptedTestKeys, true, func(m strictjson.Member) *fault {
			if m.Value.Kind != strictjson.String {
				return faultf(m.Value.Off, "expected the accepted test's %q, a string, found %s", m.Key, m.Value.Describe())
			}
			if m.Value.Text == "" {
				return faultf(m.Value.Off, "the accepted test's %q is empty", m.Key)
			}
			switch m.Key {
			case "language":
				t.Language = m.Value.Text
			case "name":
				t.Name = m.Value.Text
			case "path":
				t.Path = m.Value.Text
			}
			return nil
		})
		if f != nil {
			return nil, f
		}
		out = append(out, t)
	}
	return out, nil
}

// readLowered reads an acceptance's lowered figures: at least one, each as
// [from, to] with from > to >= 0, since an acceptance records a fall.
func readLowered(v *strictjson.Value) (map[string]map[string][2]int, *fault) {
	out := map[string]map[string][2]int{}
	if v.Kind == strictjson.Object && len(v.Members) == 0 {
		// Tests lost while the totals hold lower nothing; the acceptance
		// then names them.
		return out, nil
	}
	f := readRows(v, "the acceptance's \"lowered\"", func(key string, row *strictjson.Value) *fault {
		figs := map[string][2]int{}
		out[key] = figs
		if row.Kind == strictjson.Object && len(row.Members) == 0 {
			return faultf(row.Off, "the acceptance lowers nothing of %s: name a figure, as \"tests\": [from, to]", key)
		}
		return readObject(row, "the lowered figures of "+key, peakKeys, false, func(m strictjson.Member) *fault {
			pair, f := readPair(m.Value, key+" "+m.Key)
			figs[m.Key] = pair
			return f
		})
	})
	return out, f
}

func readPair(v *strictjson.Value, what string) ([2]int, *fault) {
	var pair [2]int
	if v.Kind != strictjson.Array || len(v.Elems) != 2 {
		found := v.Describe()
		if v.Kind == strictjson.Array {
			found = fmt.Sprintf("a list of %d", len(v.Elems))
		}
		return pair, faultf(v.Off, "expected %s lowered as [from, to], found %s", what, found)
	}
	for i, el := range v.Elems {
		n, f := readInt(el, fmt.Sprintf("%s lowered %s", what, [2]string{"from", "to"}[i]))
		if f != nil {
			return pair, f
		}
		pair[i] = n
	}
	switch {
	case pair[1] < 0:
		return pair, faultf(v.Elems[1].Off, "%s lowered to %d, a negative count", what, pair[1])
	case pair[0] <= pair[1]:
		return pair, faultf(v.Off, "%s lowered from %d to %d: an acceptance records a fall, so from is above to", what, pair[0], pair[1])
	}
	return pair, nil
}
