package coverage

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// pyDefs is Python's own answer: for each file, the test functions that
// are not nested in a function or lambda, qualified by their classes, in
// source order, as the ast module finds them. Files ast cannot parse
// (Python 2 samples) are left out.
const pyDefs = `
import ast, json, sys
out = {}
for path in sys.stdin.read().split("\n"):
    if not path:
        continue
    try:
        with open(path, "rb") as f:
            tree = ast.parse(f.read(), path)
    except (SyntaxError, ValueError):
        continue
    names = []
    def walk(node, classes, in_func):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if not in_func and child.name.startswith("test"):
                    names.append((child.lineno, ".".join(classes + [child.name])))
                walk(child, classes, True)
            elif isinstance(child, ast.Lambda):
                walk(child, classes, True)
            elif isinstance(child, ast.ClassDef):
                walk(child, classes if in_func else classes + [child.name], in_func)
            else:
                walk(child, classes, in_func)
    walk(tree, [], False)
    out[path] = [n for _, n in sorted(names)]
json.dump(out, sys.stdout)
`

// TestPythonMatchesAst compares the test definitions sentinel reads in
// CPython's own test suite, before it decides which of them pytest
// collects and under which classes, with what Python's ast module finds
// in the same files: a check of the parse.
func TestPythonMatchesAst(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("walks CPython's test suite")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	out, err := exec.Command(py, "-c", "import os, test; print(os.path.dirname(test.__file__))").Output()
	if err != nil {
		t.Skipf("python3 has no test package: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	// Plain files: the interpreter may sit inside a git clone (pyenv) that
	// does not track it.
	counts, err := Count(context.Background(), Options{Mode: Plain, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	got := map[string][]string{}
	for _, f := range counts.Files {
		if f.Language != "python" {
			continue
		}
		p := filepath.Join(counts.Root, filepath.FromSlash(f.Path))
		paths = append(paths, p)
		// The definitions, not what pytest collects from them: a mixin's
		// tests are compared where they are written.
		names := []string{}
		for _, d := range f.Python.Defs {
			if strings.HasPrefix(d.Test.Name, "test") {
				names = append(names, strings.TrimPrefix(d.Class+"."+d.Test.Name, "."))
			}
		}
		got[p] = names
	}
	if len(paths) < 300 {
		t.Fatalf("found %d Python test files in %s, want CPython's suite", len(paths), dir)
	}
	cmd := exec.Command(py, "-c", pyDefs)
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\n"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err = cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, stderr.String())
	}
	var want map[string][]string
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	compared, tests := 0, 0
	for _, p := range paths {
		w, ok := want[p]
		if !ok {
			continue
		}
		compared++
		tests += len(w)
		if !reflect.DeepEqual(got[p], w) {
			t.Errorf("%s: sentinel and ast differ\n%s", p, diffNames(got[p], w))
		}
	}
	t.Logf("%d files, %d tests compared with ast", compared, tests)
}
