package shell

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Words: brace expansion, rendering and unescaping as the shell does them.

// maxBraceWords bounds one word's brace expansion; past it the guard reads
// the first ones only, which is enough to meet a rule.
const maxBraceWords = 256

// braceWords expands a word's braces as bash does: {rm,-rf,~} is three
// words, rm -rf {a,../x} two paths.
func braceWords(orig *syntax.Word) []*syntax.Word {
	// SplitBraces rewrites the word it is given; the tree is walked
	// again, so it works on a copy.
	w := &syntax.Word{Parts: append([]syntax.WordPart(nil), orig.Parts...)}
	if !syntax.SplitBraces(w) {
		return []*syntax.Word{orig}
	}
	var out []*syntax.Word
	for bw, err := range expand.BracesSeq(nil, w) {
		if err != nil || len(out) == maxBraceWords {
			break
		}
		out = append(out, bw)
	}
	if len(out) == 0 {
		return []*syntax.Word{orig}
	}
	return out
}

// render turns a word into a string with no variables known.
func render(w *syntax.Word) (string, bool) {
	return (&scope{}).render(w)
}

// unescape removes the shell's backslash escapes from a literal, as the
// shell does before running it: r\m is rm. Inside double quotes only \$,
// \`, \", \\ and a backslash-newline are escapes.
func unescape(s string, quoted bool) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		next := s[i+1]
		switch {
		case next == '\n':
			i++ // line continuation
		case !quoted || strings.IndexByte("$`\"\\", next) >= 0:
			b.WriteByte(next)
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// unescapeANSIC reads $'…' strings: \n, \t, \xHH, \0NNN and friends.
func unescapeANSIC(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	if u, err := strconv.Unquote(`"` + strings.ReplaceAll(s, `"`, `\"`) + `"`); err == nil {
		return u
	}
	return s
}

func wordString(w *syntax.Word) string {
	s, _ := render(w)
	return s
}

func nodeText(src string, n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(src) || start > end {
		return ""
	}
	return src[start:end]
}

// IsShortFlag reports whether arg is a bundle of short options holding f:
// -f, -rf, -anm.
func IsShortFlag(arg string, f byte) bool {
	if len(arg) < 2 || arg[0] != '-' || arg[1] == '-' {
		return false
	}
	return strings.IndexByte(arg[1:], f) >= 0
}
