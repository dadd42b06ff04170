//go:build !sentinel_front

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gitsentinel/sentinel/contain"
	"github.com/gitsentinel/sentinel/trailers"
	"github.com/rogpeppe/go-internal/testscript"
)

// stopVar carries the test binary's pid to the sentinel the scripts run.
// Only the test binary reads it: the released one has no way to cut the
// walk short.
const stopVar = "SENTINEL_TEST_WALK_STOP"

// TestMain lets the test binary act as the sentinel command inside scripts,
// so that scripts and the git hooks they install run sentinel in-process.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"sentinel": func() {
		// The tests may themselves run under an agent: the walk up the
		// process tree stops at the test binary, so that only what a
		// script starts (a stand-in agent among it) is looked at.
		if pid, err := strconv.Atoi(os.Getenv(stopVar)); err == nil {
			processes = func(dir string) *trailers.Ancestry {
				a := trailers.SystemAncestry(dir)
				a.Stop = pid
				return a
			}
		}
		main()
	}})
}

// hostGoCache is Go's build cache, asked once.
var hostGoCache = sync.OnceValue(func() string {
	out, _ := exec.Command("go", "env", "GOCACHE").Output()
	return strings.TrimSpace(string(out))
})

// TestScripts runs the end-to-end scripts under testdata/script with the
// real git.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		Cmds:                scriptCmds,
		// [bwrap]: sentinel run can build its sandbox here.
		Condition: func(cond string) (bool, error) {
			if cond == "bwrap" {
				return contain.Available(context.Background()) == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(e *testscript.Env) error {
			home := filepath.Join(e.WorkDir, ".home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			e.Setenv("HOME", home)
			e.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
			e.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			// Go's own build cache, for a go test run inside a script.
			e.Setenv("HOST_GOCACHE", hostGoCache())
			e.Setenv(stopVar, strconv.Itoa(os.Getpid()))
			e.Setenv("GIT_AUTHOR_NAME", "Jane Doe")
			e.Setenv("GIT_AUTHOR_EMAIL", "jane@example.com")
			e.Setenv("GIT_COMMITTER_NAME", "Jane Doe")
			e.Setenv("GIT_COMMITTER_EMAIL", "jane@example.com")
			e.Setenv("GIT_AUTHOR_DATE", "2026-11-29T12:00:00Z")
			e.Setenv("GIT_COMMITTER_DATE", "2026-11-29T12:00:00Z")
			// Characters a script cannot type, for file and directory
			// names: ${NL}, ${TAB}, ${ESC}.
			e.Setenv("NL", "\n")
			e.Setenv("TAB", "\t")
			e.Setenv("ESC", "\x1b")
			return nil
		},
	})
}
