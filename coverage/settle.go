package coverage

import (
	"context"
	"path"
	"path/filepath"

	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/atomicfile"
	"github.com/gitsentinel/sentinel/languages"
)

// A file's counts are cached by its content, but some of what a test is
// depends on the file's place: a Go file's build constraint is read against
// its name and the Go release its module asks for, a Rust test's name
// starts with the module path the file's place in the crate gives. Settling
// adds that to each result, cached or not, on every count.

// manifests finds the nearest manifest (go.mod) above a file in a snapshot,
// and reads it once, when a language first asks for it.
type manifests struct {
	ctx context.Context
	s   *snapshot
	// byName maps a manifest's base name to the entries of that name, by
	// directory; built on first use.
	byName map[string]map[string]*entry
	// content holds what was read, by path; nil for none.
	content map[string][]byte
}

// settle completes each result with what its file's place decides.
func (s *snapshot) settle(ctx context.Context, results []*languages.Result) {
	m := &manifests{ctx: ctx, s: s, content: map[string][]byte{}}
	for i, r := range results {
		if r == nil || r.Filtered {
			continue
		}
		l := languages.ByName(r.Language)
		if l == nil || l.Settle == nil {
			continue
		}
		p := s.entries[i].path
		results[i] = l.Settle(r, languages.Place{Path: p, Manifest: func() []byte { return m.nearest(l.Manifest, p) }})
	}
	s.packagesOff(results)
	m.nestedModules(results)
}

// nestedNote is the start of the note on a Go test in a module nested in
// another: `go test ./...` in the outer module does not enter it, so the
// test runs only where CI runs go test in the nested module too. It still
// counts: it is a test of the repository, and the runners' reports in CI
// say whether it ran.
const nestedNote = "in the nested module "

// nestedSuffix ends that note.
const nestedSuffix = ", which go test ./... in the module above does not enter"

// nestedModules notes each Go test whose module (its nearest go.mod) lies
// inside another module of the snapshot.
func (m *manifests) nestedModules(results []*languages.Result) {
	if m.s.partialRev != "" {
		return
	}
	if m.byName == nil {
		m.index()
	}
	mods := m.byName["go.mod"]
	if len(mods) < 2 {
		return
	}
	// nearest finds the directory of the go.mod nearest above dir, or "".
	nearest := func(dir string) string {
		for {
			if mods[dir] != nil {
				return dir
			}
			if dir == "." || dir == "/" {
				return ""
			}
			dir = path.Dir(dir)
		}
	}
	for i, r := range results {
		if r == nil || r.Language != languages.Go.Name || len(r.Tests) == 0 {
			continue
		}
		mod := nearest(path.Dir(m.s.entries[i].path))
		if mod == "" || mod == "." || nearest(path.Dir(mod)) == "" {
			continue
		}
		c := *r
		c.Tests = append([]languages.Test(nil), r.Tests...)
		for j := range c.Tests {
			if c.Tests[j].Note == "" {
				c.Tests[j].Note = nestedNote + mod + "/go.mod" + nestedSuffix
			}
		}
		results[i] = &c
	}
}

// packagesOff applies what a Go file says of its whole package (a TestMain
// that never runs m.Run, or hides its result) to the other test files of
// its directory: go test builds them into the same binary, whose TestMain
// decides for all of them.
func (s *snapshot) packagesOff(results []*languages.Result) {
	off := map[string]string{}
	for i, r := range results {
		if r != nil && r.Language == languages.Go.Name && r.PackageOff != "" {
			off[path.Dir(s.entries[i].path)] = r.PackageOff
		}
	}
	if len(off) == 0 {
		return
	}
	for i, r := range results {
		if r == nil || r.Language != languages.Go.Name || r.PackageOff != "" {
			continue
		}
		note, ok := off[path.Dir(s.entries[i].path)]
		if !ok {
			continue
		}
		c := *r
		c.Tests = append([]languages.Test(nil), r.Tests...)
		for j := range c.Tests {
			if c.Tests[j].Status == languages.Active {
				c.Tests[j].Status = languages.Skipped
				c.Tests[j].Note = note
			}
		}
		results[i] = &c
	}
}

// nearest returns the content of the manifest called name in the nearest
// directory above the file at p, or nil.
func (m *manifests) nearest(name, p string) []byte {
	if name == "" {
		return nil
	}
	for dir := path.Dir(p); ; dir = path.Dir(dir) {
		mp := name
		if dir != "." {
			mp = dir + "/" + name
		}
		if c, ok := m.read(name, dir, mp); ok {
			return c
		}
		if dir == "." || dir == "/" {
			break
		}
	}
	if m.s.info != nil {
		return nil // nothing above a repository's root is part of its snapshot
	}
	// Plain files (a directory outside any repository, such as a module
	// in the module cache) belong to the project above them too.
	for dir := m.s.root; ; dir = filepath.Dir(dir) {
		mp := filepath.Join(dir, name)
		c, done := m.content[mp]
		if !done {
			c, _ = atomicfile.ReadFile(mp, maxManifestSize)
			m.content[mp] = c
		}
		if c != nil {
			return c
		}
		if parent := filepath.Dir(dir); parent == dir {
			return nil
		}
	}
}

// read reads the manifest at mp, in directory dir, and reports whether
// there is one.
func (m *manifests) read(name, dir, mp string) ([]byte, bool) {
	if c, done := m.content[mp]; done {
		return c, c != nil
	}
	var c []byte
	if m.s.partialRev != "" {
		// A snapshot of the changed files alone: the manifest is read from
		// the same tree.
		spec := m.s.partialRev + ":" + mp
		if got, err := gitrepo.ReadSpecs(m.ctx, m.s.root, []string{spec}); err == nil {
			c = got[spec]
		}
	} else {
		if m.byName == nil {
			m.index()
		}
		if e := m.byName[name][dir]; e != nil {
			if got, err := m.s.read(m.ctx, e); err == nil && len(got) <= maxManifestSize {
				c = got
			}
		}
	}
	if c == nil {
		m.content[mp] = nil
		return nil, false
	}
	m.content[mp] = c
	return c, true
}

// maxManifestSize bounds what a manifest may hold to be read.
const maxManifestSize = 1 << 20

// index lists the snapshot's manifests by name and directory.
func (m *manifests) index() {
	names := map[string]bool{}
	for _, l := range languages.All() {
		if l.Manifest != "" {
			names[l.Manifest] = true
		}
	}
	m.byName = map[string]map[string]*entry{}
	for i := range m.s.entries {
		e := &m.s.entries[i]
		if e.mode == "120000" || e.mode == "160000" {
			continue
		}
		dir, base := path.Split(e.path)
		if !names[base] {
			continue
		}
		if m.byName[base] == nil {
			m.byName[base] = map[string]*entry{}
		}
		dir = path.Clean(dir)
		if dir == "" {
			dir = "."
		}
		m.byName[base][dir] = e
	}
}
