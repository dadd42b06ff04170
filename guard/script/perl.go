package script

import (
	"strconv"
	"strings"
	"sync"
)

// plMarkers is Perl's prefilter.
var plMarkers = []string{
	"system", "exec", "`", "qx", "readpipe", "open", "unlink", "rmdir", "rmtree", "remove_tree", "rename",
	"chmod", "chown", "eval", "do", "require", "copy", "move", "cp", "mv", "symlink", "link", "truncate",
}

// plRules is what Perl's builtins and common modules do, with samples.
func plRules() []scriptRule {
	return []scriptRule{
		{apis: []string{"system", "exec"},
			fn: plCommand,
			samples: []scriptSample{
				{`system("rm -rf /")`, []string{`exec sh "rm -rf /"`}},
				{`system "git", "push", "--force";`, []string{`exec "git" "push" "--force"`}},
				{`my $d = "/tmp"; system("rm -rf $d") == 0 or die`, []string{`exec sh "rm -rf /tmp"`}},
				{`exec qw(rm -rf /)`, []string{`exec "rm" "-rf" "/"`}},
				{`system(@ARGV)`, []string{`exec ?`}},
				{`system("rm -rf " . $ARGV[0])`, []string{`exec sh ? "rm -rf …"`}},
				{`exec {'/bin/sh'} 'sh', '-c', 'id'`, []string{`exec "/bin/sh" "-c" "id"`}},
				{`CORE::system('reboot')`, []string{`exec sh "reboot"`}},
			}},
		{apis: []string{"`", "readpipe"},
			fn: shellAt(0, ""),
			samples: []scriptSample{
				{"print `cat /etc/shadow`;", []string{`exec sh "cat /etc/shadow"`}},
				{"my @l = qx{ls -la $ENV{HOME}};", []string{`exec sh ? "ls -la …"`}},
				{"my $x = qx'echo $HOME';", []string{`exec sh "echo $HOME"`}},
				{"readpipe('id')", []string{`exec sh "id"`}},
			}},
		{apis: []string{"open"},
			fn: plOpen,
			samples: []scriptSample{
				{`open(my $f, '<', '/etc/passwd') or die; print <$f>;`, []string{`read "/etc/passwd"`}},
				{`open(FH, ">.git/config");`, []string{`write ".git/config"`}},
				{`open my $p, '-|', 'git', 'push', '-f';`, []string{`exec "git" "push" "-f"`}},
				{`open(P, "rm -rf / |");`, []string{`exec sh "rm -rf /"`}},
				{`open(my $f, '>>', "$ENV{HOME}/.bashrc");`, []string{`write ? "…/.bashrc"`}},
				{`open(F, $file);`, []string{`exec sh ? "…"`}},
				{`open(my $f, '<:encoding(UTF-8)', '.env');`, []string{`read ".env"`}},
			}},
		{apis: []string{"unlink", "rmdir"},
			fn: eachPath("remove", 0, false),
			samples: []scriptSample{
				{`unlink ".env";`, []string{`remove ".env"`}},
				{`unlink glob("*.pm")`, []string{`remove ? "…"`}},
				{`rmdir('x') or die`, []string{`remove "x"`}},
				{`unlink('a', 'b');`, []string{`remove "a"`, `remove "b"`}},
			}},
		{apis: []string{"rmtree", "remove_tree", "File::Path::rmtree", "File::Path::remove_tree"},
			fn: eachPath("remove", 0, true),
			samples: []scriptSample{
				{`use File::Path qw(rmtree); rmtree("/");`, []string{`remove -r "/"`}},
				{`use File::Path 'remove_tree'; remove_tree('/srv', {verbose => 1});`, []string{`remove -r "/srv"`}},
			}},
		{apis: []string{"rename", "move", "mv", "File::Copy::move"},
			fn: renameFrom(0, 1),
			samples: []scriptSample{
				{`rename('.git', 'g');`, []string{`rename ".git" "g"`}},
			}},
		{apis: []string{"copy", "cp", "File::Copy::copy"},
			fn: copyFrom(0, 1),
			samples: []scriptSample{
				{`use File::Copy; copy("$ENV{HOME}/.ssh/id_rsa", "/tmp/k");`, []string{`read ? "…/.ssh/id_rsa"`, `write "/tmp/k"`}},
			}},
		{apis: []string{"chmod"},
			fn: eachPath("chmod", 1, false),
			samples: []scriptSample{
				{`chmod 0777, '/etc/sudoers';`, []string{`chmod "/etc/sudoers"`}},
			}},
		{apis: []string{"chown"},
			fn: eachPath("chmod", 2, false),
			samples: []scriptSample{
				{`chown 0, 0, 'x';`, []string{`chmod "x"`}},
			}},
		{apis: []string{"symlink", "link"},
			fn: pathAt("write", 1, ""),
			samples: []scriptSample{
				{`symlink('/etc/passwd', 'p');`, []string{`write "p"`}},
			}},
		{apis: []string{"truncate"},
			fn: pathAt("write", 0, ""),
			samples: []scriptSample{
				{`truncate('.git/HEAD', 0);`, []string{`write ".git/HEAD"`}},
			}},
		{apis: []string{"eval", "do", "require"},
			fn: plEval,
			samples: []scriptSample{
				{`eval "system('id')";`, []string{`exec sh "id"`}},
				{`eval $code;`, []string{`exec ?`}},
				{`eval { die "x" }; print $@`, nil},
				{`do $file;`, []string{`exec ?`}},
				{`require strict; do { 1 } while 0;`, nil},
			}},
		{apis: []string{"open3", "IPC::Open3::open3", "open2", "IPC::Open2::open2"},
			fn: func(c *scall) []Effect {
				i := 3
				if strings.HasSuffix(c.api, "open2") {
					i = 2
				}
				if i >= len(c.args) {
					return unknownExec(c)
				}
				return plCommand(&scall{api: c.api, args: c.args[i:], spread: c.spread})
			},
			samples: []scriptSample{
				{`use IPC::Open3; my $pid = open3(my $w, my $r, undef, 'rm', '-rf', 'x');`, []string{`exec "rm" "-rf" "x"`}},
			}},
	}
}

// plExtraSamples are the samples no single rule covers.
var plExtraSamples = []scriptSample{
	{`print "hello\n";`, nil},
	{`print if /system/`, nil},
	{`s/system/exec/g; print`, nil},
	{`my %h = (system => 1, exec => 2); print $h{system};`, nil},
	{`$obj->system("x");`, nil},
	{"# system('rm -rf /')\nprint 1;", nil},
	{"print <<'EOT';\nsystem('rm -rf /')\nEOT\n", nil},
	{"=pod\n\nsystem('rm -rf /')\n\n=cut\nprint 1;", nil},
	{`my $x = 'rm -rf /'; my $y = $x; system($y);`, []string{`exec sh ? "…"`}},
	{`my $c = 'ls'; $c .= ' /'; system($c);`, []string{`exec sh ? "…"`}},
	{`tr/a-z/A-Z/; system 'id' if $x;`, []string{`exec sh "id"`}},
	{`sub f { my ($p) = @_; unlink $p } f('x');`, []string{`remove ? "…"`}},
	{`system("echo \x41\t");`, []string{`exec sh "echo A\t"`}},
	{"my $c = <<\"EOC\";\nrm -rf /\nEOC\nsystem($c);", []string{`exec sh "rm -rf /\n"`}},
	{`print 1 / 2; system('id') / 2`, []string{`exec sh "id"`}},
}

var plTable = sync.OnceValue(func() *apiTable { return scriptTable(plRules()) })

// Perl's tokens are tokens of kind 'w' (word), 'v' (variable), 's'
// (string), 'x' (backtick or qx), 'q' (qw list), 'r' (regex or
// transliteration), 'n' (number), 'o' (operator or punctuation).

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

func readPerl(r *scriptRun, src string) error {
	l := &plLexer{src: src, scalars: map[string]sval{}}
	l.lex()
	p := &plReader{r: r, toks: l.toks}
	// Scalars assigned one literal are known; strings are decoded again
	// with them.
	p.bindScalars()
	if len(p.known) > 0 {
		l2 := &plLexer{src: src, scalars: p.known}
		l2.lex()
		p.toks = l2.toks
	}
	p.scan()
	return l.err
}

type plReader struct {
	r     *scriptRun
	toks  []token
	known map[string]sval
}

// bindScalars finds `[my|our|local] $x = EXPR;` assigned once, and marks
// any other change of $x as not computed.
func (p *plReader) bindScalars() {
	count := map[string]int{}
	values := map[string]sval{}
	t := p.toks
	for i, tk := range t {
		if tk.kind != 'v' || !strings.HasPrefix(tk.text, "$") {
			continue
		}
		name := tk.text
		prev := ""
		if i > 0 {
			prev = t[i-1].text
		}
		next := ""
		if i+1 < len(t) && t[i+1].kind == 'o' {
			next = t[i+1].text
		}
		switch {
		case next == "=" && prev != "(" && prev != ",":
			count[name]++
			end := p.stmtEnd(i + 2)
			values[name] = p.evalExpr(t[i+2 : end])
		case next == "=~" || next == ".=" || next == "+=" || next == "||=" || next == "//=" || next == "++" || next == "--" || next == "&&=" || next == "x=",
			prev == "foreach" || prev == "for" || prev == "my" && (next == "(" || next == "") || prev == "chomp" || prev == "chop" || prev == "\\":
			count[name] += 2
		}
	}
	// A list assignment, ($a, $b) = …, sets every name in the list.
	for i, tk := range t {
		if tk.kind == 'o' && tk.text == ")" && i+1 < len(t) && t[i+1].kind == 'o' && t[i+1].text == "=" {
			depth := 0
			for j := i; j >= 0; j-- {
				if t[j].kind == 'o' && t[j].text == ")" {
					depth++
				} else if t[j].kind == 'o' && t[j].text == "(" {
					depth--
					if depth == 0 {
						break
					}
				} else if t[j].kind == 'v' {
					count[t[j].text] += 2
				}
			}
		}
	}
	p.known = onceKnown(count, values)
}

// stmtEnd returns the index that ends the expression starting at i: a
// ; or closing bracket at its depth, or a low-precedence keyword.
func (p *plReader) stmtEnd(i int) int {
	depth := 0
	for j := i; j < len(p.toks); j++ {
		t := p.toks[j]
		switch {
		case t.kind == 'o' && (t.text == "(" || t.text == "[" || t.text == "{"):
			depth++
		case t.kind == 'o' && (t.text == ")" || t.text == "]" || t.text == "}"):
			if depth == 0 {
				return j
			}
			depth--
		case depth == 0 && t.kind == 'o' && t.text == ";":
			return j
		case depth == 0 && t.kind == 'w' && (t.text == "or" || t.text == "and" || t.text == "if" || t.text == "unless" || t.text == "while" || t.text == "until" || t.text == "foreach" || t.text == "for" || t.text == "xor"):
			return j
		}
	}
	return len(p.toks)
}

// evalExpr computes strings joined with . ; anything else is a hole.
func (p *plReader) evalExpr(ts []token) sval {
	if len(ts) == 0 {
		return unknownVal
	}
	if len(ts) == 1 && ts[0].kind == 'q' {
		return ts[0].val
	}
	if len(ts) >= 2 && ts[0].kind == 'o' && ts[0].text == "(" && ts[len(ts)-1].text == ")" {
		return p.evalExpr(ts[1 : len(ts)-1])
	}
	out := lit("")
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		var v sval
		switch {
		case t.kind == 's':
			v = t.val
		case t.kind == 'v' && strings.HasPrefix(t.text, "$"):
			v = unknownVal
			if k, ok := p.known[t.text]; ok {
				v = k
			}
		default:
			v = unknownVal
		}
		// An element, a method call or a call's arguments make the
		// operand a hole.
		for i+1 < len(ts) && (ts[i+1].text == "[" || ts[i+1].text == "{" || ts[i+1].text == "(" || ts[i+1].text == "->") {
			v = unknownVal
			if ts[i+1].text == "->" {
				i++
				continue
			}
			i = p.closeGroup(ts, i+1)
		}
		if i+1 < len(ts) && ts[i+1].kind == 'w' && t.text == "->" {
			i++
		}
		out = concat(out, v)
		if i+1 < len(ts) {
			if ts[i+1].kind != 'o' || ts[i+1].text != "." {
				return unknownVal
			}
			i++
		}
	}
	return out
}

// closeGroup returns the index of the bracket closing the one at i.
func (p *plReader) closeGroup(ts []token, i int) int {
	depth := 0
	for j := i; j < len(ts); j++ {
		switch ts[j].text {
		case "(", "[", "{":
			if ts[j].kind == 'o' {
				depth++
			}
		case ")", "]", "}":
			if ts[j].kind == 'o' {
				depth--
				if depth == 0 {
					return j
				}
			}
		}
	}
	return len(ts) - 1
}

// args splits the arguments after a builtin at index i: parenthesised, or
// up to the end of the statement.
func (p *plReader) args(i int) (*scall, int) {
	c := &scall{}
	if i >= len(p.toks) {
		return c, len(p.toks)
	}
	if i < len(p.toks) && p.toks[i].kind == 'o' && p.toks[i].text == "(" {
		end := p.stmtEnd(i + 1)
		p.split(c, p.toks[i+1:end])
		return c, end
	}
	end := p.stmtEnd(i)
	p.split(c, p.toks[i:end])
	return c, end
}

func (p *plReader) split(c *scall, ts []token) {
	depth, start := 0, 0
	flush := func(j int) {
		part := ts[start:j]
		start = j + 1
		if len(part) == 0 {
			return
		}
		if len(part) >= 1 && part[0].kind == 'v' && (strings.HasPrefix(part[0].text, "@") || strings.HasPrefix(part[0].text, "%")) && len(part) == 1 {
			c.spread = true
			return
		}
		if part[0].kind == 'o' && part[0].text == "{" {
			return // an options hash
		}
		if part[0].kind == 'w' && (part[0].text == "my" || part[0].text == "our" || part[0].text == "local") {
			part = part[1:]
		}
		c.args = append(c.args, p.evalExpr(part))
	}
	for j, t := range ts {
		switch {
		case t.kind == 'o' && (t.text == "(" || t.text == "[" || t.text == "{"):
			depth++
		case t.kind == 'o' && (t.text == ")" || t.text == "]" || t.text == "}"):
			depth--
		case depth == 0 && t.kind == 'o' && (t.text == "," || t.text == "=>"):
			flush(j)
		}
	}
	flush(len(ts))
}

// scan finds the builtins and quote-like commands among the tokens.
func (p *plReader) scan() {
	for i := 0; i < len(p.toks); i++ {
		t := p.toks[i]
		if t.kind == 'x' {
			p.r.add(shellEffect("`", t.val))
			continue
		}
		if t.kind != 'w' {
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(t.text, "CORE::GLOBAL::"), "CORE::")
		fn, ok := plTable().lookup(name)
		if !ok || name == "`" {
			continue
		}
		if i > 0 {
			if prev := p.toks[i-1]; prev.text == "->" || prev.text == "sub" || prev.text == "{" && i+1 < len(p.toks) && p.toks[i+1].text == "}" || prev.text == "use" || prev.text == "no" || prev.text == "qw" {
				continue
			}
		}
		if i+1 < len(p.toks) && (p.toks[i+1].text == "=>" || p.toks[i+1].text == "::") {
			continue
		}
		switch name {
		case "eval", "do":
			if i+1 < len(p.toks) && p.toks[i+1].text == "{" {
				continue // a block, not code in a string
			}
		case "require":
			if i+1 < len(p.toks) && p.toks[i+1].kind == 'w' {
				continue // a module by name
			}
		}
		var c *scall
		var prog *sval
		next := i + 1
		if (name == "system" || name == "exec") && next < len(p.toks) && p.toks[next].text == "{" {
			// exec {PROGRAM} LIST: the block names what runs.
			end := p.stmtEnd(next + 1)
			v := p.evalExpr(p.toks[next+1 : end])
			prog = &v
			next = end + 1
		}
		c, _ = p.args(next)
		c.api = name
		if prog != nil {
			if len(c.args) > 0 {
				c.args = c.args[1:]
			}
			c.args = append([]sval{*prog}, c.args...)
			e := argvEffect(name, c.args)
			if c.spread {
				e.Known = false
			}
			p.r.add(e)
			continue
		}
		if name == "unlink" || name == "rmdir" {
			if len(c.args) == 0 && !c.spread {
				c.args = []sval{unknownVal} // $_
			}
		}
		for _, e := range fn(c) {
			p.r.add(e)
		}
		if name == "eval" {
			if v := c.at(0); v.known && v.isStr() {
				if err := p.r.read("perl", v.s, "eval"); err != nil {
					p.r.add(Effect{Kind: "exec", API: "eval"})
				}
			}
		}
	}
}

// plCommand reads system and exec: one string is a shell line, more
// are an argv.
func plCommand(c *scall) []Effect {
	if len(c.args) == 0 {
		return unknownExec(c)
	}
	if len(c.args) == 1 && !c.spread {
		if c.args[0].isList {
			return []Effect{argvEffect(c.api, c.args[0].list)}
		}
		return []Effect{shellEffect(c.api, c.args[0])}
	}
	e := argvEffect(c.api, pathsOf(c.args))
	if c.spread {
		e.Known = false
	}
	return []Effect{e}
}

// plOpen reads open's two- and three-argument forms.
func plOpen(c *scall) []Effect {
	if len(c.args) < 2 {
		if c.spread || len(c.args) == 1 {
			return []Effect{{Kind: "exec", Shell: true, API: c.api}}
		}
		return nil
	}
	mode := c.args[1]
	if len(c.args) == 2 {
		m, known := mode.str()
		t := strings.TrimSpace(m)
		switch {
		case strings.HasPrefix(t, "|"):
			return []Effect{shellEffect(c.api, sval{s: strings.TrimSpace(t[1:]), known: known})}
		case strings.HasSuffix(t, "|"):
			return []Effect{shellEffect(c.api, sval{s: strings.TrimSpace(strings.TrimSuffix(t, "|")), known: known})}
		case !known && strings.HasPrefix(t, Hole):
			// A computed name may be a pipe.
			return []Effect{{Kind: "exec", Shell: true, Args: []string{m}, API: c.api}}
		case strings.HasPrefix(t, ">") || strings.HasPrefix(t, "+<") || strings.HasPrefix(t, "+>"):
			p := strings.TrimSpace(strings.TrimLeft(t, "+<>"))
			return []Effect{pathEffect(c, "write", sval{s: p, known: known})}
		case t == "-":
			return nil
		}
		p := strings.TrimSpace(strings.TrimPrefix(t, "<"))
		return []Effect{pathEffect(c, "read", sval{s: p, known: known})}
	}
	m, known := mode.str()
	if i := strings.IndexByte(m, ':'); i >= 0 {
		m = strings.TrimSpace(m[:i])
	}
	target := c.args[2]
	switch {
	case !known:
		e := pathEffect(c, "write", target)
		e.Known = false
		return []Effect{e}
	case m == "-|" || m == "|-":
		if len(c.args) == 3 && !c.spread {
			return []Effect{shellEffect(c.api, target)}
		}
		e := argvEffect(c.api, pathsOf(c.args[2:]))
		if c.spread {
			e.Known = false
		}
		return []Effect{e}
	case m == "<":
		return []Effect{pathEffect(c, "read", target)}
	case m == "+<":
		return []Effect{pathEffect(c, "read", target), pathEffect(c, "write", target)}
	}
	return []Effect{pathEffect(c, "write", target)}
}

// plEval reads eval STRING, do FILE and require EXPR.
func plEval(c *scall) []Effect {
	v := c.at(0)
	switch c.api {
	case "eval":
		if len(c.args) == 0 && !c.spread {
			return unknownExec(c) // eval with no argument evaluates $_
		}
		if v.known && v.isStr() {
			return nil
		}
	case "do":
		if v.known && v.isStr() {
			return []Effect{argvEffect(c.api, []sval{lit("perl"), v})}
		}
	case "require":
		if v.known || len(c.args) == 0 && !c.spread {
			return nil
		}
	}
	return unknownExec(c)
}
