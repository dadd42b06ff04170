package script

import (
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
