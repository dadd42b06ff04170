//go:build unix

// Package usertest runs part of a test as another user, for the tests of
// what sentinel does with files someone else made: a test run as root
// meets no refusal of permission, so it runs that part again from a copy
// of its own binary as the user nobody.
package usertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Nobody is the user and group id the child runs as.
const Nobody = 65534

// Env is set, to "1", in the child.
const Env = "SENTINEL_USERTEST_CHILD"

// InChild reports whether this process is the child Run started.
func InChild() bool { return os.Getenv(Env) == "1" }

// Run runs the test named test of this binary again as nobody, with env
// added to its environment, and returns what it printed on standard
// output; ok is false when this process is not root, and the caller is
// the other user itself. dirs are made reachable for nobody (every
// directory above them searchable); the test is skipped when one cannot
// be.
func Run(t *testing.T, test string, env []string, dirs ...string) (out string, ok bool) {
	t.Helper()
	if os.Geteuid() != 0 {
		return "", false
	}
	binDir := t.TempDir()
	for _, d := range append(dirs, binDir) {
		for p := d; p != filepath.Dir(p); p = filepath.Dir(p) {
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm()&0o001 == 0 {
				// The test's own directories are made searchable; one
				// above them stays as it is.
				if !under(p, os.TempDir()) || os.Chmod(p, fi.Mode().Perm()|0o011) != nil {
					t.Skipf("run as root, this test runs as nobody, who cannot enter %s", p)
				}
			}
		}
	}
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(binDir, filepath.Base(os.Args[0]))
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^"+test+"$")
	cmd.Env = append(append(os.Environ(), Env+"=1"), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: Nobody, Gid: Nobody}}
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s as nobody: %v\n%s", test, err, b)
	}
	// The test's own output, without the framework's verdict after it.
	return strings.TrimSuffix(string(b), "PASS\n"), true
}

// under reports whether p is below dir.
func under(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && filepath.IsLocal(rel)
}
