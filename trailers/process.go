package trailers

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gitsentinel/sentinel/internal/atomicfile"
	"github.com/gitsentinel/sentinel/internal/quote"
)

// Process is one process as the walk up the process tree sees it.
type Process struct {
	// PID is the process id.
	PID int
	// PPID is the parent's process id; 0 when it has none this system
	// shows (above pid 1, or outside a PID namespace).
	PPID int
	// Exe is the path of the program it runs, or empty when the system
	// does not tell (another user's process).
	Exe string
	// Comm is the kernel's short name for it: the file name it was started
	// as, cut to 15 bytes on Linux.
	Comm string
	// Args is its command line, argv[0] first.
	Args []string
}

// ProcessTable reads the processes of the system.
type ProcessTable interface {
	// Process returns one process, or an error when it is gone or cannot
	// be read.
	Process(pid int) (*Process, error)
	// Environ returns the environment the process started with, as
	// "NAME=value" strings, or nil when it cannot be read.
	Environ(pid int) []string
	// Dir returns the process's working directory, or "" when unknown.
	Dir(pid int) string
}

// Ancestry is the walk up the process tree that finds an agent by its
// program, which it cannot hide from its children the way it can unset an
// environment variable.
type Ancestry struct {
	// Table reads the processes; nil turns the walk off.
	Table ProcessTable
	// Start is the first process looked at, usually this one's parent.
	Start int
	// Stop, when not 0, ends the walk before this process: tests stop at
	// the test binary, so that an agent running the tests is not taken
	// for one running the commands under test.
	Stop int
	// Home is the home directory of the agent's user settings; empty: none
	// are read.
	Home string
	// WorkDir is the project whose settings are read when the agent's own
	// working directory is unknown.
	WorkDir string
	// ReadFile reads the settings file rel below root without following a
	// link below root; nil: none are read.
	ReadFile func(root, rel string) ([]byte, error)
}

// MaxDepth bounds the walk: no real process tree is deeper, and a cycle
// (a pid reused while the walk runs) cannot make it loop.
const MaxDepth = 64

// walk calls visit on each ancestor, nearest first, until visit returns
// false, the tree ends, MaxDepth is reached or a process cannot be read.
// pid 1 is looked at (in a container the agent may be pid 1), then the
// walk stops.
func (a *Ancestry) walk(depth int, visit func(*Process) bool) {
	if a == nil || a.Table == nil {
		return
	}
	seen := map[int]bool{}
	for pid, n := a.Start, 0; pid > 0 && pid != a.Stop && n < depth && !seen[pid]; n++ {
		seen[pid] = true
		p, err := a.Table.Process(pid)
		if err != nil || !visit(p) {
			return
		}
		pid = p.PPID
	}
}

// Parents returns up to n processes above this one, nearest first.
func (a *Ancestry) Parents(n int) []*Process {
	var out []*Process
	a.walk(n, func(p *Process) bool {
		out = append(out, p)
		return true
	})
	return out
}

// Name is the process's program name for people: its short name, or the
// base name of its executable or of argv[0], quoted when a process named
// itself with characters a terminal would act on.
func (p *Process) Name() string {
	switch {
	case p.Comm != "":
		return quote.Name(p.Comm)
	case p.Exe != "":
		return quote.Name(path.Base(filepath.ToSlash(p.Exe)))
	case len(p.Args) > 0:
		return quote.Name(path.Base(filepath.ToSlash(p.Args[0])))
	}
	return "?"
}

// IsGit reports whether the process runs git.
func (p *Process) IsGit() bool {
	for _, n := range p.names() {
		if n == "git" {
			return true
		}
	}
	return false
}

// names are the process's program names, lower-case and without ".exe":
// its executable's base name, its short name and argv[0]'s base name. An
// agent installed as a versioned file ("…/claude/versions/2.1.3") still
// starts as "claude", which its short name and argv[0] keep.
func (p *Process) names() []string {
	var out []string
	add := func(s string) {
		s = strings.TrimSuffix(strings.ToLower(path.Base(filepath.ToSlash(s))), ".exe")
		if s != "" && s != "." && s != "/" {
			out = append(out, s)
		}
	}
	add(p.Exe)
	add(p.Comm)
	if len(p.Args) > 0 {
		add(p.Args[0])
	}
	return out
}

// interpreter returns the kind of script interpreter the process runs
// ("node", "python", "shell"), or "".
func (p *Process) interpreter() string {
	for _, n := range p.names() {
		base := strings.TrimRight(n, "0123456789.")
		switch base {
		case "node", "nodejs", "bun", "deno":
			return "node"
		case "python", "pypy", "pythonw":
			return "python"
		case "sh", "bash", "dash", "zsh", "ksh", "mksh", "fish":
			return "shell"
		}
	}
	return ""
}

// valueOptions are an interpreter's options that take the next argument as
// their value, so that it is not taken for the script.
var valueOptions = map[string]map[string]bool{
	"node": {
		"-r": true, "--require": true, "--import": true, "--loader": true, "--experimental-loader": true,
		"-C": true, "--conditions": true, "--title": true, "--env-file": true, "--inspect-port": true,
		"--cpu-prof-dir": true, "--heap-prof-dir": true, "--diagnostic-dir": true, "--redirect-warnings": true,
	},
	"python": {"-W": true, "-X": true, "--check-hash-based-pycs": true},
	"shell":  {"-o": true, "+o": true, "-O": true, "+O": true, "--rcfile": true, "--init-file": true},
}

// inlineOptions mean the interpreter runs code given on the command line,
// not a script file.
var inlineOptions = map[string]map[string]bool{
	"node":   {"-e": true, "--eval": true, "-p": true, "--print": true},
	"python": {"-c": true},
	"shell":  {"-c": true},
}

// script finds the script an interpreter runs: its path (or, for
// `python -m`, the module's name) and the arguments after it. ok is false
// when the process runs no script file.
func (p *Process) script(kind string) (script string, rest []string, ok bool) {
	args := p.Args
	if len(args) < 2 {
		return "", nil, false
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return args[i+1], args[i+2:], true
			}
			return "", nil, false
		case inlineOptions[kind][a]:
			return "", nil, false
		case kind == "python" && a == "-m":
			if i+1 < len(args) {
				mod, _, _ := strings.Cut(args[i+1], ".")
				return mod, args[i+2:], true
			}
			return "", nil, false
		case kind == "python" && strings.HasPrefix(a, "-m") && len(a) > 2:
			mod, _, _ := strings.Cut(a[2:], ".")
			return mod, args[i+1:], true
		case valueOptions[kind][a]:
			i++
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+") && kind == "shell":
		case kind == "node" && i == 1 && (a == "run" || a == "x" || a == "exec"):
			// bun run script, deno run script
		default:
			return a, args[i+1:], true
		}
	}
	return "", nil, false
}

// ProcFS reads processes from a Linux /proc file system mounted at Root.
// Each process costs a few small reads.
type ProcFS struct {
	// Root is where proc is mounted: "/proc", or a copy in tests.
	Root string
}

// Bounds on what is read of a process: a command line or an environment
// past them is cut, which costs at most a model name or a marker.
const (
	maxStat    = 4 << 10
	maxCmdline = 128 << 10
	maxEnviron = 256 << 10
)

// Process reads /proc/PID/stat, exe and cmdline.
func (f ProcFS) Process(pid int) (*Process, error) {
	dir := filepath.Join(f.Root, strconv.Itoa(pid))
	stat, err := readBounded(filepath.Join(dir, "stat"), maxStat)
	if err != nil {
		return nil, err
	}
	p, err := parseStat(stat)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "stat"), err)
	}
	if exe, err := os.Readlink(filepath.Join(dir, "exe")); err == nil {
		p.Exe = strings.TrimSuffix(exe, " (deleted)")
	}
	// The command line is read only where it can tell something: an
	// interpreter's script, or an agent's options. Most of a walk is
	// shells, git, a terminal and init, and each read costs.
	if p.interpreter() == "" && !knownProgram(p) {
		return p, nil
	}
	if cmd, err := readBounded(filepath.Join(dir, "cmdline"), maxCmdline); err == nil {
		p.Args = splitNUL(cmd)
	}
	return p, nil
}

// knownProgram reports whether the process's executable or short name is
// a known agent's program or lies where one is installed.
func knownProgram(p *Process) bool {
	names := p.names()
	for _, a := range Known {
		if a.isProgram(names...) || a.onPath(p.Exe) {
			return true
		}
	}
	return false
}

// Environ reads /proc/PID/environ: the environment the process started
// with, which the children it runs cannot change.
func (f ProcFS) Environ(pid int) []string {
	data, err := readBounded(filepath.Join(f.Root, strconv.Itoa(pid), "environ"), maxEnviron)
	if err != nil {
		return nil
	}
	return splitNUL(data)
}

// Dir reads the /proc/PID/cwd link.
func (f ProcFS) Dir(pid int) string {
	d, err := os.Readlink(filepath.Join(f.Root, strconv.Itoa(pid), "cwd"))
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(d, " (deleted)")
}

// parseStat reads the pid, short name and parent of a /proc/PID/stat line:
// "PID (COMM) STATE PPID …". The name may hold spaces and parentheses, so
// it ends at the last ')'.
func parseStat(stat []byte) (*Process, error) {
	open := bytes.IndexByte(stat, '(')
	end := bytes.LastIndexByte(stat, ')')
	if open < 0 || end < open {
		return nil, errors.New("no process name")
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(stat[:open])))
	if err != nil {
		return nil, fmt.Errorf("bad pid: %w", err)
	}
	fields := strings.Fields(string(stat[end+1:]))
	if len(fields) < 2 {
		return nil, errors.New("no parent")
	}
	ppid, err := strconv.Atoi(fields[1])
	if err != nil {
		return nil, fmt.Errorf("bad parent: %w", err)
	}
	return &Process{PID: pid, PPID: ppid, Comm: string(stat[open+1 : end])}, nil
}

// splitNUL splits NUL-terminated strings (a command line, an environment).
func splitNUL(data []byte) []string {
	data = bytes.TrimRight(data, "\x00")
	if len(data) == 0 {
		return nil
	}
	return strings.Split(string(data), "\x00")
}

// readBounded reads at most limit bytes of a file; files under /proc
// report no size, so it reads to the end or the bound. It starts with a
// page: each read of a process's command line or environment copies from
// that process's memory, so fewer, larger reads cost less.
func readBounded(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, 0, min(4096, limit))
	for int64(len(buf)) < limit {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):min(int64(cap(buf)), limit)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// SystemAncestry walks this process's parents on this system, reading the
// agent's user settings under the home directory and its project settings
// in workDir when its own working directory is unknown. On a system whose
// processes sentinel cannot read, the walk is off and detection reads the
// environment alone.
func SystemAncestry(workDir string) *Ancestry {
	home, _ := os.UserHomeDir()
	return &Ancestry{
		Table:    systemTable(),
		Start:    os.Getppid(),
		Home:     home,
		WorkDir:  workDir,
		ReadFile: readSettings,
	}
}

// readSettings reads a settings file below root without following a link
// below it, without blocking on a FIFO, and bounded.
func readSettings(root, rel string) ([]byte, error) {
	return atomicfile.ReadIn(root, rel, maxSettings)
}

// parseProcArgs reads macOS's kern.procargs2: argc as a 32-bit integer, the
// executable's path, NUL padding, argc arguments and then the environment,
// each NUL-terminated.
func parseProcArgs(raw []byte) (exe string, args, env []string, ok bool) {
	if len(raw) < 4 {
		return "", nil, nil, false
	}
	argc := int(binary.LittleEndian.Uint32(raw))
	rest := raw[4:]
	i := bytes.IndexByte(rest, 0)
	if i < 0 {
		return "", nil, nil, false
	}
	exe, rest = string(rest[:i]), rest[i:]
	for len(rest) > 0 && rest[0] == 0 {
		rest = rest[1:]
	}
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, 0)
		if i < 0 {
			i = len(rest)
		}
		s := string(rest[:i])
		if i < len(rest) {
			rest = rest[i+1:]
		} else {
			rest = nil
		}
		if len(args) < argc {
			args = append(args, s)
			continue
		}
		if s == "" {
			break
		}
		env = append(env, s)
	}
	return exe, args, env, len(args) == argc
}
