package coverage

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// junitJars are the jars, under /usr/share/java (Debian's junit5 and
// junit4 packages), that compile the fixtures' tests and run them with
// the JUnit Platform's console launcher. SENTINEL_JUNIT_DIR names another
// directory that holds them.
var junitJars = []string{"junit-jupiter-api.jar", "junit-jupiter-params.jar", "apiguardian-api.jar",
	"opentest4j.jar", "junit-platform-commons.jar", "junit4.jar", "hamcrest-core.jar"}

// surefireClassnames is Surefire's default includes (**/Test*.java,
// **/*Test.java, **/*Tests.java, **/*TestCase.java) and default exclude of
// inner classes (**/*$*), written as the launcher's class name filter.
const surefireClassnames = `^(.*\.)?(Test[^.$]*|[^.$]*Test|[^.$]*Tests|[^.$]*TestCase)$`

// TestJavaMatchesSurefire compiles each Maven project under
// fixtures/accuracy/java (main and test sources, with nothing but JUnit),
// runs the test classes Surefire's default includes pick with the JUnit
// console launcher, and compares the tests it runs and skips with what
// sentinel counts in the same directory through its Maven selection
// (tens of seconds).
func TestJavaMatchesSurefire(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("compiles and runs three Java projects: not with -short")
	}
	javac, err := exec.LookPath("javac")
	if err != nil {
		t.Skip("javac is not installed")
	}
	java, err := exec.LookPath("java")
	if err != nil {
		t.Skip("java is not installed")
	}
	jars := os.Getenv("SENTINEL_JUNIT_DIR")
	if jars == "" {
		jars = "/usr/share/java"
	}
	launcher := filepath.Join(jars, "junit-platform-console-standalone.jar")
	if _, err := os.Stat(launcher); err != nil {
		t.Skip("the JUnit console launcher is not installed (apt-get install junit5 junit4)")
	}
	var cp []string
	for _, j := range junitJars {
		cp = append(cp, filepath.Join(jars, j))
	}
	root, _ := filepath.Abs(filepath.Join("..", "fixtures", "accuracy", "java"))
	projects, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range projects {
		if !p.IsDir() {
			continue
		}
		t.Run(p.Name(), func(t *testing.T) {
			// Each project compiles and runs in JVMs of its own: side by
			// side, the check takes the time of the largest.
			t.Parallel()
			dir := filepath.Join(root, p.Name())
			classes := t.TempDir()
			var srcs []string
			_ = filepath.Walk(dir, func(f string, info os.FileInfo, err error) error {
				if err == nil && strings.HasSuffix(f, ".java") {
					srcs = append(srcs, f)
				}
				return nil
			})
			// The JVMs live seconds: the C1 compiler alone starts them faster.
			args := append([]string{"-J-XX:TieredStopAtLevel=1", "-nowarn", "-encoding", "UTF-8", "-d", classes, "-cp", strings.Join(cp, string(os.PathListSeparator))}, srcs...)
			if out, err := exec.Command(javac, args...).CombinedOutput(); err != nil {
				t.Fatalf("javac: %v\n%s", err, out)
			}
			reports := t.TempDir()
			cmd := exec.Command(java, "-XX:TieredStopAtLevel=1", "-jar", launcher, "--disable-banner", "--details=none",
				"-cp", classes+string(os.PathListSeparator)+strings.Join(cp, string(os.PathListSeparator)),
				"--scan-classpath", classes, "--include-classname", surefireClassnames, "--reports-dir", reports)
			// A test that fails here (a resource not pinned) is still one the
			// runner ran: only a run without a report is an error.
			out, err := cmd.CombinedOutput()
			want := junitNames(t, reports)
			if len(want) == 0 {
				t.Fatalf("junit reported no tests: %v\n%s", err, out)
			}
			got := countedNames(t, dir, true)
			// JUnit runs the tests an abstract class declares under each
			// concrete subclass; sentinel counts them once, where they are
			// written. Those are the only differences allowed.
			onlyGot, onlyWant := inherited(got, want)
			if len(want) < 5 || len(onlyGot) > 0 || len(onlyWant) > 0 {
				t.Errorf("sentinel and Surefire's selection differ\n only sentinel: %q\n only JUnit: %q", onlyGot, onlyWant)
			}
			for _, name := range got {
				if strings.HasPrefix(name, "CartCheck#") || strings.HasPrefix(name, "CartIT#") {
					t.Errorf("sentinel counts %s, a class Surefire's includes leave out", name)
				}
			}
		})
	}
}

// junitNames reads the launcher's XML report as sentinel names tests:
// Outer.Inner#method and the status, one name for all the cases of a
// parameterized or repeated test.
func junitNames(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.xml"))
	seen := map[string]bool{}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var suite struct {
			Cases []struct {
				Name      string    `xml:"name,attr"`
				Classname string    `xml:"classname,attr"`
				Skipped   *struct{} `xml:"skipped"`
			} `xml:"testcase"`
		}
		if err := xml.Unmarshal(b, &suite); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, c := range suite.Cases {
			// "m(String)[2]" is a case of m(String); an overload is a test
			// of its own, under the same name.
			sig := c.Name
			if i := strings.LastIndex(sig, ")["); i >= 0 {
				sig = sig[:i+1]
			}
			method, _, _ := strings.Cut(sig, "(")
			key := c.Classname + "#" + sig
			if seen[key] {
				continue
			}
			seen[key] = true
			class := c.Classname[strings.LastIndexByte(c.Classname, '.')+1:]
			st := "active"
			if c.Skipped != nil {
				st = "skipped"
			}
			out = append(out, strings.ReplaceAll(class, "$", ".")+"#"+method+" "+st)
		}
	}
	sort.Strings(out)
	return out
}

// inherited returns the names only got holds and only want holds, less
// the tests of abstract classes (named Abstract…) that sentinel counts
// once and JUnit runs under each subclass.
func inherited(got, want []string) (onlyGot, onlyWant []string) {
	count := map[string]int{}
	for _, n := range got {
		count[n]++
	}
	for _, n := range want {
		count[n]--
	}
	abstract := map[string]bool{} // "#method status" of abstract classes' tests
	for _, n := range got {
		if count[n] > 0 && strings.HasPrefix(n, "Abstract") {
			abstract[n[strings.IndexByte(n, '#'):]] = true
		}
	}
	runUnder := map[string]bool{}
	for n, c := range count {
		switch {
		case c < 0 && abstract[n[strings.IndexByte(n, '#'):]]:
			runUnder[n[strings.IndexByte(n, '#'):]] = true
		case c < 0:
			for i := 0; i < -c; i++ {
				onlyWant = append(onlyWant, n)
			}
		}
	}
	for n, c := range count {
		if c > 0 && !(strings.HasPrefix(n, "Abstract") && runUnder[n[strings.IndexByte(n, '#'):]]) {
			for i := 0; i < c; i++ {
				onlyGot = append(onlyGot, n)
			}
		}
	}
	sort.Strings(onlyGot)
	sort.Strings(onlyWant)
	return onlyGot, onlyWant
}
