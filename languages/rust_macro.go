package languages

import (
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
)

// Tests written by a macro_rules! macro of the same file (itoa's test!,
// httparse's req! and res!) exist only once the macro is expanded: the
// call's token tree holds the test's name, the macro's body the #[test]
// fn. sentinel expands such a macro at each call, as rustc would (matching
// the call against each rule in turn, binding fragments, transcribing the
// rule's body, repeating what $(…)* repeats, expanding the file's macros
// that the result calls in turn), parses the expansion, and reads the
// tests in it as in any Rust code: names, #[ignore], cfg, assertions.
//
// The matcher reads fragments the simple way: an ident, a literal, a
// lifetime, a tt or a block is one token; any other fragment (expr, ty,
// path, pat, stmt…) runs up to the token the rule expects next. A call no
// rule matches this way, or whose expansion runs past a budget, is counted
// as one test per call, named after its first identifier, with a note
// saying so.

// mkind is the kind of a token or of a matcher element.
type mkind uint8

const (
	mLeaf   mkind = iota // a token, or a literal in a matcher
	mGroup               // a delimited group: (…), […], {…}
	mVar                 // $name in a macro body; $name:frag in a matcher
	mRepeat              // $(…) sep op
)

// mtok is a token of a call or of a macro body.
type mtok struct {
	kind  mkind
	text  string // a leaf's text, a variable's name, a repetition's separator
	delim byte   // a group's opening delimiter
	op    byte   // a repetition's operator: * + ?
	kids  []mtok
	// at is where the token is in the file; call says it came from the
	// call, not from the macro's body.
	at   uint32
	call bool
}

// mpat is an element of a rule's matcher.
type mpat struct {
	kind  mkind
	text  string // a literal's text, a variable's name, a repetition's separator
	frag  string // a variable's fragment specifier
	delim byte
	op    byte
	kids  []mpat
}

// rustRule is one rule of a macro: its matcher and its body.
type rustRule struct {
	pattern []mpat
	body    []mtok
}

// rustMacro is a macro_rules! definition of the file.
type rustMacro struct {
	name  string
	start uint32 // a call after this point sees the definition
	rules []rustRule
	tests bool // whether an expansion may hold a test
}

// rustAttrPattern finds an attribute's path in a macro's body.
var rustAttrPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`#\s*\[\s*((?:[A-Za-z_][A-Za-z0-9_]*\s*::\s*)*[A-Za-z_][A-Za-z0-9_]*)`)
})

// rustMacros are the file's macro_rules! macros, by name, each name's in
// source order with where each begins; a nil *rustMacros has none.
type rustMacros struct {
	byName map[string]*rustNamed
}

type rustNamed struct {
	defs  []*rustMacro
	start *lastBefore
}

// rustReadMacros reads the macro_rules! definitions, and marks those whose
// bodies hold a test attribute, or call a macro that does.
func rustReadMacros(f *File, defs []*sitter.Node) *rustMacros {
	var ms []*rustMacro
	var texts []string
	for _, d := range defs {
		m := &rustMacro{name: f.Text(d.ChildByFieldName("name")), start: d.StartByte()}
		if m.name == "" {
			continue
		}
		var body strings.Builder
		for i := 0; i < int(d.NamedChildCount()); i++ {
			r := d.NamedChild(i)
			if r.Type() != "macro_rule" {
				continue
			}
			left, right := r.ChildByFieldName("left"), r.ChildByFieldName("right")
			if left == nil || right == nil {
				continue
			}
			m.rules = append(m.rules, rustRule{pattern: rustPatterns(f, left), body: rustTokens(f, right, false)})
			body.WriteString(f.Text(right))
		}
		texts = append(texts, body.String())
		ms = append(ms, m)
	}
	for i, m := range ms {
		for _, t := range rustAttrPattern().FindAllStringSubmatch(texts[i], -1) {
			m.tests = m.tests || rustIsTestAttr(strings.Join(strings.Fields(t[1]), ""))
		}
	}
	// A macro whose body calls one that writes tests writes tests too:
	// the macros that reach one that does, through the calls their
	// bodies make (a name and "!", as text), found backwards from each.
	names := make([]string, 0, len(ms))
	byName := map[string][]int{}
	for i, m := range ms {
		if byName[m.name] == nil {
			names = append(names, m.name)
		}
		byName[m.name] = append(byName[m.name], i)
	}
	callers := make([][]int, len(names)) // by name: the macros whose bodies call it
	calls := newNameMatcher(names, '!')
	for i, text := range texts {
		calls.find([]byte(text), func(k int, _ uint32) {
			if c := callers[k]; len(c) == 0 || c[len(c)-1] != i {
				callers[k] = append(c, i)
			}
		})
	}
	nameIndex := make(map[string]int, len(names))
	for k, name := range names {
		nameIndex[name] = k
	}
	var queue []int // names one of whose macros writes tests
	reached := make([]bool, len(names))
	for k, name := range names {
		for _, i := range byName[name] {
			if ms[i].tests && !reached[k] {
				reached[k] = true
				queue = append(queue, k)
			}
		}
	}
	for len(queue) > 0 {
		k := queue[0]
		queue = queue[1:]
		for _, i := range callers[k] {
			if ms[i].tests {
				continue
			}
			ms[i].tests = true
			if c := nameIndex[ms[i].name]; !reached[c] {
				reached[c] = true
				queue = append(queue, c)
			}
		}
	}
	out := &rustMacros{byName: map[string]*rustNamed{}}
	for _, m := range ms {
		n := out.byName[m.name]
		if n == nil {
			n = &rustNamed{}
			out.byName[m.name] = n
		}
		n.defs = append(n.defs, m)
	}
	for _, n := range out.byName {
		starts := make([]uint32, len(n.defs))
		for i, m := range n.defs {
			starts[i] = m.start
		}
		n.start = newLastBefore(starts)
	}
	return out
}

// lookup returns the definition a call at the byte at sees: the last one
// of that name before it.
func (ms *rustMacros) lookup(name string, at uint32) *rustMacro {
	if ms == nil || ms.byName[name] == nil {
		return nil
	}
	n := ms.byName[name]
	if i := n.start.find(at); i >= 0 {
		return n.defs[i]
	}
	return nil
}

// rustInner returns the range of n's children inside its delimiters and,
// for a repetition ($( … ) sep op), its separator and operator.
func rustInner(f *File, n *sitter.Node) (first, last int, sep string, op byte) {
	count := int(n.ChildCount())
	switch n.Type() {
	case "token_repetition", "token_repetition_pattern":
		if count < 4 {
			return 0, 0, "", '*'
		}
		opNode := n.Child(count - 1)
		op = f.Text(opNode)[0]
		last = count - 2
		for last > 2 && (n.Child(last).Type() != ")" || n.Child(last).IsNamed()) {
			last--
		}
		// The grammar keeps a separator out of the tree: it is the text
		// between the ")" and the operator.
		sep = strings.TrimSpace(string(f.Src[n.Child(last).EndByte():opNode.StartByte()]))
		return 2, last, sep, op
	}
	return 1, count - 1, "", 0
}

// rustPatterns reads a matcher's elements, inside its delimiters.
func rustPatterns(f *File, n *sitter.Node) []mpat {
	var out []mpat
	first, last, _, _ := rustInner(f, n)
	for i := first; i < last; i++ {
		ch := n.Child(i)
		switch ch.Type() {
		case "line_comment", "block_comment":
		case "token_binding_pattern":
			p := mpat{kind: mVar}
			for j := 0; j < int(ch.NamedChildCount()); j++ {
				switch c := ch.NamedChild(j); c.Type() {
				case "metavariable":
					p.text = strings.TrimPrefix(f.Text(c), "$")
				case "fragment_specifier":
					p.frag = f.Text(c)
				}
			}
			out = append(out, p)
		case "token_tree_pattern":
			out = append(out, mpat{kind: mGroup, delim: f.Src[ch.StartByte()], kids: rustPatterns(f, ch)})
		case "token_repetition_pattern":
			_, _, sep, op := rustInner(f, ch)
			out = append(out, mpat{kind: mRepeat, text: sep, op: op, kids: rustPatterns(f, ch)})
		default:
			out = append(out, mpat{kind: mLeaf, text: f.Text(ch)})
		}
	}
	return out
}

// rustTokens reads a token tree's tokens, inside its delimiters. In a
// macro's body, $name is a variable and $(…) a repetition.
func rustTokens(f *File, n *sitter.Node, call bool) []mtok {
	var out []mtok
	first, last, _, _ := rustInner(f, n)
	for i := first; i < last; i++ {
		ch := n.Child(i)
		t := mtok{at: ch.StartByte(), call: call}
		switch ch.Type() {
		case "line_comment", "block_comment":
			continue
		case "token_tree":
			t.kind, t.delim, t.kids = mGroup, f.Src[ch.StartByte()], rustTokens(f, ch, call)
		case "token_repetition":
			_, _, sep, op := rustInner(f, ch)
			t.kind, t.text, t.op, t.kids = mRepeat, sep, op, rustTokens(f, ch, call)
		case "metavariable":
			t.kind, t.text = mVar, strings.TrimPrefix(f.Text(ch), "$")
			if t.text == "crate" {
				t.kind, t.text = mLeaf, "crate"
			}
		default:
			t.kind, t.text = mLeaf, f.Text(ch)
		}
		out = append(out, t)
	}
	return out
}

// mbind is what a variable is bound to: tokens, or one binding per
// iteration of the repetition it is in.
type mbind struct {
	toks  []mtok
	iters []*mbind
	rep   bool
}

type menv map[string]*mbind

// mstop is a token a fragment stops before: a literal, or a group.
type mstop struct {
	text  string
	delim byte
}

func (s mstop) matches(t mtok) bool {
	if s.delim != 0 {
		return t.kind == mGroup && t.delim == s.delim
	}
	return t.kind == mLeaf && t.text == s.text
}

// match matches a rule's matcher against all of a call's tokens.
func match(pats []mpat, toks []mtok) (menv, bool) {
	env := menv{}
	n, ok := matchSeq(pats, toks, env, nil)
	return env, ok && n == len(toks)
}

// matchSeq matches pats against a prefix of toks and returns its length;
// stops are what may follow the sequence.
func matchSeq(pats []mpat, toks []mtok, env menv, stops []mstop) (int, bool) {
	i := 0
	for k, p := range pats {
		switch p.kind {
		case mLeaf:
			if i >= len(toks) || toks[i].kind != mLeaf || toks[i].text != p.text {
				return 0, false
			}
			i++
		case mGroup:
			if i >= len(toks) || toks[i].kind != mGroup || toks[i].delim != p.delim {
				return 0, false
			}
			if n, ok := matchSeq(p.kids, toks[i].kids, env, nil); !ok || n != len(toks[i].kids) {
				return 0, false
			}
			i++
		case mVar:
			n, ok := matchFragment(p.frag, toks[i:], follow(pats[k+1:], stops))
			if !ok {
				return 0, false
			}
			env[p.text] = &mbind{toks: toks[i : i+n]}
			i += n
		case mRepeat:
			after := follow(pats[k+1:], stops)
			inner := after
			if p.text != "" {
				inner = append([]mstop{{text: p.text}}, after...)
			}
			var iters []menv
			for p.op != '?' || len(iters) == 0 {
				start := i
				if len(iters) > 0 && p.text != "" {
					if i >= len(toks) || toks[i].kind != mLeaf || toks[i].text != p.text {
						break
					}
					i++
				}
				sub := menv{}
				n, ok := matchSeq(p.kids, toks[i:], sub, inner)
				if !ok || n == 0 {
					i = start
					break
				}
				i += n
				iters = append(iters, sub)
			}
			if p.op == '+' && len(iters) == 0 {
				return 0, false
			}
			for _, name := range patternVars(p.kids) {
				b := &mbind{rep: true}
				for _, it := range iters {
					b.iters = append(b.iters, it[name])
				}
				env[name] = b
			}
		}
	}
	return i, true
}

// follow returns what may come after a fragment: the next element of the
// matcher when it is a literal or a group, or else what may follow the
// sequence.
func follow(rest []mpat, stops []mstop) []mstop {
	if len(rest) == 0 {
		return stops
	}
	switch p := rest[0]; p.kind {
	case mLeaf:
		return []mstop{{text: p.text}}
	case mGroup:
		return []mstop{{delim: p.delim}}
	case mVar:
		if p.frag == "block" {
			return []mstop{{delim: '{'}}
		}
	}
	return nil
}

// patternVars lists the variables a matcher binds, repetitions included.
func patternVars(pats []mpat) []string {
	var out []string
	for _, p := range pats {
		switch p.kind {
		case mVar:
			out = append(out, p.text)
		case mGroup, mRepeat:
			out = append(out, patternVars(p.kids)...)
		}
	}
	return out
}

// matchFragment returns how many tokens a fragment takes at the start of
// toks, stopping before any of stops.
func matchFragment(frag string, toks []mtok, stops []mstop) (int, bool) {
	if frag == "vis" {
		switch {
		case len(toks) > 1 && toks[0].text == "pub" && toks[1].kind == mGroup && toks[1].delim == '(':
			return 2, true
		case len(toks) > 0 && toks[0].kind == mLeaf && toks[0].text == "pub":
			return 1, true
		}
		return 0, true
	}
	if len(toks) == 0 {
		return 0, false
	}
	t := toks[0]
	switch frag {
	case "ident":
		return 1, t.kind == mLeaf && rustIsIdent(t.text)
	case "lifetime":
		return 1, t.kind == mLeaf && strings.HasPrefix(t.text, "'")
	case "tt":
		return 1, true
	case "block":
		return 1, t.kind == mGroup && t.delim == '{'
	case "literal":
		if t.kind == mLeaf && t.text == "-" && len(toks) > 1 && rustIsLiteral(toks[1].text) {
			return 2, true
		}
		return 1, t.kind == mLeaf && rustIsLiteral(t.text)
	}
	// expr, ty, path, pat, stmt, item, meta: up to what follows.
	n := 0
	for n < len(toks) {
		stop := false
		for _, s := range stops {
			stop = stop || s.matches(toks[n])
		}
		if stop {
			break
		}
		n++
	}
	return n, n > 0
}

func rustIsIdent(s string) bool {
	s = strings.TrimPrefix(s, "r#")
	r, _ := utf8.DecodeRuneInString(s)
	if s == "" || !(r == '_' || unicode.IsLetter(r)) {
		return false
	}
	return strings.IndexFunc(s, func(r rune) bool { return !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) }) < 0
}

func rustIsLiteral(s string) bool {
	if s == "" {
		return false
	}
	switch c := s[0]; {
	case c >= '0' && c <= '9', c == '"', c == '\'' && len(s) > 2 && strings.HasSuffix(s, "'"):
		return true
	case c == 'b' || c == 'r' || c == 'c':
		return strings.Contains(s, `"`) || strings.HasPrefix(s, "b'")
	}
	return s == "true" || s == "false"
}

// rustExpander expands calls of the file's macros.
type rustExpander struct {
	macros *rustMacros
	at     uint32 // the outermost call, which decides what is in scope
	budget int    // tokens left to produce
}

// rustExpandBudget bounds the tokens the calls of one file may expand to,
// and rustExpandDepth the macros a call may call in turn.
const (
	rustExpandBudget = 1 << 20
	rustExpandDepth  = 32
)

// expand expands a call of m with the tokens args.
func (x *rustExpander) expand(m *rustMacro, args []mtok, depth int) ([]mtok, bool) {
	if depth > rustExpandDepth {
		return nil, false
	}
	for _, r := range m.rules {
		env, ok := match(r.pattern, args)
		if !ok {
			continue
		}
		var out []mtok
		if !x.transcribe(r.body, env, nil, &out) {
			return nil, false
		}
		return x.expandCalls(out, depth)
	}
	return nil, false
}

// expandCalls expands, in tokens a macro produced, the calls of the file's
// macros that may hold tests.
func (x *rustExpander) expandCalls(toks []mtok, depth int) ([]mtok, bool) {
	var out []mtok
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind == mGroup {
			kids, ok := x.expandCalls(t.kids, depth)
			if !ok {
				return nil, false
			}
			t.kids = kids
			out = append(out, t)
			continue
		}
		if t.kind == mLeaf && i+2 < len(toks) && toks[i+1].text == "!" && toks[i+2].kind == mGroup {
			if m := x.macros.lookup(t.text, x.at); m != nil && m.tests {
				exp, ok := x.expand(m, toks[i+2].kids, depth+1)
				if !ok {
					return nil, false
				}
				out = append(out, exp...)
				i += 2
				continue
			}
		}
		out = append(out, t)
	}
	return out, true
}

// transcribe writes a rule's body with its variables replaced; idx are the
// iterations of the repetitions being written.
func (x *rustExpander) transcribe(body []mtok, env menv, idx []int, out *[]mtok) bool {
	for _, t := range body {
		if x.budget--; x.budget < 0 {
			return false
		}
		switch t.kind {
		case mLeaf:
			*out = append(*out, t)
		case mGroup:
			var kids []mtok
			if !x.transcribe(t.kids, env, idx, &kids) {
				return false
			}
			g := t
			g.kids = kids
			*out = append(*out, g)
		case mVar:
			b := bound(env, t.text, idx)
			switch {
			case b == nil: // not a variable of the rule: left as written
				*out = append(*out, mtok{kind: mLeaf, text: "$" + t.text, at: t.at})
			case b.rep:
				return false
			default:
				x.budget -= len(b.toks)
				*out = append(*out, b.toks...)
			}
		case mRepeat:
			n := -1
			for _, name := range bodyVars(t.kids) {
				if b := bound(env, name, idx); b != nil && b.rep {
					n = len(b.iters)
					break
				}
			}
			if n < 0 {
				return false
			}
			for i := 0; i < n; i++ {
				if i > 0 && t.text != "" {
					*out = append(*out, mtok{kind: mLeaf, text: t.text, at: t.at})
				}
				if !x.transcribe(t.kids, env, append(idx[:len(idx):len(idx)], i), out) {
					return false
				}
			}
		}
	}
	return true
}

// bound returns a variable's binding at the iterations idx.
func bound(env menv, name string, idx []int) *mbind {
	b := env[name]
	for _, i := range idx {
		if b == nil || !b.rep {
			break
		}
		if i >= len(b.iters) {
			return nil
		}
		b = b.iters[i]
	}
	return b
}

// bodyVars lists the variables a macro body uses.
func bodyVars(toks []mtok) []string {
	var out []string
	for _, t := range toks {
		switch t.kind {
		case mVar:
			out = append(out, t.text)
		case mGroup, mRepeat:
			out = append(out, bodyVars(t.kids)...)
		}
	}
	return out
}

// rustOrigin is where a byte of an expansion's text came from.
type rustOrigin struct {
	out  uint32 // where the token starts in the text
	at   uint32 // where it is in the file
	call bool
}

// render writes tokens as source text, one space apart, and where each
// token came from.
func render(toks []mtok, b *strings.Builder, origins *[]rustOrigin) {
	closing := map[byte]string{'(': ")", '[': "]", '{': "}"}
	for _, t := range toks {
		*origins = append(*origins, rustOrigin{uint32(b.Len()), t.at, t.call})
		switch t.kind {
		case mGroup:
			b.WriteByte(t.delim)
			b.WriteByte(' ')
			render(t.kids, b, origins)
			b.WriteString(closing[t.delim])
		default:
			b.WriteString(t.text)
		}
		b.WriteByte(' ')
	}
}

// origin returns where the byte at of an expansion's text came from: the
// last token that starts at or before it (render writes them in order).
func origin(origins []rustOrigin, at uint32) rustOrigin {
	k := sort.Search(len(origins), func(i int) bool { return origins[i].out > at })
	if k == 0 {
		return rustOrigin{}
	}
	return origins[k-1]
}
