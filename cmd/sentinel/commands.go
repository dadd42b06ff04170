package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// sentinel is built as two binaries, installed side by side. The front,
// named sentinel, links no C: it answers the calls that run on every
// commit and every agent tool call (commit-msg, prepare-commit-msg, the
// guard, --version) and starts nearly as fast as a Go "hello world". It
// hands every other command line, whole, to sentinel-engine, which links
// the tree-sitter grammars and runs every command. The engine built alone
// (go install ./cmd/sentinel) is a whole sentinel too.

// engineName is the engine binary's name, beside the front.
const engineName = "sentinel-engine"

// frontVersionEnv carries the front binary's version to the engine it
// starts, which refuses to run for another build's front.
const frontVersionEnv = "SENTINEL_FRONT_VERSION"

// modulePath is the module sentinel is built from. `--version` names it,
// and a hook that cannot find the sentinel it captured at install runs only
// a sentinel whose `--version` does.
const modulePath = "github.com/gitsentinel/sentinel"

// versionLine is the first line `--version` prints, the one a hook reads
// to know a build of sentinel.
func versionLine() string {
	return fmt.Sprintf("sentinel version %s (%s)\n", version, modulePath)
}

// versionText is what `sentinel version`, `--version`, `-v` and `-V`
// print: the version line, then the commit, the Go version and the
// platform, as gh prints its own.
func versionText() string {
	c := commit
	if c == "" {
		c = "unknown"
	}
	return versionLine() + fmt.Sprintf("commit %s, %s, %s/%s\n", c, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// versionArgs reports a command line that asks for the version alone.
func versionArgs(rest []string) bool {
	return len(rest) == 1 && (rest[0] == "--version" || rest[0] == "-v" || rest[0] == "-V" || rest[0] == "version")
}

// engineVerdictEnv tells an engine the front started for a guard event that
// descriptor 3 is where it reports its verdict, apart from the host's bytes:
// the front passes on only an answer with an explicit verdict.
const engineVerdictEnv = "SENTINEL_ENGINE_VERDICT_FD"

// selfBinary returns the sentinel that hooks and agents' settings should
// run, links resolved: this binary, or, for an engine with a front binary
// named sentinel beside it, that front, which starts several times faster.
func selfBinary() (string, error) {
	bin, err := os.Executable()
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(bin); err == nil {
		bin = r
	}
	if filepath.Base(bin) == engineName {
		front := filepath.Join(filepath.Dir(bin), "sentinel")
		if fi, err := os.Stat(front); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return front, nil
		}
	}
	return bin, nil
}
