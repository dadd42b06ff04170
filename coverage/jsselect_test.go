package coverage

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/gitsentinel/sentinel/internal/gittest"
)

// TestJSSelection checks which files each runner's defaults and static
// config make test files, package by package.
func TestJSSelection(t *testing.T) {
	const body = "it('x', () => {})\n"
	cases := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"no runner keeps the name globs", map[string]string{
			"package.json": `{}`, "a.test.js": body, "test/b.js": body,
		}, []string{"a.test.js"}},
		{"mocha defaults to test/, not recursive", map[string]string{
			"package.json": `{"devDependencies": {"mocha": "*"}, "scripts": {"test": "mocha"}}`,
			"test/a.js":    body, "test/b.mjs": body, "test/sub/c.js": body, "lib/d.js": body, "node_modules/m/test/e.js": body,
		}, []string{"test/a.js", "test/b.mjs"}},
		{"mocha --recursive through npm run", map[string]string{
			"package.json": `{"scripts": {"test": "npm run unit", "unit": "nyc mocha --recursive --reporter spec"}}`,
			"test/a.js":    body, "test/sub/c.js": body,
		}, []string{"test/a.js", "test/sub/c.js"}},
		{"mocha spec from the script", map[string]string{
			"package.json":   `{"scripts": {"test": "mocha -R dot --require x spec/unit 'spec/**/*.spec.js'"}}`,
			"spec/unit/a.js": body, "spec/b.spec.js": body, "spec/c.js": body, "x": "",
		}, []string{"spec/b.spec.js", "spec/unit/a.js"}},
		// express 4's own script: two directories, neither recursive, and
		// test/support/env is a --require, not a spec.
		{"express's mocha script", map[string]string{
			"package.json": `{"scripts": {"test": "mocha --require test/support/env --reporter spec --bail --check-leaks test/ test/acceptance/"}}`,
			"test/app.js":  body, "test/acceptance/auth.js": body, "test/support/env.js": body, "test/support/utils.js": body,
		}, []string{"test/acceptance/auth.js", "test/app.js"}},
		{"mocharc.yml spec", map[string]string{
			"package.json": `{"devDependencies": {"mocha": "*"}}`,
			".mocharc.yml": "spec:\n  - 'tests/**/*.js'\nrecursive: true\n",
			"tests/x/a.js": body, "test/b.js": body,
		}, []string{"tests/x/a.js"}},
		{"mocha --extension and a yml extension list", map[string]string{
			"package.json": `{"scripts": {"test": "mocha -r ts-node/register --extension ts"}}`,
			".mocharc.yml": "extension:\n  - tsx\n",
			"test/a.ts":    body, "test/b.tsx": body, "test/c.js": body, "test/d.jsx": body,
		}, []string{"test/a.ts", "test/b.tsx", "test/c.js"}},
		{"node-tap defaults", map[string]string{
			"package.json": `{"devDependencies": {"tap": "*"}, "scripts": {"test": "tap"}}`,
			"test/a.js":    body, "test/sub/b.mjs": body, "lib/c.test.ts": body, "lib/d.js": body,
		}, []string{"lib/c.test.ts", "test/a.js", "test/sub/b.mjs"}},
		{"node-tap paths from the script", map[string]string{
			"package.json": `{"scripts": {"test": "tap test/*.js --100"}}`,
			"test/a.js":    body, "test/sub/b.js": body,
		}, []string{"test/a.js"}},
		{"a .mocharc.js keeps the test-named files", map[string]string{
			"package.json":  `{"devDependencies": {"mocha": "*"}}`,
			".mocharc.js":   "module.exports = { spec: computed() }\n",
			"src/a.spec.js": body, "test/b.js": body, "src/c.js": body,
		}, []string{"src/a.spec.js", "test/b.js"}},
		{"package.json mocha.spec", map[string]string{
			"package.json": `{"devDependencies": {"mocha": "*"}, "mocha": {"spec": "checks"}}`,
			"checks/a.js":  body, "test/b.js": body,
		}, []string{"checks/a.js"}},
		{"tape globs from the script", map[string]string{
			"package.json": `{"scripts": {"test": "npm run tests-only", "tests-only": "nyc tape 'test/**/*.js'"}}`,
			"test/a.js":    body, "test/x/b.js": body, "lib/c.js": body,
		}, []string{"test/a.js", "test/x/b.js"}},
		{"node --test defaults", map[string]string{
			"package.json": `{"scripts": {"test": "node --test"}}`,
			"a-test.js":    body, "test.mjs": body, "lib/test-x.cjs": body, "test/deep/y.js": body, "lib/z.js": body, "a.spec.ts": body,
		}, []string{"a-test.js", "lib/test-x.cjs", "test.mjs", "test/deep/y.js"}},
		{"jest testMatch and ignores", map[string]string{
			"package.json": `{"devDependencies": {"jest": "*"}, "jest": {"testMatch": ["<rootDir>/checks/**/*.js"], "testPathIgnorePatterns": ["/fixtures/"]}}`,
			"checks/a.js":  body, "checks/fixtures/b.js": body, "c.test.js": body,
		}, []string{"checks/a.js"}},
		{"jest.config.json testRegex and roots", map[string]string{
			"package.json":     `{"scripts": {"test": "jest"}}`,
			"jest.config.json": `{"testRegex": "_spec\\.js$", "roots": ["<rootDir>/src"]}`,
			"src/a_spec.js":    body, "lib/b_spec.js": body, "src/c.test.js": body,
		}, []string{"src/a_spec.js"}},
		{"jest rootDir", map[string]string{
			"package.json":   `{"devDependencies": {"jest": "*"}, "jest": {"rootDir": "src", "testMatch": ["<rootDir>/**/*.check.js"]}}`,
			"src/a.check.js": body, "src/b.test.js": body, "lib/c.check.js": body,
		}, []string{"src/a.check.js"}},
		{"vitest include from its config", map[string]string{
			"package.json":     `{"devDependencies": {"vitest": "*"}}`,
			"vitest.config.ts": "export default defineConfig({ test: { include: ['checks/*.ts'] } })\n",
			"checks/a.ts":      body, "b.test.ts": body,
		}, []string{"checks/a.ts"}},
		{"ava files", map[string]string{
			"package.json": `{"devDependencies": {"ava": "*"}, "ava": {"files": ["t/**/*", "!t/helper.js"]}}`,
			"t/a.js":       body, "t/helper.js": body, "test/b.js": body,
		}, []string{"t/a.js"}},
		{"monorepo: nearest package, else the enclosing one", map[string]string{
			"package.json":            `{"workspaces": ["packages/*"], "devDependencies": {"jest": "*"}}`,
			"packages/a/package.json": `{"scripts": {"test": "mocha"}}`,
			"packages/a/test/x.js":    body, "packages/a/y.test.js": body,
			"packages/b/package.json": `{"name": "b"}`,
			"packages/b/z.test.js":    body, "packages/b/test/w.js": body,
		}, []string{"packages/a/test/x.js", "packages/b/z.test.js"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range c.files {
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			counts, err := Count(context.Background(), Options{Mode: Plain, Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range counts.Files {
				got = append(got, f.Path)
			}
			sort.Strings(got)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestJSLossesFollowRunner checks that a test removed from a file only the
// package's runner makes a test file (mocha's test/) is a loss: the
// package.json that decides is read from each side's whole tree, not from
// the changed files alone.
func TestJSLossesFollowRunner(t *testing.T) {
	gittest.Isolate(t)
	dir := t.TempDir()
	run(t, dir, nil, "init", "-q")
	write(t, dir, "package.json", `{"scripts": {"test": "mocha"}}`)
	write(t, dir, "test/a.js", "it('keeps', () => { assert(a) })\nit('goes', () => { assert(b) })\n")
	run(t, dir, nil, "add", "-A")
	run(t, dir, nil, "commit", "-q", "-m", "one")
	write(t, dir, "test/a.js", "it('keeps', () => { assert(a) })\n")
	run(t, dir, nil, "commit", "-q", "-am", "two")
	ls, err := CommitLosses(context.Background(), Options{Dir: dir}, "HEAD", "HEAD~1", &Baseline{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != 1 || ls[0].Name != "goes" || ls[0].Path != "test/a.js" {
		t.Errorf("losses %+v, want the one of test/a.js named goes", ls)
	}
}

// TestJSSelectionSnapshot checks that the package.json that decides is the
// snapshot's own: the index's or the revision's blob, not the work tree's.
func TestJSSelectionSnapshot(t *testing.T) {
	gittest.Isolate(t)
	dir := t.TempDir()
	run(t, dir, nil, "init", "-q")
	write(t, dir, "package.json", `{"scripts": {"test": "mocha"}}`)
	write(t, dir, "test/a.js", "it('a', () => {})\n")
	run(t, dir, nil, "add", "-A")
	run(t, dir, nil, "commit", "-q", "-m", "one")
	write(t, dir, "package.json", `{"scripts": {"test": "jest"}}`)
	files := func(o Options) int {
		o.Dir = dir
		c, err := Count(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		return len(c.Files)
	}
	if n := files(Options{Mode: WorkTree}); n != 0 {
		t.Errorf("work tree: %d files, want none: Jest does not run test/a.js", n)
	}
	if n := files(Options{Mode: Index}); n != 1 {
		t.Errorf("index: %d files, want test/a.js", n)
	}
	if n := files(Options{Mode: Rev, Rev: "HEAD"}); n != 1 {
		t.Errorf("HEAD: %d files, want test/a.js", n)
	}
}
