package coverage

import (
	"context"
	"reflect"
	"testing"

	"github.com/gitsentinel/sentinel/internal/gittest"
)

// TestPHPSelection checks which PHP files a phpunit.xml's test suites make
// test files.
func TestPHPSelection(t *testing.T) {
	const test = "<?php\nclass ATest extends TestCase {\n  public function testA(): void { $this->assertTrue($x); }\n}\n"
	cases := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"no config keeps the name globs", map[string]string{
			"tests/ATest.php": test, "tests/BCheck.php": test, "src/CTest.php": test,
		}, []string{"src/CTest.php", "tests/ATest.php"}},
		{"directory with the default suffix, exclude", map[string]string{
			"phpunit.xml.dist": `<phpunit><testsuites><testsuite name="u"><directory>./tests/</directory><exclude>./tests/Slow</exclude></testsuite></testsuites></phpunit>`,
			"tests/ATest.php":  test, "tests/sub/BTest.php": test, "tests/CCheck.php": test, "tests/Slow/DTest.php": test, "src/ETest.php": test,
		}, []string{"tests/ATest.php", "tests/sub/BTest.php"}},
		{"prefix, suffix, file and a glob directory", map[string]string{
			"phpunit.xml": `<?xml version="1.0"?>
<phpunit>
  <testsuites>
    <testsuite name="a"><directory prefix="It" suffix=".php">integration</directory></testsuite>
    <testsuite name="b"><directory suffix="Spec.php">modules/*/tests</directory><file>extra/Special.php</file></testsuite>
  </testsuites>
</phpunit>`,
			"integration/ItWorks.php": test, "integration/Works.php": test, "modules/m/tests/ASpec.php": test,
			"modules/m/tests/BTest.php": test, "extra/Special.php": test, "extra/OtherTest.php": test,
		}, []string{"extra/Special.php", "integration/ItWorks.php", "modules/m/tests/ASpec.php"}},
		{"phpunit.xml comes before phpunit.xml.dist", map[string]string{
			"phpunit.xml":      `<phpunit><testsuites><testsuite name="u"><directory>a</directory></testsuite></testsuites></phpunit>`,
			"phpunit.xml.dist": `<phpunit><testsuites><testsuite name="u"><directory>b</directory></testsuite></testsuites></phpunit>`,
			"a/XTest.php":      test, "b/YTest.php": test,
		}, []string{"a/XTest.php"}},
		{"an unreadable config keeps the globs", map[string]string{
			"phpunit.xml": `<phpunit><testsuites>`, "tests/ATest.php": test, "tests/BCheck.php": test,
		}, []string{"tests/ATest.php"}},
		{"a config without suites keeps the globs", map[string]string{
			"phpunit.xml": `<phpunit bootstrap="x.php"/>`, "tests/ATest.php": test,
		}, []string{"tests/ATest.php"}},
		{"a package's own config", map[string]string{
			"packages/a/phpunit.xml":     `<phpunit><testsuites><testsuite name="u"><directory>tests</directory></testsuite></testsuites></phpunit>`,
			"packages/a/tests/XTest.php": test, "packages/a/XTest.php": test, "packages/b/tests/YTest.php": test,
		}, []string{"packages/a/tests/XTest.php", "packages/b/tests/YTest.php"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := selectedFiles(t, c.files); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestPHPRenameOutOfSuite checks the rename an agent would try: a test
// class renamed out of its suite's suffix loses its tests.
func TestPHPRenameOutOfSuite(t *testing.T) {
	gittest.Isolate(t)
	dir := t.TempDir()
	run(t, dir, nil, "init", "-q")
	write(t, dir, "phpunit.xml", `<phpunit><testsuites><testsuite name="u"><directory>tests</directory></testsuite></testsuites></phpunit>`)
	write(t, dir, "tests/FooTest.php", "<?php\nclass FooTest extends TestCase {\n  public function testFoo(): void { $this->assertSame(1, foo()); }\n}\n")
	run(t, dir, nil, "add", "-A")
	run(t, dir, nil, "commit", "-q", "-m", "one")
	run(t, dir, nil, "mv", "tests/FooTest.php", "tests/FooCheck.php")
	run(t, dir, nil, "commit", "-q", "-m", "two")
	ls, err := CommitLosses(context.Background(), Options{Dir: dir}, "HEAD", "HEAD~1", &Baseline{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != 1 || ls[0].Name != "FooTest::testFoo" {
		t.Errorf("losses %+v, want FooTest::testFoo", ls)
	}
}
