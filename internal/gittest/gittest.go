// Package gittest prepares tests that run the real git: it keeps the
// user's configuration and any enclosing repository out of them.
package gittest

import (
	"os"
	"os/exec"
	"testing"
)

// Isolate skips the test when git is not installed, and otherwise makes git
// read only the configuration the test itself sets, and commit as Jane Doe
// (author) and Rob Roe (committer). Variables that a git
// hook exports (GIT_DIR, GIT_INDEX_FILE, …) are removed, so that a test run
// from inside a hook does not act on the hook's repository.
func Isolate(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "SENTINEL_CACHE_DIR", "SENTINEL_CACHE_KEY"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	// What sentinel keeps of the user's (the count cache's key) stays in
	// the test's own directory.
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("LC_ALL", "C")
	// Commits need an identity, and the user's must not leak in.
	t.Setenv("GIT_AUTHOR_NAME", "Jane Doe")
	t.Setenv("GIT_AUTHOR_EMAIL", "jane@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "Rob Roe")
	t.Setenv("GIT_COMMITTER_EMAIL", "rob@example.com")
}

// Repo isolates the test from the user's git configuration and returns a
// fresh repository made by `git init`.
func Repo(t testing.TB) string {
	t.Helper()
	Isolate(t)
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	return dir
}
