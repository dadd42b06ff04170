package languages

import (
	"regexp"
	"slices"
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
		(macro_definition) @macrodef
		(macro_invocation macro: (_) @macro (token_tree) @tokens) @invocation
		(if_expression) @if
		(return_expression) @return
		(binary_expression operator: ["&&" "||"]) @logic
	`},
	Analyze: analyzeRust,
	Settle:  settleRust,
	Samples: []Sample{
		{Path: "src/lib.rs", Source: "pub fn add(a: i32) -> i32 { debug_assert!(a > 0); a }\n#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn it_adds() { assert_eq!(add(1), 1); assert!(true); }\n    #[test]\n    #[ignore = \"slow\"]\n    fn slow() { assert_ne!(add(1), 2) }\n    #[tokio::test]\n    async fn async_one() {}\n    #[rstest]\n    #[case(1)]\n    fn cases(#[case] x: i32) { prop_assert!(x > 0); }\n}\n",
			Tests: []string{"tests::it_adds active", "tests::slow skipped", "tests::async_one active", "tests::cases active"}, Assertions: 3, Vacuous: 1},
		{Path: "tests/integration.rs", Source: "fn helper() { assert!(check()); }\n#[test_case(1; \"one\")]\nfn tc(x: u8) { helper() }\nproptest! {\n    #[test]\n    fn prop(x in 0..10) { prop_assert!(x < 10); prop_assert_eq!(x, x); }\n}\n",
			Tests: []string{"tc active", "prop active"}, Assertions: 3},
		// Switched off: a return first (or an if that returns), a cfg
		// that never holds on the test or a module around it, a
		// cfg_attr(P, ignore) where P always holds. What they hold is dead.
		{Path: "src/lib.rs", Source: "#[cfg(test)]\nmod tests {\n" +
			"    #[test]\n    fn returns() {\n        return;\n        assert_eq!(f(), 1);\n    }\n" +
			"    #[test]\n    fn if_true_returns() {\n        // A comment first.\n        if true && !false { return; }\n        assert!(f());\n    }\n" +
			"    #[test]\n    fn cfg_returns() { if cfg!(test) { return } }\n" +
			"    #[test]\n    fn returns_ok() -> Result<(), String> { return Ok(()); }\n" +
			"    #[cfg(any())]\n    #[test]\n    fn never() { assert!(f()); }\n" +
			"    #[cfg(not(test))]\n    #[test]\n    fn not_test() {}\n" +
			"    #[test]\n    #[cfg(all(test, not(test)))]\n    fn contradiction() {}\n" +
			"    #[cfg_attr(test, ignore)]\n    #[test]\n    fn attr_ignored() {}\n" +
			"    #[cfg(false)]\n    #[test]\n    fn cfg_false() {}\n" +
			"    #[cfg(any())]\n    mod never {\n        #[test]\n        fn inside() { assert!(f()); }\n    }\n" +
			"    mod inner_off {\n        #![cfg(not(test))]\n        #[test]\n        fn inside() {}\n    }\n}\n",
			Tests: []string{"tests::returns skipped", "tests::if_true_returns skipped", "tests::cfg_returns skipped", "tests::returns_ok skipped",
				"tests::never skipped", "tests::not_test skipped", "tests::contradiction skipped", "tests::attr_ignored skipped", "tests::cfg_false skipped",
				"tests::never::inside skipped", "tests::inner_off::inside skipped"}},
		{Path: "tests/off.rs", Source: "#![cfg(any())]\n#[test]\nfn a() { assert!(f()); }\n", Tests: []string{"a skipped"}},
		// Negative: cfgs that depend on the build, a return after work or
		// under a real condition, a returned value that is computed.
		{Path: "src/lib.rs", Source: "#[cfg(test)]\nmod tests {\n" +
			"    #[test]\n    #[cfg(target_os = \"windows\")]\n    fn windows_only() { assert!(f()); }\n" +
			"    #[cfg(feature = \"slow\")]\n    #[test]\n    fn feature() {}\n" +
			"    #[cfg(any(test, feature = \"x\"))]\n    #[test]\n    fn any_test() {}\n" +
			"    #[cfg_attr(not(test), ignore)]\n    #[test]\n    fn attr_never() {}\n" +
			"    #[cfg_attr(windows, ignore)]\n    #[test]\n    fn attr_windows() {}\n" +
			"    #[test]\n    fn late_return() {\n        setup();\n        return;\n        assert!(f());\n    }\n" +
			"    #[test]\n    fn branch_return() {\n        if std::env::var(\"X\").is_err() { return; }\n        assert!(f());\n    }\n" +
			"    #[test]\n    fn returns_value() -> Result<(), String> { return check(); }\n" +
			"    #[test]\n    fn if_false() {\n        if false { return; }\n        assert_eq!(f(), 1);\n    }\n" +
			"    #[test]\n    fn empty() {}\n}\n",
			Tests: []string{"tests::windows_only active [windows]", "tests::feature active", "tests::any_test active", "tests::attr_never active",
				"tests::attr_windows active", "tests::late_return active", "tests::branch_return active", "tests::returns_value active",
				"tests::if_false active", "tests::empty active"}, Assertions: 3},
		// Switched off in other words: an ignore on every real platform,
		// a cfg only rustdoc sets, and a named constant that is true.
		{Path: "src/lib.rs", Source: "const QUARANTINE: bool = true;\n#[cfg(test)]\nmod tests {\n    use super::*;\n" +
			"    const OFF: bool = !false;\n" +
			"    #[cfg_attr(any(unix, windows), ignore)]\n    #[test]\n    fn every_platform() { assert!(f()); }\n" +
			"    #[cfg_attr(any(windows, not(windows)), ignore)]\n    #[test]\n    fn either_way() {}\n" +
			"    #[cfg(doc)]\n    #[test]\n    fn doc_only() {}\n" +
			"    #[cfg(doctest)]\n    mod docs {\n        #[test]\n        fn inside() {}\n    }\n" +
			"    #[test]\n    fn quarantined() {\n        if QUARANTINE { return; }\n        assert!(f());\n    }\n" +
			"    #[test]\n    fn off() {\n        if OFF && true { return }\n    }\n}\n",
			Tests: []string{"tests::every_platform skipped", "tests::either_way skipped", "tests::doc_only skipped",
				"tests::docs::inside skipped", "tests::quarantined skipped", "tests::off skipped"}, Assertions: 1},
		// Negative: an ignore on some platforms only, a cfg rustdoc leaves
		// out, a constant that is false, one with two values, a variable.
		{Path: "src/lib.rs", Source: "const ON: bool = false;\nstatic S: bool = true;\nmod a { pub const TWICE: bool = true; }\nmod b { pub const TWICE: bool = false; }\n#[cfg(test)]\nmod tests {\n" +
			"    #[cfg_attr(any(unix, target_os = \"macos\"), ignore)]\n    #[test]\n    fn unix_only() {}\n" +
			"    #[cfg(not(doc))]\n    #[test]\n    fn not_doc() {}\n" +
			"    #[test]\n    fn on() {\n        if ON { return; }\n        assert!(f());\n    }\n" +
			"    #[test]\n    fn twice() {\n        if TWICE { return; }\n    }\n" +
			"    #[test]\n    fn static_() {\n        if S { return; }\n    }\n" +
			"    #[test]\n    fn local() {\n        let skip = true;\n        if skip { return; }\n    }\n}\n",
			Tests: []string{"tests::unix_only active", "tests::not_doc active", "tests::on active", "tests::twice active", "tests::static_ active", "tests::local active"}, Assertions: 1},
		// Dead and vacuous assertions; one that always fails counts.
		{Path: "tests/v.rs", Source: "#[test]\nfn v() {\n" +
			"    if false { assert!(f()); }\n    if 1 == 2 { assert!(f()); } else { assert!(g()); }\n" +
			"    let _ = false && { assert!(f()); true };\n    if cfg!(not(test)) { assert!(f()); }\n" +
			"    assert_eq!(-3, -3);\n    assert!(true);\n    assert_ne!(1, 2);\n    debug_assert!(true);\n    assert!(1 == 1, \"msg\");\n" +
			"    assert_eq!(\"a\", \"a\");\n    assert!(!false);\n    assert_eq!(2.0f64, 2.0);\n    prop_assert_eq!(1u8, 1);\n" +
			"    assert!(false, \"unreachable\");\n    assert_eq!(0, 1);\n    assert_eq!(x, 3);\n    assert!(x == 1);\n" +
			"    assert_eq!(vec![1], vec![1]);\n    assert!(cfg!(test));\n}\n",
			Tests: []string{"v active"}, Assertions: 7, Vacuous: 9},
		// A test's name starts with the module path its file's place in
		// the crate gives, as cargo test -- --list prints it; an
		// integration test's crate is its file.
		{Path: "src/simd/avx2.rs", Source: "#[test]\nfn a() {}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn b() {}\n}\n",
			Tests: []string{"simd::avx2::a active", "simd::avx2::tests::b active"}},
		{Path: "src/parse/mod.rs", Source: "#[test]\nfn a() {}\n", Tests: []string{"parse::a active"}},
		{Path: "src/bin/tool.rs", Source: "#[test]\nfn a() {}\n", Tests: []string{"a active"}},
		{Path: "crates/x/src/bin/tool/util.rs", Source: "#[test]\nfn a() {}\n", Tests: []string{"util::a active"}},
		{Path: "tests/common/mod.rs", Source: "#[test]\nfn a() {}\n", Tests: []string{"common::a active"}},
		{Path: "tests/it/main.rs", Source: "#[test]\nfn a() {}\n", Tests: []string{"a active"}},
		{Path: "examples/demo/src/main.rs", Source: "#[test]\nfn a() {}\n", Tests: []string{"a active"}},
		// Tests for some platforms stay active, and name them.
		{Path: "src/lib.rs", Source: "#[cfg(test)]\nmod tests {\n" +
			"    #[cfg(target_arch = \"x86_64\")]\n    #[test]\n    fn arch() {}\n" +
			"    #[test]\n    #[cfg(not(windows))]\n    fn not_windows() {}\n" +
			"    #[test]\n    #[cfg(all(unix, target_arch = \"aarch64\"))]\n    fn both() {}\n" +
			"    #[test]\n    #[cfg(any(target_os = \"linux\", target_os = \"macos\"))]\n    fn either() {}\n" +
			"    #[test]\n    #[cfg(any(feature = \"x\", windows))]\n    fn feature_or_windows() {}\n" +
			"    #[test]\n    #[cfg(not(any(windows, target_family = \"wasm\")))]\n    fn neither() {}\n" +
			"    #[cfg(windows)]\n    mod win {\n        #[test]\n        #[cfg(target_arch = \"x86\")]\n        fn a() {}\n    }\n}\n",
			Tests: []string{"tests::arch active [x86_64]", "tests::not_windows active [!windows]", "tests::both active [aarch64/unix]",
				"tests::either active [linux macos]", "tests::feature_or_windows active", "tests::neither active [!wasm/!windows]",
				"tests::win::a active [windows/x86]"}},
		{Path: "tests/unix.rs", Source: "#![cfg(unix)]\n#[test]\nfn a() {}\n", Tests: []string{"a active [unix]"}},
		// Tests a macro_rules! macro of the file writes, expanded at each
		// call: itoa's test! repeats a #[test] fn per name; httparse's
		// req! calls itself with a default, and its tests hold the
		// call's assertions as well as the macro's.
		{Path: "tests/test.rs", Source: "macro_rules! test {\n" +
			"    ($($name:ident($value:expr, $expected:expr))*) => {\n        $(\n            #[test]\n" +
			"            fn $name() {\n                let mut buffer = itoa::Buffer::new();\n" +
			"                assert_eq!(buffer.format($value), $expected);\n            }\n        )*\n    }\n}\n\n" +
			"test! {\n    test_u64_0(0u64, \"0\")\n    test_i16_min(i16::min_value(), \"-32768\")\n}\n",
			Tests: []string{"test_u64_0 active", "test_i16_min active"}, Assertions: 2},
		{Path: "src/lib.rs", Source: "#[cfg(test)]\nmod tests {\n" +
			"    macro_rules! req {\n" +
			"        ($name:ident, $buf:expr, |$arg:ident| $body:expr) => (\n" +
			"            req! {$name, $buf, Ok(Status::Complete($buf.len())), |$arg| $body }\n        );\n" +
			"        ($name:ident, $buf:expr, $len:expr, |$arg:ident| $body:expr) => (\n" +
			"        #[test]\n        fn $name() {\n            let status = parse($buf.as_ref());\n            assert_eq!(status, $len);\n" +
			"            closure(status);\n            fn closure($arg: Request) {\n                $body\n            }\n        }\n        )\n    }\n" +
			"    req! {\n        test_simple,\n        b\"GET / HTTP/1.1\\r\\n\\r\\n\",\n        |req| {\n" +
			"            assert_eq!(req.method.unwrap(), \"GET\");\n            assert_eq!(req.path.unwrap(), \"/\");\n        }\n    }\n" +
			"    req! {\n        test_err,\n        b\"GET\\n\",\n        Err(Error::Token),\n        |_r| {}\n    }\n" +
			"    macro_rules! off {\n        ($name:ident) => {\n            #[test]\n            #[ignore]\n            fn $name() { assert!(check()); }\n        };\n    }\n" +
			"    off!(ignored_one);\n" +
			"    req! { 42 }\n}\n",
			Tests: []string{"tests::test_simple active", "tests::test_err active", "tests::ignored_one skipped", "tests::req! active"}, Assertions: 5},
		{Path: "tests/t.rs", Source: "macro_rules! suite {\n    ($m:ident: $($t:ident),+) => {\n        mod $m {\n" +
			"            $( #[test] fn $t() { assert!(super::ok()); } )+\n        }\n    };\n}\nsuite!(parsing: a, b);\n",
			Tests: []string{"parsing::a active", "parsing::b active"}, Assertions: 2},
		// A call whose expansion never ends (each call doubles its tokens)
		// runs out of budget: it stands for one test, named after its
		// first identifier, with a note.
		{Path: "tests/boom.rs", Source: "macro_rules! boom {\n    () => { #[test] fn z() {} };\n" +
			"    ($($x:tt)*) => { boom!($($x)* $($x)*); };\n}\nboom!(a b);\n",
			Tests: []string{"a active"}},
		// Negative: a macro of the file that writes no test, and a call in
		// a function's body, where no test can be.
		{Path: "src/lib.rs", Source: "macro_rules! check {\n    ($x:expr) => { assert!($x) };\n}\n" +
			"macro_rules! t {\n    ($n:ident) => { #[test] fn $n() {} };\n}\nfn f() {\n    check!(g());\n    t!(inner);\n}\n",
			Tests: nil},
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

// rustAnalysis is what one pass of the query over a Rust file collects.
type rustAnalysis struct {
	f                   *File
	ifs, returns, logic []*sitter.Node
	dead                deadSpans
}

type rustAssert struct {
	at      uint32
	vacuous bool
}

func analyzeRust(f *File) {
	analyzeRustAt(f, 0)
}

// analyzeRustAt analyses a file, or at depth 1 the expansions of its
// macros' calls, which are not expanded again.
func analyzeRustAt(f *File, depth int) {
	testDir := strings.HasPrefix(f.Path, "tests/") || strings.Contains(f.Path, "/tests/") ||
		strings.HasPrefix(f.Path, "benches/") || strings.Contains(f.Path, "/benches/")
	type mod struct {
		start, end uint32
		name       string
		off        bool // under a cfg that never holds
		plat       rustPlat
	}
	var mods []mod
	var regions []rangeSpan // where assertions count
	type pending struct {
		name    string
		node    *sitter.Node
		body    *sitter.Node
		code    *sitter.Node // the function
		start   uint32
		skipped bool
		plat    rustPlat
		// inTokens is a test found in a macro's tokens: its holder, span
		// and body hash; gen one that a macro of the file wrote.
		inTokens *rustTokenTest
		gen      *rustGenerated
	}
	var tests []pending
	var asserts []rustAssert
	var defs []*sitter.Node
	var calls []rustCall
	r := &rustAnalysis{f: f}
	// #![cfg(…)] at the top of a file leaves the whole file out, or
	// builds it for some platforms.
	fileOff := rustInnerCfgOff(f, f.Root)
	filePlat := rustItemPlatforms(f, nil, f.Root)
	f.Each("main", f.Root, func(c map[string]*sitter.Node) {
		switch {
		case c["fn"] != nil:
			fn := c["fn"]
			isTest, skipped, off := rustAttributes(f, fn)
			if off {
				r.dead.add(fn)
			}
			if isTest {
				tests = append(tests, pending{name: f.Text(c["name"]), node: c["name"], body: fn.ChildByFieldName("body"), code: fn,
					start: fn.StartByte(), skipped: skipped || off, plat: rustItemPlatforms(f, fn, nil)})
				regions = append(regions, rangeSpan{fn.StartByte(), fn.EndByte()})
			}
		case c["mod"] != nil:
			m := c["mod"]
			off := rustModOff(f, m)
			if off {
				r.dead.add(m)
			}
			mods = append(mods, mod{m.StartByte(), m.EndByte(), f.Text(c["modname"]), off, rustItemPlatforms(f, m, m.ChildByFieldName("body"))})
			if rustCfgTest(f, m) {
				regions = append(regions, rangeSpan{m.StartByte(), m.EndByte()})
			}
		case c["macrodef"] != nil:
			defs = append(defs, c["macrodef"])
		case c["invocation"] != nil:
			inv, macro := c["invocation"], f.Text(c["macro"])
			if i := strings.LastIndex(macro, "::"); i >= 0 {
				macro = macro[i+2:]
			}
			if rustAssertMacros[macro] {
				asserts = append(asserts, rustAssert{inv.StartByte(), rustVacuous(f, macro, c["tokens"])})
				return
			}
			calls = append(calls, rustCall{inv: inv, tt: c["tokens"], macro: macro})
		case c["if"] != nil:
			r.ifs = append(r.ifs, c["if"])
		case c["return"] != nil:
			r.returns = append(r.returns, c["return"])
		case c["logic"] != nil:
			r.logic = append(r.logic, c["logic"])
		}
	})
	var macros *rustMacros
	if depth == 0 && len(defs) > 0 {
		macros = rustReadMacros(f, defs)
	}
	var expand []rustCall
	for _, cl := range calls {
		if m := macros.lookup(cl.macro, cl.inv.StartByte()); m != nil && m.tests && rustItemPosition(cl.inv) {
			cl.def = m
			expand = append(expand, cl)
			continue
		}
		// Any other macro body is opaque: read it as text.
		tt := cl.tt
		for _, t := range rustTokenTests(f, tt) {
			tests = append(tests, pending{name: t.name, node: tt, start: t.span.start, inTokens: t})
			regions = append(regions, rangeSpan{tt.StartByte(), tt.EndByte()})
		}
		for _, m := range rustMacroAssert().FindAllStringIndex(f.Text(tt), -1) {
			asserts = append(asserts, rustAssert{tt.StartByte() + uint32(m[0]), false})
		}
	}
	for _, g := range rustExpandCalls(f, macros, expand) {
		tests = append(tests, pending{name: g.name, node: g.holder, start: g.span.start, gen: g})
	}
	r.markDead()
	inRegion := unionOf(regions)
	for _, a := range asserts {
		if (testDir || inRegion.has(a.at)) && !fileOff && !r.dead.has(a.at) {
			f.AssertAt(a.at, a.vacuous)
		}
	}
	sort.SliceStable(tests, func(i, j int) bool { return tests[i].start < tests[j].start })
	// The modules nest as the tree does: those around a test are the
	// climb from the innermost, taken in the order they were found.
	modSpans := make([]rangeSpan, len(mods))
	for i, m := range mods {
		modSpans[i] = rangeSpan{m.start, m.end}
	}
	nest := newNesting(modSpans)
	var around []int
	for _, t := range tests {
		var path []string
		off := fileOff
		plats := []rustPlat{filePlat, t.plat}
		around = around[:0]
		for i := nest.around(t.start, t.start+1, true); i >= 0; i = nest.up(i) {
			around = append(around, i)
		}
		slices.Sort(around)
		for _, i := range around {
			m := mods[i]
			path = append(path, m.name)
			off = off || m.off
			plats = append(plats, m.plat)
		}
		name := strings.Join(append(path, t.name), "::")
		platforms := rustPlatAll(plats).names()
		switch {
		case t.gen != nil:
			f.addGenerated(name, t.gen, off, platforms)
		case t.inTokens != nil:
			f.addTestAt(Test{Name: name, Line: t.inTokens.line, Status: statusOf(off), Body: t.inTokens.body, Platforms: platforms}, t.node, t.inTokens.span)
		default:
			f.AddTestSpan(name, t.node, t.skipped || off || r.returnsFirst(t.body), t.code)
			f.Result.Tests[len(f.Result.Tests)-1].Platforms = platforms
		}
	}
}

// markDead finds the code that never runs: the branch a constant condition
// (cfg!(test) included) never takes, the right of `false && …` and
// `true || …`, and what follows a return or an if that returns either way.
func (r *rustAnalysis) markDead() {
	for _, n := range r.ifs {
		cond := rustConst(r.f, n.ChildByFieldName("condition"))
		switch {
		case cond.isFalse():
			r.dead.add(n.ChildByFieldName("consequence"))
		case cond.isTrue():
			r.dead.add(n.ChildByFieldName("alternative"))
		}
		if st := n.Parent(); st != nil && st.Type() == "expression_statement" && r.ends(n) != endsNot {
			r.dead.addAfter(st, "")
		}
	}
	for _, n := range r.logic {
		left := rustConst(r.f, n.ChildByFieldName("left"))
		op := r.f.Text(n.ChildByFieldName("operator"))
		if (op == "&&" && left.isFalse()) || (op == "||" && left.isTrue()) {
			r.dead.add(n.ChildByFieldName("right"))
		}
	}
	for _, n := range r.returns {
		if st := n.Parent(); st != nil && st.Type() == "expression_statement" {
			r.dead.addAfter(st, "")
		}
	}
}

// ends reports how a statement or expression ends the code after it: a
// return of nothing, of () or of Ok(()) returns, one of another value
// does work first; a block ends with its first ending statement; an if
// with the branch its constant condition takes, or with both.
func (r *rustAnalysis) ends(n *sitter.Node) endKind {
	if !r.f.descend() {
		return endsNot
	}
	defer r.f.ascend()
	if n == nil {
		return endsNot
	}
	switch n.Type() {
	case "expression_statement", "else_clause":
		if n.NamedChildCount() == 0 {
			return endsNot
		}
		return r.ends(n.NamedChild(0))
	case "return_expression":
		if n.NamedChildCount() == 0 {
			return endsReturn
		}
		switch strings.Join(strings.Fields(r.f.Text(n.NamedChild(0))), "") {
		case "()", "Ok(())":
			return endsReturn
		}
		return endsActing
	case "block":
		return firstEnd(statements(n), r.ends)
	case "if_expression":
		cond := rustConst(r.f, n.ChildByFieldName("condition"))
		cons, alt := n.ChildByFieldName("consequence"), n.ChildByFieldName("alternative")
		switch {
		case cond.isTrue():
			return r.ends(cons)
		case cond.isFalse():
			return r.ends(alt)
		case alt == nil:
			return endsNot
		}
		return bothEnd(r.ends(cons), r.ends(alt))
	}
	return endsNot
}

// returnsFirst reports a test whose first statement returns: `return;`,
// or `if true { return; }`. cargo test reports it ok, having run nothing.
func (r *rustAnalysis) returnsFirst(body *sitter.Node) bool {
	for _, st := range statements(body) {
		if st.Type() == "attribute_item" {
			continue
		}
		return r.ends(st) == endsReturn
	}
	return false
}

// rustAttributes reads the attributes before a function: they are its
// preceding siblings in the tree, not its children. A test is skipped by
// #[ignore], or by #[cfg_attr(P, ignore)] where P always holds; it is off
// (never compiled) under a #[cfg(P)] where P never holds.
func rustAttributes(f *File, fn *sitter.Node) (isTest, skipped, off bool) {
	for s := fn.PrevNamedSibling(); s != nil; s = s.PrevNamedSibling() {
		switch s.Type() {
		case "attribute_item":
		case "line_comment", "block_comment":
			continue
		default:
			return isTest, skipped, off
		}
		path := rustAttrPath(f, s)
		switch {
		case rustIsTestAttr(path):
			isTest = true
		case path == "ignore":
			skipped = true
		case path == "cfg":
			off = off || rustCfgArgs(f, s).isFalse()
		case path == "cfg_attr":
			args := rustSplitArgs(rustAttrArgs(s))
			if len(args) >= 2 && (rustCfgPred(f, args[0]).isTrue() || rustCfgPlatforms(f, args[0]).everywhere()) {
				for _, a := range args[1:] {
					if len(a) > 0 && f.Text(a[0]) == "ignore" {
						skipped = true
					}
				}
			}
		}
	}
	return isTest, skipped, off
}

// rustAttrArgs returns the token tree of #[path(…)], or nil.
func rustAttrArgs(item *sitter.Node) *sitter.Node {
	for i := 0; i < int(item.NamedChildCount()); i++ {
		if a := item.NamedChild(i); a.Type() == "attribute" {
			return a.ChildByFieldName("arguments")
		}
	}
	return nil
}

// rustCfgArgs evaluates the predicate of a #[cfg(…)] attribute item.
func rustCfgArgs(f *File, item *sitter.Node) constant {
	args := rustSplitArgs(rustAttrArgs(item))
	if len(args) != 1 {
		return unknownConst
	}
	return rustCfgPred(f, args[0])
}

// rustModOff reports a module under a #[cfg(…)] that never holds, outside
// it or as #![cfg(…)] inside.
func rustModOff(f *File, m *sitter.Node) bool {
	for s := m.PrevNamedSibling(); s != nil; s = s.PrevNamedSibling() {
		if s.Type() == "line_comment" || s.Type() == "block_comment" {
			continue
		}
		if s.Type() != "attribute_item" {
			break
		}
		if rustAttrPath(f, s) == "cfg" && rustCfgArgs(f, s).isFalse() {
			return true
		}
	}
	return rustInnerCfgOff(f, m.ChildByFieldName("body"))
}

// rustInnerCfgOff reports a #![cfg(…)] that never holds among the inner
// attributes at the top of a file or module body.
func rustInnerCfgOff(f *File, body *sitter.Node) bool {
	for _, s := range statements(body) {
		if s.Type() != "inner_attribute_item" {
			return false
		}
		if rustAttrPath(f, s) == "cfg" && rustCfgArgs(f, s).isFalse() {
			return true
		}
	}
	return false
}

// rustAttrPath returns the path of #[path(...)] or #[path = …].
func rustAttrPath(f *File, item *sitter.Node) string {
	text := strings.TrimSpace(f.Text(item))
	text = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(text, "#")), "!"))
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

// rustSplitArgs splits a token tree's contents at its top-level commas.
func rustSplitArgs(tt *sitter.Node) [][]*sitter.Node {
	if tt == nil || tt.ChildCount() < 2 {
		return nil
	}
	var out [][]*sitter.Node
	var cur []*sitter.Node
	n := int(tt.ChildCount())
	for i := 1; i < n-1; i++ { // inside the delimiters
		ch := tt.Child(i)
		switch {
		case !ch.IsNamed() && ch.Type() == ",":
			out = append(out, cur)
			cur = nil
		case ch.Type() == "line_comment" || ch.Type() == "block_comment":
		default:
			cur = append(cur, ch)
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// rustCfgPred evaluates a cfg predicate as `cargo test` compiles: `test`
// holds, any() never holds, all() always does, not, any and all combine,
// true and false are themselves. Every other option (feature = "x",
// target_os, debug_assertions) depends on the build, and is unknown.
func rustCfgPred(f *File, toks []*sitter.Node) constant {
	if !f.descend() {
		return unknownConst
	}
	defer f.ascend()
	switch {
	case len(toks) == 1 && toks[0].Type() == "identifier" && f.Text(toks[0]) == "test":
		return constOfBool(true)
	case len(toks) == 1 && toks[0].Type() == "identifier" && (f.Text(toks[0]) == "doc" || f.Text(toks[0]) == "doctest"):
		// Set by rustdoc alone, never when cargo test builds the tests.
		return constOfBool(false)
	case len(toks) == 1 && toks[0].Type() == "boolean_literal":
		return constOfBool(f.Text(toks[0]) == "true")
	case len(toks) == 2 && toks[0].Type() == "identifier" && toks[1].Type() == "token_tree":
		args := rustSplitArgs(toks[1])
		switch f.Text(toks[0]) {
		case "any":
			v := constOfBool(false)
			for _, a := range args {
				v = constOr(v, rustCfgPred(f, a))
			}
			return v
		case "all":
			v := constOfBool(true)
			for _, a := range args {
				v = constAnd(v, rustCfgPred(f, a))
			}
			return v
		case "not":
			if len(args) == 1 {
				return constNot(rustCfgPred(f, args[0]))
			}
		}
	}
	return unknownConst
}

// rustConst evaluates a Rust expression of literals: numbers, strings,
// chars, true, false, !, unary minus, &&, ||, comparisons, parentheses and
// cfg!(…). Anything else is unknown.
func rustConst(f *File, n *sitter.Node) constant {
	if !f.descend() {
		return unknownConst
	}
	defer f.ascend()
	if n == nil {
		return unknownConst
	}
	switch n.Type() {
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return rustConst(f, n.NamedChild(0))
		}
	case "unary_expression":
		if n.ChildCount() == 2 && n.NamedChildCount() == 1 {
			return rustUnary(n.Child(0).Type(), rustConst(f, n.NamedChild(0)))
		}
	case "binary_expression":
		return rustBinary(f.Text(n.ChildByFieldName("operator")),
			rustConst(f, n.ChildByFieldName("left")), rustConst(f, n.ChildByFieldName("right")))
	case "macro_invocation":
		if f.Text(n.ChildByFieldName("macro")) == "cfg" && n.NamedChildCount() == 2 {
			if args := rustSplitArgs(n.NamedChild(1)); len(args) == 1 {
				return rustCfgPred(f, args[0])
			}
		}
	case "identifier":
		// A constant of the file (`const QUARANTINE: bool = true`) is as
		// constant as its literal; a chain of them is followed a few steps.
		if v := rustFileConsts(f)[f.Text(n)]; v != nil && f.constDepth < 8 {
			f.constDepth++
			defer func() { f.constDepth-- }()
			return rustConst(f, v)
		}
	default:
		return rustLiteral(f, n)
	}
	return unknownConst
}

// rustFileConsts maps the names of the file's `const` items, at its top
// level and in its inline modules, to their value expressions; a name
// given two values, in two modules, is dropped. Read once per file.
func rustFileConsts(f *File) map[string]*sitter.Node {
	if f.consts != nil {
		return f.consts
	}
	f.consts = map[string]*sitter.Node{}
	twice := map[string]bool{}
	var walk func(n *sitter.Node, depth int)
	walk = func(n *sitter.Node, depth int) {
		if n == nil || depth > 16 {
			return
		}
		for _, item := range namedChildren(n) {
			switch item.Type() {
			case "const_item":
				name, value := item.ChildByFieldName("name"), item.ChildByFieldName("value")
				if name == nil || value == nil {
					continue
				}
				k := f.Text(name)
				if _, seen := f.consts[k]; seen {
					twice[k] = true
				}
				f.consts[k] = value
			case "mod_item":
				walk(item.ChildByFieldName("body"), depth+1)
			}
		}
	}
	walk(f.Root, 0)
	for k := range twice {
		delete(f.consts, k)
	}
	return f.consts
}

func rustUnary(op string, x constant) constant {
	switch op {
	case "!":
		if x.kind == constBool {
			return constNot(x)
		}
	case "-":
		return constNegate(x)
	}
	return unknownConst
}

func rustBinary(op string, l, r constant) constant {
	switch op {
	case "&&":
		return constAnd(l, r)
	case "||":
		return constOr(l, r)
	}
	return constCompare(op, l, r)
}

// rustNumberSuffix is a literal's type suffix: 1u8, 2.5f64.
var rustNumberSuffix = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:[iu](?:8|16|32|64|128|size)|f32|f64)$`)
})

// rustLiteral reads a literal token, in code or in a macro's token tree.
func rustLiteral(f *File, n *sitter.Node) constant {
	text := f.Text(n)
	switch n.Type() {
	case "boolean_literal":
		return constOfBool(text == "true")
	case "integer_literal", "float_literal":
		if !strings.HasPrefix(strings.ToLower(text), "0x") || !strings.HasSuffix(text, "f32") && !strings.HasSuffix(text, "f64") {
			text = rustNumberSuffix().ReplaceAllString(text, "")
		}
		return constOfNumber(text)
	case "string_literal", "char_literal":
		typ := map[string]string{"string_literal": "str", "char_literal": "char"}[n.Type()]
		if strings.HasPrefix(text, "b") {
			typ, text = "b"+typ, text[1:]
		}
		if len(text) < 2 {
			return unknownConst
		}
		body := text[1 : len(text)-1]
		return constOfString(typ, body, !strings.Contains(body, `\`))
	case "raw_string_literal":
		typ := "str"
		if strings.HasPrefix(text, "b") {
			typ, text = "bstr", text[1:]
		}
		body := strings.TrimLeft(strings.TrimPrefix(text, "r"), "#")
		body = strings.TrimRight(body, "#")
		if len(body) < 2 {
			return unknownConst
		}
		return constOfString(typ, body[1:len(body)-1], true)
	}
	return unknownConst
}

// rustTokExpr evaluates the tokens of one macro argument as an expression
// of literals, by precedence: || below &&, below comparisons, below the
// unary ! and -. literal reports that it held nothing but literals and
// operators; a name, a call, a path leaves the value unknown.
type rustTokExpr struct {
	f    *File
	toks []*sitter.Node
	i    int
	bad  bool
}

func rustTokConst(f *File, toks []*sitter.Node) (v constant, literal bool) {
	p := &rustTokExpr{f: f, toks: toks}
	v = p.expr(0)
	if p.bad || p.i != len(toks) || len(toks) == 0 {
		return unknownConst, false
	}
	return v, true
}

var rustPrec = map[string]int{"||": 1, "&&": 2, "==": 3, "!=": 3, "<": 3, "<=": 3, ">": 3, ">=": 3}

func (p *rustTokExpr) expr(min int) constant {
	if !p.f.descend() {
		return unknownConst
	}
	defer p.f.ascend()
	left := p.unary()
	for p.i < len(p.toks) && !p.bad {
		op := p.toks[p.i]
		prec, ok := rustPrec[op.Type()]
		if op.IsNamed() || !ok {
			p.bad = true
			return left
		}
		if prec <= min {
			return left
		}
		p.i++
		left = rustBinary(op.Type(), left, p.expr(prec))
	}
	return left
}

func (p *rustTokExpr) unary() constant {
	if !p.f.descend() {
		return unknownConst
	}
	defer p.f.ascend()
	if p.i >= len(p.toks) {
		p.bad = true
		return unknownConst
	}
	t := p.toks[p.i]
	p.i++
	switch {
	case !t.IsNamed() && (t.Type() == "!" || t.Type() == "-"):
		return rustUnary(t.Type(), p.unary())
	case t.Type() == "token_tree":
		if args := rustSplitArgs(t); len(args) == 1 && strings.HasPrefix(p.f.Text(t), "(") {
			v, ok := rustTokConst(p.f, args[0])
			if ok {
				return v
			}
		}
		p.bad = true
		return unknownConst
	}
	v := rustLiteral(p.f, t)
	if !v.known() {
		p.bad = true
	}
	return v
}

// rustVacuous reports an assertion macro whose outcome the code under test
// cannot change and that passes: assert!(true), assert!(1 == 1),
// assert_eq!(-3, -3), assert_ne!(1, 2), and their debug_ and prop_ forms.
// assert!(false) and assert_eq!(0, 1) always fail: explicit failures,
// counted.
func rustVacuous(f *File, macro string, tt *sitter.Node) bool {
	args := rustSplitArgs(tt)
	base := strings.TrimPrefix(strings.TrimPrefix(macro, "debug_"), "prop_")
	switch base {
	case "assert":
		if len(args) == 0 {
			return false
		}
		v, literal := rustTokConst(f, args[0])
		return v.isTrue() || (literal && !v.isFalse())
	case "assert_eq", "assert_ne":
		if len(args) < 2 {
			return false
		}
		a, aLit := rustTokConst(f, args[0])
		b, bLit := rustTokConst(f, args[1])
		if !aLit || !bLit {
			return false
		}
		op := map[string]string{"assert_eq": "==", "assert_ne": "!="}[base]
		return !constCompare(op, a, b).isFalse()
	}
	return false
}
