// Package strictjson reads one JSON document into a tree that keeps the byte
// offset of every value and key, refusing what encoding/json lets through:
// a key that repeats in an object, invalid UTF-8, a lone UTF-16 surrogate,
// and anything but whitespace after the document. encoding/json keeps the
// last of two equal keys and reports most errors without a usable
// position; a file that people edit and that is evidence needs both
// answered exactly. Types, key names and number ranges are the caller's to
// check, with the offsets the tree keeps.
package strictjson

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gitsentinel/sentinel/internal/textpos"
)

// MaxDepth is how deeply arrays and objects may nest. Documents this package
// reads are shallow; the bound keeps hostile input from costing stack.
const MaxDepth = 64

// Kind is the JSON type of a value.
type Kind uint8

// The kinds of value.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// Value is one JSON value and where it is.
type Value struct {
	// Kind is the value's type.
	Kind Kind
	// Off is the offset of the value's first byte in the document.
	Off int
	// Text is a string's decoded text, or a number's literal as written.
	Text string
	// Bool is a boolean's value.
	Bool bool
	// Elems are an array's elements.
	Elems []*Value
	// Members are an object's members, in document order.
	Members []Member
}

// Member is one key and value of an object.
type Member struct {
	// Key is the decoded key.
	Key string
	// KeyOff is the offset of the key's opening quote.
	KeyOff int
	// Value is the member's value.
	Value *Value
}

// Describe names the value for a message: "null", "true", "the number 3",
// "a string", "a list", "an object".
func (v *Value) Describe() string {
	switch v.Kind {
	case Null:
		return "null"
	case Bool:
		return fmt.Sprint(v.Bool)
	case Number:
		return "the number " + v.Text
	case String:
		return "a string"
	case Array:
		return "a list"
	}
	return "an object"
}

// Error is a document that is not strict JSON.
type Error struct {
	// Off is the offset of the offending byte; for a document cut short,
	// just past its last byte that is not whitespace.
	Off int
	// Msg says what is wrong.
	Msg string
}

// Error returns the message; the caller prints the position.
func (e *Error) Error() string { return e.Msg }

// Parse reads data as exactly one JSON value, optionally surrounded by
// whitespace.
func Parse(data []byte) (*Value, error) {
	p := &parser{data: data}
	p.space()
	if p.i == len(data) {
		return nil, &Error{0, "the file is empty"}
	}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(data) {
		return nil, &Error{p.i, "found " + describe(data, p.i) + " after the end of the document"}
	}
	return v, nil
}

type parser struct {
	data []byte
	i    int
	// open holds the offsets of the arrays and objects being read, for
	// a document that ends inside one of them.
	open []int
}

func (p *parser) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// pos prints an offset as line:col.
func (p *parser) pos(off int) string {
	line, col := textpos.Position(p.data, int64(off))
	return fmt.Sprintf("%d:%d", line, col)
}

// unexpected reports the byte at the cursor where want belongs, or the end
// of the document.
func (p *parser) unexpected(want string) error {
	if p.i >= len(p.data) {
		return p.ended()
	}
	return &Error{p.i, "expected " + want + ", found " + describe(p.data, p.i)}
}

// ended reports a document cut short, at the end of its last token (a
// file cut after a line break is reported on that line, not the next), and
// names the innermost array or object left open.
func (p *parser) ended() error {
	end := len(p.data)
	for end > 0 && strings.IndexByte(" \t\n\r", p.data[end-1]) >= 0 {
		end--
	}
	msg := "the file ends early"
	if n := len(p.open); n > 0 {
		what := "the object"
		if p.data[p.open[n-1]] == '[' {
			what = "the list"
		}
		msg = fmt.Sprintf("the file ends inside %s that opens at %s", what, p.pos(p.open[n-1]))
	}
	return &Error{end, msg}
}

func (p *parser) value() (*Value, error) {
	p.space()
	if p.i >= len(p.data) {
		return nil, p.ended()
	}
	switch c := p.data[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		off := p.i
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &Value{Kind: String, Off: off, Text: s}, nil
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == 't':
		return p.literal("true", &Value{Kind: Bool, Off: p.i, Bool: true})
	case c == 'f':
		return p.literal("false", &Value{Kind: Bool, Off: p.i})
	case c == 'n':
		return p.literal("null", &Value{Kind: Null, Off: p.i})
	}
	return nil, p.unexpected("a value")
}

func (p *parser) push() error {
	if len(p.open) >= MaxDepth {
		return &Error{p.i, fmt.Sprintf("lists and objects nest deeper than %d levels", MaxDepth)}
	}
	p.open = append(p.open, p.i)
	p.i++
	return nil
}

func (p *parser) object() (*Value, error) {
	v := &Value{Kind: Object, Off: p.i}
	if err := p.push(); err != nil {
		return nil, err
	}
	seen := map[string]int{}
	p.space()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		p.open = p.open[:len(p.open)-1]
		return v, nil
	}
	want := "a key in double quotes or '}'"
	for {
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != '"' {
			return nil, p.unexpected(want)
		}
		want = "a key in double quotes" // after a comma, '}' is an error
		keyOff := p.i
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		if first, ok := seen[key]; ok {
			return nil, &Error{keyOff, fmt.Sprintf("the key %q appears twice in the object (first at %s)", key, p.pos(first))}
		}
		seen[key] = keyOff
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			return nil, p.unexpected(fmt.Sprintf("':' after the key %q", key))
		}
		p.i++
		val, err := p.value()
		if err != nil {
			return nil, err
		}
		v.Members = append(v.Members, Member{Key: key, KeyOff: keyOff, Value: val})
		p.space()
		if p.i >= len(p.data) {
			return nil, p.ended()
		}
		switch p.data[p.i] {
		case ',':
			p.i++
			continue
		case '}':
			p.i++
			p.open = p.open[:len(p.open)-1]
			return v, nil
		}
		return nil, p.unexpected("',' or '}'")
	}
}

func (p *parser) array() (*Value, error) {
	v := &Value{Kind: Array, Off: p.i}
	if err := p.push(); err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		p.open = p.open[:len(p.open)-1]
		return v, nil
	}
	for {
		el, err := p.value()
		if err != nil {
			return nil, err
		}
		v.Elems = append(v.Elems, el)
		p.space()
		if p.i >= len(p.data) {
			return nil, p.ended()
		}
		switch p.data[p.i] {
		case ',':
			p.i++
			continue
		case ']':
			p.i++
			p.open = p.open[:len(p.open)-1]
			return v, nil
		}
		return nil, p.unexpected("',' or ']'")
	}
}

func (p *parser) literal(word string, v *Value) (*Value, error) {
	for k := 0; k < len(word); k++ {
		if p.i >= len(p.data) {
			return nil, p.ended()
		}
		if p.data[p.i] != word[k] {
			return nil, p.unexpected("the literal " + word)
		}
		p.i++
	}
	return v, nil
}

// number reads a number by JSON's grammar and keeps its literal: whether a
// fraction or an exponent is welcome is the caller's to say.
func (p *parser) number() (*Value, error) {
	off := p.i
	digits := func() error {
		if p.i >= len(p.data) || p.data[p.i] < '0' || p.data[p.i] > '9' {
			return p.unexpected("a digit")
		}
		for p.i < len(p.data) && p.data[p.i] >= '0' && p.data[p.i] <= '9' {
			p.i++
		}
		return nil
	}
	if p.data[p.i] == '-' {
		p.i++
	}
	if p.i < len(p.data) && p.data[p.i] == '0' {
		p.i++
		if p.i < len(p.data) && p.data[p.i] >= '0' && p.data[p.i] <= '9' {
			return nil, &Error{off, "a number with a leading zero"}
		}
	} else if err := digits(); err != nil {
		return nil, err
	}
	if p.i < len(p.data) && p.data[p.i] == '.' {
		p.i++
		if err := digits(); err != nil {
			return nil, err
		}
	}
	if p.i < len(p.data) && (p.data[p.i] == 'e' || p.data[p.i] == 'E') {
		p.i++
		if p.i < len(p.data) && (p.data[p.i] == '+' || p.data[p.i] == '-') {
			p.i++
		}
		if err := digits(); err != nil {
			return nil, err
		}
	}
	return &Value{Kind: Number, Off: off, Text: string(p.data[off:p.i])}, nil
}

// str reads a string at the cursor and decodes it.
func (p *parser) str() (string, error) {
	open := p.i
	p.i++
	var b strings.Builder
	for {
		if p.i >= len(p.data) {
			return "", &Error{len(p.data), fmt.Sprintf("the file ends inside the string that opens at %s", p.pos(open))}
		}
		c := p.data[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c == '\\':
			r, err := p.escape()
			if err != nil {
				return "", err
			}
			b.WriteRune(r)
		case c < 0x20:
			return "", &Error{p.i, fmt.Sprintf("found %s inside the string that opens at %s (write it as an escape, or close the string)", describe(p.data, p.i), p.pos(open))}
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			p.i++
		default:
			r, size := utf8.DecodeRune(p.data[p.i:])
			if r == utf8.RuneError && size <= 1 {
				return "", &Error{p.i, fmt.Sprintf("invalid UTF-8 inside a string: the byte 0x%02x", c)}
			}
			b.WriteRune(r)
			p.i += size
		}
	}
}

// escape decodes the escape at the cursor. A \u escape of a UTF-16
// surrogate must pair with the next one: encoding/json turns a lone one
// into U+FFFD, so what was read would not be what the file says.
func (p *parser) escape() (rune, error) {
	off := p.i
	p.i++
	if p.i >= len(p.data) {
		return 0, &Error{len(p.data), "the file ends inside a string"}
	}
	c := p.data[p.i]
	p.i++
	switch c {
	case '"', '\\', '/':
		return rune(c), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
		r, err := p.hex4(off)
		if err != nil {
			return 0, err
		}
		if !utf16.IsSurrogate(r) {
			return r, nil
		}
		if r < 0xdc00 && p.i+1 < len(p.data) && p.data[p.i] == '\\' && p.data[p.i+1] == 'u' {
			second := p.i
			p.i += 2
			lo, err := p.hex4(second)
			if err != nil {
				return 0, err
			}
			if dec := utf16.DecodeRune(r, lo); dec != utf8.RuneError {
				return dec, nil
			}
		}
		return 0, &Error{off, fmt.Sprintf("the escape %s is half of a UTF-16 surrogate pair without the other half", p.data[off:off+6])}
	}
	if c > ' ' && c < utf8.RuneSelf {
		return 0, &Error{off, fmt.Sprintf("unknown escape \\%c in a string", c)}
	}
	return 0, &Error{off, "a backslash followed by " + describe(p.data, p.i-1) + " in a string"}
}

// hex4 reads the four hex digits of a \u escape that starts at off.
func (p *parser) hex4(off int) (rune, error) {
	var r rune
	for k := 0; k < 4; k++ {
		if p.i >= len(p.data) {
			return 0, &Error{len(p.data), "the file ends inside a string"}
		}
		c := p.data[p.i]
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, &Error{p.i, fmt.Sprintf("the escape that starts at %s needs four hex digits, found %s", p.pos(off), describe(p.data, p.i))}
		}
		r = r<<4 | rune(d)
		p.i++
	}
	return r, nil
}

// describe names the byte (or character) at data[i] for a message.
func describe(data []byte, i int) string {
	c := data[i]
	switch {
	case c == 0:
		return "a NUL byte"
	case c == '\n':
		return "a line break"
	case c < 0x20 || c == 0x7f:
		return fmt.Sprintf("the control character U+%04X", c)
	case c < utf8.RuneSelf:
		return fmt.Sprintf("%q", rune(c))
	}
	r, size := utf8.DecodeRune(data[i:])
	switch {
	case r == utf8.RuneError && size <= 1:
		return fmt.Sprintf("the byte 0x%02x, which is not UTF-8", c)
	case r == '\uFEFF':
		return "a byte order mark (U+FEFF)"
	}
	return fmt.Sprintf("%q (U+%04X)", r, r)
}

// Describe names the byte (or character) at data[i] for a message, as
// Parse's errors do: "'g'", "a NUL byte", "a line break".
func Describe(data []byte, i int) string {
	if i >= len(data) {
		return "the end of the file"
	}
	return describe(data, i)
}
