package trailers

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gitsentinel/sentinel/internal/textpos"
)

// AssistedBy is the key of the attribution trailer, as the Linux kernel
// spells it.
const AssistedBy = "Assisted-by"

// SignedOffBy is the key of the Developer Certificate of Origin sign-off.
const SignedOffBy = "Signed-off-by"

// ErrEmptyMessage is returned when a message has no text to attribute: git
// aborts such a commit, and a trailer would turn it into a commit whose
// title is the trailer.
var ErrEmptyMessage = errors.New("the message is empty")

// ErrNoPlace is returned when no insertion would leave a trailer git can
// find, as when the message ends with a "---" line and no newline: the new
// line's newline would make that line a patch divider.
var ErrNoPlace = errors.New("there is no place for the trailer where git would find it: does the message end with a \"---\" line? end it with a newline")

// CheckText returns an error when msg is not text sentinel can edit: git
// refuses a NUL byte in a commit message, and sentinel only writes UTF-8.
func CheckText(msg []byte) error {
	if i := bytes.IndexByte(msg, 0); i >= 0 {
		line, col := position(msg, i)
		return fmt.Errorf("%d:%d: the message contains a NUL byte", line, col)
	}
	if !utf8.Valid(msg) {
		for i := 0; i < len(msg); {
			r, size := utf8.DecodeRune(msg[i:])
			if r == utf8.RuneError && size <= 1 {
				line, col := position(msg, i)
				return fmt.Errorf("%d:%d: the message is not valid UTF-8", line, col)
			}
			i += size
		}
	}
	return nil
}

// position returns the 1-based line and byte column of offset i in msg.
func position(msg []byte, i int) (line, col int) {
	return textpos.Position(msg, int64(i))
}

// HasTrailer reports whether the block holds a trailer with the key and
// value, compared as git compares them: without regard to ASCII case.
func (b *Block) HasTrailer(key, value string) bool {
	for _, ln := range b.Lines {
		if ln.IsTrailer && strings.EqualFold(ln.Token, key) && strings.EqualFold(ln.Value, value) {
			return true
		}
	}
	return false
}

// AddAssistedBy returns msg with an "Assisted-by: value" trailer. It adds
// nothing when an equal Assisted-by is already there, so it is idempotent.
// The line goes after the existing Assisted-by lines, otherwise just before
// the first Signed-off-by (kernel practice), otherwise at the end of the
// trailer block, otherwise into a new paragraph. Every other byte is kept.
func (s *Syntax) AddAssistedBy(msg []byte, value string) ([]byte, bool, error) {
	if err := CheckText(msg); err != nil {
		return nil, false, err
	}
	value = strings.TrimSpace(value)
	if value == "" || strings.ContainsAny(value, "\r\n") {
		return nil, false, fmt.Errorf("invalid Assisted-by value %q", value)
	}
	b := s.Find(msg)
	if b.HasTrailer(AssistedBy, value) {
		return msg, false, nil
	}
	if !s.hasText(msg[:b.End]) {
		return nil, false, ErrEmptyMessage
	}
	nl := lineEnding(msg)
	line := AssistedBy + ": " + value

	at, before := -1, false
	for _, ln := range b.Lines {
		if ln.IsTrailer && strings.EqualFold(ln.Token, AssistedBy) {
			at = ln.End
		}
	}
	if at < 0 {
		for _, ln := range b.Lines {
			if ln.IsTrailer && strings.EqualFold(s.canonicalToken(ln.Token), SignedOffBy) {
				at, before = ln.Start, true
				break
			}
		}
	}
	var ins string
	switch {
	case before:
		ins = line + nl
	case at >= 0 || len(b.Lines) > 0:
		if at < 0 {
			at = b.End
		}
		ins = line + nl
		if at > 0 && msg[at-1] != '\n' {
			// The block is the end of a message without a final newline:
			// keep it without one.
			ins = nl + line
		}
	default:
		at = b.End
		switch {
		case at > 0 && msg[at-1] != '\n':
			ins = nl + nl + line
		case b.BlankBefore:
			ins = line + nl
		default:
			ins = nl + line + nl
		}
	}
	out := make([]byte, 0, len(msg)+len(ins))
	out = append(out, msg[:at]...)
	out = append(out, ins...)
	out = append(out, msg[at:]...)
	// The insertion may change the structure around it; the result must
	// parse as git would parse it, with the new trailer in its block.
	if nb := s.Find(out); !nb.HasTrailer(AssistedBy, value) {
		return nil, false, ErrNoPlace
	}
	return out, true, nil
}

// hasText reports whether msg has a line that is neither blank nor a comment.
func (s *Syntax) hasText(msg []byte) bool {
	for i := 0; i < len(msg); i = nextLine(msg, i) {
		if !s.isComment(msg, i) && !isBlankLine(msg, i) {
			return true
		}
	}
	return false
}

// lineEnding returns "\r\n" for a message whose first line ends so, else "\n".
func lineEnding(msg []byte) string {
	if i := bytes.IndexByte(msg, '\n'); i > 0 && msg[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// AddDetected adds the Assisted-by line for a detected agent, as
// AddAssistedBy does, with one more rule: when nobody named the model, an
// Assisted-by that already credits the same agent with a model (written by
// the agent itself, or by a person) is enough. "Claude:unknown" beside
// "Claude:claude-opus-4" would only say less about the same fact.
func (s *Syntax) AddDetected(msg []byte, d *Detection, format string, tools []string) ([]byte, bool, error) {
	value := d.Value(format, tools)
	// The part of the value before the model, in whatever format.
	probe := *d
	probe.Model = "\x00"
	before, _, hasModel := strings.Cut(probe.Value(format, tools), "\x00")
	if d.Model == "" && hasModel && before != "" && CheckText(msg) == nil {
		prefix := strings.ToLower(before)
		for _, ln := range s.Find(msg).Lines {
			if ln.IsTrailer && strings.EqualFold(ln.Token, AssistedBy) && strings.HasPrefix(strings.ToLower(ln.Value), prefix) {
				return msg, false, nil
			}
		}
	}
	return s.AddAssistedBy(msg, value)
}
