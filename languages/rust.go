package languages

import (
	"regexp"
	"sort"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/rust"
)

// Rust counts #[test] functions wherever they live, since unit tests sit
// beside the code, and assertions inside tests, #[cfg(test)] modules and
// the tests/ directory.
var Rust = &Language{
	Name:     "rust",
	Grammars: map[string]func() *sitter.Language{".rs": rust.GetLanguage},
	AllFiles: true,
	Markers:  []string{"test", "assert"},
	Queries: map[string]string{"main": `
		(function_item name: (identifier) @name) @fn
		(mod_item name: (identifier) @modname) @mod
		(macro_invocation macro: (_) @macro (token_tree) @tokens) @invocation
	`},
	Analyze: analyzeRust,
	Samples: []Sample{
		{Path: "src/lib.rs", Source: "pub fn add(a: i32) -> i32 { debug_assert!(a > 0); a }\n#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn it_adds() { assert_eq!(add(1), 1); assert!(true); }\n    #[test]\n    #[ignore = \"slow\"]\n    fn slow() { assert_ne!(1, 2) }\n    #[tokio::test]\n    async fn async_one() {}\n    #[rstest]\n    #[case(1)]\n    fn cases(#[case] x: i32) { prop_assert!(x > 0); }\n}\n",
			Tests: []string{"tests::it_adds active", "tests::slow skipped", "tests::async_one active", "tests::cases active"}, Assertions: 3, Vacuous: 1},
		{Path: "tests/integration.rs", Source: "fn helper() { assert!(check()); }\n#[test_case(1; \"one\")]\nfn tc(x: u8) { helper() }\nproptest! {\n    #[test]\n    fn prop(x in 0..10) { prop_assert!(x < 10); prop_assert_eq!(x, x); }\n}\n",
			Tests: []string{"tc active", "prop active"}, Assertions: 3},
		// Negative: not tests.
		{Path: "src/main.rs", Source: "#[cfg(test)]\nfn only_in_tests() {}\n#[derive(Debug)]\nstruct Test;\nfn test() { debug_assert!(true); }\n", Tests: nil},
	},
}

// rustMacroTest finds #[test]-like functions inside a macro body, which
// tree-sitter leaves as an opaque token tree. The expressions compile on
// first use, so that commands that count nothing (the commit-msg hook) do
// not pay for them at start-up.
var (
	rustMacroTest = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`#\[\s*((?:[A-Za-z_][A-Za-z0-9_]*\s*::\s*)*[A-Za-z_][A-Za-z0-9_]*)\s*(?:\([^\]]*\))?\s*\]\s*(?:(?:pub|async|unsafe|const|extern)\s+)*fn\s+([A-Za-z_][A-Za-z0-9_]*)`)
	})
	rustMacroAssert = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b((?:debug_|prop_)?assert(?:_eq|_ne)?)\s*!`)
	})
)

// rustAssertMacros are the assertion macros.
var rustAssertMacros = map[string]bool{
	"assert": true, "assert_eq": true, "assert_ne": true,
	"debug_assert": true, "debug_assert_eq": true, "debug_assert_ne": true,
	"prop_assert": true, "prop_assert_eq": true, "prop_assert_ne": true,
}

type rustRegion struct{ start, end uint32 }

func analyzeRust(f *File) {
	testDir := strings.HasPrefix(f.Path, "tests/") || strings.Contains(f.Path, "/tests/") ||
		strings.HasPrefix(f.Path, "benches/") || strings.Contains(f.Path, "/benches/")
	type mod struct {
		start, end uint32
		name       string
	}
	var mods []mod
	var regions []rustRegion // where assertions count
	type pending struct {
		name    string
		node    *sitter.Node
		start   uint32
		skipped bool
		fromTT  bool
		tokens  uint32 // start of the macro's token tree
	}
	var tests []pending
	var asserts []struct {
		at      uint32
		vacuous bool
	}
	f.Each("main", f.Root, func(c map[string]*sitter.Node) {
		switch {
		case c["fn"] != nil:
			fn := c["fn"]
			isTest, skipped := rustAttributes(f, fn)
			if isTest {
				tests = append(tests, pending{name: f.Text(c["name"]), node: c["name"], start: fn.StartByte(), skipped: skipped})
				regions = append(regions, rustRegion{fn.StartByte(), fn.EndByte()})
			}
		case c["mod"] != nil:
			m := c["mod"]
			mods = append(mods, mod{m.StartByte(), m.EndByte(), f.Text(c["modname"])})
			if rustCfgTest(f, m) {
				regions = append(regions, rustRegion{m.StartByte(), m.EndByte()})
			}
		case c["invocation"] != nil:
			inv, macro := c["invocation"], f.Text(c["macro"])
			if i := strings.LastIndex(macro, "::"); i >= 0 {
				macro = macro[i+2:]
			}
			if rustAssertMacros[macro] {
				asserts = append(asserts, struct {
					at      uint32
					vacuous bool
				}{inv.StartByte(), strings.TrimSpace(f.Text(c["tokens"])) == "(true)"})
				return
			}
			// Any other macro body is opaque: read it as text.
			tt := c["tokens"]
			body := f.Text(tt)
			for _, m := range rustMacroTest().FindAllStringSubmatchIndex(body, -1) {
				attr := body[m[2]:m[3]]
				if rustIsTestAttr(attr) {
					tests = append(tests, pending{name: body[m[4]:m[5]], node: tt, start: tt.StartByte() + uint32(m[4]), fromTT: true, tokens: tt.StartByte()})
					regions = append(regions, rustRegion{tt.StartByte(), tt.EndByte()})
				}
			}
			for _, m := range rustMacroAssert().FindAllStringIndex(body, -1) {
				asserts = append(asserts, struct {
					at      uint32
					vacuous bool
				}{tt.StartByte() + uint32(m[0]), false})
			}
		}
	})
	for _, a := range asserts {
		if testDir || rustInRegion(regions, a.at) {
			f.at = a.at
			f.Assert(a.vacuous)
		}
	}
	sort.SliceStable(tests, func(i, j int) bool { return tests[i].start < tests[j].start })
	for _, t := range tests {
		var path []string
		for _, m := range mods {
			if m.start < t.start && t.start < m.end {
				path = append(path, m.name)
			}
		}
		line := t.node
		if t.fromTT {
			// The line of the fn inside the token tree.
			n := strings.Count(string(f.Src[t.tokens:t.start]), "\n")
			f.Result.Tests = append(f.Result.Tests, Test{Name: strings.Join(append(path, t.name), "::"), Line: Line(line) + n, Status: Active})
			continue
		}
		f.AddTest(strings.Join(append(path, t.name), "::"), line, t.skipped)
	}
}

func rustInRegion(regions []rustRegion, at uint32) bool {
	for _, r := range regions {
		if r.start <= at && at < r.end {
			return true
		}
	}
	return false
}

// rustAttributes reads the attributes before a function: they are its
// preceding siblings in the tree, not its children.
func rustAttributes(f *File, fn *sitter.Node) (isTest, skipped bool) {
	for s := fn.PrevNamedSibling(); s != nil; s = s.PrevNamedSibling() {
		switch s.Type() {
		case "attribute_item":
		case "line_comment", "block_comment":
			continue
		default:
			return isTest, skipped
		}
		path := rustAttrPath(f, s)
		switch {
		case rustIsTestAttr(path):
			isTest = true
		case path == "ignore":
			skipped = true
		}
	}
	return isTest, skipped
}

// rustAttrPath returns the path of #[path(...)] or #[path = …].
func rustAttrPath(f *File, item *sitter.Node) string {
	text := strings.TrimSpace(f.Text(item))
	text = strings.TrimPrefix(text, "#")
	text = strings.TrimSpace(strings.TrimPrefix(strings.TrimSuffix(text, "]"), "["))
	if i := strings.IndexAny(text, "(= "); i >= 0 {
		text = text[:i]
	}
	return strings.ReplaceAll(text, " ", "")
}

// rustIsTestAttr: any attribute whose path ends in "test" (test,
// tokio::test, rstest, wasm_bindgen_test), and test_case.
func rustIsTestAttr(path string) bool {
	last := path
	if i := strings.LastIndex(path, "::"); i >= 0 {
		last = path[i+2:]
	}
	return strings.HasSuffix(last, "test") || last == "test_case"
}

// rustCfgTest reports a #[cfg(test)] before a module.
func rustCfgTest(f *File, m *sitter.Node) bool {
	for s := m.PrevNamedSibling(); s != nil && s.Type() == "attribute_item"; s = s.PrevNamedSibling() {
		if strings.ReplaceAll(f.Text(s), " ", "") == "#[cfg(test)]" {
			return true
		}
	}
	return false
}
