// Package gitrepo is sentinel's one door to git: every git command line it
// runs is a named value here, and object reads go through go-git with a
// fallback to the git CLI where go-git cannot open a repository.
package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"unicode/utf8"

	"github.com/gitsentinel/sentinel/internal/gitconfig"
)

// Every git command line sentinel runs. Keeping them here, named, makes it
// possible to audit what sentinel asks of git and to fake git in unit tests.
var (
	// ArgvConfigSyntax reads the keys that change how trailers are parsed.
	ArgvConfigSyntax = []string{"config", "-z", "--get-regexp", `^(core\.comment(char|string)|trailer\..*)$`}
	// ArgvUserIdent reads the committer identity.
	ArgvUserIdent = []string{"var", "GIT_COMMITTER_IDENT"}
	// ArgvShowToplevel prints the root of the work tree.
	ArgvShowToplevel = []string{"rev-parse", "--show-toplevel"}
	// ArgvAbsoluteGitDir prints the git dir of this work tree, where git
	// keeps the state of a merge, rebase or cherry-pick under way.
	ArgvAbsoluteGitDir = []string{"rev-parse", "--absolute-git-dir"}
	// ArgvLocate prints the common git dir, the object format and, for
	// each revision appended, its commit id.
	ArgvLocate = []string{"rev-parse", "--git-common-dir", "--show-object-format"}
	// ArgvRevList lists commits; the range is appended.
	ArgvRevList = []string{"rev-list", "--reverse"}
	// ArgvCatFileBatch reads objects by id on stdin.
	ArgvCatFileBatch = []string{"cat-file", "--batch"}
	// ArgvStatusTracked lists tracked files with changes. The guard never
	// runs it (git status runs the repository's core.fsmonitor); the tests
	// hold the guard's in-process reading, TrackedChanges, to its answer.
	ArgvStatusTracked = []string{"status", "--porcelain", "-z", "--untracked-files=no", "--ignore-submodules"}
)

// Runner runs git with the given arguments in a directory and returns its
// standard output. Unit tests replace it; everything else uses Exec.
type Runner interface {
	Run(ctx context.Context, dir string, stdin []byte, argv ...string) ([]byte, error)
}

// Exec runs the real git found on PATH.
type Exec struct{}

// ExitError is a git command that ran and exited non-zero.
type ExitError struct {
	// Argv is the git command line, without "git".
	Argv []string
	// Code is git's exit status.
	Code int
	// Stderr is what git printed on standard error, trimmed.
	Stderr string
}

// Error describes the failed command and what git said.
func (e *ExitError) Error() string {
	msg := fmt.Sprintf("git %s: exit status %d", strings.Join(e.Argv, " "), e.Code)
	if e.Stderr != "" {
		msg += ": " + e.Stderr
	}
	return msg
}

// pinned are settings every git that sentinel runs is given on its command
// line, above any configuration file: a repository is untrusted input, and
// its .git/config must not make sentinel run a program. Each names one:
// the file-system monitor that git status and the diff plumbing start, the
// ssh command, credential helpers, the pager and the editors. (sentinel
// runs only the diff plumbing, which uses no external diff or textconv.)
var pinned = []string{
	"-c", "core.fsmonitor=false",
	"-c", "core.sshCommand=ssh",
	"-c", "credential.helper=",
	"-c", "core.askPass=",
	"-c", "core.pager=cat",
	"-c", "core.editor=false",
	"-c", "sequence.editor=false",
}

// gitArgv is argv behind the pinned settings.
func gitArgv(argv []string) []string {
	return append(append(make([]string, 0, len(pinned)+len(argv)), pinned...), argv...)
}

// Run runs git and returns its standard output.
func (Exec) Run(ctx context.Context, dir string, stdin []byte, argv ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", gitArgv(argv)...)
	cmd.Dir = dir
	ownGroup(cmd)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return stdout.Bytes(), &ExitError{Argv: argv, Code: ee.ExitCode(), Stderr: strings.TrimSpace(stderr.String())}
	}
	if err != nil {
		return nil, fmt.Errorf("run git: %w", err)
	}
	return stdout.Bytes(), nil
}

// Git runs git commands for one directory.
type Git struct {
	// Dir is the directory git runs in; empty means the current one.
	Dir string
	// Runner runs the commands; nil means Exec.
	Runner Runner
}

// command builds an exec.Cmd for git in the directory, for the callers
// that stream its input and output.
func (g *Git) command(ctx context.Context, argv []string, extra ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", gitArgv(append(append([]string(nil), argv...), extra...))...)
	cmd.Dir = g.Dir
	ownGroup(cmd)
	return cmd
}

func (g *Git) run(ctx context.Context, stdin []byte, argv []string, extra ...string) ([]byte, error) {
	r := g.Runner
	if r == nil {
		r = Exec{}
	}
	full := append(append([]string(nil), argv...), extra...)
	return r.Run(ctx, g.Dir, stdin, full...)
}

// stream runs git and hands its standard output to read as it comes, for
// output too large to hold: what read leaves is read and dropped, so that
// git can finish. With a Runner set, read gets what the Runner returned.
func (g *Git) stream(ctx context.Context, read func(io.Reader) error, argv []string, extra ...string) error {
	if g.Runner != nil {
		out, err := g.run(ctx, nil, argv, extra...)
		if err != nil {
			return err
		}
		return read(bytes.NewReader(out))
	}
	cmd := g.command(ctx, argv, extra...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("run git: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("run git: %w", err)
	}
	rerr := read(out)
	_, _ = io.Copy(io.Discard, out)
	err = cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return &ExitError{Argv: append(append([]string(nil), argv...), extra...), Code: ee.ExitCode(), Stderr: strings.TrimSpace(stderr.String())}
	}
	if err != nil {
		return fmt.Errorf("run git: %w", err)
	}
	return rerr
}

// ConfigEntry is one key and value from git's configuration.
type ConfigEntry struct {
	// Key is the key with section and variable lower-cased.
	Key string
	// Value is the value as git prints it.
	Value string
}

// SyntaxConfig returns the comment and trailer settings that change how
// git finds trailers, from every configuration git reads, in git's order.
// With the real git it reads the files in-process when that gives git's
// exact answer (see internal/gitconfig), and runs ArgvConfigSyntax
// otherwise.
func (g *Git) SyntaxConfig(ctx context.Context) ([]ConfigEntry, error) {
	if g.Runner == nil {
		if entries, err := SyntaxConfigInProcess(g.Dir, os.LookupEnv); err == nil {
			return entries, nil
		}
	}
	return g.SyntaxConfigGit(ctx)
}

// SyntaxConfigInProcess reads what ArgvConfigSyntax would print by reading
// git's configuration files in dir without running git. Its error wraps
// gitconfig.ErrUnsupported whenever git might answer otherwise.
func SyntaxConfigInProcess(dir string, env gitconfig.Env) ([]ConfigEntry, error) {
	all, err := gitconfig.Read(dir, env)
	if err != nil {
		return nil, err
	}
	var entries []ConfigEntry
	for _, e := range all {
		if e.Key != "core.commentchar" && e.Key != "core.commentstring" && !strings.HasPrefix(e.Key, "trailer.") {
			continue
		}
		if !utf8.ValidString(e.Key) {
			// git's regular expression may not match it in a UTF-8 locale.
			return nil, fmt.Errorf("key %q is not UTF-8: %w", e.Key, gitconfig.ErrUnsupported)
		}
		entries = append(entries, ConfigEntry{Key: e.Key, Value: e.Value})
	}
	return entries, nil
}

// SyntaxConfigGit is SyntaxConfig answered by the git config process.
func (g *Git) SyntaxConfigGit(ctx context.Context) ([]ConfigEntry, error) {
	out, err := g.run(ctx, nil, ArgvConfigSyntax)
	var ee *ExitError
	if errors.As(err, &ee) && ee.Code == 1 && ee.Stderr == "" {
		// Exit status 1 is "no such key": nothing is configured.
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return parseConfigZ(out), nil
}

// parseConfigZ splits `git config -z --get-regexp` output: each entry is
// the key, a newline, the value, then NUL (a key without value has no
// newline).
func parseConfigZ(out []byte) []ConfigEntry {
	var entries []ConfigEntry
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		k, v, _ := bytes.Cut(rec, []byte{'\n'})
		entries = append(entries, ConfigEntry{Key: string(k), Value: string(v)})
	}
	return entries
}

// CommitterIdent returns "Name <email>" of the committer git would record.
func (g *Git) CommitterIdent(ctx context.Context) (string, error) {
	out, err := g.run(ctx, nil, ArgvUserIdent)
	if err != nil {
		return "", err
	}
	line := strings.TrimSpace(string(out))
	// The ident ends with a timestamp and a zone after the closing '>'.
	if i := strings.LastIndexByte(line, '>'); i >= 0 {
		line = line[:i+1]
	}
	return line, nil
}

// Toplevel returns the root of the work tree.
func (g *Git) Toplevel(ctx context.Context) (string, error) {
	out, err := g.revParse(ctx, ArgvShowToplevel)
	if err != nil {
		return "", err
	}
	return oneValue(out)
}

// GitDir returns the absolute git dir of the work tree (a linked work
// tree's own, not the common one).
func (g *Git) GitDir(ctx context.Context) (string, error) {
	out, err := g.revParse(ctx, ArgvAbsoluteGitDir)
	if err != nil {
		return "", err
	}
	return oneValue(out)
}

// revParse runs a git rev-parse argv; "not a git repository" becomes
// ErrNotRepository.
func (g *Git) revParse(ctx context.Context, argv []string, extra ...string) ([]byte, error) {
	out, err := g.run(ctx, nil, argv, extra...)
	if err != nil {
		var ee *ExitError
		if errors.As(err, &ee) && strings.Contains(ee.Stderr, "not a git repository") {
			return nil, ErrNotRepository
		}
		if errors.As(err, &ee) && strings.Contains(ee.Stderr, "must be run in a work tree") {
			return nil, ErrNoWorkTree
		}
		return nil, err
	}
	return out, nil
}

// git rev-parse has no -z: it prints each value on a line of its own, and a
// path may hold a newline itself (a repository in "my\nrepo"). So a path is
// never found by splitting lines: a lone value is the whole output less its
// one final newline, and a path printed beside values that cannot hold a
// newline (true, sha1, a commit id) is what is left once those are taken
// off the ends.

// oneValue returns the single value a rev-parse printed: its output less
// exactly one final newline.
func oneValue(out []byte) (string, error) {
	v, ok := bytes.CutSuffix(out, []byte{'\n'})
	if !ok {
		return "", fmt.Errorf("git rev-parse: unexpected output %q", out)
	}
	return string(v), nil
}

// splitFirst returns the first line of a rev-parse's output, which must not
// hold a newline, and the single value printed after it.
func splitFirst(out []byte) (first, rest string, err error) {
	f, r, ok := bytes.Cut(out, []byte{'\n'})
	if !ok {
		return "", "", fmt.Errorf("git rev-parse: unexpected output %q", out)
	}
	rest, err = oneValue(r)
	return string(f), rest, err
}
