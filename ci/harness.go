package ci

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/gitsentinel/sentinel/config"
	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/quote"
	"github.com/gitsentinel/sentinel/trailers"
	"github.com/gobwas/glob"
)

// harnessFile is one kind of file that decides what a test runner runs,
// rather than what a test asserts: a change to it can switch off a whole
// suite with no test file changed, which the count of test files cannot
// see. Only the runner's own report (--results) shows the effect.
type harnessFile struct {
	// Glob matches the file's slash path, from the work tree's root.
	Glob string
	// What names the file for people.
	What string
}

// harnessFiles are the runners' harness files, by runner. A _test.go file
// is a harness file only where it holds a TestMain, which decides whether
// a package's tests run at all.
var harnessFiles = []harnessFile{
	{"{conftest.py,**/conftest.py}", "pytest's conftest.py"},
	{"{pytest.ini,**/pytest.ini,tox.ini,**/tox.ini,setup.cfg,**/setup.cfg,pyproject.toml,**/pyproject.toml}", "pytest's configuration"},
	{"{jest.config.*,**/jest.config.*,jest.setup.*,**/jest.setup.*,**/setupTests.*}", "Jest's configuration or set-up"},
	{"{vitest.config.*,**/vitest.config.*,vitest.workspace.*,vite.config.*,**/vite.config.*}", "Vitest's configuration"},
	{"{package.json,**/package.json}", "a package.json, whose scripts run the tests"},
	{"{spec_helper.rb,rails_helper.rb,test_helper.rb,**/spec_helper.rb,**/rails_helper.rb,**/test_helper.rb}", "RSpec's or Minitest's helper"},
	{"{.rspec,**/.rspec}", "RSpec's options"},
	{"{Cargo.toml,**/Cargo.toml}", "a Cargo manifest (its [lib] and [[test]] targets)"},
	{"{pom.xml,**/pom.xml,.mvn/**,**/.mvn/**}", "Maven's build (Surefire's settings)"},
	{"{build.gradle,build.gradle.kts,**/build.gradle,**/build.gradle.kts}", "a Gradle build"},
	{"{CMakeLists.txt,**/CMakeLists.txt}", "a CMake build (its test targets)"},
	{"{phpunit.xml,phpunit.xml.dist,**/phpunit.xml,**/phpunit.xml.dist}", "PHPUnit's configuration"},
	{"**.runsettings", "a .NET test settings file"},
	{"{go.mod,**/go.mod}", "a go.mod (a nested one makes a module go test ./... at the root does not enter)"},
	{"{.github/workflows/**,.gitlab-ci.yml,.circleci/**,azure-pipelines.yml,Jenkinsfile}", "the CI workflow, which runs the tests and sentinel ci"},
}

// compiledHarness are harnessFiles' globs, compiled once.
var compiledHarness = func() []*glob.Pattern {
	out := make([]*glob.Pattern, len(harnessFiles))
	for i, h := range harnessFiles {
		out[i] = glob.MustCompile(h.Glob, '/')
	}
	return out
}()

// HarnessChange is a commit that an agent had a hand in and that changes
// a file deciding what the runner runs.
type HarnessChange struct {
	// Commit is the commit's full id; Title its first line.
	Commit string `json:"commit"`
	Title  string `json:"title"`
	// Path is the file; What says what it is.
	Path string `json:"path"`
	What string `json:"what"`
	// Agent says what shows the agent's hand (the trailer, the author).
	Agent string `json:"agent"`
	// Held says [ratchet] harness = "person" refuses the change until a
	// person accepts it (sentinel accept --rev COMMIT --harness).
	Held bool `json:"held"`
}

// harnessWhat says what a path is when it is a harness file; "" when not.
func harnessWhat(p string) string {
	for i, g := range compiledHarness {
		if g.Match(p) {
			return harnessFiles[i].What
		}
	}
	return ""
}

// CheckHarness lists, for each commit an agent had a hand in (the signs
// an acceptance is held to), the harness files it changes. It is a report
// for people, not a refusal: harness files change for ordinary reasons
// (a dependency in package.json or Cargo.toml), and the runners' reports
// show what the change did to what ran. A _test.go file counts when
// either side holds a TestMain.
func CheckHarness(ctx context.Context, root string, syntax *trailers.Syntax, commits []gitrepo.Commit) ([]HarnessChange, error) {
	var out []HarnessChange
	var objects *gitrepo.Objects
	defer func() {
		if objects != nil {
			_ = objects.Close()
		}
	}()
	for _, c := range commits {
		causes := agentCauses(syntax, c)
		if len(causes) == 0 {
			continue
		}
		// A root commit's files are all new: none changes a harness that
		// ran before.
		if len(c.Parents) == 0 {
			continue
		}
		changes, err := gitrepo.Changes(ctx, root, gitrepo.ArgvChangesCommit, c.Parents[0], c.Hash)
		if err != nil {
			return nil, fmt.Errorf("list the files %s changes: %w", gitrepo.ShortID(c.Hash), err)
		}
		for _, ch := range changes {
			what := harnessWhat(ch.Path)
			if what == "" && strings.HasSuffix(path.Base(ch.Path), "_test.go") {
				if objects == nil {
					info, err := gitrepo.RepoInfo(ctx, root)
					if err != nil {
						return nil, err
					}
					objects = gitrepo.OpenObjects(info)
				}
				if has, err := holdsTestMain(ctx, objects, ch); err != nil {
					return nil, err
				} else if has {
					what = "a Go test file with a TestMain, which decides whether the package's tests run"
				}
			}
			if what != "" {
				out = append(out, HarnessChange{Commit: c.Hash, Title: firstLine(c.Message), Path: ch.Path, What: what, Agent: causes[0].Reason})
			}
		}
	}
	return out, nil
}

// holdHarness marks the harness changes that [ratchet] harness = "person"
// refuses: those of a commit whose parent's configuration, or the range's
// base's, says "person", and that no acceptance added in the range
// accepts (Acceptance.Harness with its Commit). The commits that add such
// acceptances are a person's, or CheckPersons refuses them. The setting
// is read from trusted copies only, the parent's and the base's, so a
// commit cannot relax its own rule; an unreadable copy reads as "person".
func holdHarness(ctx context.Context, root string, hs []HarnessChange, commits []gitrepo.Commit, changes []coverage.BaselineChange) error {
	if len(hs) == 0 {
		return nil
	}
	inRange := map[string]bool{}
	for _, c := range commits {
		inRange[c.Hash] = true
	}
	parent := map[string]string{}
	var revs []string
	seen := map[string]bool{}
	add := func(r string) {
		if !seen[r] {
			seen[r] = true
			revs = append(revs, r)
		}
	}
	var bases []string
	for _, c := range commits {
		if len(c.Parents) > 0 {
			parent[c.Hash] = c.Parents[0]
		}
		for _, p := range c.Parents {
			if !inRange[p] {
				bases = append(bases, p)
				add(p)
			}
		}
	}
	for _, h := range hs {
		if p := parent[h.Commit]; p != "" {
			add(p)
		}
	}
	trusts, err := readTrust(ctx, root, revs)
	if err != nil {
		return err
	}
	person := func(rev string) bool { return trusts[rev].harness == config.HarnessPerson }
	baseHolds := false
	for _, b := range bases {
		baseHolds = baseHolds || person(b)
	}
	accepted := map[string]bool{}
	for _, ch := range changes {
		for _, a := range ch.Added {
			if a.Harness && a.Commit != "" {
				accepted[a.Commit] = true
			}
		}
	}
	for i := range hs {
		p := parent[hs[i].Commit]
		hs[i].Held = (baseHolds || (p != "" && person(p))) && !accepted[hs[i].Commit]
	}
	return nil
}

// maxHarnessBlob is the largest test file read for a TestMain, the
// count's own limit for a test file.
const maxHarnessBlob = 8 << 20

// holdsTestMain reports whether either side of a changed Go test file
// declares a TestMain.
func holdsTestMain(ctx context.Context, objects *gitrepo.Objects, ch gitrepo.Change) (bool, error) {
	for _, blob := range []string{ch.OldBlob, ch.NewBlob} {
		if blob == "" || strings.Trim(blob, "0") == "" {
			continue
		}
		// A test file too large to count is not read for a TestMain
		// either (bounded reads: the repository is untrusted).
		if n, err := objects.BlobSize(ctx, blob); err != nil {
			return false, err
		} else if n > maxHarnessBlob {
			continue
		}
		data, err := objects.ReadBlob(ctx, blob)
		if err != nil {
			return false, err
		}
		if strings.Contains(string(data), "func TestMain(") {
			return true, nil
		}
	}
	return false, nil
}

// writeHarnessText lists the harness changes, each with what it is and
// what shows the agent's hand.
func writeHarnessText(b *strings.Builder, hs []HarnessChange) {
	for _, h := range hs {
		if h.Held {
			fmt.Fprintf(b, "commit %s %s changes %s, %s (%s): [ratchet] harness = \"person\" holds it until a person accepts it; a person runs `sentinel accept --rev %s --harness --reason \"WHY THE HARNESS CHANGED\"`\n",
				gitrepo.ShortID(h.Commit), quote.Name(h.Title), quote.Path(h.Path), h.What, h.Agent, gitrepo.ShortID(h.Commit))
			continue
		}
		fmt.Fprintf(b, "commit %s %s changes %s, %s: what the runner runs may have changed with no test file changed (%s); check the runner's report, `sentinel ci --results REPORT`\n",
			gitrepo.ShortID(h.Commit), quote.Name(h.Title), quote.Path(h.Path), h.What, h.Agent)
	}
}
