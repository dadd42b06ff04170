package coverage

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestPHPMatchesPHPUnit compares sentinel's PHP test names with
// phpunit --list-tests on fixtures/accuracy/php, and their statuses with
// what PHPUnit reports when it runs them: a skipped or incomplete test is
// skipped.
func TestPHPMatchesPHPUnit(t *testing.T) {
	phpunit, err := exec.LookPath("phpunit")
	if err != nil {
		t.Skip("phpunit is not installed")
	}
	dir, _ := filepath.Abs(filepath.Join("..", "fixtures", "accuracy", "php"))
	file := filepath.Join(dir, "tests", "TruthTest.php")
	out, err := exec.Command(phpunit, "--list-tests", file).CombinedOutput()
	if err != nil {
		t.Skipf("phpunit did not run: %v\n%s", err, out)
	}
	var want []string
	for _, line := range strings.Split(string(out), "\n") {
		if name, ok := strings.CutPrefix(line, " - "); ok {
			want = append(want, strings.TrimSpace(name))
		}
	}
	// The projects in the other subdirectories have suites of their own
	// (TestPHPMatchesSuites).
	got := namesUnder(t, dir, "tests/", false)
	sort.Strings(want)
	if len(want) < 4 || !reflect.DeepEqual(got, want) {
		t.Errorf("sentinel and PHPUnit differ\n got %q\nwant %q", got, want)
	}

	log := filepath.Join(t.TempDir(), "junit.xml")
	cmd := exec.Command(phpunit, "--log-junit", log, file)
	cmd.Dir = t.TempDir()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("phpunit: %v\n%s", err, out)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var report struct {
		Cases []struct {
			Name    string    `xml:"name,attr"`
			Class   string    `xml:"class,attr"`
			Skipped *struct{} `xml:"skipped"`
		} `xml:"testsuite>testcase"`
	}
	if err := xml.Unmarshal(data, &report); err != nil {
		t.Fatal(err)
	}
	var wantStatus []string
	for _, c := range report.Cases {
		st := "active"
		if c.Skipped != nil {
			st = "skipped"
		}
		wantStatus = append(wantStatus, c.Class+"::"+c.Name+" "+st)
	}
	sort.Strings(wantStatus)
	gotStatus := namesUnder(t, dir, "tests/", true)
	if len(wantStatus) < 4 || !reflect.DeepEqual(gotStatus, wantStatus) {
		t.Errorf("sentinel and PHPUnit differ on statuses\n got %q\nwant %q", gotStatus, wantStatus)
	}
}

// phpSuiteProjects are the projects under fixtures/accuracy/php, each with
// the PSR-4 prefixes of the code its tests load: a small autoloader written
// by the test stands for Composer's.
var phpSuiteProjects = []struct {
	name   string
	config string
	psr4   string // prefix=dir;…
}{
	{"constant_time_encoding", "phpunit.xml.dist", `ParagonIE\ConstantTime\Tests\=tests;ParagonIE\ConstantTime\=src`},
	{"dot-access-data", "phpunit.xml.dist", `Dflydev\DotAccessData\=src`},
	{"own-phpunit", "phpunit.xml", `Own\=src`},
}

// phpAutoload is the bootstrap the projects run with instead of
// vendor/autoload.php: PSR-4 over the prefixes in $PSR4.
const phpAutoload = `<?php
spl_autoload_register(function ($class) {
    foreach (explode(';', getenv('PSR4')) as $pair) {
        [$prefix, $dir] = explode('=', $pair, 2);
        if (strncmp($class, $prefix, strlen($prefix)) === 0) {
            $f = $dir . '/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
            if (is_file($f)) {
                require $f;
                return;
            }
        }
    }
});
`

// TestPHPMatchesSuites compares the tests sentinel counts in each project,
// through its phpunit.xml's suites, with phpunit --list-tests run with that
// config: a data set (#0, "with data set …") is one test of its method.
func TestPHPMatchesSuites(t *testing.T) {
	phpunit, err := exec.LookPath("phpunit")
	if err != nil {
		t.Skip("phpunit is not installed")
	}
	boot := filepath.Join(t.TempDir(), "autoload.php")
	if err := os.WriteFile(boot, []byte(phpAutoload), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range phpSuiteProjects {
		t.Run(p.name, func(t *testing.T) {
			dir, _ := filepath.Abs(filepath.Join("..", "fixtures", "accuracy", "php", p.name))
			var psr4 []string
			for _, pair := range strings.Split(p.psr4, ";") {
				prefix, sub, _ := strings.Cut(pair, "=")
				psr4 = append(psr4, prefix+"="+filepath.Join(dir, sub))
			}
			cmd := exec.Command(phpunit, "--configuration", filepath.Join(dir, p.config), "--bootstrap", boot, "--list-tests")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PSR4="+strings.Join(psr4, ";"))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Skipf("phpunit did not run: %v\n%s", err, firstLines(out, 20))
			}
			seen := map[string]bool{}
			var want []string
			for _, line := range strings.Split(string(out), "\n") {
				name, ok := strings.CutPrefix(line, " - ")
				if !ok {
					continue
				}
				name = phpDataSet.ReplaceAllString(strings.TrimSpace(name), "")
				if !seen[name] {
					seen[name] = true
					want = append(want, name)
				}
			}
			sort.Strings(want)
			got := countedNames(t, dir, false)
			t.Logf("%s: phpunit lists %d test methods, sentinel counts %d", p.name, len(want), len(got))
			if len(want) < 3 || !reflect.DeepEqual(got, want) {
				t.Errorf("sentinel and PHPUnit differ\n got %q\nwant %q", got, want)
			}
		})
	}
}

// phpDataSet matches the data set PHPUnit appends to a test's name.
var phpDataSet = regexp.MustCompile(`(#\d+| with data set .*)$`)
