package languages

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// EncodingError is a file whose bytes are not text in the encoding its
// language reads it in, so it cannot be counted.
type EncodingError struct {
	// Encoding is the encoding the file was read in: "UTF-8", or the name
	// its coding line gives.
	Encoding string
	// Declared reports that the file's coding line names the encoding.
	Declared bool
	// Unsupported reports a declared encoding sentinel cannot decode.
	Unsupported bool
	// BOM reports a UTF-8 byte order mark in a file that declares another
	// encoding, which Python refuses.
	BOM bool
}

// Error says what is wrong, as a phrase that completes "the file is".
func (e *EncodingError) Error() string {
	switch {
	case e.Unsupported:
		return fmt.Sprintf("in the encoding %q, which sentinel does not decode", e.Encoding)
	case e.BOM:
		return fmt.Sprintf("marked UTF-8 by a byte order mark but declared %s", e.Encoding)
	case e.Declared:
		return fmt.Sprintf("not valid %s, the encoding its coding line declares", e.Encoding)
	}
	return "not valid " + e.Encoding
}

// Text returns a file's content as the UTF-8 text the language's own tools
// read: decoded from the encoding the file declares where the language has
// such declarations (Python), and otherwise the bytes themselves, which
// must be UTF-8. Decoding keeps every newline where it was, so lines are
// the file's own. A file that is not text in its encoding gets an
// *EncodingError.
func (l *Language) Text(src []byte) ([]byte, error) {
	if l.Decode != nil {
		return l.Decode(src)
	}
	if !utf8.Valid(src) {
		return nil, &EncodingError{Encoding: "UTF-8"}
	}
	return src, nil
}

var utf8BOM = []byte("\xef\xbb\xbf")

// decodePython decodes a Python file as CPython's tokenizer does (PEP 263,
// PEP 3120): UTF-8 unless a comment on line 1, or on line 2 below a blank
// or comment-only line 1, declares another encoding with "coding:" or
// "coding=" (`# -*- coding: latin-1 -*-`, `# vim: set fileencoding=cp1252
// :`). A UTF-8 byte order mark is dropped, and conflicts with any other
// declaration. sentinel decodes UTF-8, ASCII, Latin-1 (ISO-8859-1),
// Windows-1252 and Latin-9 (ISO-8859-15) under every name Python knows them
// by; a file that declares another encoding is read as ASCII, which every
// encoding Python accepts in a source file agrees on, and is refused if it
// holds other bytes.
func decodePython(src []byte) ([]byte, error) {
	bom := bytes.HasPrefix(src, utf8BOM)
	if bom {
		src = src[len(utf8BOM):]
	}
	declared, ok := pythonCoding(src)
	if !ok {
		if !utf8.Valid(src) {
			return nil, &EncodingError{Encoding: "UTF-8"}
		}
		return src, nil
	}
	codec, known := pythonCodec(declared)
	switch {
	case bom && pythonNormalName(declared) != "utf-8":
		// CPython compares the tokenizer's own spelling with "utf-8", so
		// even `coding: utf8` beside a byte order mark is refused.
		return nil, &EncodingError{Encoding: declared, Declared: true, BOM: true}
	case !known:
		if !isASCII(src) {
			return nil, &EncodingError{Encoding: declared, Declared: true, Unsupported: true}
		}
		return src, nil
	}
	out, valid := decodeWith(codec, src)
	if !valid {
		return nil, &EncodingError{Encoding: declared, Declared: true}
	}
	return out, nil
}

// pythonCoding returns the encoding a Python file declares, if it does. As
// in CPython, a line ends at \n, \r\n or \r, and a line counts only once
// its end is there.
func pythonCoding(src []byte) (string, bool) {
	for line := 0; line < 2; line++ {
		end := bytes.IndexAny(src, "\r\n")
		if end < 0 {
			return "", false
		}
		text := src[:end]
		if name, ok := codingSpec(text); ok {
			return name, true
		}
		if !blankOrComment(text) {
			return "", false
		}
		next := end + 1
		if src[end] == '\r' && next < len(src) && src[next] == '\n' {
			next++
		}
		src = src[next:]
	}
	return "", false
}

// codingSpec finds a coding declaration in a line: a comment, alone on the
// line, holding "coding" and ':' or '=', spaces or tabs, then a name of
// ASCII letters, digits, '-', '_' and '.' (CPython's get_coding_spec).
func codingSpec(line []byte) (string, bool) {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\f') {
		i++
	}
	if i == len(line) || line[i] != '#' {
		return "", false
	}
	rest := line[i:]
	for {
		j := bytes.Index(rest, []byte("coding"))
		if j < 0 {
			return "", false
		}
		rest = rest[j+len("coding"):]
		if len(rest) == 0 || rest[0] != ':' && rest[0] != '=' {
			continue
		}
		k := 1
		for k < len(rest) && (rest[k] == ' ' || rest[k] == '\t') {
			k++
		}
		begin := k
		for k < len(rest) && isNameByte(rest[k]) {
			k++
		}
		if k > begin {
			return string(rest[begin:k]), true
		}
	}
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
}

// blankOrComment reports a line with nothing but spaces before a comment
// or its end; only below such a line is line 2 read for a declaration.
func blankOrComment(line []byte) bool {
	for _, c := range line {
		switch c {
		case ' ', '\t', '\f':
		case '#':
			return true
		default:
			return false
		}
	}
	return true
}

// pythonNormalName is CPython's get_normal_name: the spellings of UTF-8
// and Latin-1 the tokenizer knows itself, read from the first 12
// characters, lower-cased, with '_' as '-'.
func pythonNormalName(name string) string {
	buf := strings.ToLower(strings.ReplaceAll(name[:min(12, len(name))], "_", "-"))
	switch {
	case buf == "utf-8" || strings.HasPrefix(buf, "utf-8-"):
		return "utf-8"
	case buf == "latin-1" || buf == "iso-8859-1" || buf == "iso-latin-1" ||
		strings.HasPrefix(buf, "latin-1-") || strings.HasPrefix(buf, "iso-8859-1-") || strings.HasPrefix(buf, "iso-latin-1-"):
		return "iso-8859-1"
	}
	return name
}

// pythonAliases are the names Python's encodings.aliases gives the codecs
// sentinel decodes, beside the codecs' own names.
var pythonAliases = map[string]string{
	"utf_8": "utf_8", "cp65001": "utf_8", "u8": "utf_8", "utf": "utf_8", "utf8": "utf_8", "utf8_ucs2": "utf_8", "utf8_ucs4": "utf_8",
	"ascii": "ascii", "646": "ascii", "ansi_x3.4_1968": "ascii", "ansi_x3.4_1986": "ascii", "ansi_x3_4_1968": "ascii",
	"cp367": "ascii", "csascii": "ascii", "ibm367": "ascii", "iso646_us": "ascii", "iso_646.irv_1991": "ascii",
	"iso_ir_6": "ascii", "us": "ascii", "us_ascii": "ascii",
	"latin_1": "latin_1", "8859": "latin_1", "cp819": "latin_1", "csisolatin1": "latin_1", "ibm819": "latin_1",
	"iso8859": "latin_1", "iso8859_1": "latin_1", "iso_8859_1": "latin_1", "iso_8859_1_1987": "latin_1",
	"iso_ir_100": "latin_1", "l1": "latin_1", "latin": "latin_1", "latin1": "latin_1",
	"cp1252": "cp1252", "1252": "cp1252", "windows_1252": "cp1252",
	"iso8859_15": "iso8859_15", "iso_8859_15": "iso8859_15", "l9": "iso8859_15", "latin9": "iso8859_15",
}

// pythonCodec looks a declared name up as Python's codec registry does:
// get_normal_name first, then encodings.normalize_encoding (lower case,
// every run of characters other than letters, digits and '.' made one
// '_', none at the ends), then the aliases, also with '.' read as '_'.
func pythonCodec(declared string) (string, bool) {
	name := strings.ToLower(pythonNormalName(declared))
	var b strings.Builder
	punct := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' {
			if punct && b.Len() > 0 {
				b.WriteByte('_')
			}
			b.WriteByte(c)
			punct = false
		} else {
			punct = true
		}
	}
	norm := b.String()
	if c, ok := pythonAliases[norm]; ok {
		return c, true
	}
	c, ok := pythonAliases[strings.ReplaceAll(norm, ".", "_")]
	return c, ok
}

// decodeWith converts src from a codec to UTF-8; valid is false when src
// holds a byte the codec does not define.
func decodeWith(codec string, src []byte) (out []byte, valid bool) {
	switch codec {
	case "utf_8":
		return src, utf8.Valid(src)
	case "ascii":
		return src, isASCII(src)
	}
	if isASCII(src) {
		return src, true
	}
	high := &latin1High
	switch codec {
	case "cp1252":
		high = &cp1252High
	case "iso8859_15":
		high = &latin9High
	}
	out = make([]byte, 0, len(src)+len(src)/4)
	for _, c := range src {
		if c < 0x80 {
			out = append(out, c)
			continue
		}
		r := high[c-0x80]
		if r == 0 {
			return nil, false
		}
		out = utf8.AppendRune(out, r)
	}
	return out, true
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// latin1High maps bytes 0x80–0xFF of ISO-8859-1: each to the code point of
// the same number.
var latin1High = func() (t [128]rune) {
	for i := range t {
		t[i] = rune(0x80 + i)
	}
	return t
}()

// cp1252High is Windows-1252: Latin-1 but for typographic characters in
// 0x80–0x9F, five of which are undefined (0), as in Python's codec.
var cp1252High = func() [128]rune {
	t := latin1High
	copy(t[:32], []rune{
		'€', 0, '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', 0, 'Ž', 0,
		0, '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', 0, 'ž', 'Ÿ',
	})
	return t
}()

// latin9High is ISO-8859-15: Latin-1 with eight characters replaced, the
// euro sign among them.
var latin9High = func() [128]rune {
	t := latin1High
	for b, r := range map[byte]rune{0xA4: '€', 0xA6: 'Š', 0xA8: 'š', 0xB4: 'Ž', 0xB8: 'ž', 0xBC: 'Œ', 0xBD: 'œ', 0xBE: 'Ÿ'} {
		t[b-0x80] = r
	}
	return t
}()
