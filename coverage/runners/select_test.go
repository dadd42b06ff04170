package runners

import (
	"context"
	"testing"

	"github.com/gitsentinel/sentinel/languages"
)

// mapTree is a Tree of files held in memory, in the order of paths;
// irregular lists the paths that are not regular files.
type mapTree struct {
	paths     []string
	files     map[string]string
	irregular map[string]bool
}

func (t mapTree) Len() int { return len(t.paths) }

func (t mapTree) File(i int) (string, bool) { return t.paths[i], !t.irregular[t.paths[i]] }

func (t mapTree) Read(_ context.Context, i int) ([]byte, error) {
	return []byte(t.files[t.paths[i]]), nil
}

// TestSelectionReadsTheTree checks a selection built from a Tree alone: a
// package's runner decides its files, a file under no package is left to
// the globs, and a config that is not a regular file is not read.
func TestSelectionReadsTheTree(t *testing.T) {
	tree := mapTree{
		paths: []string{"web/package.json", "web/src/a.test.js", "web/src/__tests__/b.js", "web/src/helper.js",
			"lib/c.test.js", "other/package.json", "other/d.test.js"},
		files: map[string]string{
			"web/package.json":   `{"scripts": {"test": "jest"}, "devDependencies": {"jest": "29.0.0"}}`,
			"other/package.json": `{"scripts": {"test": "mocha"}, "devDependencies": {"mocha": "10.0.0"}}`,
		},
		irregular: map[string]bool{"other/package.json": true},
	}
	sel := New(context.Background(), tree)
	for p, want := range map[string]*languages.Language{
		"web/src/a.test.js":      languages.JavaScript,
		"web/src/__tests__/b.js": languages.JavaScript,
		"web/src/helper.js":      nil,
		"lib/c.test.js":          languages.ForPath("lib/c.test.js"),
		"other/d.test.js":        languages.ForPath("other/d.test.js"),
	} {
		if got := sel.Language(p); got != want {
			t.Errorf("Language(%q) = %s, want %s", p, langName(got), langName(want))
		}
	}
	if languages.ForPath("other/d.test.js") != languages.JavaScript {
		t.Error("the globs do not count other/d.test.js: the case tells nothing")
	}
	if !Selected("web/src/helper.js") || Selected("README.md") {
		t.Error("Selected does not tell a file a runner may decide")
	}
}

// langName is a language's name, or "none".
func langName(l *languages.Language) string {
	if l == nil {
		return "none"
	}
	return l.Name
}
