package coverage

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/internal/gittest"
)

// TestEarlyParsesCountAsTheWalk counts one staged tree three ways, each
// with an empty cache: no file parsed early, the first few (as a commit
// does), and every one. The counts must be the same: an early parse stands
// for the walk's only where the walk picks the same language, and a Python
// module the walk wants whatever its prefilter says (tests it inherits) is
// parsed again. The tree mixes what tempts a guess by name: files excluded
// by pytest's configuration, a module with inherited tests only, a Go test
// file under testdata, a JavaScript file no runner selects.
func TestEarlyParsesCountAsTheWalk(t *testing.T) {
	gittest.Isolate(t)
	dir := t.TempDir()
	run(t, dir, nil, "init", "-q")
	writeAll(t, dir, map[string]string{
		"pytest.ini":               "[pytest]\npython_files = check_*.py test_*.py\ntestpaths = tests\naddopts = --ignore=tests/legacy\n",
		"tests/__init__.py":        "",
		"tests/base.py":            "class Base:\n    def test_inherited(self):\n        assert f()\n",
		"tests/test_inherit.py":    "from .base import Base\nclass TestOnly(Base):\n    pass\n",
		"tests/check_app.py":       "def test_app():\n    assert 1\n",
		"tests/legacy/test_old.py": "def test_old(): pass\n",
		"scripts/test_outside.py":  "def test_z(): pass\n",
		"a_test.go":                twoTests,
		"pkg/testdata/x_test.go":   twoTests,
		"web/package.json":         `{"scripts": {"test": "jest"}, "jest": {"testMatch": ["**/specs/**/*.js"]}}`,
		"web/specs/a.js":           "test('a', () => { expect(1).toBe(1) })\n",
		"web/lib/b.test.js":        "test('b', () => { expect(2).toBe(2) })\n",
		"big/many_test.go":         strings.Repeat("// filler\n", 100) + twoTests,
	})
	for i := 0; i < 12; i++ {
		write(t, dir, fmt.Sprintf("m/m%d_test.go", i), fmt.Sprintf("package m\nimport \"testing\"\nfunc TestM%d(t *testing.T) { t.Error(1) }\n", i))
	}
	// Half the files committed, the rest and an edit staged: the
	// listing of changes names the staged ones.
	run(t, dir, nil, "add", "a_test.go", "m", "tests/base.py")
	run(t, dir, nil, "commit", "-q", "-m", "half")
	write(t, dir, "a_test.go", threeTests)
	run(t, dir, nil, "add", "-A")
	was := maxEarly
	defer func() { maxEarly = was }()
	var ref *Counts
	for _, tc := range []struct {
		n       int
		changes bool
	}{{0, false}, {8, false}, {1000, false}, {8, true}, {1000, true}} {
		n := tc.n
		maxEarly = n
		o := Options{Dir: dir, Mode: Index, CacheDir: t.TempDir()}
		if tc.changes {
			o.changes = startChanges(context.Background(), o, dir)
		}
		c := count(t, o)
		if c.Parsed == 0 {
			t.Fatalf("early %d (changes listed %v): nothing parsed with an empty cache", n, tc.changes)
		}
		if ref == nil {
			ref = c
			if len(listed(c)) == 0 || c.Languages()["python"] == nil || c.Languages()["python"].Tests == 0 {
				t.Fatalf("reference count found too little: %q", listed(c))
			}
			continue
		}
		if got, want := listed(c), listed(ref); !reflect.DeepEqual(got, want) {
			t.Errorf("early %d (changes listed %v): tests\n got %q\nwant %q", n, tc.changes, got, want)
		}
		if got, want := figures(c), figures(ref); !reflect.DeepEqual(got, want) {
			t.Errorf("early %d (changes listed %v): figures %+v, want %+v", n, tc.changes, got, want)
		}
		if c.Parsed != ref.Parsed {
			t.Errorf("early %d (changes listed %v): parsed %d files, without early parses %d", n, tc.changes, c.Parsed, ref.Parsed)
		}
	}
}

func figures(c *Counts) map[string]Figures {
	out := map[string]Figures{}
	for k, v := range c.Languages() {
		out[k] = *v
	}
	return out
}
