package guard

import (
	"os/exec"
	"strings"
	"testing"
)

// guardLayers are the guard's packages, bottom first. A package imports
// only packages of a lower layer, the way mvdan/sh's never import upward:
// to read how a command line is decomposed, shell and what lies below it
// is all there is to load.
var guardLayers = [][]string{
	{"guard/verdict", "guard/internal/argspec", "guard/script", "guard/install", "guard/hostrun"},
	{"guard/shell"},
	{"guard/pathguard"},
	{"guard/rules", "guard/policy", "guard/hosts", "guard/internal/guardtest"},
	{"guard/audit"},
	{"guard"},
}

const module = "github.com/gitsentinel/sentinel/"

// TestGuardLayers checks every guard package's imports against its layer,
// in the engine's build and in the front's, and that the front links no
// tree-sitter package.
func TestGuardLayers(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH: the layers are read with go list")
	}
	layer := map[string]int{}
	for i, ps := range guardLayers {
		for _, p := range ps {
			layer[module+p] = i
		}
	}
	for _, tags := range []string{"", "sentinel_front"} {
		out, err := exec.Command("go", "list", "-tags", tags, "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "../guard/...").CombinedOutput()
		if err != nil {
			t.Fatalf("go list: %v\n%s", err, out)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Fields(line)
			pkg, imports := f[0], f[1:]
			l, ok := layer[pkg]
			if !ok {
				t.Errorf("%s has no layer: add it to guardLayers in guard/layers_test.go", pkg)
				continue
			}
			for _, imp := range imports {
				if il, ok := layer[imp]; ok && il >= l {
					t.Errorf("%s (layer %d) imports %s (layer %d): a package imports only from the layers below it; move what it needs down, or the code up", strings.TrimPrefix(pkg, module), l, strings.TrimPrefix(imp, module), il)
				}
			}
		}
	}
	out, err := exec.Command("go", "list", "-deps", "-tags", "urfave_cli_no_docs sentinel_front", "../cmd/sentinel").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.Contains(p, "tree-sitter") {
			t.Errorf("the front links %s; only the engine may link a grammar", p)
		}
	}
}
