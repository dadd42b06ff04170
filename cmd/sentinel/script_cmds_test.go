//go:build !sentinel_front

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gitsentinel/sentinel/guard/install"
	"github.com/rogpeppe/go-internal/testscript"
)

// scriptCmds are the scripts' own commands, beyond testscript's.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"realpath": cmdRealpath,
	"sub":      cmdSub,
	"hookrun":  cmdHookrun,
	"freeze":   cmdFreeze,
	"frozen":   cmdFrozen,
	"bigmsg":   cmdBigmsg,
	"perm":     cmdPerm,
}

// cmdPerm checks the permission bits of files and directories, in octal
// with the set-group-ID bit as 2000; a PATH may be a glob, which must
// match: perm MODE PATH...
func cmdPerm(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: perm MODE PATH...")
	}
	var paths []string
	for _, a := range args[1:] {
		m, err := filepath.Glob(ts.MkAbs(a))
		ts.Check(err)
		if len(m) == 0 {
			ts.Fatalf("%s: no such file", a)
		}
		paths = append(paths, m...)
	}
	for _, a := range paths {
		fi, err := os.Lstat(a)
		ts.Check(err)
		m := uint32(fi.Mode().Perm())
		if fi.Mode()&os.ModeSetgid != 0 {
			m |= 0o2000
		}
		if got := fmt.Sprintf("%o", m); got != args[0] {
			ts.Fatalf("%s has mode %s (%v), want %s", a, got, fi.Mode(), args[0])
		}
	}
}

// cmdBigmsg writes a commit message of a title, a body of repeated text
// of at least SIZE bytes, and the given last lines, one a line: bigmsg
// FILE SIZE TITLE [LINE...]. Such a message packs into a few kilobytes.
func cmdBigmsg(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: bigmsg FILE SIZE TITLE [LINE...]")
	}
	size, err := strconv.Atoi(args[1])
	ts.Check(err)
	var b bytes.Buffer
	b.WriteString(args[2] + "\n\n")
	const line = "the quick brown fox jumps over the lazy dog again and again\n"
	for b.Len() < size {
		b.WriteString(line)
	}
	if len(args) > 3 {
		b.WriteString("\n" + strings.Join(args[3:], "\n") + "\n")
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), b.Bytes(), 0o644))
}

// frozenFiles holds what freeze saw, by absolute path; each script runs in
// its own goroutine, so the map is keyed by the script's work directory.
var frozenFiles sync.Map

type frozenFile struct {
	data  []byte
	mtime time.Time
}

// cmdFreeze records the bytes and modification time of files, back-dated
// an hour so that any rewrite shows: freeze FILE...
func cmdFreeze(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: freeze FILE...")
	}
	for _, a := range args {
		p := ts.MkAbs(a)
		old := time.Now().Add(-time.Hour).Truncate(time.Second)
		ts.Check(os.Chtimes(p, old, old))
		data, err := os.ReadFile(p)
		ts.Check(err)
		frozenFiles.Store(p, frozenFile{data, old})
	}
}

// cmdFrozen checks that files have the bytes and modification time freeze
// recorded: frozen FILE...
func cmdFrozen(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: frozen FILE...")
	}
	for _, a := range args {
		p := ts.MkAbs(a)
		v, ok := frozenFiles.Load(p)
		if !ok {
			ts.Fatalf("%s was not frozen", a)
		}
		f := v.(frozenFile)
		data, err := os.ReadFile(p)
		ts.Check(err)
		st, err := os.Stat(p)
		ts.Check(err)
		if !bytes.Equal(data, f.data) || !st.ModTime().Equal(f.mtime) {
			ts.Fatalf("%s changed: %q (mtime %v), was %q (mtime %v)", a, data, st.ModTime(), f.data, f.mtime)
		}
	}
}

// cmdRealpath sets a variable to a path with its symbolic links resolved,
// as os.Executable reports it: realpath VAR PATH.
func cmdRealpath(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: realpath VAR PATH")
	}
	p, err := filepath.EvalSymlinks(ts.MkAbs(args[1]))
	ts.Check(err)
	ts.Setenv(args[0], p)
}

// cmdSub prints a file with every OLD replaced by NEW, so that a file
// holding a machine's path compares with cmp: sub FILE OLD NEW.
func cmdSub(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: sub FILE OLD NEW")
	}
	ts.Stdout().Write([]byte(strings.ReplaceAll(ts.ReadFile(args[0]), args[1], args[2])))
}

// cmdHookrun runs the guard command installed in an agent's settings as
// the host would, through a shell with the event on stdin, and reports its
// stdout, its stderr and then its exit status on stderr: hookrun SETTINGS
// EVENT.
func cmdHookrun(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: hookrun SETTINGS EVENT")
	}
	hooks, err := install.InstalledHooks(ts.MkAbs(args[0]))
	ts.Check(err)
	if len(hooks) == 0 {
		ts.Fatalf("%s runs no guard", args[0])
	}
	cmd := exec.Command("/bin/sh", "-c", hooks[0].Command)
	cmd.Dir = ts.MkAbs(".")
	// AGENT and AGENT_TOOL_NAME are what Amp exports to its delegate.
	for _, k := range []string{"PATH", "HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "TMPDIR", "AGENT", "AGENT_TOOL_NAME"} {
		if v := ts.Getenv(k); v != "" {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	cmd.Stdin = bytes.NewReader([]byte(ts.ReadFile(args[1])))
	cmd.Stdout, cmd.Stderr = ts.Stdout(), ts.Stderr()
	code := 0
	var ee *exec.ExitError
	if err := cmd.Run(); errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("hookrun: %v", err)
	}
	fmt.Fprintf(ts.Stderr(), "exit status %d\n", code)
}
