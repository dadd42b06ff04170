package main

import (
	"os"
	"os/exec"
	"path/filepath"
)

// startedAs is this sentinel by the name it was started under, found
// before any agent can put anything on PATH: the hook commands run it by
// an absolute path, which is kept as it is (a link named sentinel is
// one); else as PATH found it, else the running file.
func startedAs() string {
	if filepath.IsAbs(os.Args[0]) {
		return os.Args[0]
	}
	if p, err := exec.LookPath(os.Args[0]); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
	}
	exe, _ := os.Executable()
	return exe
}
