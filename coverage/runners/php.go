package runners

import (
	"context"
	"encoding/xml"
	"fmt"
	"path"
	"strings"

	"github.com/gitsentinel/sentinel/languages"
	"github.com/gobwas/glob"
)

// phpSelection decides which PHP files are test files the way PHPUnit
// does when it runs with a project's phpunit.xml: the files of its test
// suites' <directory> and <file> entries, less their <exclude>s. A PHP
// file under no readable PHPUnit config keeps the PHP globs.
type phpSelection struct {
	configs map[string]*phpConfig // by directory, "" for the root
}

// phpConfig is one PHPUnit config's test suites, over paths relative to
// the config's directory.
type phpConfig struct {
	dir    string
	suites []phpSuite
}

// phpSuite is one <testsuite>.
type phpSuite struct {
	dirs    []phpDir
	files   map[string]bool
	exclude []*glob.Pattern // a path that is, or is under, an excluded one
}

// phpDir is one <directory>: a path or a glob PHPUnit expands, and the
// prefix and suffix of the file names it runs.
type phpDir struct {
	dir            *glob.Pattern
	prefix, suffix string
}

// phpunitConfigs are the names PHPUnit looks for in the directory it is
// run from, in the order PHPUnit 10 and later try them (9.6 knows only
// the first and the last).
var phpunitConfigs = []string{"phpunit.xml", "phpunit.dist.xml", "phpunit.xml.dist"}

// phpunitDefaultSuffix is the suffix of a <directory> without one.
const phpunitDefaultSuffix = "Test.php"

// phpConfigName reports the base name of a PHPUnit config.
func phpConfigName(base string) bool {
	for _, n := range phpunitConfigs {
		if base == n {
			return true
		}
	}
	return false
}

// phpunitXML is what sentinel reads of a PHPUnit config: <testsuite>
// under <testsuites>, or directly under <phpunit> as older configs have it.
type phpunitXML struct {
	XMLName    xml.Name        `xml:"phpunit"`
	Suites     []phpunitSuite  `xml:"testsuites>testsuite"`
	LoneSuites []phpunitSuite  `xml:"testsuite"`
	Dirs       []phpunitDirXML `xml:"testsuites>directory"`
}

// phpunitSuite is one <testsuite> as written.
type phpunitSuite struct {
	Dirs    []phpunitDirXML `xml:"directory"`
	Files   []string        `xml:"file"`
	Exclude []string        `xml:"exclude"`
}

// phpunitDirXML is one <directory> as written.
type phpunitDirXML struct {
	Path   string `xml:",chardata"`
	Prefix string `xml:"prefix,attr"`
	Suffix string `xml:"suffix,attr"`
}

// newPHPSelection reads the PHPUnit configs of the snapshot, or returns
// nil when it holds none that can be read.
func newPHPSelection(ctx context.Context, pf *projectFiles) runnerSelection {
	sel := &phpSelection{configs: map[string]*phpConfig{}}
	seen := map[string]bool{}
	for _, p := range pf.paths(phpConfigName) {
		dir := path.Dir(p)
		if dir == "." {
			dir = ""
		}
		if seen[dir] {
			continue
		}
		seen[dir] = true
		// PHPUnit reads the first config it finds; an unreadable one
		// leaves the directory to the globs.
		for _, name := range phpunitConfigs {
			cp := path.Join(dir, name)
			if !pf.has(cp) {
				continue
			}
			if c, err := parsePHPUnit(dir, pf.read(ctx, cp)); err == nil {
				sel.configs[dir] = c
			}
			break
		}
	}
	if len(sel.configs) == 0 {
		return nil
	}
	return sel
}

// parsePHPUnit reads the test suites of a PHPUnit config in dir.
func parsePHPUnit(dir string, b []byte) (*phpConfig, error) {
	if b == nil {
		return nil, fmt.Errorf("phpunit config in %q: unreadable", dir)
	}
	var x phpunitXML
	if err := xml.Unmarshal(b, &x); err != nil {
		return nil, fmt.Errorf("phpunit config in %q: %w", dir, err)
	}
	suites := append(x.Suites, x.LoneSuites...)
	if len(x.Dirs) > 0 {
		suites = append(suites, phpunitSuite{Dirs: x.Dirs})
	}
	c := &phpConfig{dir: dir}
	for _, s := range suites {
		ps := phpSuite{files: map[string]bool{}}
		for _, d := range s.Dirs {
			g, ok := phpGlob(d.Path)
			if !ok {
				continue
			}
			suffix := strings.TrimSpace(d.Suffix)
			if suffix == "" {
				suffix = phpunitDefaultSuffix
			}
			ps.dirs = append(ps.dirs, phpDir{dir: g, prefix: strings.TrimSpace(d.Prefix), suffix: suffix})
		}
		for _, f := range s.Files {
			if rel, ok := phpRel(f); ok {
				ps.files[rel] = true
			}
		}
		for _, e := range s.Exclude {
			if g, ok := phpGlob(e); ok {
				ps.exclude = append(ps.exclude, g)
			}
		}
		c.suites = append(c.suites, ps)
	}
	if len(c.suites) == 0 {
		// No suite sentinel can read: the globs decide, as they do
		// for a project that runs PHPUnit with paths on its command line.
		return nil, fmt.Errorf("phpunit config in %q: no test suites", dir)
	}
	return c, nil
}

// phpRel cleans a config's path into one relative to its directory; ok is
// false for a path that leaves it or is absolute.
func phpRel(p string) (string, bool) {
	p = strings.TrimSpace(p)
	if p == "" || path.IsAbs(p) {
		return "", false
	}
	p = path.Clean(p)
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	if p == "." {
		p = ""
	}
	return p, true
}

// phpGlob compiles a config's directory or exclude path, which PHPUnit
// expands as a glob.
func phpGlob(p string) (*glob.Pattern, bool) {
	rel, ok := phpRel(p)
	if !ok {
		return nil, false
	}
	c := glob.Compiler{Separators: []rune{'/'}, Globstar: true}
	g, err := c.Compile(rel)
	if err != nil {
		return nil, false
	}
	return g, true
}

// decide returns PHP for a file a test suite of a config above it runs,
// and nil for any other PHP file under such a config: PHPUnit runs nothing
// else when it runs with the config.
func (sel *phpSelection) decide(p string) (*languages.Language, bool) {
	if path.Ext(p) != ".php" {
		return nil, false
	}
	decided := false
	for d := path.Dir(p); ; d = path.Dir(d) {
		if d == "." {
			d = ""
		}
		if c := sel.configs[d]; c != nil {
			decided = true
			rel := p
			if d != "" {
				rel = strings.TrimPrefix(p, d+"/")
			}
			if c.runs(rel) {
				return languages.PHP, true
			}
		}
		if d == "" {
			break
		}
	}
	return nil, decided
}

// runs reports whether a suite of the config runs the file at rel.
func (c *phpConfig) runs(rel string) bool {
	for i := range c.suites {
		if c.suites[i].runs(rel) {
			return true
		}
	}
	return false
}

// runs reports whether the suite runs the file at rel.
func (s *phpSuite) runs(rel string) bool {
	if underAny(rel, s.exclude) {
		return false
	}
	if s.files[rel] {
		return true
	}
	base := path.Base(rel)
	for _, d := range s.dirs {
		if strings.HasPrefix(base, d.prefix) && strings.HasSuffix(base, d.suffix) && underAny(rel, []*glob.Pattern{d.dir}) {
			return true
		}
	}
	return false
}

// underAny reports whether rel, or a directory above it, matches one of
// the patterns; an empty pattern is the config's own directory.
func underAny(rel string, gs []*glob.Pattern) bool {
	for _, g := range gs {
		for q := rel; ; q = path.Dir(q) {
			if q == "." {
				q = ""
			}
			if g.Match(q) {
				return true
			}
			if q == "" {
				break
			}
		}
	}
	return false
}
