package cirun

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// stub writes an executable shell script.
func stub(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
}

// runCI runs a copy of .ci/run with a PATH of only the tools it needs and
// stand-ins for id, apt-get and make, so that nothing is installed or
// built: uid is what id -u says.
func runCI(t *testing.T, uid string) (string, error) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, d := range []string{".ci", "bin", "path"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	if err := os.WriteFile(filepath.Join(root, ".ci", "run"), src, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "path")
	for _, tool := range []string{"bash", "env", "sed", "tail", "mktemp", "rm", "timeout", "dirname", "cat"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("no %s: %v", tool, err)
		}
		if err := os.Symlink(p, filepath.Join(path, tool)); err != nil {
			t.Fatal(err)
		}
	}
	stub(t, filepath.Join(path, "id"), "echo "+uid+"\n")
	// apt-get as it fails without a network: update warns, install
	// cannot find the packages.
	stub(t, filepath.Join(path, "apt-get"), `echo "apt-get $*" >> "$APT_LOG"
case "$1" in
update) echo "W: Failed to fetch http://deb.debian.org/debian/dists/bookworm/InRelease  Temporary failure resolving 'deb.debian.org'"; exit 100;;
install) echo "Reading package lists..."; echo "E: Unable to locate package $4"; exit 100;;
esac
`)
	stub(t, filepath.Join(path, "make"), `echo "make $*"`+"\n")
	stub(t, filepath.Join(root, "bin", "sentinel"), `echo "sentinel $*"`+"\n")
	cmd := exec.Command(filepath.Join(root, ".ci", "run"))
	cmd.Env = []string{"PATH=" + path, "APT_LOG=" + filepath.Join(root, "apt.log"), "TMPDIR=" + t.TempDir()}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestAptFailureShowsWhy: as root without a network, each optional install
// fails, the script says which checks will skip and shows apt's last
// lines, and goes on to the tests.
func TestAptFailureShowsWhy(t *testing.T) {
	out, err := runCI(t, "0")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	wants := []string{
		"ruby/rspec/rake/libgtest-dev/phpunit not installed: its checks will skip; apt's last lines:\n" +
			"  W: Failed to fetch http://deb.debian.org/debian/dists/bookworm/InRelease  Temporary failure resolving 'deb.debian.org'\n" +
			"  Reading package lists...\n  E: Unable to locate package ruby\n",
		"E: Unable to locate package g++\n",
		"E: Unable to locate package default-jdk-headless\n",
		"E: Unable to locate package openssh-client\n",
		"make test\nmake build\nsentinel check --rev HEAD\n",
	}
	// The Python check calls /usr/bin/python3 by its path, so a machine
	// that has the packages skips that install whatever PATH says.
	if exec.Command("/usr/bin/python3", "-c", "import pytest, networkx, tornado, pyflakes").Run() != nil {
		wants = append(wants, "pytest or Debian's Python packages not installed: its checks will skip; apt's last lines:\n",
			"E: Unable to locate package python3-pytest\n")
	}
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestNotRoot: without root the script installs nothing and says nothing
// about it.
func TestNotRoot(t *testing.T) {
	out, err := runCI(t, "1000")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if out != "make test\nmake build\nsentinel check --rev HEAD\n" {
		t.Errorf("output %q", out)
	}
}
