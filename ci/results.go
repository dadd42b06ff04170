package ci

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/coverage/reports"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/quote"
	"github.com/gitsentinel/sentinel/languages"
)

// maxGoMod bounds a go.mod read for its module path.
const maxGoMod = 1 << 20

// checkResults matches the runners' reports with the tests the count sees
// as active at head. A test the count cannot place (a Go package outside
// every module) is matched by its directory.
func checkResults(ctx context.Context, c *coverage.Counts, head string, set *reports.Set) (*reports.Verdict, error) {
	var tests []reports.Test
	goDirs := false
	for _, f := range c.Files {
		for _, t := range f.Tests {
			if t.Status != languages.Active {
				continue
			}
			rt := reports.Test{Language: f.Language, Path: f.Path, Name: t.Name, Line: t.Line, Reason: reason(t), Condition: condition(t)}
			goDirs = goDirs || f.Language == "go"
			tests = append(tests, rt)
		}
	}
	if goDirs {
		mods, err := goModules(ctx, c.Root, head)
		if err != nil {
			return nil, err
		}
		for i := range tests {
			if tests[i].Language == "go" {
				tests[i].Scope = reports.ImportPath(mods, path.Dir(tests[i].Path))
			}
		}
	}
	return reports.Match(tests, set), nil
}

// reason is why the count knows a test may be missing from a job's
// report: it is built for some platforms only, or its module is collected
// only where an import succeeds (pytest's importorskip).
func reason(t languages.Test) string {
	switch {
	case len(t.Platforms) > 0:
		return "built for " + strings.Join(t.Platforms, ", ")
	case t.Conditional == "importorskip":
		return t.Conditional
	}
	return ""
}

// condition is the real condition under which a test skips itself at run
// time: it explains a skip in the report, not the test's absence.
func condition(t languages.Test) string {
	if t.Conditional == "importorskip" {
		return ""
	}
	return t.Conditional
}

// goModules maps each directory of head's tree that holds a go.mod to the
// module path it declares ("" for the root directory).
func goModules(ctx context.Context, root, head string) (map[string]string, error) {
	entries, err := gitrepo.TreeEntries(ctx, root, head)
	if err != nil {
		return nil, err
	}
	var specs []string
	for _, e := range entries {
		if path.Base(e.Path) == "go.mod" && (e.Mode == "100644" || e.Mode == "100755") {
			specs = append(specs, head+":"+e.Path)
		}
	}
	blobs, err := gitrepo.ReadSpecsMax(ctx, root, specs, maxGoMod)
	if err != nil {
		return nil, err
	}
	mods := map[string]string{}
	for _, s := range specs {
		p := strings.TrimPrefix(s, head+":")
		dir := path.Dir(p)
		if dir == "." {
			dir = ""
		}
		mods[dir] = reports.ModulePath(blobs[s])
	}
	return mods, nil
}

// writeResultsText prints what the reports say of the tests, for people:
// each lost test by name, then the tests skipped on this platform and the
// cases no test of the count explains, as information.
func writeResultsText(b *strings.Builder, head string, v *reports.Verdict) {
	if v == nil {
		return
	}
	for _, f := range v.Lost {
		fmt.Fprintf(b, "%s: %s test %s (%s:%d): %s\n", quote.Name(head), f.Language, quote.Name(f.Name), quote.Path(f.Path), f.Line, quote.Text(f.Text()))
	}
	if len(v.Lost) > 0 {
		b.WriteString("  the runner's report is the truth in CI: undo what keeps the runner from running them (a harness, a runner's configuration, the workflow), or delete them in a commit a person makes and accepts: sentinel accept --reason \"WHY THESE TESTS WENT\"\n")
	}
	for _, f := range v.Platform {
		fmt.Fprintf(b, "%s test %s (%s:%d): skipped on this platform; another job of the matrix runs it\n", f.Language, quote.Name(f.Name), quote.Path(f.Path), f.Line)
	}
	for i, c := range v.Unknown {
		if i == reports.MaxUnknown {
			fmt.Fprintf(b, "… and %d more cases no test of the count explains\n", len(v.Unknown)-i)
			break
		}
		fmt.Fprintf(b, "information: %s:%d: the runner ran %s, which sentinel does not count\n", quote.Path(c.Report), c.Line, quote.Name(caseName(c)))
	}
	fmt.Fprintf(b, "the runners' reports (%d) ran %d of the %d active tests the count sees, %d cases\n", len(v.Reports), v.Ran, v.Tests, v.Cases)
}

// caseName is a case's name as its runner gives it, with its class.
func caseName(c reports.Case) string {
	if c.Class != "" && c.Class != c.Name {
		return c.Class + " " + c.Name
	}
	return c.Name
}
