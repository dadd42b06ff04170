// Package gitconfig reads git's configuration files in-process, the way
// git 2.x parses them, for the callers that cannot afford a `git config`
// process. It reads only what it can read exactly: includes, command-line
// settings and anything else that might make git's answer differ are
// reported as ErrUnsupported, and the caller then asks git itself.
package gitconfig

import (
	"bytes"
	"fmt"
)

// Entry is one key and value of a configuration file, as git reports it.
type Entry struct {
	// Key is the section, the subsection if any and the variable, joined
	// by dots; section and variable are lower-cased, the subsection of
	// a `[section "sub"]` header keeps its case.
	Key string
	// Value is the value after git's unquoting and escapes.
	Value string
	// Implicit is set for a key written without '=': git reads it as
	// true and prints no value for it.
	Implicit bool
}

// SyntaxError is a configuration file that git would refuse to read.
type SyntaxError struct {
	// File is the name of the file.
	File string
	// Line is the 1-based line of the error.
	Line int
	// Col is the 1-based byte column of the error.
	Col int
	// Msg says what is wrong.
	Msg string
}

// Error prints the error as file:line:col: msg.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// utf8BOM is skipped at the start of a file, as git does.
const utf8BOM = "\xef\xbb\xbf"

// parser follows git's config.c (git_parse_source and its helpers)
// character by character: the same reads, the same decisions, and the
// same line count for errors.
type parser struct {
	name string
	data []byte
	pos  int
	eof  bool
	// linenr is git's line counter: one more for every LF read and for
	// every read at the end of the file.
	linenr int
	// line and col locate the character last returned by next.
	line, col int
	// nextLine and nextCol locate the next character to read.
	nextLine, nextCol int
}

// next returns the next character as git's get_next_char does: CR LF
// reads as LF, and the end of the file reads as a final LF with eof set.
func (p *parser) next() byte {
	p.line, p.col = p.nextLine, p.nextCol
	if p.pos >= len(p.data) {
		p.eof = true
		p.linenr++
		return '\n'
	}
	c := p.data[p.pos]
	p.pos++
	if c == '\r' && p.pos < len(p.data) && p.data[p.pos] == '\n' {
		c = '\n'
		p.pos++
	}
	if c == '\n' {
		p.linenr++
		p.nextLine++
		p.nextCol = 1
	} else {
		p.nextCol++
	}
	return c
}

// fail reports an error on the line git names: its counter, less one
// where git steps back to the line a newline ended (incomplete).
func (p *parser) fail(incomplete bool, msg string) error {
	line, col := p.linenr, p.col
	if incomplete {
		line--
	}
	if line != p.line {
		col = 1
	}
	return &SyntaxError{File: p.name, Line: line, Col: col, Msg: msg}
}

// isSpace is git's isspace: space, tab, LF and CR only.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// isKeyChar is git's iskeychar: ASCII letters, digits and '-'.
func isKeyChar(c byte) bool { return isAlpha(c) || c >= '0' && c <= '9' || c == '-' }

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// Parse reads one configuration file's text and returns its entries in
// file order. name is used only in errors. A file git would refuse
// returns a *SyntaxError; a NUL byte, which git would read differently
// depending on where it stands, is refused too.
func Parse(name string, data []byte) ([]Entry, error) {
	p := &parser{name: name, data: data, linenr: 1, nextLine: 1, nextCol: 1}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		line := 1 + bytes.Count(data[:i], []byte{'\n'})
		col := i + 1 - (bytes.LastIndexByte(data[:i], '\n') + 1)
		return nil, &SyntaxError{File: name, Line: line, Col: col, Msg: "NUL byte in configuration"}
	}
	var entries []Entry
	var section []byte // the section and subsection, with a final '.'
	comment := false
	bom := 0
	for {
		c := p.next()
		if bom >= 0 && bom < len(utf8BOM) {
			if !p.eof && c == utf8BOM[bom] {
				bom++
				continue
			}
			if bom > 0 {
				return nil, p.fail(false, "incomplete byte order mark")
			}
			bom = -1
		}
		bom = -1
		switch {
		case c == '\n':
			if p.eof {
				return entries, nil
			}
			comment = false
			continue
		case comment:
			continue
		case isSpace(c):
			continue
		case c == '#' || c == ';':
			comment = true
			continue
		case c == '[':
			var err error
			if section, err = p.sectionHeader(); err != nil {
				return nil, err
			}
			continue
		case !isAlpha(c):
			return nil, p.fail(false, fmt.Sprintf("unexpected %q at the start of a line", c))
		}
		e, err := p.entry(section, c)
		if err != nil {
			return nil, err
		}
		entries = append(entries, e)
	}
}

// sectionHeader reads what follows '[' (git's get_base_var and
// get_extended_base_var) and returns the key prefix with its final dot.
func (p *parser) sectionHeader() ([]byte, error) {
	var name []byte
	for {
		c := p.next()
		if p.eof {
			return nil, p.fail(false, "unterminated section header")
		}
		if c == ']' {
			break
		}
		if isSpace(c) {
			var err error
			if name, err = p.subsection(name, c); err != nil {
				return nil, err
			}
			break
		}
		if !isKeyChar(c) && c != '.' {
			return nil, p.fail(false, fmt.Sprintf("invalid character %q in section name", c))
		}
		name = append(name, lower(c))
	}
	if len(name) == 0 {
		return nil, p.fail(false, "empty section name")
	}
	return append(name, '.'), nil
}

// subsection reads `"sub"]` after the section name and the whitespace c.
func (p *parser) subsection(name []byte, c byte) ([]byte, error) {
	for {
		if c == '\n' {
			return nil, p.fail(true, "section header ends before its subsection")
		}
		c = p.next()
		if !isSpace(c) {
			break
		}
	}
	if c != '"' {
		return nil, p.fail(false, `subsection must be quoted: [section "subsection"]`)
	}
	name = append(name, '.')
	for {
		c := p.next()
		if c == '\n' {
			return nil, p.fail(true, "unterminated subsection")
		}
		if c == '"' {
			break
		}
		if c == '\\' {
			if c = p.next(); c == '\n' {
				return nil, p.fail(true, "unterminated subsection")
			}
		}
		name = append(name, c)
	}
	if p.next() != ']' {
		return nil, p.fail(false, `expected ']' after the subsection`)
	}
	return name, nil
}

// entry reads a variable whose first letter is c, and its value (git's
// get_value and parse_value).
func (p *parser) entry(section []byte, c byte) (Entry, error) {
	key := append(append([]byte(nil), section...), lower(c))
	for {
		c = p.next()
		if p.eof || !isKeyChar(c) {
			break
		}
		key = append(key, lower(c))
	}
	for c == ' ' || c == '\t' {
		c = p.next()
	}
	if c == '\n' {
		return Entry{Key: string(key), Implicit: true}, nil
	}
	if c != '=' {
		return Entry{}, p.fail(false, fmt.Sprintf("invalid character %q in variable name", c))
	}
	v, err := p.value()
	if err != nil {
		return Entry{}, err
	}
	return Entry{Key: string(key), Value: v}, nil
}

// value reads the value after '=' up to the end of its line.
func (p *parser) value() (string, error) {
	var v []byte
	quote, comment := false, false
	space := 0
	for {
		c := p.next()
		if c == '\n' {
			if quote {
				return "", p.fail(true, "unterminated quoted value")
			}
			return string(v), nil
		}
		if comment {
			continue
		}
		if isSpace(c) && !quote {
			if len(v) > 0 {
				space++
			}
			continue
		}
		if !quote && (c == ';' || c == '#') {
			comment = true
			continue
		}
		for ; space > 0; space-- {
			v = append(v, ' ')
		}
		if c == '\\' {
			switch c = p.next(); c {
			case '\n':
				continue
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
			default:
				return "", p.fail(false, fmt.Sprintf("unknown escape \\%c", c))
			}
			v = append(v, c)
			continue
		}
		if c == '"' {
			quote = !quote
			continue
		}
		v = append(v, c)
	}
}
