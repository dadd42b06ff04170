package config

import (
	"fmt"
	"slices"
)

// Counting is what of a configuration decides which files are counted and
// where their peaks are kept: [coverage] exclude and [[coverage.scope]].
// A change to it can lower what the ratchet sees without a test being
// touched, so each side of a change is judged with its own, and a change
// that can lower the count is a person's to make.
type Counting struct {
	// Exclude is [coverage] exclude.
	Exclude []string
	// Scope is [[coverage.scope]].
	Scope []Scope
}

// ReadCounting reads [coverage] exclude and scope from a configuration as
// some commit holds it. Like ReadSigners it reads only those keys, and
// leniently, so that a configuration an older or newer sentinel wrote
// still says what it counts; an error means the file is not TOML, or the
// keys do not have their types.
func ReadCounting(name string, data []byte) (Counting, error) {
	var c struct {
		Coverage struct {
			Exclude []string `toml:"exclude"`
			Scope   []Scope  `toml:"scope"`
		} `toml:"coverage"`
	}
	if err := decodeLenient(name, data, &c); err != nil {
		return Counting{}, err
	}
	return Counting{Exclude: c.Coverage.Exclude, Scope: c.Coverage.Scope}, nil
}

// SameExcludes reports whether two configurations exclude the same paths,
// as far as their patterns tell: the same patterns, in any order.
func (c Counting) SameExcludes(o Counting) bool {
	a, b := slices.Clone(c.Exclude), slices.Clone(o.Exclude)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}

// Lowers says, a sentence each, what c changes from the configuration
// before it that can lower what is counted: an exclude pattern before
// lacked (removing one only counts more), and any change of the scopes
// (which moves tests between peaks).
func (c Counting) Lowers(before Counting) []string {
	var out []string
	for _, p := range c.Exclude {
		if !slices.Contains(before.Exclude, p) {
			out = append(out, fmt.Sprintf("it adds %q to [coverage] exclude", p))
		}
	}
	if !slices.EqualFunc(c.Scope, before.Scope, func(a, b Scope) bool {
		return a.Name == b.Name && slices.Equal(a.Paths, b.Paths)
	}) {
		out = append(out, "it changes [[coverage.scope]]")
	}
	return out
}
