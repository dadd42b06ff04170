// Package quote makes file names, test names and other text taken from a
// repository safe to print for people. A name may hold bytes a terminal
// acts on (an escape sequence that recolours or rewrites the screen, a
// carriage return that hides what came before, a newline that forges a
// line of the report); printed as it is, it can make a refusal look like a
// pass.
//
// The quoting is git's C-style quoting (core.quotePath): a name that needs
// it is printed in double quotes, with \a \b \t \n \v \f \r \" \\ for those
// characters and a three-digit octal escape (\033) for every other byte
// that must not reach the terminal, so a quoted name reads back with git's
// own rules. The bytes escaped are:
//
//   - C0 controls (0x00–0x1F) and DEL (0x7F);
//   - every byte of a sequence that is not valid UTF-8;
//   - the UTF-8 bytes of C1 controls (U+0080–U+009F), of Unicode format
//     characters (bidirectional overrides and isolates, zero-width
//     characters, U+FEFF) and of the line and paragraph separators
//     (U+2028, U+2029), which reorder or break a line as surely as a
//     control does.
//
// Unlike git's default (core.quotePath=true), other non-ASCII text that is
// valid UTF-8 is left as it is: "tëst_ünïcode.py" stays readable. A path
// is also quoted when it holds a double quote or a backslash, as git does,
// so that a quoted path is never confused with a plain one. A test name is
// quoted only when it holds a byte that must be escaped: test names are
// often strings from the source ('handles "quotes"'), and quoting those
// would make them harder to read for no safety.
//
// JSON output does not use this package: it carries the real names, with
// encoding/json's escapes.
package quote

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Path returns p as it is when it is safe to print, and otherwise in double
// quotes with C-style escapes, as git quotes a path.
func Path(p string) string {
	if !needsEscape(p, false) && !strings.ContainsAny(p, `"\`) {
		return p
	}
	return quoted(p)
}

// Name returns a test name, a commit title or another piece of text as it
// is when it is safe to print, and otherwise in double quotes with C-style
// escapes.
func Name(s string) string {
	if !needsEscape(s, false) {
		return s
	}
	return quoted(s)
}

// Safe reports whether s holds nothing that must be escaped: Name and
// Text leave it as it is.
func Safe(s string) bool {
	return !needsEscape(s, false)
}

// Text escapes what must not reach a terminal in a message of several
// lines, keeping its newlines and tabs and adding no quotes: the last
// defence for messages, such as errors, whose parts were not quoted one by
// one.
func Text(s string) string {
	if !needsEscape(s, true) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '\n' || s[i] == '\t' {
			b.WriteByte(s[i])
			i++
			continue
		}
		i += escapeAt(&b, s, i, false)
	}
	return b.String()
}

// needsEscape reports whether s holds a byte that must be escaped; lines
// keeps newlines and tabs.
func needsEscape(s string, lines bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 || c == 0x7f) && !(lines && (c == '\n' || c == '\t')) {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || unsafeRune(r) {
			return true
		}
		i += size
	}
	return false
}

// unsafeRune reports a non-ASCII character that a terminal or a text
// renderer acts on instead of showing.
func unsafeRune(r rune) bool {
	return r >= 0x80 && r <= 0x9f || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Cf, r)
}

// quoted returns s in double quotes with every byte that needs it escaped.
func quoted(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteByte('"')
	for i := 0; i < len(s); {
		i += escapeAt(&b, s, i, true)
	}
	b.WriteByte('"')
	return b.String()
}

// escapeAt writes the character at s[i], escaped if it must be (and, inside
// quotes, a double quote or a backslash too), and returns how many bytes
// it took.
func escapeAt(b *strings.Builder, s string, i int, inQuotes bool) int {
	c := s[i]
	if c < utf8.RuneSelf {
		switch {
		case inQuotes && (c == '"' || c == '\\'):
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			writeControl(b, c)
		default:
			b.WriteByte(c)
		}
		return 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && size == 1 || unsafeRune(r) {
		for _, x := range []byte(s[i : i+size]) {
			writeOctal(b, x)
		}
		return size
	}
	b.WriteString(s[i : i+size])
	return size
}

// writeControl writes an ASCII control character the way git's
// quote_c_style does: a letter escape where C has one, octal otherwise.
func writeControl(b *strings.Builder, c byte) {
	switch c {
	case '\a':
		b.WriteString(`\a`)
	case '\b':
		b.WriteString(`\b`)
	case '\t':
		b.WriteString(`\t`)
	case '\n':
		b.WriteString(`\n`)
	case '\v':
		b.WriteString(`\v`)
	case '\f':
		b.WriteString(`\f`)
	case '\r':
		b.WriteString(`\r`)
	default:
		writeOctal(b, c)
	}
}

func writeOctal(b *strings.Builder, c byte) {
	b.WriteByte('\\')
	b.WriteByte('0' + c>>6)
	b.WriteByte('0' + c>>3&7)
	b.WriteByte('0' + c&7)
}
