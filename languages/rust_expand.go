package languages

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// rustCall is a macro call that is not an assertion; def is the file's
// macro it calls, when it is to be expanded.
type rustCall struct {
	inv, tt *sitter.Node
	macro   string
	def     *rustMacro
}

// rustItemPosition reports a call where an item may stand (in a file or a
// module), the only place a macro can write a test the harness finds.
func rustItemPosition(inv *sitter.Node) bool {
	p := inv.Parent()
	if p != nil && p.Type() == "expression_statement" {
		p = p.Parent()
	}
	return p != nil && (p.Type() == "source_file" || p.Type() == "declaration_list")
}

// rustTokenTest is a test found as text in an opaque macro body, such as
// proptest!'s: its code runs from its attribute to the next test's.
type rustTokenTest struct {
	name string
	line int
	span rangeSpan
	body string
}

// rustTokenTests finds the #[test]-like functions in a token tree.
func rustTokenTests(f *File, tt *sitter.Node) []*rustTokenTest {
	text := f.Text(tt)
	base := tt.StartByte()
	var out []*rustTokenTest
	// The lines are counted on from the test before: counted from the
	// start for each, many tests in one call were quadratic.
	line, counted := Line(tt), 0
	for _, m := range rustMacroTest().FindAllStringSubmatchIndex(text, -1) {
		if !rustIsTestAttr(text[m[2]:m[3]]) {
			continue
		}
		if len(out) > 0 {
			out[len(out)-1].span.end = base + uint32(m[0])
		}
		line += strings.Count(text[counted:m[4]], "\n")
		counted = m[4]
		out = append(out, &rustTokenTest{
			name: text[m[4]:m[5]],
			line: line,
			span: rangeSpan{base + uint32(m[4]), tt.EndByte()},
		})
	}
	for _, t := range out {
		t.body = bodyHash(f.Src, t.span.start, t.span.end, t.span.start, t.span.start+uint32(len(t.name)))
	}
	return out
}

// rustGenerated is a test a macro of the file wrote at a call.
type rustGenerated struct {
	name    string // within the call's expansion (mod::name)
	line    int
	skipped bool
	plat    []string
	body    string
	asserts int
	vacuous int
	note    string
	holder  *sitter.Node // the call
	span    rangeSpan    // where its assertions are credited
}

// rustCallPrefix names the module each call's expansion is wrapped in, so
// that one parse reads the expansions of every call of a file.
const rustCallPrefix = "sentinel_macro_call_"

// rustExpandCalls expands the calls, parses the expansions and reads the
// tests in them. A call that cannot be expanded stands for one test.
func rustExpandCalls(f *File, macros *rustMacros, calls []rustCall) []*rustGenerated {
	if len(calls) == 0 {
		return nil
	}
	var out []*rustGenerated
	var text strings.Builder
	origins := make([][]rustOrigin, len(calls))
	// One budget for the file: a call past it is counted as a call.
	x := &rustExpander{macros: macros, budget: rustExpandBudget}
	for i, cl := range calls {
		x.at = cl.inv.StartByte()
		toks, ok := x.expand(cl.def, rustTokens(f, cl.tt, true), 0)
		if !ok {
			out = append(out, rustUnexpanded(f, cl))
			continue
		}
		fmt.Fprintf(&text, "mod %s%d {\n", rustCallPrefix, i)
		var b strings.Builder
		render(toks, &b, &origins[i])
		for k := range origins[i] {
			origins[i][k].out += uint32(text.Len())
		}
		text.WriteString(b.String())
		text.WriteString("\n}\n")
	}
	if text.Len() == 0 {
		return out
	}
	sub, done := f.parseExpansion([]byte(text.String()))
	if sub == nil {
		return out
	}
	defer done()
	analyzeRustAt(sub, 1)
	sub.identify()
	for k, t := range sub.Result.Tests {
		idx, name, ok := strings.Cut(strings.TrimPrefix(t.Name, rustCallPrefix), "::")
		i, err := strconv.Atoi(idx)
		if !ok || err != nil || i < 0 || i >= len(calls) {
			continue
		}
		inv := calls[i].inv
		g := &rustGenerated{name: name, line: Line(inv), skipped: t.Status == Skipped, plat: t.Platforms, body: t.Body,
			asserts: t.Assertions, vacuous: t.Vacuous, holder: inv, span: rangeSpan{inv.StartByte(), inv.StartByte() + 1}}
		if len(sub.testNodes) == len(sub.Result.Tests) {
			// The test's name came from the call (itoa's test_u64_0): its
			// line is the name's, and its assertions are credited there.
			if o := origin(origins[i], sub.testNodes[k].StartByte()); o.call && int(o.at) < len(f.Src) {
				g.line = 1 + f.newlinesBefore(o.at)
				g.span = rangeSpan{o.at, o.at + 1}
			}
		}
		out = append(out, g)
	}
	return out
}

// rustUnexpanded is the one test a call stands for when its macro, which
// writes tests, cannot be expanded: named after the call's first
// identifier (often the test's name), or the macro's.
func rustUnexpanded(f *File, cl rustCall) *rustGenerated {
	name := cl.macro + "!"
	for i := 0; i < int(cl.tt.NamedChildCount()); i++ {
		if ch := cl.tt.NamedChild(i); ch.Type() == "identifier" {
			name = f.Text(ch)
			break
		}
	}
	return &rustGenerated{name: name, line: Line(cl.inv), holder: cl.inv,
		body: bodyHash(f.Src, cl.inv.StartByte(), cl.inv.EndByte(), 0, 0),
		span: rangeSpan{cl.inv.StartByte(), cl.inv.StartByte() + 1},
		note: fmt.Sprintf("a call of the file's macro %s! that could not be expanded, counted as one test", cl.macro)}
}

// parseExpansion parses an expansion as a file of its own, analysed with
// the same queries; done frees its tree.
func (f *File) parseExpansion(src []byte) (*File, func()) {
	sp := sitter.NewParser()
	sp.SetLanguage(f.q.lang)
	// An expansion is ordinary Rust a macro wrote; the bound keeps a
	// pathological one from holding the count up.
	sp.SetOperationLimit(int(DefaultParseTimeout.Microseconds()))
	tree, err := sp.ParseCtx(context.Background(), nil, src)
	if err != nil {
		sp.Close()
		return nil, nil
	}
	sub := &File{Path: f.Path, Src: src, Root: tree.RootNode(), Result: &Result{Language: f.Result.Language},
		Lang: f.Lang, q: f.q, cursor: f.cursor}
	return sub, func() {
		tree.Close()
		sp.Close()
	}
}

// addGenerated records a test a macro wrote, with the assertions it makes.
func (f *File) addGenerated(name string, g *rustGenerated, off bool, platforms []string) {
	f.addTestAt(Test{Name: name, Line: g.line, Status: statusOf(off || g.skipped), Body: g.body,
		Platforms: rustBothPlatforms(platforms, g.plat), Note: g.note}, g.holder, g.span)
	if off {
		return // code a cfg leaves out: its assertions never run
	}
	for range g.asserts {
		f.AssertAt(g.span.start, false)
	}
	for range g.vacuous {
		f.AssertAt(g.span.start, true)
	}
}

// rustBothPlatforms is where both lists of platforms hold: "a/b" for a
// platform of each.
func rustBothPlatforms(a, b []string) []string {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	var dnf [][]string
	for _, x := range a {
		for _, y := range b {
			dnf = append(dnf, append(strings.Split(x, "/"), strings.Split(y, "/")...))
		}
	}
	return rustPlat{kind: platSome, dnf: dnf}.names()
}

// addTestAt records a test whose name is no node of the tree (a test in a
// macro's tokens, or one a macro wrote): the node that holds it, and the
// span its assertions are credited in.
func (f *File) addTestAt(t Test, holder *sitter.Node, span rangeSpan) {
	if len(f.Result.Tests) >= maxTests {
		f.tooMany = true
		return
	}
	t.Name = cleanName(t.Name)
	t.span = span
	f.Result.Tests = append(f.Result.Tests, t)
	f.testNodes = append(f.testNodes, holder)
}

func statusOf(skipped bool) Status {
	if skipped {
		return Skipped
	}
	return Active
}
