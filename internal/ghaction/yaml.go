// Package ghaction runs the `run:` steps of a composite GitHub Action the way
// a runner would, so that a test can check the repository's own action.yml
// against real bash and git: the steps in order, `${{ … }}` expressions in
// their env and working directory, and the files a runner hands each step
// (GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH, GITHUB_STEP_SUMMARY). Steps that
// use another action (`uses:`) are skipped and listed.
//
// It reads the subset of YAML that action files are written in, not YAML:
// block mappings and sequences, plain and quoted scalars, `|` and `>` block
// scalars, and comments. Anything else is an error at its line.
package ghaction

import (
	"fmt"
	"strconv"
	"strings"
)

// yamlLine is one line of the file with its indentation measured.
type yamlLine struct {
	no     int
	indent int
	text   string // without the indentation
	raw    string
}

// yamlParser walks the lines of a document.
type yamlParser struct {
	name  string
	lines []yamlLine
	i     int
}

// parseYAML reads a document made of block mappings, block sequences and
// scalars into map[string]any, []any and string values.
func parseYAML(name string, data []byte) (any, error) {
	p := &yamlParser{name: name}
	for i, raw := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		if strings.Contains(raw, "\t") && strings.TrimLeft(raw, " ") != strings.TrimLeft(raw, " \t") {
			return nil, fmt.Errorf("%s:%d:1: a tab in the indentation", name, i+1)
		}
		text := strings.TrimLeft(raw, " ")
		p.lines = append(p.lines, yamlLine{no: i + 1, indent: len(raw) - len(text), text: text, raw: raw})
	}
	p.skipBlank()
	if p.i >= len(p.lines) {
		return map[string]any{}, nil
	}
	v, err := p.block(p.lines[p.i].indent)
	if err != nil {
		return nil, err
	}
	p.skipBlank()
	if p.i < len(p.lines) {
		l := p.lines[p.i]
		return nil, fmt.Errorf("%s:%d:%d: unexpected indentation", name, l.no, l.indent+1)
	}
	return v, nil
}

// blank reports a line with nothing but a comment, or nothing.
func (l yamlLine) blank() bool { return l.text == "" || strings.HasPrefix(l.text, "#") }

func (p *yamlParser) skipBlank() {
	for p.i < len(p.lines) && p.lines[p.i].blank() {
		p.i++
	}
}

func (p *yamlParser) errorf(l yamlLine, col int, format string, args ...any) error {
	return fmt.Errorf("%s:%d:%d: %s", p.name, l.no, col, fmt.Sprintf(format, args...))
}

// block reads the mapping or sequence whose lines start at indent.
func (p *yamlParser) block(indent int) (any, error) {
	l := p.lines[p.i]
	if l.text == "-" || strings.HasPrefix(l.text, "- ") {
		return p.sequence(indent)
	}
	return p.mapping(indent)
}

func (p *yamlParser) sequence(indent int) (any, error) {
	var out []any
	for {
		p.skipBlank()
		if p.i >= len(p.lines) || p.lines[p.i].indent != indent {
			return out, nil
		}
		l := p.lines[p.i]
		if l.text != "-" && !strings.HasPrefix(l.text, "- ") {
			return nil, p.errorf(l, indent+1, "expected a sequence item")
		}
		rest := strings.TrimLeft(strings.TrimPrefix(l.text, "-"), " ")
		if rest == "" {
			p.i++
			p.skipBlank()
			if p.i >= len(p.lines) || p.lines[p.i].indent <= indent {
				out = append(out, "")
				continue
			}
			v, err := p.block(p.lines[p.i].indent)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
			continue
		}
		// "- key: value" opens a mapping indented where key starts: read
		// the line again as if the dash were a space.
		inner := indent + (len(l.text) - len(rest))
		if _, _, ok := splitKey(rest); ok {
			p.lines[p.i] = yamlLine{no: l.no, indent: inner, text: rest, raw: l.raw}
			v, err := p.mapping(inner)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
			continue
		}
		s, err := p.scalar(l, inner, rest)
		if err != nil {
			return nil, err
		}
		p.i++
		out = append(out, s)
	}
}

func (p *yamlParser) mapping(indent int) (any, error) {
	out := map[string]any{}
	for {
		p.skipBlank()
		if p.i >= len(p.lines) || p.lines[p.i].indent != indent {
			return out, nil
		}
		l := p.lines[p.i]
		key, rest, ok := splitKey(l.text)
		if !ok {
			return nil, p.errorf(l, indent+1, "expected key: value")
		}
		if _, dup := out[key]; dup {
			return nil, p.errorf(l, indent+1, "%s appears twice", key)
		}
		p.i++
		switch {
		case rest == "" || strings.HasPrefix(rest, "#"):
			p.skipBlank()
			if p.i < len(p.lines) && p.lines[p.i].indent > indent {
				v, err := p.block(p.lines[p.i].indent)
				if err != nil {
					return nil, err
				}
				out[key] = v
			} else {
				out[key] = ""
			}
		case rest[0] == '|' || rest[0] == '>':
			v, err := p.blockScalar(l, indent, rest)
			if err != nil {
				return nil, err
			}
			out[key] = v
		default:
			v, err := p.scalar(l, indent+len(l.text)-len(rest), rest)
			if err != nil {
				return nil, err
			}
			out[key] = v
		}
	}
}

// splitKey splits "key: value" (or "key:") at the first colon that is
// followed by a space or the end of the line.
func splitKey(s string) (key, rest string, ok bool) {
	if strings.HasPrefix(s, "'") || strings.HasPrefix(s, "\"") || strings.HasPrefix(s, "#") {
		return "", "", false
	}
	for i := 0; i < len(s); i++ {
		if s[i] == ':' && (i+1 == len(s) || s[i+1] == ' ') {
			return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:]), i > 0
		}
		if s[i] == ' ' && i+1 < len(s) && s[i+1] == '#' {
			return "", "", false
		}
	}
	return "", "", false
}

// scalar reads a plain or quoted scalar that fits on its line.
func (p *yamlParser) scalar(l yamlLine, col int, s string) (string, error) {
	switch s[0] {
	case '\'':
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			if s[i] != '\'' {
				b.WriteByte(s[i])
				continue
			}
			if i+1 < len(s) && s[i+1] == '\'' {
				b.WriteByte('\'')
				i++
				continue
			}
			if tail := strings.TrimSpace(s[i+1:]); tail != "" && !strings.HasPrefix(tail, "#") {
				return "", p.errorf(l, col+i+2, "text after a quoted scalar")
			}
			return b.String(), nil
		}
		return "", p.errorf(l, col+1, "an unterminated quoted scalar")
	case '"':
		end := -1
		for i := 1; i < len(s); i++ {
			if s[i] == '\\' {
				i++
				continue
			}
			if s[i] == '"' {
				end = i
				break
			}
		}
		if end < 0 {
			return "", p.errorf(l, col+1, "an unterminated quoted scalar")
		}
		if tail := strings.TrimSpace(s[end+1:]); tail != "" && !strings.HasPrefix(tail, "#") {
			return "", p.errorf(l, col+end+2, "text after a quoted scalar")
		}
		v, err := strconv.Unquote(s[:end+1])
		if err != nil {
			return "", p.errorf(l, col+1, "a double-quoted scalar this reader cannot take: %v", err)
		}
		return v, nil
	case '[', '{', '&', '*', '!', '%', '@', '`':
		return "", p.errorf(l, col+1, "%q starts YAML this reader does not take; write it in block form or quote it", s[0])
	}
	if i := strings.Index(s, " #"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s), nil
}

// blockScalar reads a `|` (literal) or `>` (folded) scalar: the lines
// indented past the key's, with that indentation removed.
func (p *yamlParser) blockScalar(l yamlLine, indent int, header string) (string, error) {
	chomp := "clip"
	for _, c := range header[1:] {
		switch c {
		case '-':
			chomp = "strip"
		case '+':
			chomp = "keep"
		case ' ':
		default:
			return "", p.errorf(l, indent+len(l.text)-len(header)+1, "a block scalar header this reader does not take: %q", header)
		}
	}
	var body []string
	inner := -1
	for p.i < len(p.lines) {
		n := p.lines[p.i]
		if strings.TrimSpace(n.raw) == "" {
			body = append(body, "")
			p.i++
			continue
		}
		if n.indent <= indent {
			break
		}
		if inner < 0 {
			inner = n.indent
		}
		if n.indent < inner {
			return "", p.errorf(n, n.indent+1, "less indented than the block's first line")
		}
		body = append(body, n.raw[inner:])
		p.i++
	}
	trailing := 0
	for len(body) > 0 && body[len(body)-1] == "" {
		body = body[:len(body)-1]
		trailing++
	}
	var s string
	if header[0] == '>' {
		s = strings.Join(body, " ")
	} else {
		s = strings.Join(body, "\n")
	}
	switch {
	case len(body) == 0:
		return "", nil
	case chomp == "strip":
	case chomp == "keep":
		s += "\n" + strings.Repeat("\n", trailing)
	default:
		s += "\n"
	}
	return s, nil
}
