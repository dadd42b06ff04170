package runners

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"regexp"
	"strings"

	"github.com/gitsentinel/sentinel/languages"
)

// jvmKind is the runner selection of Maven and Gradle modules.
var jvmKind = runnerKind{
	config:    jvmConfig,
	languages: []*languages.Language{languages.Java, languages.Kotlin},
	build:     newJVMSelection,
}

// The runners' own defaults.
var (
	surefireDefaults = []string{"**/Test*.java", "**/*Test.java", "**/*Tests.java", "**/*TestCase.java"}
	failsafeDefaults = []string{"**/IT*.java", "**/*IT.java", "**/*ITCase.java"}
	// mavenTestRoots are the test source directories of a module that sets
	// none: Maven's own, and the Kotlin plugin's convention beside it.
	mavenTestRoots = []string{"src/test/java", "src/test/kotlin"}
	// gradleLangDirs are the language directories of a Gradle source set.
	gradleLangDirs = map[string]bool{"java": true, "kotlin": true, "groovy": true, "scala": true}
)

// jvmConfig reports a build file the JVM selection reads: a pom, a Gradle
// build or settings script, or any Gradle script, since a script plugin
// (apply from, buildSrc) may move a module's source sets.
func jvmConfig(base string) bool {
	return base == "pom.xml" || strings.HasSuffix(base, ".gradle") || strings.HasSuffix(base, ".gradle.kts")
}

// jvmSelection decides which Java and Kotlin files are test files the way
// Maven's Surefire and Failsafe and Gradle's test tasks do, holding the
// snapshot's modules by directory ("" for the root). Maven runs the classes
// of a module's test source directory whose names its includes match, so a
// test class renamed out of the includes (FooTest to FooCheck) stops
// running and leaves the count. Gradle runs every test class of its test
// source sets, whatever the file is named. A file in a main source set is
// never run by either. What cannot be read statically (a property the
// poms do not define, an includes file, a custom Gradle source set) falls
// back to the broader rule: every class of the test sources, or the
// language's name globs.
type jvmSelection struct {
	modules map[string]*jvmModule
	// gradleMoved is set when a Gradle script names source directories of
	// its own (srcDir, srcDirs): files outside the conventional test
	// source sets are then left to the name globs.
	gradleMoved bool
}

// jvmModule is one directory's build: a pom, a Gradle build, or both.
type jvmModule struct {
	dir    string
	maven  *mavenModule
	gradle bool
}

// mavenModule is what Surefire and Failsafe run in one Maven module.
type mavenModule struct {
	// unread is set when the pom cannot be parsed or its test source
	// directory cannot be resolved: the name globs decide its files.
	unread bool
	noRuns bool     // packaging pom: no sources, nothing runs
	roots  []string // test source directories, relative to the module
	runs   []*mavenRun
}

// mavenRun is one execution of Surefire or Failsafe: the classes it
// includes and excludes. all is set when its patterns cannot be read
// statically, so that it stands for every class of the test sources.
type mavenRun struct {
	include, exclude []*regexp.Regexp
	all              bool
}

// newJVMSelection reads the snapshot's poms and Gradle scripts.
func newJVMSelection(ctx context.Context, pf *projectFiles) runnerSelection {
	sel := &jvmSelection{modules: map[string]*jvmModule{}}
	poms := map[string]*pomXML{}
	loadPom := func(p string) *pomXML {
		if pm, ok := poms[p]; ok {
			return pm
		}
		var pm *pomXML
		if b := pf.read(ctx, p); b != nil {
			if v, err := parsePom(b); err == nil {
				pm = v
			}
		}
		poms[p] = pm
		return pm
	}
	module := func(dir string) *jvmModule {
		if dir == "." {
			dir = ""
		}
		m := sel.modules[dir]
		if m == nil {
			m = &jvmModule{dir: dir}
			sel.modules[dir] = m
		}
		return m
	}
	for _, p := range pf.paths(jvmConfig) {
		base := path.Base(p)
		switch {
		case base == "pom.xml":
			module(path.Dir(p)).maven = resolveMaven(p, loadPom)
		default:
			if b := pf.read(ctx, p); b == nil || bytes.Contains(b, []byte("srcDir")) {
				// An unreadable script may move source sets as well.
				sel.gradleMoved = true
			}
			if base == "build.gradle" || base == "build.gradle.kts" || base == "settings.gradle" || base == "settings.gradle.kts" {
				module(path.Dir(p)).gradle = true
			}
		}
	}
	if len(sel.modules) == 0 {
		return nil
	}
	return sel
}

// decide returns Java or Kotlin for a file that its module's runner runs,
// nil for one it never runs, and leaves files under no module, or in a
// module whose build cannot be read, to the name globs.
func (sel *jvmSelection) decide(p string) (*languages.Language, bool) {
	var l *languages.Language
	switch path.Ext(p) {
	case ".java":
		l = languages.Java
	case ".kt":
		l = languages.Kotlin
	default:
		return nil, false
	}
	m := sel.moduleOf(p)
	if m == nil {
		return nil, false
	}
	rel := p
	if m.dir != "" {
		rel = strings.TrimPrefix(p, m.dir+"/")
	}
	runs, decided := false, true
	if m.maven != nil {
		if m.maven.unread {
			decided = false
		} else {
			runs = m.maven.runsFile(rel)
		}
	}
	if m.gradle && !runs {
		if gradleTestSource(rel) {
			runs = true
		} else if sel.gradleMoved {
			decided = false
		}
	}
	switch {
	case runs:
		return l, true
	case !decided:
		return nil, false
	}
	return nil, true
}

// moduleOf returns the module of the nearest build file above p.
func (sel *jvmSelection) moduleOf(p string) *jvmModule {
	for d := path.Dir(p); ; d = path.Dir(d) {
		if d == "." {
			d = ""
		}
		if m := sel.modules[d]; m != nil {
			return m
		}
		if d == "" {
			return nil
		}
	}
}

// gradleTestSource reports a file of a test source set: src/<set>/<lang>/
// where the set is test or ends in Test (integrationTest, jvmTest,
// commonTest, androidTest) or is an Android variant's (testDebug).
// Gradle runs every class found there, whatever the file's name. The
// source set may sit below the build file, for subprojects that settings
// include without a build file of their own.
func gradleTestSource(rel string) bool {
	parts := strings.Split(rel, "/")
	for i := 0; i+3 < len(parts); i++ {
		if parts[i] != "src" || !gradleLangDirs[parts[i+2]] {
			continue
		}
		set := parts[i+1]
		switch {
		case set == "test", strings.HasSuffix(set, "Test"):
			return true
		case strings.HasPrefix(set, "test") && len(set) > 4 && set[4] >= 'A' && set[4] <= 'Z' && !strings.HasPrefix(set, "testFixtures"):
			// testFixtures holds helpers other tests use: Gradle runs none.
			return true
		}
	}
	return false
}

// runsFile reports whether Surefire or Failsafe runs the class of the file
// at rel, a path relative to the module.
func (mm *mavenModule) runsFile(rel string) bool {
	if mm.noRuns {
		return false
	}
	for _, root := range mm.roots {
		if !strings.HasPrefix(rel, root+"/") {
			continue
		}
		class := strings.TrimSuffix(strings.TrimPrefix(rel, root+"/"), path.Ext(rel)) + ".class"
		for _, r := range mm.runs {
			if r.runs(class) {
				return true
			}
		}
	}
	return false
}

// runs reports whether the run includes the class file at the slash path:
// Surefire matches class files, so FooTest.java and FooTest.kt both stand
// for FooTest.class.
func (r *mavenRun) runs(class string) bool {
	if r.all {
		return true
	}
	for _, re := range r.exclude {
		if re.MatchString(class) {
			return false
		}
	}
	for _, re := range r.include {
		if re.MatchString(class) {
			return true
		}
	}
	return false
}

// newMavenRun compiles one execution's includes and excludes, or the
// defaults when it sets none. A pattern it cannot read makes the run stand
// for every class: an unread exclude might exclude nothing, an unread
// include might include everything.
func newMavenRun(includes, excludes, defaults []string) *mavenRun {
	r := &mavenRun{}
	if len(includes) == 0 {
		includes = defaults
	}
	for _, list := range []struct {
		pats []string
		out  *[]*regexp.Regexp
	}{{includes, &r.include}, {excludes, &r.exclude}} {
		for _, p := range splitPatterns(list.pats) {
			re, err := surefirePattern(p)
			if err != nil {
				r.all = true
				return r
			}
			*list.out = append(*list.out, re)
		}
	}
	return r
}

// splitPatterns splits the comma-separated lists Surefire accepts in one
// include, leaving a %regex[…] whole.
func splitPatterns(pats []string) []string {
	var out []string
	for _, p := range pats {
		p = strings.TrimSpace(p)
		if strings.HasPrefix(p, "%regex[") || strings.HasPrefix(p, "!%regex[") {
			out = append(out, p)
			continue
		}
		for _, q := range strings.Split(p, ",") {
			if q = strings.TrimSpace(q); q != "" {
				out = append(out, q)
			}
		}
	}
	return out
}

// surefirePattern turns one include or exclude into a regular expression
// over a class file's slash path (a/b/FooTest.class). Ant patterns are
// **/*Test.java or **/*Test (Surefire reads .java as .class); %regex[…] is
// matched against the class file's path, as Surefire does.
// A pattern with a property left in it, a negation or a method filter
// cannot be read here.
func surefirePattern(p string) (*regexp.Regexp, error) {
	if strings.Contains(p, "${") || strings.HasPrefix(p, "!") || strings.Contains(p, "#") {
		return nil, fmt.Errorf("surefire pattern %q is not static", p)
	}
	if strings.HasPrefix(p, "%regex[") && strings.HasSuffix(p, "]") {
		re, err := regexp.Compile("^(?:" + p[len("%regex["):len(p)-1] + ")$")
		if err != nil {
			return nil, fmt.Errorf("surefire pattern %q: %w", p, err)
		}
		return re, nil
	}
	p = strings.TrimPrefix(p, "/")
	for _, ext := range []string{".java", ".class", ".kt"} {
		p = strings.TrimSuffix(p, ext)
	}
	if !strings.Contains(p, "/") {
		// A class name (Sample.java, shop.*Test) rather than a path:
		// Surefire finds it in any package.
		p = strings.ReplaceAll(p, ".", "/")
		if !strings.HasPrefix(p, "**") {
			p = "**/" + p
		}
	}
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case strings.HasPrefix(p[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(p[i:], "**"):
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString(`(?:\.class)?$`)
	return regexp.Compile(b.String())
}

// pomXML is what sentinel reads of a pom.
type pomXML struct {
	Packaging string `xml:"packaging"`
	Parent    *struct {
		// RelativePath is nil when the pom leaves it to Maven's default,
		// ../pom.xml, and empty when it says the parent is not local.
		RelativePath *string `xml:"relativePath"`
	} `xml:"parent"`
	Properties pomProps   `xml:"properties"`
	Build      pomBuild   `xml:"build"`
	Profiles   []pomBuild `xml:"profiles>profile>build"`
}

// pomBuild is a pom's or a profile's build section.
type pomBuild struct {
	TestSourceDirectory string      `xml:"testSourceDirectory"`
	Plugins             []pomPlugin `xml:"plugins>plugin"`
	Managed             []pomPlugin `xml:"pluginManagement>plugins>plugin"`
}

// pomPlugin is one plugin of a build, with its executions.
type pomPlugin struct {
	ArtifactID    string         `xml:"artifactId"`
	Configuration *pomConfig     `xml:"configuration"`
	Executions    []pomExecution `xml:"executions>execution"`
}

// pomExecution is one execution of a plugin.
type pomExecution struct {
	ID            string     `xml:"id"`
	Goals         []string   `xml:"goals>goal"`
	Configuration *pomConfig `xml:"configuration"`
}

// pomConfig is the part of a plugin's configuration that says which test
// classes run or where test sources are.
type pomConfig struct {
	Includes     []string `xml:"includes>include"`
	Excludes     []string `xml:"excludes>exclude"`
	IncludesFile string   `xml:"includesFile"`
	ExcludesFile string   `xml:"excludesFile"`
	Test         string   `xml:"test"`
	Skip         string   `xml:"skip"`
	SkipTests    string   `xml:"skipTests"`
	SkipITs      string   `xml:"skipITs"`
	SourceDirs   []string `xml:"sourceDirs>sourceDir"` // kotlin-maven-plugin
	Sources      []string `xml:"sources>source"`       // build-helper-maven-plugin
}

// pomProps is a pom's properties by name.
type pomProps map[string]string

// UnmarshalXML reads <properties> as a map of each child's name to its text.
func (pp *pomProps) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	var v struct {
		Items []struct {
			XMLName xml.Name
			Value   string `xml:",chardata"`
		} `xml:",any"`
	}
	if err := d.DecodeElement(&v, &start); err != nil {
		return fmt.Errorf("pom properties: %w", err)
	}
	*pp = pomProps{}
	for _, it := range v.Items {
		(*pp)[it.XMLName.Local] = strings.TrimSpace(it.Value)
	}
	return nil
}

// parsePom decodes a pom.
func parsePom(b []byte) (*pomXML, error) {
	var pm pomXML
	d := xml.NewDecoder(bytes.NewReader(b))
	// A pom declares UTF-8 or ISO-8859-1 at most: read either as bytes,
	// since the elements sentinel reads are ASCII.
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	if err := d.Decode(&pm); err != nil {
		return nil, fmt.Errorf("pom: %w", err)
	}
	return &pm, nil
}

// pomLevel is one pom of an inheritance chain and its directory.
type pomLevel struct {
	dir string
	pom *pomXML
}

// resolveMaven works out the test sources and the Surefire and Failsafe
// runs of the module whose pom is at p, through its parents in the
// snapshot. A parent outside the snapshot (a company parent, Spring
// Boot's) is taken to leave Surefire at its defaults, as they mostly do.
func resolveMaven(p string, load func(string) *pomXML) *mavenModule {
	mm := &mavenModule{}
	pm := load(p)
	if pm == nil {
		mm.unread = true
		return mm
	}
	if strings.TrimSpace(pm.Packaging) == "pom" {
		mm.noRuns = true
		return mm
	}
	// chain runs from the farthest ancestor to the module itself.
	chain := []pomLevel{{path.Dir(p), pm}}
	seen := map[string]bool{p: true}
	for cur := chain[0]; cur.pom.Parent != nil && len(chain) < 16; {
		rel := "../pom.xml"
		if rp := cur.pom.Parent.RelativePath; rp != nil {
			rel = strings.TrimSpace(*rp)
		}
		if rel == "" {
			break
		}
		if !strings.HasSuffix(rel, ".xml") {
			rel = path.Join(rel, "pom.xml")
		}
		pp := path.Clean(path.Join(cur.dir, rel))
		if strings.HasPrefix(pp, "../") || seen[pp] {
			break
		}
		seen[pp] = true
		parent := load(pp)
		if parent == nil {
			break
		}
		cur = pomLevel{path.Dir(pp), parent}
		chain = append([]pomLevel{cur}, chain...)
	}
	props := pomProps{}
	for _, lv := range chain {
		for k, v := range lv.pom.Properties {
			props[k] = v
		}
	}
	expand := func(s string) string {
		s = strings.TrimSpace(s)
		for _, b := range []string{"${project.basedir}/", "${basedir}/", "${pom.basedir}/"} {
			s = strings.TrimPrefix(s, b)
		}
		// Properties may name properties: a few rounds resolve the chains
		// poms write, and a cycle is left unresolved.
		for i := 0; i < 4 && strings.Contains(s, "${"); i++ {
			s = propRef.ReplaceAllStringFunc(s, func(m string) string {
				if v, ok := props[m[2:len(m)-1]]; ok {
					return v
				}
				return m
			})
		}
		return s
	}
	addRoot := func(r string) bool {
		r = expand(r)
		if r == "" || strings.Contains(r, "${") || path.IsAbs(r) {
			return false
		}
		r = path.Clean(r)
		for _, have := range mm.roots {
			if have == r {
				return true
			}
		}
		mm.roots = append(mm.roots, r)
		return true
	}
	testDir := mavenTestRoots[0]
	for _, lv := range chain {
		if d := lv.pom.Build.TestSourceDirectory; strings.TrimSpace(d) != "" {
			testDir = d
		}
	}
	if !addRoot(testDir) {
		mm.unread = true
		return mm
	}
	addRoot(mavenTestRoots[1])
	builds := func(yield func(b *pomBuild)) {
		for _, lv := range chain {
			yield(&lv.pom.Build)
			for i := range lv.pom.Profiles {
				yield(&lv.pom.Profiles[i])
			}
		}
	}
	// Test sources added by the Kotlin plugin or build-helper's
	// add-test-source; one that cannot be resolved leaves the globs to
	// decide the module.
	builds(func(b *pomBuild) {
		for _, pl := range append(append([]pomPlugin{}, b.Managed...), b.Plugins...) {
			for _, ex := range pl.Executions {
				testGoal := false
				for _, g := range ex.Goals {
					testGoal = testGoal || strings.Contains(g, "test")
				}
				if !testGoal || ex.Configuration == nil {
					continue
				}
				for _, d := range append(append([]string{}, ex.Configuration.SourceDirs...), ex.Configuration.Sources...) {
					if !addRoot(d) {
						mm.unread = true
					}
				}
			}
		}
	})
	if mm.unread {
		return mm
	}
	mm.runs = mavenRuns(chain, "maven-surefire-plugin", surefireDefaults, true, expand)
	mm.runs = append(mm.runs, mavenRuns(chain, "maven-failsafe-plugin", failsafeDefaults, false, expand)...)
	return mm
}

// propRef is a reference to a Maven property.
var propRef = regexp.MustCompile(`\$\{[^}]+\}`)

// mavenRuns returns the runs of one test plugin in a pom chain: its
// plugin-level configuration (from pluginManagement, then plugins, the
// nearer pom winning), each execution's over it, and each profile's as a
// run of its own, since a profile may be active. Surefire runs in every
// jar module; Failsafe only where a pom's plugins declare it.
func mavenRuns(chain []pomLevel, plugin string, defaults []string, always bool, expand func(string) string) []*mavenRun {
	var base pomConfig
	execs := map[string]*pomConfig{}
	var order []string
	declared := always
	merge := func(dst *pomConfig, src *pomConfig) {
		if src == nil {
			return
		}
		if len(src.Includes) > 0 {
			dst.Includes = src.Includes
		}
		if len(src.Excludes) > 0 {
			dst.Excludes = src.Excludes
		}
		for _, f := range []struct{ d, s *string }{{&dst.IncludesFile, &src.IncludesFile}, {&dst.ExcludesFile, &src.ExcludesFile},
			{&dst.Test, &src.Test}, {&dst.Skip, &src.Skip}, {&dst.SkipTests, &src.SkipTests}, {&dst.SkipITs, &src.SkipITs}} {
			if strings.TrimSpace(*f.s) != "" {
				*f.d = *f.s
			}
		}
	}
	apply := func(pls []pomPlugin, active bool) {
		for _, pl := range pls {
			if strings.TrimSpace(pl.ArtifactID) != plugin {
				continue
			}
			declared = declared || active
			merge(&base, pl.Configuration)
			for _, ex := range pl.Executions {
				c := execs[ex.ID]
				if c == nil {
					c = &pomConfig{}
					execs[ex.ID] = c
					order = append(order, ex.ID)
				}
				merge(c, ex.Configuration)
			}
		}
	}
	for _, lv := range chain {
		apply(lv.pom.Build.Managed, false)
		apply(lv.pom.Build.Plugins, true)
	}
	var profiles []pomConfig
	for _, lv := range chain {
		for _, pb := range lv.pom.Profiles {
			for _, pl := range pb.Plugins {
				if strings.TrimSpace(pl.ArtifactID) == plugin {
					declared = true
					c := base
					merge(&c, pl.Configuration)
					profiles = append(profiles, c)
					for _, ex := range pl.Executions {
						c := base
						merge(&c, ex.Configuration)
						profiles = append(profiles, c)
					}
				}
			}
		}
	}
	if !declared {
		return nil
	}
	run := func(c pomConfig) *mavenRun {
		// A run the pom switches off runs nothing: its tests leave the
		// count, as they leave the build. Only a literal true (or a
		// property defined as true) switches it off; the command line's
		// -DskipTests is no part of the repository.
		off := false
		skips := []string{c.Skip, c.SkipTests, "${maven.test.skip}", "${skipTests}"}
		if !always {
			skips = append(skips, c.SkipITs, "${skipITs}") // Failsafe's own
		}
		for _, v := range skips {
			off = off || strings.EqualFold(expand(v), "true")
		}
		if off {
			return &mavenRun{}
		}
		if c.IncludesFile != "" || c.ExcludesFile != "" || strings.TrimSpace(c.Test) != "" {
			// Read from a file or overridden by a class filter: not
			// static here, so every test class counts.
			return &mavenRun{all: true}
		}
		inc := make([]string, len(c.Includes))
		for i, s := range c.Includes {
			inc[i] = expand(s)
		}
		exc := make([]string, len(c.Excludes))
		for i, s := range c.Excludes {
			exc[i] = expand(s)
		}
		return newMavenRun(inc, exc, defaults)
	}
	runs := []*mavenRun{}
	defaultID := "default-test"
	if !always {
		defaultID = "default-integration-test"
	}
	if c, ok := execs[defaultID]; ok {
		d := base
		merge(&d, c)
		runs = append(runs, run(d))
	} else {
		runs = append(runs, run(base))
	}
	for _, id := range order {
		if id == defaultID {
			continue
		}
		c := base
		merge(&c, execs[id])
		runs = append(runs, run(c))
	}
	for _, c := range profiles {
		runs = append(runs, run(c))
	}
	return runs
}
