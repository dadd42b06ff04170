package script

import (
	"strconv"
	"strings"
	"sync"
)

// awkMarkers is awk's prefilter: the only ways out of awk are system(),
// pipes, redirections, getline and gawk's @load.
var awkMarkers = []string{"system", "|", ">", "getline", "@load"}

// awkRules is what awk's builtins and redirections do, with samples.
func awkRules() []scriptRule {
	return []scriptRule{
		{apis: []string{"system"},
			fn: shellAt(0, ""),
			samples: []scriptSample{
				{`BEGIN { system("rm -rf /") }`, []string{`exec sh "rm -rf /"`}},
				{`{ system("rm " $1) }`, []string{`exec sh ? "rm …"`}},
				{`BEGIN { cmd = "git push --force"; system(cmd) }`, []string{`exec sh "git push --force"`}},
				{`BEGIN { d = "/tmp"; system("rm -rf " d "/x") }`, []string{`exec sh "rm -rf /tmp/x"`}},
				{"BEGIN{system(\"echo \\\"a\\\"\\n\")}", []string{`exec sh "echo \"a\"\n"`}},
				{`{ system($0) }`, []string{`exec sh ? "…"`}},
			}},
		{apis: []string{"print |", "getline |"},
			fn: shellAt(0, ""),
			samples: []scriptSample{
				{`{ print $1 | "sh" }`, []string{`exec sh "sh"`}},
				{`{ print "rm -rf " $1 | "bash" }`, []string{`exec sh "bash"`}},
				{`{ printf "%s\n", $0 | "sort -u > out.txt" }`, []string{`exec sh "sort -u > out.txt"`}},
				{`BEGIN { "date" | getline d; print d }`, []string{`exec sh "date"`}},
				{`BEGIN { while (("ls " dir) | getline f) print f }`, []string{`exec sh ? "ls …"`}},
				{`BEGIN { cmd = "cat ~/.netrc"; cmd | getline x }`, []string{`exec sh "cat ~/.netrc"`}},
				{`{ print |& "sh" }`, []string{`exec sh "sh"`}},
			}},
		{apis: []string{"print >"},
			fn: pathAt("write", 0, ""),
			samples: []scriptSample{
				{`{ print > ".git/config" }`, []string{`write ".git/config"`}},
				{`{ print $0 >> "/etc/hosts" }`, []string{`write "/etc/hosts"`}},
				{`{ print $2 > $1 ".txt" }`, []string{`write ? "….txt"`}},
			}},
		{apis: []string{"getline <"},
			fn: pathAt("read", 0, ""),
			samples: []scriptSample{
				{`BEGIN { while ((getline line < "/etc/shadow") > 0) print line }`, []string{`read "/etc/shadow"`}},
				{`BEGIN { getline < ".env"; print }`, []string{`read ".env"`}},
			}},
		{apis: []string{"@load"},
			fn: unknownExec,
			samples: []scriptSample{
				{`@load "filefuncs"
BEGIN { }`, []string{`exec ?`}},
			}},
	}
}

// awkExtraSamples are the samples no single rule covers.
var awkExtraSamples = []scriptSample{
	{`{print $1}`, nil},
	{`{ print $1 > 2 }`, []string{`write "2"`}},
	{`{ if ($1 > 2) print $1 }`, nil},
	{`BEGIN { FS = ":" } { print $1 }`, nil},
	{`/system/ { n++ } END { print n }`, nil},
	{`{ x = "system(\"rm -rf /\")"; print x }`, nil},
	{"# system(\"rm -rf /\")\n{ print }", nil},
	{`NR > 1 { s += $2 } END { print s / NR }`, nil},
	{`{ print ($1 > $2) }`, nil},
	{`BEGIN { c = "ls"; c = c " /"; system(c) }`, []string{`exec sh ? "…"`}},
	{`function f(c) { system(c) } { f($1) }`, []string{`exec sh ? "…"`}},
}

var awkTable = sync.OnceValue(func() *apiTable { return scriptTable(awkRules()) })

// awk's tokens are tokens of kind 's' string, 'n' number, 'w' name, 'f'
// field ($), 'r' regex, 'o' operator, ';' statement end (also newline).

// awkLex splits awk code into tokens; a / in operand position starts a
// regex, so a name inside a pattern is not taken for a call.
func awkLex(src string) ([]token, error) {
	var toks []token
	var err error
	operand := func() bool {
		if len(toks) == 0 {
			return true
		}
		t := toks[len(toks)-1]
		switch t.kind {
		case 's', 'n', 'w', 'r':
			return t.kind == 'w' && (t.text == "print" || t.text == "printf" || t.text == "return" || t.text == "in")
		case 'o':
			return t.text != ")" && t.text != "]" && t.text != "$" && t.text != "++" && t.text != "--"
		}
		return true
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			i += 2
		case c == '\n' || c == ';':
			toks = append(toks, token{kind: ';', text: string(c)})
			i++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '"':
			j := i + 1
			var b strings.Builder
			for ; j < len(src) && src[j] != '"'; j++ {
				if src[j] == '\n' {
					break
				}
				if src[j] == '\\' && j+1 < len(src) {
					j++
					switch e := src[j]; e {
					case 'n':
						b.WriteByte('\n')
					case 't':
						b.WriteByte('\t')
					case 'r':
						b.WriteByte('\r')
					case '\\', '"', '/':
						b.WriteByte(e)
					case '0', '1', '2', '3', '4', '5', '6', '7':
						k := j
						for k < len(src) && k < j+3 && src[k] >= '0' && src[k] <= '7' {
							k++
						}
						v, _ := strconv.ParseUint(src[j:k], 8, 8)
						b.WriteByte(byte(v))
						j = k - 1
					case '\n':
					default:
						b.WriteByte('\\')
						b.WriteByte(e)
					}
					continue
				}
				b.WriteByte(src[j])
			}
			if j >= len(src) || src[j] != '"' {
				err = ErrSyntax
				return toks, err
			}
			toks = append(toks, token{kind: 's', val: lit(b.String())})
			i = j + 1
		case c == '/' && operand():
			j := i + 1
			inClass := false
			for ; j < len(src) && (src[j] != '/' || inClass) && src[j] != '\n'; j++ {
				switch {
				case src[j] == '\\':
					j++
				case src[j] == '[':
					inClass = true
				case src[j] == ']':
					inClass = false
				}
			}
			if j >= len(src) || src[j] != '/' {
				return toks, ErrSyntax
			}
			toks = append(toks, token{kind: 'r'})
			i = j + 1
		case isAlpha(c) || c == '@':
			j := i + 1
			for j < len(src) && isWordByte(src[j]) {
				j++
			}
			toks = append(toks, token{kind: 'w', text: src[i:j]})
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			j := i
			for j < len(src) && (isWordByte(src[j]) || src[j] == '.') {
				j++
			}
			toks = append(toks, token{kind: 'n', text: src[i:j]})
			i = j
		default:
			op := string(c)
			for _, o := range []string{"|&", ">>", "&&", "||", "==", "!=", "<=", ">=", "!~", "++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "**"} {
				if strings.HasPrefix(src[i:], o) {
					op = o
					break
				}
			}
			toks = append(toks, token{kind: 'o', text: op})
			i += len(op)
		}
	}
	return toks, err
}

type awkReader struct {
	r     *scriptRun
	toks  []token
	known map[string]sval
}

func readAwk(r *scriptRun, src string) error {
	if !scriptMentions(src, awkMarkers) {
		return nil
	}
	toks, err := awkLex(src)
	p := &awkReader{r: r, toks: toks, known: map[string]sval{}}
	p.bindVars()
	p.scan()
	return err
}

// bindVars finds names assigned one string expression once; any other
// change (+=, getline var, a function's parameter, a for-in) makes the
// name not computed.
func (p *awkReader) bindVars() {
	count := map[string]int{}
	values := map[string]sval{}
	t := p.toks
	inParams := false
	for i, tk := range t {
		if tk.kind == 'w' && tk.text == "function" || tk.kind == 'w' && tk.text == "func" {
			inParams = true
			continue
		}
		if inParams {
			if tk.kind == 'o' && tk.text == ")" {
				inParams = false
			} else if tk.kind == 'w' {
				count[tk.text] += 2
			}
			continue
		}
		if tk.kind != 'w' {
			continue
		}
		next, prev := "", ""
		if i+1 < len(t) && t[i+1].kind == 'o' {
			next = t[i+1].text
		}
		if i > 0 {
			prev = t[i-1].text
		}
		switch {
		case next == "=" && (i+2 >= len(t) || t[i+2].text != "="):
			count[tk.text]++
			values[tk.text] = p.evalConcat(t[i+2 : p.exprEnd(i+2)])
		case strings.HasSuffix(next, "=") && next != "==" && next != "<=" && next != ">=" && next != "!=", next == "++", next == "--", prev == "++", prev == "--", prev == "getline", prev == "for" || prev == "(" && i+1 < len(t) && t[i+1].text == "in", prev == ",":
			count[tk.text] += 2
		}
	}
	p.known = onceKnown(count, values)
}

// exprEnd returns where the expression starting at i ends: a statement
// end, a closing bracket at its depth, or a comma.
func (p *awkReader) exprEnd(i int) int {
	depth := 0
	for j := i; j < len(p.toks); j++ {
		t := p.toks[j]
		switch {
		case t.kind == ';':
			if depth == 0 {
				return j
			}
		case t.kind == 'o' && (t.text == "(" || t.text == "[" || t.text == "{"):
			depth++
		case t.kind == 'o' && (t.text == ")" || t.text == "]" || t.text == "}"):
			if depth == 0 {
				return j
			}
			depth--
		case t.kind == 'o' && t.text == "," && depth == 0:
			return j
		}
	}
	return len(p.toks)
}

// evalConcat computes a concatenation of strings, numbers and known
// names; any other operator makes it a hole.
func (p *awkReader) evalConcat(ts []token) sval {
	if len(ts) == 0 {
		return unknownVal
	}
	out := lit("")
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		switch {
		case t.kind == 's':
			out = concat(out, t.val)
		case t.kind == 'n':
			out = concat(out, lit(t.text))
		case t.kind == 'w' && !(i+1 < len(ts) && (ts[i+1].text == "(" || ts[i+1].text == "[")):
			if v, ok := p.known[t.text]; ok {
				out = concat(out, v)
			} else {
				out = concat(out, unknownVal)
			}
		case t.kind == 'o' && t.text == "(":
			end := i + 1 + p.matchParen(ts[i+1:])
			out = concat(out, p.evalConcat(ts[i+1:end]))
			i = end
		case t.kind == 'o' && t.text == "$":
			out = concat(out, unknownVal)
			if i+1 < len(ts) && ts[i+1].text == "(" {
				i += 1 + p.matchParen(ts[i+2:]) + 1
			} else {
				i++
			}
		case t.kind == 'w':
			// A call or an element: a hole.
			out = concat(out, unknownVal)
			if i+1 < len(ts) {
				i += 1 + p.matchParen(ts[i+2:]) + 1
			}
		default:
			return unknownVal
		}
	}
	return out
}

// matchParen returns the index of the bracket closing the group that
// ts continues, or len(ts).
func (p *awkReader) matchParen(ts []token) int {
	depth := 0
	for j, t := range ts {
		if t.kind != 'o' {
			continue
		}
		switch t.text {
		case "(", "[":
			depth++
		case ")", "]":
			if depth == 0 {
				return j
			}
			depth--
		}
	}
	return len(ts)
}

// leftOperand returns the start of the concatenation that ends just
// before index i: `"ls " dir | getline`.
func (p *awkReader) leftOperand(i int) int {
	j := i - 1
	for j >= 0 {
		t := p.toks[j]
		switch {
		case t.kind == 's' || t.kind == 'n' || t.kind == 'w' && !awkKeywords[t.text]:
			if j > 0 && p.toks[j-1].text == "$" {
				j--
			}
			j--
		case t.kind == 'o' && (t.text == ")" || t.text == "]"):
			depth := 0
		group:
			for ; j >= 0; j-- {
				if p.toks[j].kind != 'o' {
					continue
				}
				switch p.toks[j].text {
				case ")", "]":
					depth++
				case "(", "[":
					depth--
					if depth == 0 {
						break group
					}
				}
			}
			j--
			if j >= 0 && p.toks[j].kind == 'w' && !awkKeywords[p.toks[j].text] {
				j-- // a call: f(x)
			} else if j >= 0 && p.toks[j].text == "$" {
				j--
			}
		default:
			return j + 1
		}
	}
	return 0
}

var awkKeywords = map[string]bool{"if": true, "while": true, "for": true, "do": true, "else": true, "print": true, "printf": true,
	"getline": true, "return": true, "in": true, "BEGIN": true, "END": true, "function": true, "func": true, "next": true, "exit": true}

// scan finds system(), pipes, redirections and getline.
func (p *awkReader) scan() {
	t := p.toks
	for i := 0; i < len(t); i++ {
		tk := t[i]
		switch {
		case tk.kind == 'w' && tk.text == "system" && i+1 < len(t) && t[i+1].text == "(":
			end := i + 2 + p.matchParen(t[i+2:])
			p.emit("system", p.evalConcat(t[i+2:end]))
		case tk.kind == 'w' && tk.text == "@load":
			p.r.add(Effect{Kind: "exec", API: "@load"})
		case tk.kind == 'w' && (tk.text == "print" || tk.text == "printf"):
			end := i + 1
			depth := 0
			for ; end < len(t); end++ {
				x := t[end]
				if x.kind == ';' || x.kind == 'o' && x.text == "}" && depth == 0 {
					break
				}
				if x.kind == 'o' {
					switch x.text {
					case "(", "[":
						depth++
					case ")", "]":
						depth--
					}
				}
				if depth == 0 && x.kind == 'o' && (x.text == "|" || x.text == "|&" || x.text == ">" || x.text == ">>") {
					stop := end + 1
					for stop < len(t) && t[stop].kind != ';' && !(t[stop].kind == 'o' && t[stop].text == "}") {
						stop++
					}
					v := p.evalConcat(t[end+1 : stop])
					if x.text == "|" || x.text == "|&" {
						p.emit("print |", v)
					} else {
						p.emit("print >", v)
					}
					break
				}
			}
		case tk.kind == 'w' && tk.text == "getline":
			if i > 0 && (t[i-1].text == "|" || t[i-1].text == "|&") {
				start := p.leftOperand(i - 1)
				p.emit("getline |", p.evalConcat(t[start:i-1]))
			}
			j := i + 1
			if j < len(t) && t[j].kind == 'w' && !awkKeywords[t[j].text] {
				j++
			}
			if j < len(t) && t[j].text == "<" && j+1 < len(t) {
				var v sval
				switch x := t[j+1]; {
				case x.kind == 'o' && x.text == "(":
					end := j + 2 + p.matchParen(t[j+2:])
					v = p.evalConcat(t[j+2 : end])
				case x.kind == 'o' && x.text == "$":
					v = unknownVal
				default:
					v = p.evalConcat(t[j+1 : j+2])
				}
				p.emit("getline <", v)
			}
		}
	}
}

func (p *awkReader) emit(api string, v sval) {
	fn, _ := awkTable().lookup(api)
	for _, e := range fn(&scall{api: api, args: []sval{v}}) {
		p.r.add(e)
	}
}
