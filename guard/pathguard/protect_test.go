package pathguard

import (
	"path/filepath"
	"testing"

	"github.com/gitsentinel/sentinel/guard/install"
	"github.com/gitsentinel/sentinel/guard/shell"
)

// TestInstalledFilesProtected checks that every file `sentinel guard
// install` writes, in a project and in the home directory, is one the path
// guard refuses to let an agent write: the list comes from install, so a
// new host's file is protected the day it is installed.
func TestInstalledFilesProtected(t *testing.T) {
	home := t.TempDir()
	project := filepath.Join(home, "src", "p")
	e := &Env{Env: shell.Env{Cwd: project, Home: home, Project: project}}
	written := install.Written()
	if len(written) < 14 {
		t.Fatalf("install writes %d files; every host writes at least one", len(written))
	}
	for _, rel := range written {
		for _, p := range []string{filepath.Join(project, rel), filepath.Join(home, rel)} {
			if f := e.CheckPath(p); f == nil || f.ID != "path.agent-settings" {
				t.Errorf("a write to %s is %+v, want path.agent-settings", p, f)
			}
		}
	}
	if f := e.CheckPath(filepath.Join(project, "src", "settings.json")); f != nil {
		t.Errorf("a project's own settings.json is protected: %+v", f)
	}
}
