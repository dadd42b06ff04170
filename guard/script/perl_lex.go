package script

import (
	"strconv"
	"strings"
)

// plLexer splits Perl code into tokens, reading quotes, quote-like
// operators, regexes, heredocs and POD as Perl does, so that a name
// inside a string or a pattern is never taken for a call.
type plLexer struct {
	src     string
	pos     int
	toks    []token
	pending []plHeredoc
	scalars map[string]sval
	err     error
}

type plHeredoc struct {
	term        string
	interpolate bool
	indent      bool
	tok         int
}

// fail records that the code does not lex and stops.
func (l *plLexer) fail() {
	if l.err == nil {
		l.err = ErrSyntax
	}
	l.pos = len(l.src)
}

// operand reports whether the next token is an operand, where / starts a
// regex and % a hash.
func (l *plLexer) operand() bool {
	if len(l.toks) == 0 {
		return true
	}
	t := l.toks[len(l.toks)-1]
	switch t.kind {
	case 'v', 's', 'n', 'x', 'q', 'r':
		return false
	case 'w':
		// After a function's name comes its argument: print <<EOT,
		// split /,/.
		return true
	case 'o':
		return t.text != ")" && t.text != "]" && t.text != "}"
	}
	return true
}

func plClosing(c byte) byte {
	switch c {
	case '(':
		return ')'
	case '[':
		return ']'
	case '{':
		return '}'
	case '<':
		return '>'
	}
	return c
}

// delimited reads text up to the closing delimiter, nesting brackets,
// and returns the raw text between.
func (l *plLexer) delimited(open byte) string {
	closeC := plClosing(open)
	depth := 1
	start := l.pos
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == '\\' && l.pos+1 < len(l.src):
			l.pos += 2
			continue
		case c == closeC && open != closeC:
			depth--
		case c == open && open != closeC:
			depth++
		case c == closeC:
			depth = 0
		}
		l.pos++
		if depth == 0 {
			return l.src[start : l.pos-1]
		}
	}
	l.fail()
	return l.src[start:]
}

func (l *plLexer) skipSpace() {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == '\n':
			l.pos++
			l.heredocBodies()
			l.pod()
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			l.pos++
		case c == '#':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
		default:
			return
		}
	}
}

// pod skips documentation at the start of a line up to =cut.
func (l *plLexer) pod() {
	if l.pos < len(l.src) && l.src[l.pos] == '=' && l.pos+1 < len(l.src) && isAlpha(l.src[l.pos+1]) {
		if i := strings.Index(l.src[l.pos:], "\n=cut"); i >= 0 {
			l.pos += i + 5
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
			return
		}
		l.pos = len(l.src)
	}
}

// heredocBodies reads the bodies of the heredocs opened on the line just
// ended.
func (l *plLexer) heredocBodies() {
	for _, h := range l.pending {
		var body strings.Builder
		for {
			if l.pos >= len(l.src) {
				l.fail()
				break
			}
			end := strings.IndexByte(l.src[l.pos:], '\n')
			line := l.src[l.pos:]
			if end >= 0 {
				line = l.src[l.pos : l.pos+end]
				l.pos += end + 1
			} else {
				l.pos = len(l.src)
			}
			check := line
			if h.indent {
				check = strings.TrimLeft(line, " \t")
			}
			if check == h.term {
				break
			}
			if h.indent {
				line = strings.TrimLeft(line, " \t")
			}
			body.WriteString(line + "\n")
		}
		v := lit(body.String())
		if h.interpolate {
			v = l.interpolate(body.String())
		}
		l.toks[h.tok].val = v
	}
	l.pending = nil
}

// lex splits the whole source.
func (l *plLexer) lex() {
	l.pod()
	for {
		l.skipSpace()
		if l.pos >= len(l.src) {
			return
		}
		c := l.src[l.pos]
		switch {
		case isAlpha(c):
			start := l.pos
			for l.pos < len(l.src) && (isWordByte(l.src[l.pos]) || l.src[l.pos] == ':' && l.pos+1 < len(l.src) && l.src[l.pos+1] == ':') {
				if l.src[l.pos] == ':' {
					l.pos++
				}
				l.pos++
			}
			w := l.src[start:l.pos]
			if w == "__END__" || w == "__DATA__" {
				l.pos = len(l.src)
				return
			}
			if l.quoteLike(w) {
				continue
			}
			l.toks = append(l.toks, token{kind: 'w', text: w})
		case c >= '0' && c <= '9':
			start := l.pos
			for l.pos < len(l.src) && (isWordByte(l.src[l.pos]) || l.src[l.pos] == '.' && l.pos+1 < len(l.src) && l.src[l.pos+1] != '.') {
				l.pos++
			}
			l.toks = append(l.toks, token{kind: 'n', text: l.src[start:l.pos]})
		case c == '$' || c == '@' || c == '%' && l.operand() || c == '&' && l.operand():
			l.variable()
		case c == '\'':
			l.pos++
			l.toks = append(l.toks, token{kind: 's', val: lit(plSingle(l.delimited('\'')))})
		case c == '"':
			l.pos++
			l.toks = append(l.toks, token{kind: 's', val: l.interpolate(l.delimited('"'))})
		case c == '`':
			l.pos++
			l.toks = append(l.toks, token{kind: 'x', val: l.interpolate(l.delimited('`'))})
		case c == '/' && l.operand():
			l.pos++
			l.delimited('/')
			l.flags()
			l.toks = append(l.toks, token{kind: 'r'})
		case c == '<' && strings.HasPrefix(l.src[l.pos:], "<<") && l.operand() && l.heredoc():
		default:
			for _, op := range []string{"=>", "->", "=~", "!~", "::", "..", "==", "!=", "<=", ">=", "&&", "||", "//", ".=", "+=", "-=", "||=", "&&=", "//=", "++", "--", "**", "<<", ">>"} {
				if strings.HasPrefix(l.src[l.pos:], op) {
					l.toks = append(l.toks, token{kind: 'o', text: op})
					l.pos += len(op)
					goto next
				}
			}
			l.toks = append(l.toks, token{kind: 'o', text: l.src[l.pos : l.pos+1]})
			l.pos++
		next:
		}
	}
}

// flags skips a regex's modifiers.
func (l *plLexer) flags() {
	for l.pos < len(l.src) && isAlpha(l.src[l.pos]) {
		l.pos++
	}
}

// quoteLike reads q//, qq//, qw//, qx//, m//, qr//, s///, tr/// and y///
// after their word; it reports false for the plain word (s => 1, $h{q}).
func (l *plLexer) quoteLike(w string) bool {
	switch w {
	case "q", "qq", "qw", "qx", "m", "qr", "s", "tr", "y":
	default:
		return false
	}
	if n := len(l.toks); n > 0 && (l.toks[n-1].text == "->" || l.toks[n-1].text == "{" && l.pos < len(l.src) && l.src[l.pos] == '}') {
		return false
	}
	i := l.pos
	for i < len(l.src) && (l.src[i] == ' ' || l.src[i] == '\t' || l.src[i] == '\n') {
		i++
	}
	if i >= len(l.src) {
		return false
	}
	d := l.src[i]
	if d == '=' && i+1 < len(l.src) && l.src[i+1] == '>' || d == ',' || d == ';' || d == ')' || isWordByte(d) && i == l.pos || d == '=' && (w == "s" || w == "y" || w == "q") && i > l.pos {
		return false
	}
	if isWordByte(d) || d == ' ' {
		return false
	}
	l.pos = i + 1
	body := l.delimited(d)
	switch w {
	case "q":
		l.toks = append(l.toks, token{kind: 's', val: lit(plSingle(body))})
	case "qq":
		l.toks = append(l.toks, token{kind: 's', val: l.interpolate(body)})
	case "qw":
		var items []sval
		for _, f := range strings.Fields(body) {
			items = append(items, lit(f))
		}
		l.toks = append(l.toks, token{kind: 'q', val: listVal(items)})
	case "qx":
		v := lit(body)
		if d != '\'' {
			v = l.interpolate(body)
		}
		l.toks = append(l.toks, token{kind: 'x', val: v})
	case "s", "tr", "y":
		if plClosing(d) != d {
			l.skipSpace()
			if l.pos < len(l.src) {
				open := l.src[l.pos]
				l.pos++
				l.delimited(open)
			}
		} else {
			l.delimited(d)
		}
		l.flags()
		l.toks = append(l.toks, token{kind: 'r'})
	default:
		l.flags()
		l.toks = append(l.toks, token{kind: 'r'})
	}
	return true
}

// heredoc reads <<"TERM", <<'TERM', <<TERM and <<~ forms; the body is
// read at the end of the line.
func (l *plLexer) heredoc() bool {
	i := l.pos + 2
	h := plHeredoc{interpolate: true}
	if i < len(l.src) && l.src[i] == '~' {
		h.indent = true
		i++
	}
	if i >= len(l.src) {
		return false
	}
	switch q := l.src[i]; {
	case q == '"' || q == '\'':
		end := strings.IndexByte(l.src[i+1:], q)
		if end < 0 {
			return false
		}
		h.term = l.src[i+1 : i+1+end]
		h.interpolate = q == '"'
		i += end + 2
	case isAlpha(q):
		j := i
		for j < len(l.src) && isWordByte(l.src[j]) {
			j++
		}
		h.term = l.src[i:j]
		i = j
	default:
		return false
	}
	l.pos = i
	h.tok = len(l.toks)
	l.toks = append(l.toks, token{kind: 's', val: unknownVal})
	l.pending = append(l.pending, h)
	return true
}

// variable reads $x, @x, %x, &x, ${x}, $x::y and the punctuation
// variables.
func (l *plLexer) variable() {
	sigil := l.src[l.pos]
	l.pos++
	start := l.pos
	switch {
	case l.pos < len(l.src) && l.src[l.pos] == '{':
		l.pos++
		name := l.delimited('{')
		if sigil == '&' {
			l.toks = append(l.toks, token{kind: 'v', text: "&{}"})
			return
		}
		l.toks = append(l.toks, token{kind: 'v', text: string(sigil) + strings.TrimSpace(name)})
		return
	case l.pos < len(l.src) && (isAlpha(l.src[l.pos]) || l.src[l.pos] == ':'):
		for l.pos < len(l.src) && (isWordByte(l.src[l.pos]) || l.src[l.pos] == ':' && l.pos+1 < len(l.src) && l.src[l.pos+1] == ':') {
			if l.src[l.pos] == ':' {
				l.pos++
			}
			l.pos++
		}
	case l.pos < len(l.src) && sigil == '$' && l.src[l.pos] == '#':
		l.pos++ // $#array
		if l.pos < len(l.src) && (isAlpha(l.src[l.pos]) || l.src[l.pos] == '{') {
			l.variable()
			return
		}
	case l.pos < len(l.src) && sigil != '%' && sigil != '&':
		l.pos++ // $_, $0, $@, $!, $$, @_
	}
	name := l.src[start:l.pos]
	if sigil == '&' {
		l.toks = append(l.toks, token{kind: 'w', text: name})
		return
	}
	if sigil == '%' && name == "" {
		l.toks = append(l.toks, token{kind: 'o', text: "%"})
		return
	}
	l.toks = append(l.toks, token{kind: 'v', text: string(sigil) + name})
}

// plSingle decodes a single-quoted string: only \\ and \' are escapes.
func plSingle(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '\\' || s[i+1] == '\'') {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// interpolate decodes a double-quoted string: escapes, and scalars known
// from earlier assignments; anything else interpolated is a hole.
func (l *plLexer) interpolate(s string) sval {
	out := lit("")
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			switch e := s[i]; e {
			case 'n':
				out.s += "\n"
			case 't':
				out.s += "\t"
			case 'r':
				out.s += "\r"
			case 'e':
				out.s += "\x1b"
			case 'a':
				out.s += "\a"
			case '0':
				out.s += "\x00"
			case 'x':
				j := i + 1
				var hex string
				if j < len(s) && s[j] == '{' {
					end := strings.IndexByte(s[j:], '}')
					if end < 0 {
						out = concat(out, unknownVal)
						return out
					}
					hex = s[j+1 : j+end]
					i = j + end
				} else {
					for j < len(s) && j < i+3 && strings.IndexByte("0123456789abcdefABCDEF", s[j]) >= 0 {
						j++
					}
					hex = s[i+1 : j]
					i = j - 1
				}
				v, err := strconv.ParseUint(hex, 16, 32)
				if err != nil {
					out = concat(out, unknownVal)
					continue
				}
				out.s += string(rune(v))
			default:
				if isAlpha(e) {
					out = concat(out, unknownVal) // \U, \L, \Q, \N{…}: computed
					continue
				}
				out.s += string(e)
			}
		case (c == '$' || c == '@') && i+1 < len(s) && (isAlpha(s[i+1]) || s[i+1] == '{' || c == '$' && strings.IndexByte("_0123456789&@!$", s[i+1]) >= 0):
			j := i + 1
			name := ""
			if s[j] == '{' {
				end := strings.IndexByte(s[j:], '}')
				if end < 0 {
					j = len(s)
				} else {
					name = strings.TrimSpace(s[j+1 : j+end])
					j += end + 1
				}
			} else if isAlpha(s[j]) {
				for j < len(s) && (isWordByte(s[j]) || s[j] == ':' && j+1 < len(s) && s[j+1] == ':') {
					if s[j] == ':' {
						j++
					}
					j++
				}
				name = s[i+1 : j]
			} else {
				j++
			}
			v := unknownVal
			if c == '$' && isASCIIIdent(name) && name != "" && (j >= len(s) || s[j] != '[' && s[j] != '{' && !strings.HasPrefix(s[j:], "->")) {
				if k, ok := l.scalars["$"+name]; ok {
					v = k
				}
			}
			if j < len(s) && (s[j] == '[' || s[j] == '{') {
				// An element: its subscript is part of the hole.
				open := s[j]
				depth := 0
				for ; j < len(s); j++ {
					if s[j] == open {
						depth++
					} else if s[j] == plClosing(open) {
						depth--
						if depth == 0 {
							j++
							break
						}
					}
				}
			}
			out = concat(out, v)
			i = j - 1
		default:
			out.s += string(c)
		}
	}
	return out
}
