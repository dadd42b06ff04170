package coverage

import (
	"context"
	"sort"
	"testing"
)

// countedNames counts dir as plain files and returns every test's name,
// with its status after a space when withStatus is set, sorted.
func countedNames(t *testing.T, dir string, withStatus bool) []string {
	t.Helper()
	c, err := Count(context.Background(), Options{Mode: Plain, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range c.Files {
		for _, tt := range f.Tests {
			if withStatus {
				got = append(got, tt.Name+" "+string(tt.Status))
			} else {
				got = append(got, tt.Name)
			}
		}
	}
	sort.Strings(got)
	return got
}
