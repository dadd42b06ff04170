package coverage

import (
	"math/rand"
	"path"
	"strings"
	"testing"
)

// splitMatchExclude is the plain reading of an exclude pattern, splitting
// the path into its segments: excluded must agree with it.
func splitMatchExclude(p, pat string) bool {
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

func TestMatchExcludeAgreesWithSplitting(t *testing.T) {
	segs := []string{"vendor", "testdata", "a", "node_modules", "x_test.go", "third_party", "v", "[b]", "*", ""}
	pats := append([]string{"a/**", "**/a/**", "v*/**", "**/[tv]*/**", "*.go", "**/*_test.go", "a/b/**", "**/", "[/**"}, DefaultExcludes...)
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		n := 1 + r.Intn(5)
		parts := make([]string, n)
		for j := range parts {
			parts[j] = segs[r.Intn(len(segs))]
		}
		p := strings.Join(parts, "/")
		for _, pat := range pats {
			if got, want := excluded(p, []string{pat}), splitMatchExclude(p, pat); got != want {
				t.Fatalf("excluded(%q, %q) = %v, splitting says %v", p, pat, got, want)
			}
		}
	}
}
