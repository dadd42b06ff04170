package languages

import (
	"bytes"
	"go/build/constraint"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A Go test file is built, and its tests run, where go test builds it: on
// the platforms its name (x_windows_test.go) and its build constraint
// (//go:build darwin) allow, with no -tags, by the Go release its module
// asks for. A file for another platform stays active: it runs on that
// platform's CI, and its tests say which platforms in Test.Platforms. A
// file no platform builds (//go:build ignore, a custom tag, a release newer
// than its module's) is switched off, as go test -list leaves it out.

// goPorts are the targets `go tool dist list` names, one "GOOS/GOARCH" per
// word.
const goPorts = `aix/ppc64 android/386 android/amd64 android/arm android/arm64 darwin/amd64 darwin/arm64
dragonfly/amd64 freebsd/386 freebsd/amd64 freebsd/arm freebsd/arm64 illumos/amd64 ios/amd64
ios/arm64 js/wasm linux/386 linux/amd64 linux/arm linux/arm64 linux/loong64 linux/mips linux/mips64
linux/mips64le linux/mipsle linux/ppc64 linux/ppc64le linux/riscv64 linux/s390x netbsd/386
netbsd/amd64 netbsd/arm netbsd/arm64 openbsd/386 openbsd/amd64 openbsd/arm openbsd/arm64
openbsd/ppc64 openbsd/riscv64 plan9/386 plan9/amd64 plan9/arm solaris/amd64 wasip1/wasm windows/386
windows/amd64 windows/arm64`

type goPort struct{ goos, goarch string }

var goPortList = sync.OnceValue(func() []goPort {
	var ps []goPort
	for _, w := range strings.Fields(goPorts) {
		goos, goarch, _ := strings.Cut(w, "/")
		ps = append(ps, goPort{goos, goarch})
	}
	return ps
})

// goUnix are the GOOS values for which the "unix" build tag holds.
var goUnix = map[string]bool{"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true,
	"hurd": true, "illumos": true, "ios": true, "linux": true, "netbsd": true, "openbsd": true, "solaris": true}

// goKnownOS and goKnownArch are go/build's lists: a file name that ends in
// one of them (before _test) is built only there, even for a value no port
// has any more (nacl).
var (
	goKnownOS = map[string]bool{"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true,
		"hurd": true, "illumos": true, "ios": true, "js": true, "linux": true, "nacl": true, "netbsd": true,
		"openbsd": true, "plan9": true, "solaris": true, "wasip1": true, "windows": true, "zos": true}
	goKnownArch = map[string]bool{"386": true, "amd64": true, "amd64p32": true, "arm": true, "armbe": true,
		"arm64": true, "arm64be": true, "loong64": true, "mips": true, "mipsle": true, "mips64": true,
		"mips64le": true, "mips64p32": true, "mips64p32le": true, "ppc": true, "ppc64": true, "ppc64le": true,
		"riscv": true, "riscv64": true, "s390": true, "s390x": true, "sparc": true, "sparc64": true, "wasm": true}
)

// goIgnore reports a file go test ./... never builds whatever its name:
// one whose name starts with _ or ., or that sits in testdata or in a
// directory whose name starts with _ or ., which the go command does not
// take for packages.
func goIgnore(p string) bool {
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		if strings.HasPrefix(seg, "_") || strings.HasPrefix(seg, ".") || (seg == "testdata" && i < len(segs)-1) {
			return true
		}
	}
	return false
}

// goConstraint returns a file's build constraint as an expression: its
// //go:build line, or else its // +build lines ANDed, as go/build reads
// them before the package clause. A constraint that does not parse is left
// to the compiler to reject, and the file counts as unconstrained.
func goConstraint(src []byte) string {
	var expr constraint.Expr
	var plus []constraint.Expr
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		text := strings.TrimSpace(string(line))
		if text == "" {
			continue
		}
		if !strings.HasPrefix(text, "//") {
			break // the constraint must come before the package clause
		}
		if constraint.IsGoBuild(text) || constraint.IsPlusBuild(text) {
			e, err := constraint.Parse(text)
			if err != nil {
				return ""
			}
			if constraint.IsGoBuild(text) {
				expr = e
				break
			}
			plus = append(plus, e)
		}
	}
	if expr == nil {
		for _, e := range plus {
			if expr == nil {
				expr = e
			} else {
				expr = &constraint.AndExpr{X: expr, Y: e}
			}
		}
	}
	if expr == nil {
		return ""
	}
	return expr.String()
}

// goFileTags returns the GOOS and GOARCH a file name asks for, go/build's
// way: after the first _, a last element (before _test) that is a known
// GOOS or GOARCH, or a known GOOS then a known GOARCH.
func goFileTags(p string) (goos, goarch string) {
	name, _, _ := strings.Cut(path.Base(p), ".")
	i := strings.Index(name, "_")
	if i < 0 {
		return "", ""
	}
	l := strings.Split(name[i:], "_")
	if n := len(l); n > 0 && l[n-1] == "test" {
		l = l[:n-1]
	}
	n := len(l)
	switch {
	case n >= 2 && goKnownOS[l[n-2]] && goKnownArch[l[n-1]]:
		return l[n-2], l[n-1]
	case n >= 1 && goKnownOS[l[n-1]]:
		return l[n-1], ""
	case n >= 1 && goKnownArch[l[n-1]]:
		return "", l[n-1]
	}
	return "", ""
}

// goModRelease returns the minor Go release a go.mod asks for: the later
// of its go and toolchain lines (the go command switches to that
// toolchain), 16 when it has no go line, as the go command assumes; -1,
// every release, when there is no go.mod (GOPATH mode builds with the
// toolchain at hand).
func goModRelease(mod []byte) int {
	if mod == nil {
		return -1
	}
	release, toolchain := 16, 0
	for _, line := range strings.Split(string(mod), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		switch f[0] {
		case "go":
			if n, ok := goMinor(f[1]); ok {
				release = n
			}
		case "toolchain":
			if n, ok := goMinor(strings.TrimPrefix(f[1], "go")); ok {
				toolchain = max(toolchain, n)
			}
		}
	}
	return max(release, toolchain)
}

// goMinor reads the minor release of "1.25", "1.25.3" or "1.26rc1".
func goMinor(v string) (int, bool) {
	rest, ok := strings.CutPrefix(v, "1.")
	if !ok {
		return 0, false
	}
	end := 0
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
	}
	n, err := strconv.Atoi(rest[:end])
	return n, err == nil
}

// NoteNotBuilt is the note on the tests of a Go file that go test builds
// on no platform.
const NoteNotBuilt = "go test builds this file on no platform: its build constraint needs -tags, or a newer Go than its module's"

// goBuild is where a file is built: never, or on these platforms (nil for
// all of them).
type goBuild struct {
	never     bool
	platforms []string
}

// goBuilds memoises goBuildFor, which runs on every count, cached or not.
var goBuilds sync.Map // goBuildKey → goBuild

type goBuildKey struct {
	constraint, goos, goarch string
	release                  int
}

// goBuildFor evaluates a file's name and constraint on every port, with
// either compiler, cgo on or off, no -tags, and the release tags up to the
// module's release.
func goBuildFor(k goBuildKey) goBuild {
	if b, ok := goBuilds.Load(k); ok {
		return b.(goBuild)
	}
	var expr constraint.Expr
	if k.constraint != "" {
		e, err := constraint.Parse("//go:build " + k.constraint)
		if err == nil {
			expr = e
		}
	}
	ports := goPortList()
	built := make([]bool, len(ports))
	some, all := false, true
	for i, p := range ports {
		built[i] = goBuiltOn(p, k, expr)
		some = some || built[i]
		all = all && built[i]
	}
	var b goBuild
	switch {
	case !some:
		b.never = true
	case !all:
		b.platforms = goPlatformNames(ports, built)
	}
	goBuilds.Store(k, b)
	return b
}

func goBuiltOn(p goPort, k goBuildKey, expr constraint.Expr) bool {
	match := func(compiler string, cgo bool) func(tag string) bool {
		return func(tag string) bool {
			switch {
			case tag == p.goos, tag == p.goarch, tag == compiler:
				return true
			case tag == "unix":
				return goUnix[p.goos]
			case tag == "cgo":
				return cgo
			// go/build's aliases: an android port builds linux files, and so on.
			case tag == "linux" && p.goos == "android", tag == "solaris" && p.goos == "illumos", tag == "darwin" && p.goos == "ios":
				return true
			}
			if n, ok := strings.CutPrefix(tag, "go"); ok {
				if minor, ok := goMinor(n); ok && "1."+strconv.Itoa(minor) == n {
					return k.release < 0 || minor <= k.release
				}
			}
			return false
		}
	}
	name := match("gc", false)
	if (k.goos != "" && !name(k.goos)) || (k.goarch != "" && !name(k.goarch)) {
		return false
	}
	if expr == nil {
		return true
	}
	for _, compiler := range []string{"gc", "gccgo"} {
		for _, cgo := range []bool{true, false} {
			if expr.Eval(match(compiler, cgo)) {
				return true
			}
		}
	}
	return false
}

// goPlatformNames names a set of ports as briefly as it can: GOOS names
// when it holds every port of each GOOS it touches, else GOARCH names when
// it holds every port of each GOARCH it touches, else GOOS names and
// GOOS/GOARCH pairs.
func goPlatformNames(ports []goPort, built []bool) []string {
	whole := func(key func(goPort) string) (names []string, ok bool) {
		in, out := map[string]bool{}, map[string]bool{}
		for i, p := range ports {
			if built[i] {
				in[key(p)] = true
			} else {
				out[key(p)] = true
			}
		}
		for n := range in {
			if out[n] {
				return nil, false
			}
			names = append(names, n)
		}
		slices.Sort(names)
		return names, true
	}
	if names, ok := whole(func(p goPort) string { return p.goos }); ok {
		return names
	}
	if names, ok := whole(func(p goPort) string { return p.goarch }); ok {
		return names
	}
	partial := map[string]bool{}
	for i, p := range ports {
		if !built[i] {
			partial[p.goos] = true
		}
	}
	var names []string
	for i, p := range ports {
		switch {
		case !built[i]:
		case partial[p.goos]:
			names = append(names, p.goos+"/"+p.goarch)
		case !slices.Contains(names, p.goos):
			names = append(names, p.goos)
		}
	}
	slices.Sort(names)
	return names
}

// settleGo reads a file's build constraint against its name and its
// module's Go release: a file no port builds has its tests switched off,
// and one that only some ports build names them on each test.
func settleGo(r *Result, p Place) *Result {
	goos, goarch := goFileTags(p.Path)
	if r.Constraint == "" && goos == "" && goarch == "" || len(r.Tests) == 0 && r.PackageOff == "" {
		return r
	}
	k := goBuildKey{constraint: r.Constraint, goos: goos, goarch: goarch, release: -1}
	if strings.Contains(r.Constraint, "go1.") {
		k.release = goModRelease(p.manifest())
	}
	b := goBuildFor(k)
	if !b.never && b.platforms == nil {
		return r
	}
	c := withTests(r)
	if b.never {
		// A TestMain go test never builds decides nothing.
		c.PackageOff = ""
	}
	for i := range c.Tests {
		if b.never {
			// //go:build ignore, or a custom tag, switches a whole file of
			// tests off as surely as t.Skip does, and go test -list agrees.
			c.Tests[i].Status = Skipped
			c.Tests[i].Note = NoteNotBuilt
		}
		c.Tests[i].Platforms = b.platforms
	}
	return c
}
