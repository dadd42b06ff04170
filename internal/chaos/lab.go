package chaos

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// lab is where the probes work: the binary under test, a scratch directory,
// and the environment every command runs in.
type lab struct {
	bin string
	dir string
	env []string
	// block is how long a command may take before the probe kills it and
	// counts it as blocked; the commands take milliseconds.
	block time.Duration

	logMu sync.Mutex
	log   io.Writer

	// stopped is set when the probe itself is interrupted: it stops
	// between runs.
	stopped atomic.Bool
}

// errStopped is returned by a probe that was interrupted.
var errStopped = errors.New("interrupted")

// newLab prepares a lab in dir. The environment is built from nothing but
// PATH, so that no agent marker, git setting or sentinel configuration of
// the machine's user reaches the commands: an agent marker would make
// accept refuse, and a user's hooksPath would move the hooks.
func newLab(bin, dir string, block time.Duration, log io.Writer) (*lab, error) {
	home := filepath.Join(dir, "home")
	tmp := filepath.Join(dir, "tmp")
	for _, d := range []string{home, tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	gitconfig := filepath.Join(home, ".gitconfig")
	conf := "[user]\n\tname = Chaos Probe\n\temail = chaos@example.com\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n[gc]\n\tauto = 0\n"
	if err := os.WriteFile(gitconfig, []byte(conf), 0o644); err != nil {
		return nil, err
	}
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".state"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"GIT_CONFIG_GLOBAL=" + gitconfig,
		"GIT_CONFIG_NOSYSTEM=1",
		// The hooks find the binary under test before any on PATH.
		"SENTINEL_BIN=" + bin,
		"TMPDIR=" + tmp,
		"LC_ALL=C",
		"TZ=UTC",
	}
	return &lab{bin: bin, dir: dir, env: env, block: block, log: log}, nil
}

// logf records one line in the probe's log.
func (l *lab) logf(format string, args ...any) {
	l.logMu.Lock()
	defer l.logMu.Unlock()
	fmt.Fprintf(l.log, format+"\n", args...)
}

// result is how one command ended.
type result struct {
	argv   []string
	exit   int            // the exit status; -1 when a signal ended it
	signal syscall.Signal // the signal that ended it, if one did
	stdout string
	stderr string
	dur    time.Duration
	// timedOut reports that the command ran past the lab's block time
	// and was killed.
	timedOut bool
	err      error // the command could not be started
}

func (r result) output() string { return r.stdout + r.stderr }

// brief is the command and how it ended, for the log.
func (r result) brief() string {
	how := fmt.Sprintf("exit %d", r.exit)
	switch {
	case r.err != nil:
		how = r.err.Error()
	case r.timedOut:
		how = "still running after " + r.dur.Round(time.Millisecond).String()
	case r.signal != 0:
		how = "killed by " + signalName(r.signal)
	}
	return fmt.Sprintf("%s: %s: %s", strings.Join(r.argv, " "), how, firstLine(r.stderr))
}

// interrupt says when and how to signal a command.
type interrupt struct {
	after time.Duration
	sig   syscall.Signal
	// group sends the signal to the command's whole process group, as a
	// terminal's Ctrl-C does; otherwise to the command alone, as kill(1),
	// timeout(1) and the OOM killer do.
	group bool
}

// run runs argv in dir (argv[0] "sentinel" is the binary under test),
// signalling it as in says, and killing it with its group past timeout. It
// returns once every process of the command's group is gone.
func (l *lab) run(dir string, timeout time.Duration, in *interrupt, argv ...string) result {
	name := argv[0]
	if name == "sentinel" {
		name = l.bin
	}
	cmd := exec.Command(name, argv[1:]...)
	cmd.Dir = dir
	cmd.Env = l.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// A git orphaned by a kill may hold the output pipes open; do not wait
	// on it here, waitGroupGone does.
	cmd.WaitDelay = 2 * time.Second
	ownGroup(cmd)
	res := result{argv: argv, exit: -1}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		res.err = err
		return res
	}
	pid := cmd.Process.Pid
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	var fire <-chan time.Time
	if in != nil {
		t := time.NewTimer(in.after)
		defer t.Stop()
		fire = t.C
	}
	limit := time.NewTimer(timeout)
	defer limit.Stop()
wait:
	for {
		select {
		case <-done:
			break wait
		case <-fire:
			fire = nil
			sendSignal(pid, in.sig, in.group)
		case <-limit.C:
			res.timedOut = true
			sendSignal(pid, syscall.SIGKILL, true)
		}
	}
	res.dur = time.Since(start)
	if !waitGroupGone(pid, 10*time.Second) {
		l.logf("warning: processes of %q outlived it by 10s", strings.Join(argv, " "))
	}
	res.stdout, res.stderr = stdout.String(), stderr.String()
	res.exit, res.signal = exitOf(cmd.ProcessState)
	return res
}

// git runs a git command that must succeed, and returns its output.
func (l *lab) git(dir string, args ...string) (string, error) {
	r := l.run(dir, time.Minute, nil, append([]string{"git"}, args...)...)
	if r.err != nil || r.exit != 0 {
		return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), strings.TrimSpace(r.brief()))
	}
	return r.stdout, nil
}

// sentinel runs a sentinel command that must succeed.
func (l *lab) sentinel(dir string, args ...string) (string, error) {
	r := l.run(dir, time.Minute, nil, append([]string{"sentinel"}, args...)...)
	if r.err != nil || r.exit != 0 {
		return "", fmt.Errorf("%s\n%s", r.brief(), r.output())
	}
	return r.stdout, nil
}

// copyTree copies the directory src to dst, which must not exist, keeping
// modes and symbolic links. A repository is copied rather than set up again
// for every run: it is faster by an order of magnitude.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(to, info.Mode().Perm())
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		default:
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if err := os.WriteFile(to, data, info.Mode().Perm()); err != nil {
				return err
			}
			// WriteFile's mode passes through the umask.
			return os.Chmod(to, info.Mode().Perm())
		}
	})
}

// replaceTree makes dst a fresh copy of src.
func replaceTree(src, dst string) error {
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	return copyTree(src, dst)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// signalName is how the report names a signal.
func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case 0:
		return "none"
	}
	return fmt.Sprintf("signal %d", int(s))
}
