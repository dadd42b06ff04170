package sentinel

import (
	"encoding/json"
	"errors"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// module is this module's path.
const module = "github.com/gitsentinel/sentinel"

// layerRule is one rule of the layout: no package that Packages matches
// imports one that Forbidden matches, unless Allowed matches it too.
//
// A pattern is go list's: "..." matches any string, and "x/..." matches x
// too. A pattern whose first element has no dot is a path inside this
// module ("internal/...", "guard", "..." for every package of the
// module); one with a dot besides "..." is a whole import path ("github.com/smacker/...").
// Every file of a package counts, whatever its build constraints, so that
// the rule holds for every platform and both binaries.
type layerRule struct {
	// Why says what the rule keeps, as a failure prints it.
	Why string
	// Packages are the packages held to the rule.
	Packages string
	// Forbidden are the imports they may not have.
	Forbidden []string
	// Allowed are exceptions among Forbidden.
	Allowed []string
	// Tests holds the packages' test files to the rule as well.
	Tests bool
}

// layerRules are the rules of the layout (see the package doc).
var layerRules = []layerRule{
	{
		Why:       "a package under internal/ is a leaf: it imports nothing of the module outside internal/",
		Packages:  "internal/...",
		Forbidden: []string{"..."},
		Allowed:   []string{"internal/..."},
		Tests:     true,
	},
	{
		Why:       "coverage/runners reads a snapshot through its Tree only: it imports languages and the leaves, nothing else of the module",
		Packages:  "coverage/runners/...",
		Forbidden: []string{"..."},
		Allowed:   []string{"internal/...", "languages", "coverage/runners/..."},
		Tests:     true,
	},
	{
		Why:       "coverage/reports reads runners' reports and matches them with tests it is handed: it imports only the leaves",
		Packages:  "coverage/reports/...",
		Forbidden: []string{"..."},
		Allowed:   []string{"internal/..."},
		Tests:     true,
	},
}

// goPackage is what go list says of a package, and the imports of each of
// its files.
type goPackage struct {
	ImportPath, Dir                                              string
	GoFiles, CgoFiles, IgnoredGoFiles, TestGoFiles, XTestGoFiles []string
}

// TestLayers checks every package of the module against every rule of
// layerRules, and that each rule holds at least one package.
func TestLayers(t *testing.T) {
	pkgs := listPackages(t)
	for _, r := range layerRules {
		held := 0
		for _, p := range pkgs {
			if !matchLayer(r.Packages, p.ImportPath) {
				continue
			}
			held++
			for _, f := range p.files(r.Tests) {
				for _, imp := range fileImports(t, filepath.Join(p.Dir, f)) {
					if matchAny(r.Forbidden, imp) && !matchAny(r.Allowed, imp) {
						t.Errorf("%s (%s) imports %s: %s", p.ImportPath, f, imp, r.Why)
					}
				}
			}
		}
		if held == 0 {
			t.Errorf("no package matches %q: the rule %q holds nothing", r.Packages, r.Why)
		}
	}
}

// TestLayerPatterns checks the patterns' syntax: "..." and "x/...", paths
// inside the module and whole import paths.
func TestLayerPatterns(t *testing.T) {
	for _, c := range []struct {
		pattern, path string
		want          bool
	}{
		{"...", module, true},
		{"...", module + "/ci", true},
		{"...", "github.com/gobwas/glob", false},
		{"...", "strings", false},
		{"internal/...", module + "/internal", true},
		{"internal/...", module + "/internal/sarif", true},
		{"internal/...", module + "/internalx", false},
		{"internal/...", module + "/ci", false},
		{"guard", module + "/guard", true},
		{"guard", module + "/guard/rules", false},
		{"github.com/smacker/...", "github.com/smacker/go-tree-sitter/golang", true},
		{"github.com/smacker/...", module, false},
	} {
		if got := matchLayer(c.pattern, c.path); got != c.want {
			t.Errorf("matchLayer(%q, %q) = %v, want %v", c.pattern, c.path, got, c.want)
		}
	}
}

// listPackages lists the module's packages with go list.
func listPackages(t *testing.T) []goPackage {
	t.Helper()
	out, err := exec.Command("go", "list", "-e", "-json=ImportPath,Dir,GoFiles,CgoFiles,IgnoredGoFiles,TestGoFiles,XTestGoFiles", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []goPackage
	for dec := json.NewDecoder(strings.NewReader(string(out))); ; {
		var p goPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list's output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) == 0 {
		t.Fatal("go list lists no package")
	}
	return pkgs
}

// files are the package's files, whatever their build constraints, with
// its test files when tests is set.
func (p goPackage) files(tests bool) []string {
	var fs []string
	fs = append(fs, p.GoFiles...)
	fs = append(fs, p.CgoFiles...)
	for _, f := range p.IgnoredGoFiles {
		if tests || !strings.HasSuffix(f, "_test.go") {
			fs = append(fs, f)
		}
	}
	if tests {
		fs = append(fs, p.TestGoFiles...)
		fs = append(fs, p.XTestGoFiles...)
	}
	return fs
}

// fileImports are the import paths of a Go file.
func fileImports(t *testing.T, file string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
	if err != nil {
		t.Fatalf("parse %s: %v", file, err)
	}
	var imps []string
	for _, s := range f.Imports {
		p, err := strconv.Unquote(s.Path.Value)
		if err != nil {
			t.Fatalf("%s: import %s: %v", file, s.Path.Value, err)
		}
		imps = append(imps, p)
	}
	return imps
}

// matchAny reports whether one of the patterns matches the import path.
func matchAny(patterns []string, path string) bool {
	for _, p := range patterns {
		if matchLayer(p, path) {
			return true
		}
	}
	return false
}

// matchLayer reports whether a pattern of layerRule matches the import
// path.
func matchLayer(pattern, path string) bool {
	first, _, _ := strings.Cut(pattern, "/")
	if !strings.Contains(strings.ReplaceAll(first, "...", ""), ".") {
		// A path inside the module.
		switch {
		case path == module:
			path = ""
		case strings.HasPrefix(path, module+"/"):
			path = strings.TrimPrefix(path, module+"/")
		default:
			return false
		}
		if pattern == "..." {
			return true
		}
	}
	re := regexp.QuoteMeta(pattern)
	if strings.HasSuffix(re, `/\.\.\.`) {
		// x/... matches x too.
		re = strings.TrimSuffix(re, `/\.\.\.`) + `(/\.\.\.)?`
	}
	re = strings.ReplaceAll(re, `\.\.\.`, `.*`)
	return regexp.MustCompile(`^(?:` + re + `)$`).MatchString(path)
}
