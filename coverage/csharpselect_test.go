package coverage

import (
	"reflect"
	"testing"
)

// TestCSharpSelection checks that C# test files are the files of test
// projects, as dotnet test builds them.
func TestCSharpSelection(t *testing.T) {
	const fact = "public class ATests { [Fact] public void A() { Assert.Equal(1, F()); } }\n"
	const lib = `<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>`
	const xunit = `<Project Sdk="Microsoft.NET.Sdk">
  <ItemGroup>
    <PackageReference Include="Microsoft.NET.Test.Sdk" Version="17.9.0" />
    <PackageReference Include="xunit" Version="2.7.0" />
  </ItemGroup>
</Project>`
	cases := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"no project keeps every file with tests", map[string]string{
			"A/ATests.cs": fact, "B/Thing.cs": fact,
		}, []string{"A/ATests.cs", "B/Thing.cs"}},
		{"test projects only, nested projects own their files", map[string]string{
			"src/Lib/Lib.csproj":                lib,
			"src/Lib/FooTests.cs":               fact,
			"tests/Lib.Tests/Lib.Tests.csproj":  xunit,
			"tests/Lib.Tests/Any/Where.cs":      fact,
			"tests/Lib.Tests/obj/Gen.cs":        fact,
			"tests/Lib.Tests/bin/Out.cs":        fact,
			"tests/Lib.Tests/Tool/Tool.csproj":  lib,
			"tests/Lib.Tests/Tool/ToolTests.cs": fact,
		}, []string{"tests/Lib.Tests/Any/Where.cs"}},
		{"IsTestProject, MSTest.Sdk, NUnit, and a commented reference", map[string]string{
			"a/a.csproj":  `<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><IsTestProject>true</IsTestProject></PropertyGroup></Project>`,
			"a/A.cs":      fact,
			"b/b.csproj":  `<Project Sdk="MSTest.Sdk/3.6.1"></Project>`,
			"b/B.cs":      fact,
			"c/c.csproj":  `<Project Sdk="Microsoft.NET.Sdk"><ItemGroup><PackageReference Include="NUnit" Version="4.0.1" /></ItemGroup></Project>`,
			"c/C.cs":      fact,
			"e/e.csproj":  `<Project Sdk="Microsoft.NET.Sdk"><ItemGroup><PackageReference Include="TUnit" Version="0.19.0" /></ItemGroup></Project>`,
			"e/E.cs":      fact,
			"d/d.csproj":  `<Project Sdk="Microsoft.NET.Sdk"><!-- <PackageReference Include="xunit" Version="2.7.0" /> --></Project>`,
			"d/DTests.cs": fact,
		}, []string{"a/A.cs", "b/B.cs", "c/C.cs", "e/E.cs"}},
		{"Directory.Build.props makes the projects below test projects", map[string]string{
			"test/Directory.Build.props": `<Project><ItemGroup><PackageReference Include="xunit" Version="2.7.0" /></ItemGroup></Project>`,
			"test/X/X.csproj":            lib,
			"test/X/X.cs":                fact,
			"src/Y/Y.csproj":             lib,
			"src/Y/YTests.cs":            fact,
		}, []string{"test/X/X.cs"}},
		{"own Compile items keep the language's rule", map[string]string{
			"p/p.csproj":      `<Project Sdk="Microsoft.NET.Sdk"><ItemGroup><Compile Include="..\shared\*.cs" /></ItemGroup></Project>`,
			"p/PTests.cs":     fact,
			"old/old.csproj":  `<Project ToolsVersion="15.0"><ItemGroup><Compile Include="OldTests.cs" /></ItemGroup></Project>`,
			"old/OldTests.cs": fact,
		}, []string{"old/OldTests.cs", "p/PTests.cs"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := selectedPaths(t, c.files); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}
