package config

import (
	"slices"
	"strings"
	"testing"
)

func TestCountingLowers(t *testing.T) {
	read := func(s string) Counting {
		t.Helper()
		c, err := ReadCounting("c.toml", []byte(s))
		if err != nil {
			t.Fatalf("ReadCounting(%q): %v", s, err)
		}
		return c
	}
	none := read("")
	one := read("[coverage]\nexclude = [\"a/**\"]\n")
	two := read("[coverage]\nexclude = [\"b/**\", \"a/**\"]\n")
	scoped := read("[coverage]\nexclude = [\"a/**\"]\n[[coverage.scope]]\nname = \"api\"\npaths = [\"api/**\"]\n")
	// Keys an older or newer sentinel wrote do not stop the read.
	if c := read("[coverage]\nexclude = [\"a/**\"]\nfuture = 1\n[other]\nx = 2\n"); !c.SameExcludes(one) {
		t.Errorf("lenient read: %+v", c)
	}
	for _, tc := range []struct {
		name        string
		now, before Counting
		want        []string
	}{
		{"unchanged", one, one, nil},
		{"a pattern added", one, none, []string{`it adds "a/**" to [coverage] exclude`}},
		{"another added", two, one, []string{`it adds "b/**" to [coverage] exclude`}},
		{"a pattern removed", one, two, nil},
		{"all removed", none, two, nil},
		{"a scope added", scoped, one, []string{"it changes [[coverage.scope]]"}},
		{"a scope removed", one, scoped, []string{"it changes [[coverage.scope]]"}},
	} {
		if got := tc.now.Lowers(tc.before); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Lowers = %q, want %q", tc.name, got, tc.want)
		}
	}
	if !two.SameExcludes(read("[coverage]\nexclude = [\"a/**\", \"b/**\", \"a/**\"]\n")) || one.SameExcludes(two) {
		t.Error("SameExcludes compares the set of patterns")
	}
	if _, err := ReadCounting("c.toml", []byte("[coverage]\nexclude = 3\n")); err == nil || !strings.HasPrefix(err.Error(), "c.toml:") {
		t.Errorf("a wrong type: err = %v, want one naming the file", err)
	}
	if _, err := ReadCounting("c.toml", make([]byte, MaxSize+1)); err == nil {
		t.Error("an oversized configuration read")
	}
}
