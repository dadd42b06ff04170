package script

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"
)

// Effect is one thing a script would do that the guard must check.
type Effect struct {
	// Kind is "exec" (runs a program), "remove" (deletes a path),
	// "read" (reads a file's contents), "write" (writes, creates or
	// truncates a file), "chmod" (changes a path's mode or owner) or
	// "rename" (moves a path).
	Kind string
	// Shell reports, for exec, that Args[0] is a shell command line.
	Shell bool
	// Args is, for exec, the argv (or the one shell string when Shell),
	// program first; otherwise the path(s): for rename, the source then
	// the destination.
	Args []string
	// Recursive reports the removal of a whole tree.
	Recursive bool
	// Known is false when an argument is not a literal the guard can
	// compute: the parts that could not be computed read Hole, and
	// Args is empty when not even their number is known.
	Known bool
	// API is the call, for explanations ("shutil.rmtree").
	API string
}

// Hole stands, inside an argument, for a part that is not a literal
// (a variable, a call, an f-string's hole).
const Hole = "…"

// String renders the effect compactly, for tests and logs: the kind, then
// -r (recursive), sh (shell line) and ? (not known), then the quoted
// arguments.
func (e Effect) String() string {
	var b strings.Builder
	b.WriteString(e.Kind)
	if e.Recursive {
		b.WriteString(" -r")
	}
	if e.Shell {
		b.WriteString(" sh")
	}
	if !e.Known {
		b.WriteString(" ?")
	}
	for _, a := range e.Args {
		b.WriteByte(' ')
		b.WriteString(strconv.Quote(a))
	}
	return b.String()
}

// ErrNeedsEngine is returned where reading the code needs a tree-sitter
// grammar, by the front binary that links none: the event is then handed,
// whole, to the engine binary, which reads it.
var ErrNeedsEngine = errors.New("reading this code needs sentinel's engine")

// ErrSyntax is returned, with the effects found in what could be
// read, for code the grammar or lexer could not read whole.
var ErrSyntax = errors.New("the code does not parse")

// MaxSize bounds the code Effects reads; longer code is an
// error, which the guard turns into a question.
const MaxSize = 1 << 20

// maxScriptDepth bounds how deep eval("…") of literal code is followed.
const maxScriptDepth = 6

// scriptParseTimeout bounds one tree-sitter parse: a grammar that loops
// on some input must not hang the hook.
const scriptParseTimeout = 250 * time.Millisecond

// Effects parses src in lang ("python", "javascript", "typescript",
// "ruby", "php", "perl", "awk") and lists its effects. An error means it
// could not read the code whole: the effects found in what it could read
// come with it, and the guard then asks or denies.
func Effects(lang, src string) ([]Effect, error) {
	r := &scriptRun{}
	defer r.close()
	err := r.read(lang, src, "")
	if r.needsEngine {
		return r.out, ErrNeedsEngine
	}
	return r.out, err
}

// scriptRun is one Effects call: its parsers, reused by the code
// that eval of a literal string brings in, and the effects found.
type scriptRun struct {
	parsers scriptParsers
	// needsEngine records that some code went unread for want of a
	// grammar, whatever a reader made of the error.
	needsEngine bool
	out         []Effect
	depth       int
}

func (r *scriptRun) close() {
	r.parsers.close()
}

// parse parses src with the named grammar ("javascript", "typescript",
// "python", "ruby", "php") and copies the tree; hasError reports ERROR or
// MISSING nodes. In the front binary, which links no grammar, it returns
// ErrNeedsEngine.
func (r *scriptRun) parse(grammar string, src []byte) (root *tnode, hasError bool, err error) {
	root, hasError, err = r.parsers.parse(grammar, src)
	if errors.Is(err, ErrNeedsEngine) {
		r.needsEngine = true
	}
	return root, hasError, err
}

// read analyses src in lang, one level deeper; via names the eval that
// brought it in, "" at the top.
func (r *scriptRun) read(lang, src, via string) error {
	if r.depth >= maxScriptDepth {
		r.add(Effect{Kind: "exec", API: via})
		return fmt.Errorf("code evaluated more than %d levels deep", maxScriptDepth)
	}
	if len(src) > MaxSize {
		return fmt.Errorf("%d bytes of %s code: more than %d", len(src), lang, MaxSize)
	}
	r.depth++
	defer func() { r.depth-- }()
	switch lang {
	case "python", "python3":
		if !scriptMentions(src, pyMarkers) {
			return nil
		}
		return readPython(r, src)
	case "javascript", "js", "node", "typescript", "ts":
		if !scriptMentions(src, jsMarkers) {
			return nil
		}
		return readJS(r, src, lang == "typescript" || lang == "ts")
	case "ruby":
		if !scriptMentions(src, rbMarkers) {
			return nil
		}
		return readRuby(r, src)
	case "php":
		if !scriptMentions(strings.ToLower(src), phpMarkers) {
			return nil
		}
		return readPHP(r, src)
	case "perl":
		if !scriptMentions(src, plMarkers) {
			return nil
		}
		return readPerl(r, src)
	case "awk":
		return readAwk(r, src)
	}
	return fmt.Errorf("no reader for %q code", lang)
}

// scriptMentions is the prefilter: code that holds none of a language's
// markers (the names of the calls it looks for, and any byte outside
// ASCII, which could spell one) is not parsed at all.
func scriptMentions(src string, markers []string) bool {
	for i := 0; i < len(src); i++ {
		if src[i] >= 0x80 {
			return true
		}
	}
	for _, m := range markers {
		if strings.Contains(src, m) {
			return true
		}
	}
	return false
}

// add records an effect once.
func (r *scriptRun) add(e Effect) {
	for _, o := range r.out {
		if o.Kind == e.Kind && o.Shell == e.Shell && o.Recursive == e.Recursive && o.Known == e.Known && o.API == e.API && slicesEqual(o.Args, e.Args) {
			return
		}
	}
	r.out = append(r.out, e)
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// tnode is a tree-sitter node copied into Go once, so that the readers
// walk it without a cgo call per step.
type tnode struct {
	typ        string
	field      string
	named      bool
	start, end uint32
	kids       []*tnode
	parent     *tnode
}

// child returns the first child in the field, or nil.
func (n *tnode) child(field string) *tnode {
	if n == nil {
		return nil
	}
	for _, k := range n.kids {
		if k.field == field {
			return k
		}
	}
	return nil
}

// namedKids returns the named children.
func (n *tnode) namedKids() []*tnode {
	if n == nil {
		return nil
	}
	var out []*tnode
	for _, k := range n.kids {
		if k.named {
			out = append(out, k)
		}
	}
	return out
}

// walk calls fn on n and every node below it, depth first.
func (n *tnode) walk(fn func(*tnode)) {
	if n == nil {
		return
	}
	stack := []*tnode{n}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		fn(x)
		for i := len(x.kids) - 1; i >= 0; i-- {
			stack = append(stack, x.kids[i])
		}
	}
}

// sval is what a reader computes for an expression.
type sval struct {
	// s is the string, with Hole for the parts not known.
	s string
	// known reports a string wholly computed from literals.
	known bool
	// list holds the elements of a list, tuple or array when isList.
	list   []sval
	isList bool
	// ref names what the value is: a module ("os"), a function
	// ("os.system"), or with s an object such as a path ("pathlib.Path").
	ref string
	// words marks a command line split into words (shlex.split,
	// Shellwords): an argv made of it is read as the shell line it was.
	words bool
	// truth is 1 for a true literal, -1 for a false one, 0 otherwise.
	truth int
	// obj holds an object literal's or a hash's fields, by key.
	obj map[string]sval
}

func lit(s string) sval { return sval{s: s, known: true} }

var unknownVal = sval{s: Hole}

func listVal(items []sval) sval { return sval{isList: true, list: items} }

// isStr reports a plain string value.
func (v sval) isStr() bool { return !v.isList && v.ref == "" && v.obj == nil && v.truth == 0 }

// str returns the value as an argument string, Hole when it is not
// a string.
func (v sval) str() (string, bool) {
	if v.isStr() {
		return v.s, v.known
	}
	return Hole, false
}

// concat joins two values as strings.
func concat(a, b sval) sval {
	as, ak := a.str()
	bs, bk := b.str()
	return sval{s: as + bs, known: ak && bk}
}

// joinVals joins a list with a separator (" ".join, [].join, implode).
func joinVals(list sval, sep sval) sval {
	if !list.isList {
		return unknownVal
	}
	ss, sk := sep.str()
	out := sval{known: sk}
	for i, e := range list.list {
		if i > 0 {
			out.s += ss
		}
		es, ek := e.str()
		out.s += es
		out.known = out.known && ek
	}
	return out
}

// pathJoin joins path parts the way os.path.join and path.join do: an
// absolute part restarts the path.
func pathJoin(parts []sval) sval {
	out := sval{known: true}
	for _, p := range parts {
		ps, pk := p.str()
		out.known = out.known && pk
		switch {
		case strings.HasPrefix(ps, "/"):
			out.s = ps
		case out.s == "":
			out.s = ps
		case strings.HasSuffix(out.s, "/"):
			out.s += ps
		default:
			out.s += "/" + ps
		}
	}
	if out.known && out.s != "" {
		out.s = path.Clean(out.s)
	}
	return out
}

// scall is one call a reader resolved to an API of its table.
type scall struct {
	api string
	// recv is the object of a method call on a value (a path object).
	recv sval
	// args are the positional arguments; kw the named ones.
	args []sval
	kw   map[string]sval
	// texts are the positional arguments' source, for flags the value
	// model does not compute (os.O_WRONLY).
	texts []string
	// spread reports *args, **kw or ...rest: arguments not all seen.
	spread bool
}

// arg returns the i-th positional argument, or the named one, and whether
// the call has it; a spread call may have it unseen.
func (c *scall) arg(i int, name string) (sval, bool) {
	if i >= 0 && i < len(c.args) {
		return c.args[i], true
	}
	if name != "" {
		if v, ok := c.kw[name]; ok {
			return v, true
		}
	}
	if c.spread {
		return unknownVal, true
	}
	return sval{}, false
}

// at returns the i-th argument, unknown when it is missing.
func (c *scall) at(i int) sval {
	v, ok := c.arg(i, "")
	if !ok {
		return unknownVal
	}
	return v
}

// effectFn turns a resolved call into effects.
type effectFn func(c *scall) []Effect

// pathEffect builds a path effect from values.
func pathEffect(c *scall, kind string, vals ...sval) Effect {
	e := Effect{Kind: kind, Known: true, API: c.api}
	for _, v := range vals {
		s, k := v.str()
		e.Args = append(e.Args, s)
		e.Known = e.Known && k
	}
	return e
}

// pathsOf flattens values that may be lists of paths (FileUtils.rm(list),
// unlink LIST).
func pathsOf(vals []sval) []sval {
	var out []sval
	for _, v := range vals {
		if v.isList {
			out = append(out, v.list...)
		} else {
			out = append(out, v)
		}
	}
	return out
}

// pathAt is an effect on the path in argument i (or the named one).
func pathAt(kind string, i int, name string) effectFn {
	return func(c *scall) []Effect {
		v, ok := c.arg(i, name)
		if !ok {
			v = unknownVal
		}
		return []Effect{pathEffect(c, kind, v)}
	}
}

// removeAt removes the path in argument i; recursive for a tree.
func removeAt(i int, name string, recursive bool) effectFn {
	return func(c *scall) []Effect {
		e := pathAt("remove", i, name)(c)
		e[0].Recursive = recursive
		return e
	}
}

// eachPath is an effect on every argument from i on, lists flattened.
func eachPath(kind string, i int, recursive bool) effectFn {
	return func(c *scall) []Effect {
		var vals []sval
		if i < len(c.args) {
			vals = pathsOf(c.args[i:])
		}
		if c.spread || len(vals) == 0 {
			vals = append(vals, unknownVal)
		}
		var out []Effect
		for _, v := range vals {
			e := pathEffect(c, kind, v)
			e.Recursive = recursive
			out = append(out, e)
		}
		return out
	}
}

// recvPath is an effect on the receiver, a path object (Path(p).unlink()).
func recvPath(kind string, recursive bool) effectFn {
	return func(c *scall) []Effect {
		e := pathEffect(c, kind, sval{s: c.recv.s, known: c.recv.known})
		e.Recursive = recursive
		return []Effect{e}
	}
}

// copyFrom reads argument i and writes argument j (a copy).
func copyFrom(i, j int) effectFn {
	return func(c *scall) []Effect {
		return []Effect{pathEffect(c, "read", c.at(i)), pathEffect(c, "write", c.at(j))}
	}
}

// renameFrom moves argument i to argument j.
func renameFrom(i, j int) effectFn {
	return func(c *scall) []Effect {
		return []Effect{pathEffect(c, "rename", c.at(i), c.at(j))}
	}
}

// shellAt runs argument i (or the named one) as a shell command line.
func shellAt(i int, name string) effectFn {
	return func(c *scall) []Effect {
		v, ok := c.arg(i, name)
		if !ok {
			v = unknownVal
		}
		return []Effect{shellEffect(c.api, v)}
	}
}

func shellEffect(api string, v sval) Effect {
	if v.isList {
		return argvEffect(api, v.list)
	}
	s, k := v.str()
	return Effect{Kind: "exec", Shell: true, Args: []string{s}, Known: k, API: api}
}

// argvEffect runs the values as an argv.
func argvEffect(api string, vals []sval) Effect {
	if len(vals) == 1 && vals[0].isList {
		vals = vals[0].list
	}
	e := Effect{Kind: "exec", Known: len(vals) > 0, API: api}
	for _, v := range vals {
		if v.isList {
			// A list inside the argv (Ruby's [cmd, argv0]) or a
			// spread: the first element is what runs.
			if len(v.list) == 0 {
				e.Known = false
				continue
			}
			v = v.list[0]
		}
		if v.words {
			// shlex.split(line): the line, read as a shell would.
			return Effect{Kind: "exec", Shell: true, Args: []string{v.s}, Known: v.known, API: api}
		}
		s, k := v.str()
		e.Args = append(e.Args, s)
		e.Known = e.Known && k
	}
	return e
}

// argvAt runs argument i as an argv: a list, or one string naming the
// program alone.
func argvAt(i int, name string) effectFn {
	return func(c *scall) []Effect {
		v, ok := c.arg(i, name)
		if !ok {
			v = unknownVal
		}
		if v.isList || v.words {
			return []Effect{argvEffect(c.api, []sval{v})}
		}
		if v.isStr() && v.known {
			return []Effect{argvEffect(c.api, []sval{v})}
		}
		return []Effect{{Kind: "exec", API: c.api}}
	}
}

// argvRest runs the arguments from i on as an argv, lists flattened.
func argvRest(i int) effectFn {
	return func(c *scall) []Effect {
		var vals []sval
		if i < len(c.args) {
			vals = append(vals, c.args[i:]...)
		}
		if len(vals) == 0 {
			return []Effect{{Kind: "exec", API: c.api}}
		}
		e := argvEffect(c.api, pathsOf(vals))
		if c.spread {
			e.Known = false
		}
		return []Effect{e}
	}
}

// unknownExec runs something the guard cannot compute.
func unknownExec(c *scall) []Effect {
	return []Effect{{Kind: "exec", API: c.api}}
}

// splitAPI returns the part of an API name before the last dot and after.
func splitAPI(api string) (string, string) {
	if i := strings.LastIndexByte(api, '.'); i >= 0 {
		return api[:i], api[i+1:]
	}
	return "", api
}

// isASCIIIdent reports a name made of ASCII letters, digits and _ and $.
func isASCIIIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// scriptSample is a piece of code and the effects it must yield, as
// Effect.String renders them, in order; none for a negative sample.
type scriptSample struct {
	src  string
	want []string
}

// scriptRule maps APIs to what calling them does, and carries its samples.
type scriptRule struct {
	// apis are the canonical names; "ctypes.*" matches every name below.
	apis    []string
	fn      effectFn
	samples []scriptSample
}

// apiTable finds a rule by API name.
type apiTable struct {
	exact  map[string]effectFn
	prefix map[string]effectFn
}

func scriptTable(rules []scriptRule) *apiTable {
	t := &apiTable{exact: map[string]effectFn{}, prefix: map[string]effectFn{}}
	for _, r := range rules {
		for _, a := range r.apis {
			if p, ok := strings.CutSuffix(a, ".*"); ok {
				t.prefix[p] = r.fn
			} else {
				t.exact[a] = r.fn
			}
		}
	}
	return t
}

func (t *apiTable) lookup(api string) (effectFn, bool) {
	if fn, ok := t.exact[api]; ok {
		return fn, true
	}
	for i := strings.IndexByte(api, '.'); i > 0; {
		if fn, ok := t.prefix[api[:i]]; ok {
			return fn, true
		}
		j := strings.IndexByte(api[i+1:], '.')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return nil, false
}
