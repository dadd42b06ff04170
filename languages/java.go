package languages

import (
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/java"
)

// Java counts JUnit 4 and 5 tests (annotated methods) and JUnit 3 tests
// (test… methods of a TestCase), named Class#method.
var Java = &Language{
	Name:      "java",
	Grammars:  map[string]func() *sitter.Language{".java": java.GetLanguage},
	TestFiles: []string{"**/src/test/**", "*Test.java", "*Tests.java", "*IT.java"},
	Markers:   []string{"@Test", "Test", "@ParameterizedTest", "@RepeatedTest", "@TestFactory", "@TestTemplate", "assert", "verify(", "fail("},
	Queries: map[string]string{
		"main": `
		(method_declaration name: (identifier) @name) @method
		(class_declaration name: (identifier) @cname) @class
		(method_invocation name: (identifier) @invoked) @invocation
	` + javaFlow.query()},
	Analyze: analyzeJava,
	Samples: javaSamples,
}

var javaTestAnnotations = map[string]bool{"Test": true, "ParameterizedTest": true, "RepeatedTest": true, "TestFactory": true, "TestTemplate": true}

type javaClass struct {
	start, end uint32
	name       string
	skipped    bool
	junit3     bool
}

func analyzeJava(f *File) {
	fl := newFlow(f, javaFlow)
	defer fl.close()
	var classes []javaClass
	type method struct {
		node, name *sitter.Node
	}
	var methods []method
	fl.each(func(c map[string]*sitter.Node) {
		switch {
		case c["class"] != nil:
			cl := c["class"]
			ann := javaAnnotations(f, cl)
			junit3 := false
			if sc := cl.ChildByFieldName("superclass"); sc != nil {
				t := strings.TrimSpace(strings.TrimPrefix(f.Text(sc), "extends"))
				junit3 = t == "TestCase" || strings.HasSuffix(t, ".TestCase")
			}
			classes = append(classes, javaClass{cl.StartByte(), cl.EndByte(), f.Text(c["cname"]), jvmAnnotationsOff(f, javaFlow, ann), junit3})
		case c["method"] != nil:
			methods = append(methods, method{c["method"], c["name"]})
		case c["invocation"] != nil:
			name := f.Text(c["invoked"])
			if (strings.HasPrefix(name, "assert") || name == "fail" || name == "verify") && !fl.dead(c["invocation"]) {
				f.Assert(javaVacuous(f, name, c["invocation"]))
			}
		}
	})
	sort.Slice(classes, func(i, j int) bool { return classes[i].start < classes[j].start })
	spans := make([]rangeSpan, len(classes))
	for i, cl := range classes {
		spans[i] = rangeSpan{cl.start, cl.end}
	}
	around := newStabber(spans)
	for _, m := range methods {
		var path []string
		skipped, junit3 := false, false
		// The classes that begin before the method and reach its end,
		// outermost first.
		around.eachBefore(m.node.StartByte(), m.node.EndByte(), func(i int) {
			cl := classes[i]
			path = append(path, cl.name)
			skipped = skipped || cl.skipped
			junit3 = cl.junit3 // the innermost class decides
		})
		if len(path) == 0 {
			continue
		}
		ann := javaAnnotations(f, m.node)
		test := false
		for a := range ann {
			if javaTestAnnotations[a] {
				test = true
			}
		}
		name := f.Text(m.name)
		if !test && junit3 && strings.HasPrefix(name, "test") && javaPublicNoArgs(f, m.node) {
			test = true
		}
		if !test {
			continue
		}
		skipped = skipped || jvmAnnotationsOff(f, javaFlow, ann) || fl.skips(m.node.ChildByFieldName("body"))
		f.AddTest(strings.Join(path, ".")+"#"+name, m.name, skipped)
	}
	f.sortTests()
}

// javaAnnotations returns a declaration's annotations by simple name:
// @org.junit.Test is Test.
func javaAnnotations(f *File, decl *sitter.Node) map[string]*sitter.Node {
	m := map[string]*sitter.Node{}
	for i := 0; i < int(decl.NamedChildCount()); i++ {
		mods := decl.NamedChild(i)
		if mods.Type() != "modifiers" {
			continue
		}
		for j := 0; j < int(mods.NamedChildCount()); j++ {
			a := mods.NamedChild(j)
			if a.Type() != "marker_annotation" && a.Type() != "annotation" {
				continue
			}
			name := f.Text(a.ChildByFieldName("name"))
			if k := strings.LastIndexByte(name, '.'); k >= 0 {
				name = name[k+1:]
			}
			m[name] = a
		}
	}
	return m
}

// javaPublicNoArgs reports a public method without parameters, as JUnit 3
// requires of a test.
func javaPublicNoArgs(f *File, m *sitter.Node) bool {
	params := m.ChildByFieldName("parameters")
	if params == nil || params.NamedChildCount() != 0 {
		return false
	}
	for i := 0; i < int(m.NamedChildCount()); i++ {
		if mods := m.NamedChild(i); mods.Type() == "modifiers" {
			return strings.Contains(" "+f.Text(mods)+" ", " public ")
		}
	}
	return false
}

// javaVacuous reports an assertion on constants that cannot fail:
// assertEquals(3, 3), assertTrue(true), assertThat(1).isEqualTo(1),
// assertThat(1, is(1)).
func javaVacuous(f *File, name string, inv *sitter.Node) bool {
	args := flowArgs(inv.ChildByFieldName("arguments"))
	if name == "assertThat" {
		return javaThatPasses(f, inv, args)
	}
	return jvmPasses(f, javaFlow, jvmAssertChecks[name], args)
}
