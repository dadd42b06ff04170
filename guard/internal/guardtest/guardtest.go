// Package guardtest holds the environments the guard's tests share, so that
// each package's tests build a call's environment the same way.
package guardtest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/shell"
)

// Env is a user with a home and a project in the test's own temporary
// directory, both existing; the home's tmp is the only temporary directory.
func Env(t testing.TB) *pathguard.Env {
	t.Helper()
	home := t.TempDir()
	project := filepath.Join(home, "src", "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	// The test's home is itself under /tmp, so the temp dir is one of its own.
	return &pathguard.Env{Env: shell.Env{Cwd: project, Home: home, Project: project, Temp: []string{filepath.Join(home, "tmp")}}, UserConfig: filepath.Join(home, ".config", "sentinel")}
}

// CorpusEnv is a user whose home and project do not exist on this machine,
// so that no test file under /tmp passes for them.
func CorpusEnv() *pathguard.Env {
	return &pathguard.Env{Env: shell.Env{Cwd: "/home/agent-test/src/project", Home: "/home/agent-test", Project: "/home/agent-test/src/project",
		Temp: []string{"/tmp", "/var/tmp"}}, UserConfig: "/home/agent-test/.config/sentinel"}
}
