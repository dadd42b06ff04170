package languages

import (
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// A test under #[cfg(target_os = "windows")], #[cfg(unix)] or
// #[cfg(target_arch = "x86_64")], on itself, a module around it or its
// file, is built on those platforms only. Like a Go file for another
// platform, it stays active, since it runs on that platform's CI, and
// names the platforms: target_os, target_family and target_arch values,
// "!windows" for a platform left out, "unix/x86_64" for both at once.

// rustPlatKind is what a cfg predicate says about platforms.
type rustPlatKind int

const (
	// platAny: the predicate holds on every platform, or does not depend on one.
	platAny rustPlatKind = iota
	// platNone: it holds on no platform.
	platNone
	// platSome: it holds on the platforms of dnf.
	platSome
	// platUnknown: it depends on something else too (a feature), in a way
	// that leaves the platforms open.
	platUnknown
)

// rustPlat is a cfg predicate's platforms: an OR of ANDs of platform
// names, each name possibly negated with a leading "!".
type rustPlat struct {
	kind rustPlatKind
	dnf  [][]string
}

// rustMaxAlternatives bounds a predicate's platforms, which negations
// multiply; past it the platforms are left open.
const rustMaxAlternatives = 32

var rustPlatformKeys = map[string]bool{"target_os": true, "target_family": true, "target_arch": true}

// rustCfgPlatforms reads the platforms of a cfg predicate's tokens.
func rustCfgPlatforms(f *File, toks []*sitter.Node) rustPlat {
	if !f.descend() {
		return rustPlat{}
	}
	defer f.ascend()
	switch {
	case len(toks) == 1 && toks[0].Type() == "identifier":
		switch f.Text(toks[0]) {
		case "unix", "windows":
			return rustPlat{kind: platSome, dnf: [][]string{{f.Text(toks[0])}}}
		case "test":
			return rustPlat{kind: platAny}
		}
	case len(toks) == 1 && toks[0].Type() == "boolean_literal":
		if f.Text(toks[0]) == "true" {
			return rustPlat{kind: platAny}
		}
		return rustPlat{kind: platNone}
	case len(toks) == 3 && toks[0].Type() == "identifier" && f.Text(toks[1]) == "=" && rustPlatformKeys[f.Text(toks[0])]:
		if v := rustLiteral(f, toks[2]); v.kind == constString && v.exact {
			_, value, _ := strings.Cut(v.s, "\x00")
			return rustPlat{kind: platSome, dnf: [][]string{{value}}}
		}
	case len(toks) == 2 && toks[0].Type() == "identifier" && toks[1].Type() == "token_tree":
		var args []rustPlat
		for _, a := range rustSplitArgs(toks[1]) {
			args = append(args, rustCfgPlatforms(f, a))
		}
		switch f.Text(toks[0]) {
		case "all":
			return rustPlatAll(args)
		case "any":
			return rustPlatAny(args)
		case "not":
			if len(args) == 1 {
				return rustPlatNot(args[0])
			}
		}
	}
	return rustPlat{kind: platUnknown}
}

// rustPlatAll is the platforms where every predicate holds; a predicate
// that does not depend on the platform restricts nothing.
func rustPlatAll(args []rustPlat) rustPlat {
	out := rustPlat{kind: platAny}
	for _, a := range args {
		switch a.kind {
		case platNone:
			return a
		case platSome:
			if out.kind != platSome {
				out = a
				continue
			}
			var dnf [][]string
			for _, x := range out.dnf {
				for _, y := range a.dnf {
					dnf = append(dnf, append(slices.Clone(x), y...))
				}
			}
			if len(dnf) > rustMaxAlternatives {
				return rustPlat{kind: platUnknown}
			}
			out.dnf = dnf
		}
	}
	return out
}

// rustPlatAny is the platforms where some predicate holds; one that holds
// everywhere, or depends on more than the platform, leaves them open.
func rustPlatAny(args []rustPlat) rustPlat {
	out := rustPlat{kind: platNone}
	for _, a := range args {
		switch a.kind {
		case platAny:
			return a
		case platUnknown:
			out.kind = platUnknown
		case platSome:
			if out.kind == platNone {
				out.kind = platSome
			}
			out.dnf = append(out.dnf, a.dnf...)
		}
	}
	if out.kind == platUnknown || len(out.dnf) > rustMaxAlternatives {
		return rustPlat{kind: platUnknown}
	}
	return out
}

// rustPlatNot negates platforms: NOT of an OR of ANDs is an AND of ORs of
// negated names, spread back into an OR of ANDs.
func rustPlatNot(a rustPlat) rustPlat {
	switch a.kind {
	case platAny:
		return rustPlat{kind: platNone}
	case platNone:
		return rustPlat{kind: platAny}
	case platUnknown:
		return a
	}
	out := rustPlat{kind: platAny}
	for _, conj := range a.dnf {
		var alts []rustPlat
		for _, name := range conj {
			neg := "!" + name
			if n, ok := strings.CutPrefix(name, "!"); ok {
				neg = n
			}
			alts = append(alts, rustPlat{kind: platSome, dnf: [][]string{{neg}}})
		}
		out = rustPlatAll([]rustPlat{out, rustPlatAny(alts)})
		if out.kind == platUnknown {
			return out
		}
	}
	return out
}

// everywhere reports platforms that hold on every real platform: both
// unix and windows (every target_family a std test runs on), or some name
// and its negation, each alone in its alternative.
func (p rustPlat) everywhere() bool {
	if p.kind == platAny {
		return true
	}
	if p.kind != platSome {
		return false
	}
	single := map[string]bool{}
	for _, conj := range p.dnf {
		if len(conj) == 1 {
			single[conj[0]] = true
		}
	}
	if single["unix"] && single["windows"] {
		return true
	}
	for name := range single {
		if !strings.HasPrefix(name, "!") && single["!"+name] {
			return true
		}
	}
	return false
}

// names returns the platforms as names, "a/b" for an AND, or nil when the
// predicate does not restrict them.
func (p rustPlat) names() []string {
	if p.kind != platSome {
		return nil
	}
	var out []string
	for _, conj := range p.dnf {
		c := slices.Clone(conj)
		slices.Sort(c)
		out = append(out, strings.Join(slices.Compact(c), "/"))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// rustItemPlatforms reads the platforms of the #[cfg(…)] attributes before
// an item (a function or a module), and of the #![cfg(…)] ones at the top
// of body, all of which must hold.
func rustItemPlatforms(f *File, item, body *sitter.Node) rustPlat {
	var preds []rustPlat
	add := func(attr *sitter.Node) {
		if rustAttrPath(f, attr) != "cfg" {
			return
		}
		if args := rustSplitArgs(rustAttrArgs(attr)); len(args) == 1 {
			preds = append(preds, rustCfgPlatforms(f, args[0]))
		}
	}
	for s := prevSibling(item); s != nil; s = s.PrevNamedSibling() {
		if s.Type() == "line_comment" || s.Type() == "block_comment" {
			continue
		}
		if s.Type() != "attribute_item" {
			break
		}
		add(s)
	}
	for _, s := range statements(body) {
		if s.Type() != "inner_attribute_item" {
			break
		}
		add(s)
	}
	return rustPlatAll(preds)
}

// prevSibling returns the named sibling before n, or nil for no n.
func prevSibling(n *sitter.Node) *sitter.Node {
	if n == nil {
		return nil
	}
	return n.PrevNamedSibling()
}
