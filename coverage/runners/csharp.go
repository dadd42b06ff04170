package runners

import (
	"context"
	"path"
	"regexp"
	"strings"

	"github.com/gitsentinel/sentinel/languages"
)

// csharpKind reads .NET projects: dotnet test runs the tests of test
// projects only, and an SDK-style project compiles every .cs file under its
// directory, whatever its name (a FooTests.cs of a library is not a test).
var csharpKind = runnerKind{
	config:    csharpConfig,
	languages: []*languages.Language{languages.CSharp},
	build:     buildCSharpSelection,
}

// csharpConfig reports the files a .NET selection reads: the projects, and
// the Directory.Build files MSBuild imports into every project below them.
func csharpConfig(base string) bool {
	return strings.HasSuffix(base, ".csproj") || base == "Directory.Build.props" || base == "Directory.Build.targets"
}

// csharpSelection holds the snapshot's C# projects by directory ("" for
// the root).
type csharpSelection struct {
	projects map[string]*csharpProject
}

// csharpProject is what sentinel knows of the projects of one directory.
type csharpProject struct {
	// test says a project of the directory is a test project.
	test bool
	// dynamic says a project chooses its files itself (Compile items,
	// default items switched off, a project that is not SDK-style): its
	// files are left to the language's rule.
	dynamic bool
}

var (
	// csharpTestPackage matches a PackageReference to the test SDK or a
	// test framework.
	csharpTestPackage = regexp.MustCompile(`(?i)<PackageReference\s[^>]*\bInclude\s*=\s*"(Microsoft\.NET\.Test\.Sdk|xunit|xunit\.v3|NUnit|MSTest|MSTest\.TestFramework|TUnit)"`)
	csharpIsTest      = regexp.MustCompile(`(?i)<IsTestProject>\s*true\s*</IsTestProject>`)
	csharpIsNotTest   = regexp.MustCompile(`(?i)<IsTestProject>\s*false\s*</IsTestProject>`)
	csharpTestSdk     = regexp.MustCompile(`(?i)\bSdk\s*=\s*"MSTest\.Sdk[/"]`)
	csharpSdkStyle    = regexp.MustCompile(`(?i)<Project\s[^>]*\bSdk\s*=|<Sdk\s+Name\s*=|<Import\s[^>]*\bSdk\s*=`)
	csharpOwnItems    = regexp.MustCompile(`(?i)<Compile\s|<EnableDefaultCompileItems>\s*false|<EnableDefaultItems>\s*false`)
	csharpComment     = regexp.MustCompile(`(?s)<!--.*?-->`)
)

// buildCSharpSelection reads every project of the snapshot, with the
// Directory.Build files above it.
func buildCSharpSelection(ctx context.Context, pf *projectFiles) runnerSelection {
	sel := &csharpSelection{projects: map[string]*csharpProject{}}
	imported := map[string][]byte{} // Directory.Build files by directory
	for _, p := range pf.paths(func(base string) bool { return strings.HasPrefix(base, "Directory.Build.") }) {
		dir := path.Dir(p)
		if dir == "." {
			dir = ""
		}
		imported[dir] = append(imported[dir], pf.read(ctx, p)...)
	}
	for _, p := range pf.paths(func(base string) bool { return strings.HasSuffix(base, ".csproj") }) {
		dir := path.Dir(p)
		if dir == "." {
			dir = ""
		}
		b := pf.read(ctx, p)
		pr := sel.projects[dir]
		if pr == nil {
			pr = &csharpProject{}
			sel.projects[dir] = pr
		}
		if b == nil {
			pr.dynamic = true
			continue
		}
		// MSBuild imports the nearest Directory.Build.props (and .targets)
		// above the project, which may add the test framework or items.
		all := string(b)
		for d := dir; ; d = parentDir(d) {
			if imp, ok := imported[d]; ok {
				all += "\n" + string(imp)
				break
			}
			if d == "" {
				break
			}
		}
		all = csharpComment.ReplaceAllString(all, "")
		own := csharpComment.ReplaceAllString(string(b), "")
		switch {
		case csharpIsNotTest.MatchString(own):
		case csharpIsTest.MatchString(all) || csharpTestPackage.MatchString(all) || csharpTestSdk.MatchString(own):
			pr.test = true
		}
		if !csharpSdkStyle.MatchString(own) || csharpOwnItems.MatchString(all) {
			pr.dynamic = true
		}
	}
	if len(sel.projects) == 0 {
		return nil
	}
	return sel
}

// parentDir returns the directory above dir, "" above a top-level one.
func parentDir(dir string) string {
	if dir == "" {
		return ""
	}
	d := path.Dir(dir)
	if d == "." {
		return ""
	}
	return d
}

// decide answers for .cs files under a project: a file is a test file when
// the nearest project above it is a test project, and not in its bin/ or
// obj/. A project nested in another's directory owns its own files.
func (sel *csharpSelection) decide(p string) (*languages.Language, bool) {
	if path.Ext(p) != ".cs" {
		return nil, false
	}
	dir, pr := nearestProject(p, sel.projects)
	if pr == nil || pr.dynamic {
		return nil, false
	}
	rel, _ := under(p, dir)
	if strings.HasPrefix(rel, "bin/") || strings.HasPrefix(rel, "obj/") {
		return nil, true
	}
	if pr.test {
		return languages.CSharp, true
	}
	return nil, true
}
