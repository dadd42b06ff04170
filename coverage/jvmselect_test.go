package coverage

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/gitsentinel/sentinel/internal/gittest"
)

// TestJVMSelection checks which Java and Kotlin files each module's
// runner runs: Surefire's includes, Failsafe's, Gradle's source sets, and
// the fallbacks when a build cannot be read.
func TestJVMSelection(t *testing.T) {
	const java = "class X { @Test void t() {} }\n"
	const kt = "class X { @Test fun t() {} }\n"
	const pom = "<project><modelVersion>4.0.0</modelVersion></project>\n"
	surefire := func(conf string) string {
		return `<project xmlns="http://maven.apache.org/POM/4.0.0"><build><plugins><plugin>
<groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId>
<configuration>` + conf + `</configuration></plugin></plugins></build></project>`
	}
	cases := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"no build file keeps the name globs", map[string]string{
			"src/test/java/FooCheck.java": java, "lib/BarTest.java": java, "lib/Baz.java": java,
		}, []string{"lib/BarTest.java", "src/test/java/FooCheck.java"}},
		{"surefire defaults", map[string]string{
			"pom.xml":                          pom,
			"src/test/java/a/FooTest.java":     java,
			"src/test/java/a/TestBar.java":     java,
			"src/test/java/a/BazTests.java":    java,
			"src/test/java/a/QuxTestCase.java": java,
			"src/test/java/a/FooCheck.java":    java,
			"src/test/java/a/FooIT.java":       java,
			"src/test/kotlin/a/KTest.kt":       kt,
			"src/test/kotlin/a/KSpec.kt":       kt,
			"src/main/java/a/MainTest.java":    java,
		}, []string{"src/test/java/a/BazTests.java", "src/test/java/a/FooTest.java", "src/test/java/a/QuxTestCase.java", "src/test/java/a/TestBar.java", "src/test/kotlin/a/KTest.kt"}},
		{"failsafe when declared", map[string]string{
			"pom.xml":                      `<project><build><plugins><plugin><artifactId>maven-failsafe-plugin</artifactId></plugin></plugins></build></project>`,
			"src/test/java/FooIT.java":     java,
			"src/test/java/ITBar.java":     java,
			"src/test/java/BazITCase.java": java,
			"src/test/java/Helper.java":    java,
		}, []string{"src/test/java/BazITCase.java", "src/test/java/FooIT.java", "src/test/java/ITBar.java"}},
		{"configured includes and excludes", map[string]string{
			"pom.xml":                      surefire(`<includes><include>**/*Check.java</include><include>%regex[.*Spec.*]</include><include>b.*Case</include><include>Sample.java</include></includes><excludes><exclude>**/Slow*</exclude></excludes>`),
			"src/test/java/FooCheck.java":  java,
			"src/test/java/SlowCheck.java": java,
			"src/test/java/FooTest.java":   java,
			"src/test/java/a/BarSpec.java": java,
			"src/test/java/b/OneCase.java": java,
			"src/test/java/c/Sample.java":  java,
		}, []string{"src/test/java/FooCheck.java", "src/test/java/a/BarSpec.java", "src/test/java/b/OneCase.java", "src/test/java/c/Sample.java"}},
		{"a property defined in the pom", map[string]string{
			"pom.xml":                     `<project><properties><pat>**/*Check.java</pat></properties>` + surefire(`<includes><include>${pat}</include></includes>`)[len("<project xmlns=\"http://maven.apache.org/POM/4.0.0\">"):],
			"src/test/java/FooCheck.java": java,
			"src/test/java/FooTest.java":  java,
		}, []string{"src/test/java/FooCheck.java"}},
		{"an undefined property counts every test class", map[string]string{
			"pom.xml":                     surefire(`<includes><include>${tests}</include></includes>`),
			"src/test/java/FooCheck.java": java,
			"src/test/java/Helper.java":   java,
			"src/main/java/MainTest.java": java,
		}, []string{"src/test/java/FooCheck.java", "src/test/java/Helper.java"}},
		{"an includes file counts every test class", map[string]string{
			"pom.xml":                     surefire(`<includesFile>tests.txt</includesFile>`),
			"src/test/java/FooCheck.java": java,
		}, []string{"src/test/java/FooCheck.java"}},
		{"testSourceDirectory", map[string]string{
			"pom.xml":                    `<project><build><testSourceDirectory>${project.basedir}/tests</testSourceDirectory></build></project>`,
			"tests/a/FooTest.java":       java,
			"src/test/java/BarTest.java": java,
		}, []string{"tests/a/FooTest.java"}},
		{"an unresolved testSourceDirectory keeps the globs", map[string]string{
			"pom.xml":                   `<project><build><testSourceDirectory>${dir}</testSourceDirectory></build></project>`,
			"tests/FooTest.java":        java,
			"src/test/java/Helper.java": java,
			"src/main/java/Main.java":   java,
		}, []string{"src/test/java/Helper.java", "tests/FooTest.java"}},
		{"a parent pom's includes and pluginManagement", map[string]string{
			"pom.xml": `<project><packaging>pom</packaging><build><pluginManagement><plugins><plugin><artifactId>maven-surefire-plugin</artifactId>
<configuration><includes><include>**/*Check.java</include></includes></configuration></plugin></plugins></pluginManagement></build></project>`,
			"core/pom.xml":                     `<project><parent><artifactId>p</artifactId></parent></project>`,
			"core/src/test/java/FooCheck.java": java,
			"core/src/test/java/FooTest.java":  java,
			"src/test/java/RootTest.java":      java,
		}, []string{"core/src/test/java/FooCheck.java"}},
		{"an execution adds a run", map[string]string{
			"pom.xml": `<project><build><plugins><plugin><artifactId>maven-surefire-plugin</artifactId><executions><execution><id>slow</id>
<configuration><includes><include>**/*Slow.java</include></includes></configuration></execution></executions></plugin></plugins></build></project>`,
			"src/test/java/FooSlow.java": java, "src/test/java/FooTest.java": java, "src/test/java/Other.java": java,
		}, []string{"src/test/java/FooSlow.java", "src/test/java/FooTest.java"}},
		{"skipTests in the pom runs nothing, unless a profile runs them", map[string]string{
			"pom.xml":                    surefire(`<skipTests>true</skipTests>`),
			"src/test/java/FooTest.java": java,
			"core/pom.xml": `<project><properties><maven.test.skip>true</maven.test.skip></properties><profiles><profile><build><plugins>
<plugin><artifactId>maven-surefire-plugin</artifactId><configuration><includes><include>**/*Check.java</include></includes></configuration></plugin>
</plugins></build></profile></profiles></project>`,
			"core/src/test/java/FooCheck.java": java,
			"core/src/test/java/FooTest.java":  java,
		}, []string{}},
		{"a profile adds a run", map[string]string{
			"pom.xml": `<project><profiles><profile><build><plugins>
<plugin><artifactId>maven-surefire-plugin</artifactId><configuration><includes><include>**/*Check.java</include></includes></configuration></plugin>
</plugins></build></profile></profiles></project>`,
			"src/test/java/FooCheck.java": java, "src/test/java/FooTest.java": java, "src/test/java/Other.java": java,
		}, []string{"src/test/java/FooCheck.java", "src/test/java/FooTest.java"}},
		{"skipTests false and a failsafe skipITs", map[string]string{
			"pom.xml": `<project><properties><skipTests>false</skipTests><skipITs>true</skipITs></properties>
<build><plugins><plugin><artifactId>maven-failsafe-plugin</artifactId></plugin></plugins></build></project>`,
			"src/test/java/FooIT.java": java, "src/test/java/FooTest.java": java,
		}, []string{"src/test/java/FooTest.java"}},
		{"a broken pom keeps the globs", map[string]string{
			"pom.xml": "<project><build>", "src/test/java/Helper.java": java, "src/main/java/MainTest.java": java,
		}, []string{"src/main/java/MainTest.java", "src/test/java/Helper.java"}},
		{"gradle runs every class of its test source sets", map[string]string{
			"build.gradle.kts":                       "plugins { java }\n",
			"src/test/java/FooCheck.java":            java,
			"src/integrationTest/kotlin/Db.kt":       kt,
			"src/main/java/MainTest.java":            java,
			"src/testFixtures/java/FixtureTest.java": java,
			"lib/src/jvmTest/kotlin/K.kt":            kt,
			"lib/src/commonTest/kotlin/C.kt":         kt,
			"app/src/androidTest/java/UiTest.java":   java,
			"app/src/testDebug/java/DebugCheck.java": java,
			"app/src/main/kotlin/MainSpec.kt":        kt,
		}, []string{"app/src/androidTest/java/UiTest.java", "app/src/testDebug/java/DebugCheck.java", "lib/src/commonTest/kotlin/C.kt", "lib/src/jvmTest/kotlin/K.kt", "src/integrationTest/kotlin/Db.kt", "src/test/java/FooCheck.java"}},
		{"a gradle script that moves sources keeps the globs outside the sets", map[string]string{
			"build.gradle":                "sourceSets { test { java { srcDirs = ['tests'] } } }\n",
			"tests/FooTest.java":          java,
			"tests/Helper.java":           java,
			"src/test/java/FooCheck.java": java,
		}, []string{"src/test/java/FooCheck.java", "tests/FooTest.java"}},
		{"the nearest build file decides", map[string]string{
			"build.gradle":                      "",
			"maven/pom.xml":                     pom,
			"maven/src/test/java/FooCheck.java": java,
			"maven/src/test/java/FooTest.java":  java,
			"src/test/java/BarCheck.java":       java,
		}, []string{"maven/src/test/java/FooTest.java", "src/test/java/BarCheck.java"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for p, s := range c.files {
				full := filepath.Join(dir, filepath.FromSlash(p))
				if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			counts, err := Count(context.Background(), Options{Mode: Plain, Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, f := range counts.Files {
				got = append(got, f.Path)
			}
			sort.Strings(got)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestJVMRenameIsALoss checks that renaming a Maven test class out of
// Surefire's includes loses its tests, with the pom read from each side's
// whole tree.
func TestJVMRenameIsALoss(t *testing.T) {
	gittest.Isolate(t)
	dir := t.TempDir()
	run(t, dir, nil, "init", "-q")
	write(t, dir, "pom.xml", "<project><modelVersion>4.0.0</modelVersion></project>\n")
	write(t, dir, "src/test/java/FooTest.java", "class FooTest { @Test void adds() { assertEquals(2, 1 + 1); } }\n")
	run(t, dir, nil, "add", "-A")
	run(t, dir, nil, "commit", "-q", "-m", "one")
	run(t, dir, nil, "mv", "src/test/java/FooTest.java", "src/test/java/FooCheck.java")
	run(t, dir, nil, "commit", "-q", "-m", "two")
	ls, err := CommitLosses(context.Background(), Options{Dir: dir}, "HEAD", "HEAD~1", &Baseline{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != 1 || ls[0].Name != "FooTest#adds" {
		t.Errorf("losses %+v, want FooTest#adds", ls)
	}
}
