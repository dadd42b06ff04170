package coverage

import (
	"path"
	"strings"
	"testing"
)

// matchExcludeSplit is matchExclude as it was, splitting the path: the
// reference for the one that walks it in place.
func matchExcludeSplit(p, pat string) bool {
	anyDepth := strings.HasPrefix(pat, "**/")
	pat = strings.TrimPrefix(pat, "**/")
	if dir, ok := strings.CutSuffix(pat, "/**"); ok {
		segs := strings.Split(p, "/")
		for i := range segs[:len(segs)-1] {
			if !anyDepth && i > 0 {
				break
			}
			if ok, _ := path.Match(dir, segs[i]); ok {
				return true
			}
		}
		return false
	}
	if ok, _ := path.Match(pat, p); ok {
		return true
	}
	if anyDepth {
		ok, _ := path.Match(pat, path.Base(p))
		return ok
	}
	return false
}

func TestMatchExcludeAsBefore(t *testing.T) {
	paths := []string{"a_test.go", "vendor", "vendor/x_test.go", "a/vendor/x_test.go", "testdata/x.go",
		"a/testdata/x.go", "a/b/testdata/c/x.go", "a/testdata", "node_modules/a/b.js", "src/node_modules/b.js",
		"fixtures/x/y_test.go", "x/fixtures/y.go", "third_party/a.c", "a/b/c/d.go", "vendorx/a.go", "a/tests/b.py",
		"generated/a_test.go", "a/generated/gen_test.go", "dir with space/a.go", "a/[b]/c.go", ""}
	pats := append(append([]string(nil), DefaultExcludes...), "fixtures/**", "**/fixtures/**", "gen*/**",
		"**/gen?rated/**", "a/*", "**/*_test.go", "*.go", "a/[b]/**", "**/[t]estdata/**", "dir with space/**")
	for _, p := range paths {
		for _, pat := range pats {
			if got, want := matchExclude(p, pat), matchExcludeSplit(p, pat); got != want {
				t.Errorf("matchExclude(%q, %q) = %v, was %v", p, pat, got, want)
			}
		}
	}
}

func BenchmarkExcluded(b *testing.B) {
	p := "team7/go/cmd/vendor/golang.org/x/tools/go/analysis/passes/printf/printf_test.go"
	for b.Loop() {
		excluded(p, DefaultExcludes)
	}
}

func BenchmarkExcludedSplit(b *testing.B) {
	p := "team7/go/cmd/vendor/golang.org/x/tools/go/analysis/passes/printf/printf_test.go"
	for b.Loop() {
		for _, pat := range DefaultExcludes {
			matchExcludeSplit(p, pat)
		}
	}
}
