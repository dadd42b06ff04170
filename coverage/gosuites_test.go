package coverage

import (
	"context"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/languages"
)

var (
	// gocheckRunner is a test function that runs the check.v1 suites of
	// its package; testifyRunner one that runs a testify suite.
	gocheckRunner = regexp.MustCompile(`func (Test\w*)\(t \*testing\.T\) \{\s*(?:check\.)?TestingT\(t\)\s*\}`)
	testifyRunner = regexp.MustCompile(`func (Test\w*)\(t \*testing\.T\) \{[^}]*?suite\.Run\(t, (?:new\((\w+)\)|&(\w+)\{)`)
	// suiteMethod is a method that a suite may run, declared outside the
	// test files: a base suite's, which check.v1 runs under each suite
	// that embeds it.
	suiteMethod = regexp.MustCompile(`(?m)^func \(\w+ \*?\w+\) (Test\w*)\(`)
)

// TestGoSuitesMatchRunners compares the suite methods sentinel finds in
// go-git, which uses gopkg.in/check.v1 and testify, with what the runners
// say they run: check.v1's own list (go test -v -check.list) and testify's
// subtests (go test -v). A method the runner runs and sentinel does not
// count must be one the suite inherits from another it embeds: sentinel
// counts it once, under the type that declares it, and not at all when
// that type is declared outside the test files, which it does not read.
func TestGoSuitesMatchRunners(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the test binaries of go-git")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the Go toolchain is not installed")
	}
	out, err := exec.Command(goBin, "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skipf("go env GOMODCACHE: %v", err)
	}
	dir := latestModule(strings.TrimSpace(string(out)), "github.com/go-git/go-git/v5")
	if dir == "" {
		t.Skip("go-git is not in the module cache")
	}
	c, err := Count(context.Background(), Options{Mode: Plain, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	declared := map[string][]string{} // method → the types that declare it
	for _, f := range c.Files {
		for _, tt := range f.Tests {
			if typ, method, ok := strings.Cut(tt.Name, "."); ok {
				declared[method] = append(declared[method], typ)
				if tt.Note != languages.NoteNotBuilt && builtHere(tt.Platforms) {
					got[path.Dir(f.Path)] = append(got[path.Dir(f.Path)], tt.Name)
				}
			}
		}
	}

	// The runners of each package, and the methods declared outside test
	// files.
	type runners struct {
		gocheck []string
		testify map[string]string // runner → suite type
	}
	byDir := map[string]*runners{}
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && languages.ForPath(rel+"/x_test.go") == nil {
				return filepath.SkipDir // testdata, _ and . directories
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !strings.HasSuffix(rel, "_test.go") {
			for _, m := range suiteMethod.FindAllSubmatch(src, -1) {
				declared[string(m[1])] = append(declared[string(m[1])], "")
			}
			return nil
		}
		r := byDir[path.Dir(rel)]
		if r == nil {
			r = &runners{testify: map[string]string{}}
			byDir[path.Dir(rel)] = r
		}
		for _, m := range gocheckRunner.FindAllSubmatch(src, -1) {
			r.gocheck = append(r.gocheck, string(m[1]))
		}
		for _, m := range testifyRunner.FindAllSubmatch(src, -1) {
			r.testify[string(m[1])] = string(m[2]) + string(m[3])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	env := append(os.Environ(), "GOWORK=off", "GOPROXY=off", "GOFLAGS=-mod=readonly", "GOTOOLCHAIN=local")
	// A package that does not build here (a dependency missing from the
	// module cache, offline) is left out.
	unbuilt := 0
	listed := func(d, pattern string, extra ...string) ([]string, bool) {
		cmd := exec.Command(goBin, append([]string{"test", "-v", "-count=1", "-run", pattern, "./" + d}, extra...)...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.Output()
		if err != nil {
			t.Logf("%s: go test %s: %v", d, pattern, err)
			return nil, false
		}
		return strings.Split(string(out), "\n"), true
	}
	var dirs, identical, runnerTotal, sentinelTotal, fromBase int
	pkgs := slices.Sorted(func(yield func(string) bool) {
		for d := range byDir {
			if !yield(d) {
				return
			}
		}
	})
	for _, d := range pkgs {
		r := byDir[d]
		var want []string
		built := true
		if len(r.gocheck) > 0 {
			name := regexp.MustCompile(`^\w+\.\w+$`)
			lines, ok := listed(d, "^("+strings.Join(r.gocheck, "|")+")$", "-check.list")
			built = built && ok
			for _, line := range lines {
				if name.MatchString(line) {
					want = append(want, line)
				}
			}
		}
		for runner, typ := range r.testify {
			lines, ok := listed(d, "^"+runner+"$")
			built = built && ok
			for _, line := range lines {
				if sub, ok := strings.CutPrefix(strings.TrimSpace(line), "=== RUN   "+runner+"/"); ok && !strings.Contains(sub, "/") {
					want = append(want, typ+"."+sub)
				}
			}
		}
		if !built {
			unbuilt++
			continue
		}
		if len(want) == 0 && len(got[d]) == 0 {
			continue
		}
		dirs++
		// Two runners in one package each run every suite registered.
		sort.Strings(want)
		want = slices.Compact(want)
		g := slices.Sorted(slices.Values(got[d]))
		runnerTotal += len(want)
		sentinelTotal += len(g)
		var unexplained []string
		for _, n := range want {
			if !slices.Contains(g, n) {
				typ, method, _ := strings.Cut(n, ".")
				if slices.ContainsFunc(declared[method], func(other string) bool { return other != typ }) {
					fromBase++
					continue
				}
				unexplained = append(unexplained, n)
			}
		}
		var extra []string
		for _, n := range g {
			if !slices.Contains(want, n) {
				extra = append(extra, n)
			}
		}
		if len(unexplained)+len(extra) > 0 {
			t.Errorf("%s: only the runner: %q; only sentinel: %q", d, unexplained, extra)
			continue
		}
		if slices.Equal(g, want) {
			identical++
		}
	}
	t.Logf("%d packages with suites, %d identical; the runners list %d suite tests, sentinel %d; %d inherited from suites they embed; %d packages not built here",
		dirs, identical, runnerTotal, sentinelTotal, fromBase, unbuilt)
	switch {
	case dirs == 0 && unbuilt > 0:
		t.Skip("no package of go-git with suites builds here")
	case dirs == 0:
		t.Error("no suite found in go-git")
	}
}
