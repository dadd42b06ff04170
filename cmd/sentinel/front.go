//go:build sentinel_front

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/gitsentinel/sentinel/guard"
	"github.com/gitsentinel/sentinel/guard/hosts"
)

// run answers the command lines the front knows exactly, and hands every
// other one, help, completions and mistakes included, to the engine: the
// front parses nothing it might read differently from the engine.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) error {
	rest := args[1:]
	switch {
	case versionArgs(rest):
		_, err := io.WriteString(stdout, versionText())
		return err
	case len(rest) >= 2 && rest[0] == "hook" && (rest[1] == "commit-msg" || rest[1] == "prepare-commit-msg") && !wantsHelp(rest[2:]):
		e, err := newEnv(args, stdin, stdout, stderr, getenv)
		if err != nil {
			return err
		}
		_, err = messageHook(context.Background(), e, hookOptions{name: rest[1], args: rest[2:]})
		return err
	case len(rest) >= 1 && rest[0] == "run":
		// The front contains the agent itself: the engine's start-up is a
		// third of the sandbox's.
		if o, ok := runArgs(rest[1:]); ok {
			e, err := newEnv(args, stdin, stdout, stderr, getenv)
			if err != nil {
				return err
			}
			return runRun(context.Background(), e, o)
		}
	case len(rest) >= 1 && rest[0] == "guard":
		if o, ok := guardArgs(rest[1:]); ok {
			e, err := newEnv(args, stdin, stdout, stderr, getenv)
			if err != nil {
				return err
			}
			return runGuard(context.Background(), e, o)
		}
	}
	return execEngine(args)
}

// guardArgs reads the flags of `sentinel guard` in the shapes the engine's
// parser accepts for them: none, or --agent with a dialect sentinel
// speaks. Anything else (a subcommand, help, an unknown dialect) is the
// engine's to answer.
func guardArgs(args []string) (guardOptions, bool) {
	var o guardOptions
	switch len(args) {
	case 0:
		return o, true
	case 1:
		for _, p := range []string{"--agent=", "-agent="} {
			if v, ok := strings.CutPrefix(args[0], p); ok {
				o.agent = v
			}
		}
	case 2:
		if args[0] == "--agent" || args[0] == "-agent" {
			o.agent = args[1]
		}
	}
	_, known := hosts.Dialects[o.agent]
	return o, o.agent != "" && known
}

// enginePath finds the engine beside this binary: beside the file it runs
// from, links resolved, or beside the path it was started by. It is never
// taken from the environment, which an agent sets: an engine of its own
// choosing would pass every check.
func enginePath(args []string) (string, error) {
	var dirs []string
	if self, err := os.Executable(); err == nil {
		if r, err := filepath.EvalSymlinks(self); err == nil {
			dirs = append(dirs, filepath.Dir(r))
		}
		dirs = append(dirs, filepath.Dir(self))
	}
	if len(args) > 0 && args[0] != "" {
		if p, err := exec.LookPath(args[0]); err == nil {
			if abs, err := filepath.Abs(p); err == nil {
				dirs = append(dirs, filepath.Dir(abs))
			}
		}
	}
	for _, d := range dirs {
		p := filepath.Join(d, engineName)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	where := "this sentinel"
	if len(dirs) > 0 {
		where = dirs[0]
	}
	return "", fmt.Errorf("%s, which runs every command but the hooks' fastest, is not installed beside %s; install both: run `make install` in sentinel's source", engineName, where)
}

// engineEnv is the environment the engine runs in: this one, and the
// front's version, which the engine checks against its own.
func engineEnv() []string {
	return append(os.Environ(), frontVersionEnv+"="+version)
}

// execEngine replaces this process with the engine, run on the same
// command line: the engine's output and exit status are the command's.
func execEngine(args []string) error {
	p, err := enginePath(args)
	if err != nil {
		return err
	}
	argv := append([]string{p}, args[1:]...)
	return fmt.Errorf("run %s: %w", engineName, syscall.Exec(p, argv, engineEnv()))
}

// delegateEvent hands a guard event the front could not read whole to the
// engine, within guard.EngineTimeout, and answers with what the engine
// answers, held until the engine has exited: an engine killed half way must
// not leave half an answer. The engine reports its verdict on descriptor 3,
// apart from the host's bytes, and guard.Handle passes the answer on only
// with that verdict. An error means the engine could not answer: the
// front's own answer, a denial, then stands.
func delegateEvent(e *env) func(input []byte) (guard.EngineReply, error) {
	return func(input []byte) (guard.EngineReply, error) {
		p, err := enginePath(e.args)
		if err != nil {
			return guard.EngineReply{}, err
		}
		vr, vw, err := os.Pipe()
		if err != nil {
			return guard.EngineReply{}, err
		}
		defer vr.Close()
		ctx, cancel := context.WithTimeout(context.Background(), guard.EngineTimeout)
		defer cancel()
		var out, errOut bytes.Buffer
		cmd := exec.CommandContext(ctx, p, e.args[1:]...)
		cmd.Stdin = bytes.NewReader(input)
		cmd.Stdout, cmd.Stderr = &out, &errOut
		cmd.ExtraFiles = []*os.File{vw}
		cmd.Env = append(engineEnv(), engineVerdictEnv+"=3")
		cmd.Dir = e.dir
		cmd.WaitDelay = 100 * time.Millisecond
		err = cmd.Start()
		vw.Close()
		if err != nil {
			return guard.EngineReply{}, fmt.Errorf("run %s: %w", engineName, err)
		}
		verdict := make(chan string, 1)
		go func() {
			b, _ := io.ReadAll(io.LimitReader(vr, 64))
			verdict <- strings.TrimSpace(string(b))
		}()
		err = cmd.Wait()
		if ctx.Err() != nil {
			return guard.EngineReply{}, fmt.Errorf("%s gave no answer within %v", engineName, guard.EngineTimeout)
		}
		reply := guard.EngineReply{Answer: hosts.Answer{Stdout: out.Bytes(), Stderr: errOut.String()}}
		var ee *exec.ExitError
		switch {
		case err == nil:
		case errors.As(err, &ee) && ee.Exited():
			reply.Exit = ee.ExitCode()
		default:
			return guard.EngineReply{}, fmt.Errorf("run %s: %w", engineName, err)
		}
		select {
		case reply.Verdict = <-verdict:
		case <-ctx.Done():
		}
		return reply, nil
	}
}

// reportVerdict has nothing to do in the front, which answers the host
// itself.
func reportVerdict(*env, guard.Reply) {}
