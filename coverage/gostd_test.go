package coverage

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// stdPackages are the standard library packages whose tests the Go
// comparison covers.
var stdPackages = []string{
	"strings", "bytes", "net/http", "encoding/json", "go/parser", "regexp", "sort", "time", "fmt", "os",
	"strconv", "bufio", "errors", "path/filepath", "unicode/utf8", "math/big", "container/list",
	"text/template", "encoding/base64", "io", "sync", "crypto/sha256", "compress/gzip", "flag", "net/url",
	"archive/tar", "hash/crc32", "html/template",
}

// TestGoMatchesGoTestList compares the tests sentinel finds in the standard
// library with what `go test -list` reports, package by package, over the
// files `go list` says are built here.
func TestGoMatchesGoTestList(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the test binaries of the standard library")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the Go toolchain is not installed")
	}
	// go list: each package's directory and the test files built here.
	args := append([]string{"list", "-f", "{{.ImportPath}}|{{.Dir}}|{{join .TestGoFiles \",\"}}|{{join .XTestGoFiles \",\"}}"}, stdPackages...)
	out, err := exec.Command(goBin, args...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	files := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		for _, list := range f[2:] {
			for _, name := range strings.Split(list, ",") {
				if name != "" {
					files[f[0]] = append(files[f[0]], filepath.Join(f[1], name))
				}
			}
		}
	}

	// go test -list: the names, then "ok  <pkg>" closes each package.
	cmd := exec.Command(goBin, append([]string{"test", "-list", "^(Test|Fuzz)"}, stdPackages...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err = cmd.Output()
	if err != nil {
		t.Fatalf("go test -list: %v\n%s", err, stderr.String())
	}
	want := map[string][]string{}
	var pending []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if f := strings.Fields(line); len(f) >= 2 && (f[0] == "ok" || f[0] == "?") {
			want[f[1]] = pending
			pending = nil
			continue
		}
		pending = append(pending, line)
	}

	total := 0
	for _, pkg := range stdPackages {
		counts, err := CountTargets(context.Background(), "/", files[pkg], Options{Mode: WorkTree})
		if err != nil {
			t.Fatalf("%s: %v", pkg, err)
		}
		var got []string
		for _, f := range counts.Files {
			for _, tt := range f.Tests {
				got = append(got, tt.Name)
			}
		}
		sort.Strings(got)
		w := append([]string(nil), want[pkg]...)
		sort.Strings(w)
		if len(w) == 0 {
			t.Errorf("%s: go test -list reported no tests", pkg)
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s: sentinel and go test -list differ\n%s", pkg, diffNames(got, w))
		}
		total += len(w)
	}
	t.Logf("%d packages, %d tests compared", len(stdPackages), total)
}

// diffNames lists the names only one side has.
func diffNames(got, want []string) string {
	count := map[string]int{}
	for _, g := range got {
		count[g]++
	}
	for _, w := range want {
		count[w]--
	}
	var b strings.Builder
	for n, c := range count {
		switch {
		case c > 0:
			b.WriteString("  only sentinel: " + n + "\n")
		case c < 0:
			b.WriteString("  only the reference: " + n + "\n")
		}
	}
	return b.String()
}

// TestGoBuildConstraintsMatchGoTestList checks against go test -list that a
// test file go test never builds (//go:build ignore, a custom tag, an
// impossible constraint, an old // +build line) holds no active test, and
// that one it builds here does.
func TestGoBuildConstraintsMatchGoTestList(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the Go toolchain is not installed")
	}
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" && runtime.GOOS != "windows" {
		t.Skip("the fixture's platform file names linux, darwin and windows")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":          "module example.com/a\n\ngo 1.21\n",
		"plain_test.go":   "package a\n\nimport \"testing\"\n\nfunc TestPlain(t *testing.T) {}\n",
		"ignore_test.go":  "//go:build ignore\n\npackage a\n\nimport \"testing\"\n\nfunc TestIgnored(t *testing.T) {}\n",
		"tag_test.go":     "// Integration tests.\n\n//go:build integration\n\npackage a\n\nimport \"testing\"\n\nfunc TestTagged(t *testing.T) {}\n",
		"plus_test.go":    "// +build ignore\n\npackage a\n\nimport \"testing\"\n\nfunc TestPlusIgnored(t *testing.T) {}\n",
		"never_test.go":   "//go:build linux && windows\n\npackage a\n\nimport \"testing\"\n\nfunc TestNever(t *testing.T) {}\n",
		"here_test.go":    "//go:build (linux || darwin || windows) && go1.1\n\npackage a\n\nimport \"testing\"\n\nfunc TestHere(t *testing.T) {}\n",
		"release_test.go": "//go:build !go1.1\n\npackage a\n\nimport \"testing\"\n\nfunc TestOld(t *testing.T) {}\n",
	}
	var paths []string
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, "_test.go") {
			paths = append(paths, p)
		}
	}
	cmd := exec.Command(goBin, "test", "-list", "^(Test|Fuzz)", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test -list: %v\n%s", err, out)
	}
	var want []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if !strings.HasPrefix(line, "ok ") {
			want = append(want, line)
		}
	}
	counts, err := CountTargets(context.Background(), "/", paths, Options{Mode: WorkTree})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range counts.Files {
		for _, tt := range f.Tests {
			if tt.Status == "active" {
				got = append(got, tt.Name)
			}
		}
	}
	sort.Strings(got)
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("active tests differ from go test -list\n%s", diffNames(got, want))
	}
}
