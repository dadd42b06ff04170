package coverage

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/languages"
)

// goModules are third-party modules whose tests sentinel's count is
// compared with `go test -list`, when the module cache holds them (they are
// this module's dependencies, or theirs). Each is compared package
// directory by package directory, over the packages go test can build here
// without a network; SENTINEL_GOMODS, a space-separated list of module
// paths, replaces the list.
var goModules = []string{
	"golang.org/x/sys", "golang.org/x/term", "golang.org/x/net", "golang.org/x/tools", "mvdan.cc/sh/v3",
	"github.com/go-git/go-git/v5", "github.com/go-git/go-billy/v5", "github.com/gobwas/glob",
	"github.com/pelletier/go-toml/v2", "github.com/rivo/uniseg", "github.com/urfave/cli/v2",
	"github.com/rogpeppe/go-internal", "github.com/schollz/progressbar/v3", "github.com/pjbgf/sha1cd",
}

// TestGoMatchesGoTestListOnModules compares, package directory by package
// directory, the active tests sentinel finds in third-party modules, built
// for this platform, with what `go test -list` reports for each package it
// can build. Suite methods (Type.Method) are left out: go test lists only
// the functions it calls.
func TestGoMatchesGoTestListOnModules(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the test binaries of third-party modules")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the Go toolchain is not installed")
	}
	out, err := exec.Command(goBin, "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skipf("go env GOMODCACHE: %v", err)
	}
	cache := strings.TrimSpace(string(out))
	mods := goModules
	if env := os.Getenv("SENTINEL_GOMODS"); env != "" {
		mods = strings.Fields(env)
	}
	compared := 0
	for _, mod := range mods {
		versions := cachedVersions(cache, mod)
		if len(versions) == 0 {
			t.Logf("%s: not in the module cache", mod)
			continue
		}
		t.Run(mod, func(t *testing.T) {
			r, dir := compareGoModule(t, goBin, versions)
			if r.dirs > 0 {
				compared++
			}
			_, version, _ := strings.Cut(filepath.Base(dir), "@")
			t.Logf("| %s %s | %d | %d | %d | %d | %d | %s |", mod, version, r.dirs, r.identical, r.runner, r.sentinel, r.unbuilt, strings.Join(r.release, ", "))
		})
	}
	if compared < 2 {
		t.Skipf("%d modules compared; the module cache holds too few that build offline", compared)
	}
}

// offlineRefusals are what go says when a module cannot be loaded from
// the module cache alone, without the proxy and with this toolchain: a
// dependency the cache lacks, or a go line newer than the Go at hand.
var offlineRefusals = regexp.MustCompile(`(?m)^go: (\S+@\S+): module lookup disabled by GOPROXY=off$|` +
	`^go: (\S+@\S+): missing go\.sum entry|^go: (.*requires go >= \S+ \(running go \S+; GOTOOLCHAIN=local\))$`)

// offlineMissing returns what go's stderr says the module cache or the
// toolchain lacks to load a module offline, or "" when it says nothing of
// the kind.
func offlineMissing(stderr string) string {
	var missing []string
	for _, m := range offlineRefusals.FindAllStringSubmatch(stderr, -1) {
		for _, g := range m[1:] {
			if g != "" {
				missing = append(missing, g)
			}
		}
	}
	if len(missing) == 0 {
		return ""
	}
	if strings.Contains(missing[0], "requires go") {
		return strings.Join(missing, "; ")
	}
	return strings.Join(missing, ", ") + " not in the module cache"
}

// latestModule returns the directory of the latest version of a module in
// the module cache, or "".
func latestModule(cache, mod string) string {
	if versions := cachedVersions(cache, mod); len(versions) > 0 {
		return versions[0]
	}
	return ""
}

// cachedVersions returns the directories of the versions of a module in
// the module cache, the latest first.
func cachedVersions(cache, mod string) []string {
	escaped := strings.Builder{}
	for _, r := range mod {
		if r >= 'A' && r <= 'Z' {
			escaped.WriteString("!" + strings.ToLower(string(r)))
		} else {
			escaped.WriteRune(r)
		}
	}
	dirs, _ := filepath.Glob(filepath.Join(cache, filepath.FromSlash(escaped.String())+"@v*"))
	// Versions in semantic order, the latest first: v0.48.0 comes before
	// v0.9.0.
	slices.SortFunc(dirs, func(a, b string) int {
		_, va, _ := strings.Cut(filepath.Base(a), "@")
		_, vb, _ := strings.Cut(filepath.Base(b), "@")
		return compareSemver(vb, va)
	})
	return dirs
}

// compareSemver orders two module versions (vMAJOR.MINOR.PATCH, with an
// optional pre-release after a hyphen, which sorts before its release)
// as semantic versioning does for the numbers, and pre-releases by text.
func compareSemver(a, b string) int {
	a, preA, hasA := strings.Cut(strings.TrimPrefix(strings.TrimSuffix(a, "+incompatible"), "v"), "-")
	b, preB, hasB := strings.Cut(strings.TrimPrefix(strings.TrimSuffix(b, "+incompatible"), "v"), "-")
	na, nb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(na) || i < len(nb); i++ {
		var x, y int
		if i < len(na) {
			x, _ = strconv.Atoi(na[i])
		}
		if i < len(nb) {
			y, _ = strconv.Atoi(nb[i])
		}
		if x != y {
			return cmp.Compare(x, y)
		}
	}
	switch {
	case hasA && !hasB:
		return -1
	case !hasA && hasB:
		return 1
	}
	return strings.Compare(preA, preB)
}

type goModuleComparison struct {
	dirs, identical  int // package directories compared, and identical (release aside)
	runner, sentinel int // test names in them
	unbuilt          int // packages go test could not build here
	// release lists the files go builds here and sentinel reads as not
	// built, or the other way round, because a release tag is read
	// against the module's go line rather than the toolchain at hand.
	release []string
}

// compareGoModule compares, in each package directory, two things: the
// test names sentinel finds (active or skipped, suite methods aside) in
// the files go list says are built here with what go test -list prints;
// and whether sentinel reads each test file as built here (built on some
// platform, and this one among them) with go list's choice of files. It
// compares the latest of the versions (module directories, the latest
// first) whose packages go can load from the module cache alone, and
// returns its directory; when none can, the test is skipped with what
// each lacks.
func compareGoModule(t *testing.T, goBin string, versions []string) (goModuleComparison, string) {
	env := append(os.Environ(), "GOWORK=off", "GOPROXY=off", "GOFLAGS=-mod=readonly", "GOTOOLCHAIN=local")
	var dir string
	var out []byte
	var lacking []string
	for _, v := range versions {
		cmd := exec.Command(goBin, "list", "-e", "-f", "{{.ImportPath}}|{{.Dir}}|{{join .TestGoFiles \",\"}}|{{join .XTestGoFiles \",\"}}", "./...")
		cmd.Dir, cmd.Env = v, env
		o, err := cmd.Output()
		if err == nil {
			dir, out = v, o
			break
		}
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = strings.TrimSpace(string(ee.Stderr))
		}
		missing := offlineMissing(stderr)
		if missing == "" {
			t.Fatalf("go list in %s: %v\n%s", v, err, stderr)
		}
		lacking = append(lacking, filepath.Base(v)+": "+missing)
	}
	if dir == "" {
		t.Skipf("no version in the module cache loads offline (go mod download in its directory fetches what it lacks): %s", strings.Join(lacking, "; "))
	}
	pkgDir := map[string]string{}
	built := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 4 {
			continue
		}
		rel, err := filepath.Rel(dir, f[1])
		if err != nil {
			t.Fatal(err)
		}
		rel = filepath.ToSlash(rel)
		pkgDir[f[0]] = rel
		for _, name := range strings.Split(f[2]+","+f[3], ",") {
			if name != "" {
				built[path.Join(rel, name)] = true
			}
		}
	}

	cmd := exec.Command(goBin, "test", "-list", "^(Test|Fuzz)", "./...")
	cmd.Dir, cmd.Env = dir, env
	out, _ = cmd.Output() // packages that do not build say FAIL
	want := map[string][]string{}
	unbuilt := map[string]bool{}
	var pending []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		switch {
		case len(f) >= 2 && (f[0] == "ok" || f[0] == "?"):
			if d, known := pkgDir[f[1]]; known {
				want[d] = append(want[d], pending...)
			}
			pending = nil
		case len(f) >= 2 && f[0] == "FAIL":
			if d, known := pkgDir[f[1]]; known {
				unbuilt[d] = true
			}
			pending = nil
		case len(f) == 1 && (strings.HasPrefix(line, "Test") || strings.HasPrefix(line, "Fuzz")):
			pending = append(pending, line)
		}
	}

	c, err := Count(context.Background(), Options{Mode: Plain, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var r goModuleComparison
	got := map[string][]string{}
	differ := map[string][]string{}
	release := map[string]bool{}
	for _, f := range c.Files {
		if f.Language != "go" || len(f.Tests) == 0 {
			continue
		}
		d := path.Dir(f.Path)
		here := f.Tests[0].Note != languages.NoteNotBuilt && builtHere(f.Tests[0].Platforms)
		switch {
		case here == built[f.Path]:
		case strings.Contains(f.Constraint, "go1."):
			r.release = append(r.release, f.Path)
			release[d] = true
		default:
			differ[d] = append(differ[d], fmt.Sprintf("  %s: go builds it here: %v; sentinel: %v", f.Path, built[f.Path], here))
		}
		if !built[f.Path] {
			continue
		}
		for _, tt := range f.Tests {
			if !strings.Contains(tt.Name, ".") {
				got[d] = append(got[d], tt.Name)
			}
		}
	}

	r.unbuilt = len(unbuilt)
	dirs := map[string]bool{}
	for d := range want {
		dirs[d] = true
	}
	for d := range got {
		dirs[d] = true
	}
	for d := range dirs {
		if unbuilt[d] {
			continue
		}
		g, w := slices.Sorted(slices.Values(got[d])), slices.Sorted(slices.Values(want[d]))
		r.dirs++
		r.runner += len(w)
		r.sentinel += len(g)
		if (reflect.DeepEqual(g, w) || len(g) == 0 && len(w) == 0) && differ[d] == nil {
			if !release[d] {
				r.identical++
			}
			continue
		}
		t.Errorf("%s: sentinel and go test -list differ\n%s%s", d, diffNames(g, w), strings.Join(differ[d], "\n"))
	}
	return r, dir
}

// builtHere reports whether a test's platforms include this one.
func builtHere(platforms []string) bool {
	return platforms == nil || slices.Contains(platforms, runtime.GOOS) || slices.Contains(platforms, runtime.GOARCH) ||
		slices.Contains(platforms, fmt.Sprintf("%s/%s", runtime.GOOS, runtime.GOARCH))
}

// TestCompareSemver checks the order in which the module cache's versions
// are tried: by number, not by text, and a pre-release before its release.
func TestCompareSemver(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"v0.9.0", "v0.48.0", -1},
		{"v1.10.0", "v1.9.9", 1},
		{"v2.0.0+incompatible", "v2.0.0", 0},
		{"v0.8.0-rc.1", "v0.8.0", -1},
		{"v0.0.0-20231110203233-9a3e6036ecaa", "v0.0.0-20260410095643-746e56fc9e2f", -1},
	} {
		if got := compareSemver(tc.a, tc.b); got != tc.want {
			t.Errorf("compareSemver(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
