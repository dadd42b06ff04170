package live_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gitsentinel/sentinel/internal/fakemodel"
)

// kind is a kind of tool call the script makes.
type kind string

const (
	shell kind = "shell"
	write kind = "write"
	read  kind = "read"
	// ask is a shell call that sentinel answers with ask.
	ask kind = "ask"
)

// host is one agent host under test.
type host struct {
	// pkg is the npm package, whose installed version the test reports;
	// bin is its executable under node_modules/.bin.
	pkg, bin string
	// exe, when set, is the executable's path under node_modules instead
	// (a platform package that declares no bin, such as Factory's).
	exe string
	// agent is sentinel's name for it (--agent).
	agent string
	// call returns the tool calls of a kind with its arguments, in the
	// host's own terms: the first whose tool a request offers is made
	// (a host offers one of several shell tools, by model).
	call func(k kind, a callArgs) []fakemodel.Call
	// start writes what the host needs to talk to the fake model (its
	// settings in p.home or p.repo) and returns the command line and the
	// environment to add.
	start func(p *phase) (argv, env []string)
	// afterInstall does what a person must do once the guard is
	// installed (trusting it), when the host needs it.
	afterInstall func(p *phase) error
	// kinds are the kinds of call the guard phase covers; shell when
	// empty.
	kinds []kind
	// writeTo is the file the write call creates, relative to the
	// repository: git's pre-commit hook unless the host itself refuses
	// writes into .git (then a credentials file).
	writeTo string
	// timeout bounds one run of the host (90 s when zero).
	timeout time.Duration
	// hangRuns says the host lets a call run when its hook outlives the
	// timeout install writes: the hang phase then records that instead
	// of failing. false is the claim that a hung guard refuses the call.
	hangRuns bool
	// askRuns says the host, run headless as the test runs it, lets a
	// call run that sentinel answers with ask: the ask phase then records
	// that. false is the claim that an ask is not a yes.
	askRuns bool
}

// executable is the host's program under modules.
func (h *host) executable(modules string) string {
	if h.exe != "" {
		return filepath.Join(modules, h.exe)
	}
	return filepath.Join(modules, ".bin", h.bin)
}

// callArgs are what a scripted call acts on.
type callArgs struct {
	Command string // shell: the command line
	Path    string // write, read: the absolute path
	Content string // write: the text
}

// phase is one run of a host: a fresh repository and home, the fake
// model, and sentinel's binaries when the guard is installed.
type phase struct {
	t               *testing.T
	h               *host
	dir, home, repo string
	bins            string // this phase's copy of sentinel's binaries
	modules         string
	url             string
	guard, gone     bool
	hang            bool   // sentinel is a stand-in that outlives the hook's timeout
	events          string // where the wrapper records the hook's events
	out             string // the host's output
	srv             *fakemodel.Server
	elapsed         time.Duration
}

// The scripted calls and how each shows on disk.
const (
	dangerCommand = "git commit --no-verify -m live"
	okCommand     = "touch ok.txt"
	// askCommand is one sentinel asks about (code it cannot read before it
	// runs), whose effect is asked.txt.
	askCommand  = `eval "$(cat cmd.txt)"`
	secretValue = "live-secret-7f3a91"
	hookText    = "#!/bin/sh\nexit 0\n"
	// envWrite is the write call's file for hosts that refuse writes into
	// .git themselves.
	envWrite = ".env.local"
)

// The markers of sentinel's reasons: the rule that refuses each call, and
// the hook command's own words when sentinel cannot answer, with the
// status the shell saw for a missing binary (the words alone are in the
// hook command, which some hosts quote back).
var (
	ruleOf = map[kind]string{shell: "git.no-verify", write: "path.git-control", read: "secrets.read"}
	gone   = "(exit status 127)"
)

func newPhase(t *testing.T, h *host, modules, bins string, guard, missing bool) *phase {
	t.Helper()
	dir := t.TempDir()
	p := &phase{t: t, h: h, dir: dir, home: filepath.Join(dir, "home"), repo: filepath.Join(dir, "repo"),
		modules: modules, guard: guard, gone: missing}
	for _, d := range []string{p.home, p.repo, filepath.Join(dir, "tmp"), filepath.Join(p.home, ".config"),
		filepath.Join(p.home, ".cache"), filepath.Join(p.home, ".local", "state"), filepath.Join(p.home, ".local", "share")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p.git("init", "-q", "-b", "main")
	p.git("config", "user.name", "Jane Doe")
	p.git("config", "user.email", "jane@example.com")
	p.writeFile("README.md", "live test\n")
	p.writeFile(".env", "API_TOKEN="+secretValue+"\n")
	p.git("add", "README.md")
	if guard {
		p.bins = filepath.Join(dir, "bin")
		if err := os.MkdirAll(p.bins, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, b := range []string{"sentinel", "sentinel-engine"} {
			if err := linkOrCopy(filepath.Join(bins, b), filepath.Join(p.bins, b)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return p
}

func linkOrCopy(from, to string) error {
	if err := os.Link(from, to); err == nil {
		return nil
	}
	return copyFile(from, to)
}

func (p *phase) writeFile(rel, text string) {
	p.t.Helper()
	path := filepath.Join(p.repo, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// writeHome writes a file under the phase's home.
func (p *phase) writeHome(rel, text string) {
	p.t.Helper()
	path := filepath.Join(p.home, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

func (p *phase) git(args ...string) string {
	p.t.Helper()
	out, err := run(p.repo, p.env(nil), 30*time.Second, "git", args...)
	if err != nil {
		p.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// env is the host's whole environment: nothing of the test's own but
// what finds the tools, the phase's home, and extra.
func (p *phase) env(extra []string) []string {
	path := []string{filepath.Join(p.modules, ".bin")}
	if p.bins != "" {
		// First, for an entry that finds sentinel on PATH.
		path = append([]string{p.bins}, path...)
	}
	for _, tool := range []string{"node", "git"} {
		if exe, err := exec.LookPath(tool); err == nil {
			path = append(path, filepath.Dir(exe))
		}
	}
	path = append(path, "/usr/local/bin", "/usr/bin", "/bin")
	env := []string{
		"PATH=" + strings.Join(path, ":"),
		"HOME=" + p.home,
		"USER=live", "LOGNAME=live", "SHELL=/bin/bash",
		"XDG_CONFIG_HOME=" + filepath.Join(p.home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(p.home, ".cache"),
		"XDG_STATE_HOME=" + filepath.Join(p.home, ".local", "state"),
		"XDG_DATA_HOME=" + filepath.Join(p.home, ".local", "share"),
		"TMPDIR=" + filepath.Join(p.dir, "tmp"),
		"TERM=dumb", "NO_COLOR=1", "LANG=C.UTF-8",
		"GIT_CONFIG_NOSYSTEM=1",
	}
	return append(env, extra...)
}

// install installs the guard into the project with this phase's copy of
// sentinel, then wraps the binary so that the events the host sends are
// recorded; with gone, the binary is then renamed away instead.
func (p *phase) install() {
	p.t.Helper()
	sentinel := filepath.Join(p.bins, "sentinel")
	out, err := run(p.repo, p.env(nil), time.Minute, sentinel, "guard", "install", "--agent", p.h.agent, "--project")
	if err != nil {
		p.t.Fatalf("sentinel guard install --agent %s: %v\n%s", p.h.agent, err, out)
	}
	if p.h.afterInstall != nil {
		if err := p.h.afterInstall(p); err != nil {
			p.t.Fatalf("after the install: %v", err)
		}
	}
	real := filepath.Join(p.bins, "sentinel.real")
	if err := os.Rename(sentinel, real); err != nil {
		p.t.Fatal(err)
	}
	if p.gone {
		return
	}
	if p.hang {
		// Past the hook's timeout (install.HookTimeoutSeconds, 5 s), and
		// short of the run's, so that a host that waits still finishes.
		if err := os.WriteFile(sentinel, []byte("#!/bin/sh\nsleep 40\n"), 0o755); err != nil {
			p.t.Fatal(err)
		}
		return
	}
	p.events = filepath.Join(p.dir, "events")
	if err := os.MkdirAll(p.events, 0o755); err != nil {
		p.t.Fatal(err)
	}
	// The wrapper keeps each event and hands it to sentinel unchanged,
	// with sentinel's own exit status.
	wrapper := "#!/bin/sh\nf=$(mktemp \"" + p.events + "/event.XXXXXX\")\ncat >\"$f\"\nexec \"" + real + "\" \"$@\" <\"$f\"\n"
	if err := os.WriteFile(sentinel, []byte(wrapper), 0o755); err != nil {
		p.t.Fatal(err)
	}
}

// recorded returns the events the hook received.
func (p *phase) recorded() []string {
	if p.events == "" {
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(p.events, "event.*"))
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err == nil {
			out = append(out, string(b))
		}
	}
	return out
}

// run runs the host for one scripted call.
func (p *phase) run(calls []fakemodel.Call) {
	p.t.Helper()
	srv, err := fakemodel.Start(fakemodel.Script{Pick: func(tools []fakemodel.Tool) (fakemodel.Call, bool) {
		for _, c := range calls {
			for _, t := range tools {
				if t.Name == c.Name {
					return c, true
				}
			}
		}
		return fakemodel.Call{}, false
	}, Final: "Finished."})
	if err != nil {
		p.t.Fatal(err)
	}
	p.t.Cleanup(func() { _ = srv.Close() })
	p.srv, p.url = srv, srv.URL
	argv, extra := p.h.start(p)
	timeout := p.h.timeout
	if timeout == 0 {
		timeout = 90 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	exe := argv[0]
	if !strings.Contains(exe, "/") {
		exe = p.h.executable(p.modules)
	}
	cmd := exec.CommandContext(ctx, exe, argv[1:]...)
	cmd.Dir, cmd.Env = p.repo, p.env(extra)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err = cmd.Run()
	p.elapsed = time.Since(start)
	// What the host left running (a server, a hook) goes with it.
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	p.out = out.String()
	if ctx.Err() != nil {
		p.fail("%s timed out after %s", p.h.bin, timeout)
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		p.fail("%s: %v", p.h.bin, err)
	}
	if _, ok := srv.Called(); !ok {
		p.fail("the host never offered any of the tools %v to the model, so the call was not made", names(calls))
	}
}

// fail ends the test with what the host printed and what the model saw.
func (p *phase) fail(format string, args ...any) {
	p.t.Helper()
	p.t.Fatalf("%s\nthe host's output:\n%s\nthe model's requests:\n%s\nthe hook's events:\n%s",
		fmt.Sprintf(format, args...), tail(p.out, 40), p.srv.Summary(), strings.Join(p.recorded(), "\n"))
}

// result returns the tool result the host sent back, failing when it sent
// none.
func (p *phase) result() string {
	p.t.Helper()
	r, ok := p.srv.Result()
	if !ok {
		p.fail("the host sent no result of the call back to the model")
	}
	return r
}

// exists reports a path of the repository.
func (p *phase) exists(rel string) bool {
	_, err := os.Lstat(filepath.Join(p.repo, rel))
	return err == nil
}

func (p *phase) committed() bool {
	_, err := run(p.repo, p.env(nil), 30*time.Second, "git", "rev-parse", "-q", "--verify", "HEAD")
	return err == nil
}

// scripted returns the host's call of a kind, with what it acts on.
func (p *phase) scripted(k kind, allowed bool) []fakemodel.Call {
	p.t.Helper()
	a := callArgs{Command: dangerCommand}
	switch {
	case k == ask:
		a.Command = askCommand
	case allowed:
		a.Command = okCommand
	case k == write:
		a = callArgs{Path: filepath.Join(p.repo, p.writeTarget()), Content: hookText}
	case k == read:
		a = callArgs{Path: filepath.Join(p.repo, ".env")}
	}
	c := p.h.call(k, a)
	if len(c) == 0 {
		p.t.Fatalf("%s has no %s tool", p.h.bin, k)
	}
	return c
}

func names(calls []fakemodel.Call) []string {
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i] = c.Name
	}
	return out
}

// writeTarget is the file the write call creates.
func (p *phase) writeTarget() string {
	if p.h.writeTo != "" {
		return p.h.writeTo
	}
	return ".git/hooks/pre-commit"
}

// rule is the rule that refuses the phase's call of kind k.
func (p *phase) rule(k kind) string {
	if k == write && p.writeTarget() == envWrite {
		return "path.credentials"
	}
	return ruleOf[k]
}

// ran reports whether the call of kind k had its effect.
func (p *phase) ran(k kind) bool {
	switch k {
	case write:
		return p.exists(p.writeTarget())
	case read:
		r, _ := p.srv.Result()
		return strings.Contains(r, secretValue)
	}
	return p.committed()
}

// liveHost runs a host's four phases, each a subtest.
func liveHost(t *testing.T, h *host) {
	modules, bins := need(t)
	version, err := installedVersion(modules, h.pkg)
	if err != nil {
		t.Skipf("%s is not installed: %v", h.pkg, err)
	}
	if _, err := os.Stat(h.executable(modules)); err != nil {
		t.Skipf("%s %s has no %s for this platform: %v", h.pkg, version, h.bin, err)
	}
	t.Logf("%s %s", h.pkg, version)
	kinds := h.kinds
	if len(kinds) == 0 {
		kinds = []kind{shell}
	}
	begin := time.Now()
	defer func() { t.Logf("%s %s: all phases in %s", h.pkg, version, time.Since(begin).Round(time.Second)) }()

	t.Run("control", func(t *testing.T) {
		for _, k := range kinds {
			p := newPhase(t, h, modules, bins, false, false)
			p.run(p.scripted(k, false))
			if !p.ran(k) {
				p.fail("without the guard, the %s call had no effect: the test proves nothing", k)
			}
			t.Logf("%s: ran without the guard (%s)", k, p.elapsed.Round(time.Millisecond))
		}
	})
	t.Run("guard", func(t *testing.T) {
		for _, k := range kinds {
			p := newPhase(t, h, modules, bins, true, false)
			p.install()
			p.run(p.scripted(k, false))
			if p.ran(k) {
				p.fail("with the guard, the %s call ran", k)
			}
			r := p.result()
			if !strings.Contains(r, p.rule(k)) {
				p.fail("the result the model got does not name sentinel's rule %s: %q", p.rule(k), r)
			}
			t.Logf("%s: refused (%s); the model got %q", k, p.elapsed.Round(time.Millisecond), abbreviate(r, 300))
			for _, e := range p.recorded() {
				t.Logf("%s: the hook's event: %s", k, e)
				keepEvent(t, h, k, e)
			}
		}
	})
	t.Run("allowed", func(t *testing.T) {
		p := newPhase(t, h, modules, bins, true, false)
		p.install()
		p.run(p.scripted(shell, true))
		if !p.exists("ok.txt") {
			p.fail("with the guard, the everyday call %q did not run", okCommand)
		}
		t.Logf("ran (%s)", p.elapsed.Round(time.Millisecond))
	})
	t.Run("ask", func(t *testing.T) {
		p := newPhase(t, h, modules, bins, true, false)
		p.writeFile("cmd.txt", "touch asked.txt\n")
		p.install()
		p.run(p.scripted(ask, false))
		r, _ := p.srv.Result()
		switch ran := p.exists("asked.txt"); {
		case ran && h.askRuns:
			t.Logf("RAN: %s, headless, runs a call sentinel asks about (%s); the model got %q", h.bin, p.elapsed.Round(time.Millisecond), abbreviate(r, 300))
		case ran:
			p.fail("a call sentinel asks about ran")
		case h.askRuns:
			p.fail("a call sentinel asks about was not run: the host holds, so askRuns is wrong")
		default:
			t.Logf("not run (%s); the model got %q", p.elapsed.Round(time.Millisecond), abbreviate(r, 300))
		}
	})
	t.Run("hang", func(t *testing.T) {
		p := newPhase(t, h, modules, bins, true, false)
		p.hang = true
		p.install()
		p.run(p.scripted(shell, false))
		r, _ := p.srv.Result()
		switch ran := p.ran(shell); {
		case ran && h.hangRuns:
			t.Logf("RAN: %s lets the call run when its hook times out (%s); the model got %q", h.bin, p.elapsed.Round(time.Millisecond), abbreviate(r, 300))
		case ran:
			p.fail("with sentinel hung past the hook's timeout, the call ran")
		case h.hangRuns:
			p.fail("with sentinel hung past the hook's timeout, the call was refused: the host holds, so hangRuns is wrong")
		default:
			t.Logf("refused (%s); the model got %q", p.elapsed.Round(time.Millisecond), abbreviate(r, 300))
		}
	})
	t.Run("missing", func(t *testing.T) {
		p := newPhase(t, h, modules, bins, true, true)
		p.install()
		p.run(p.scripted(shell, false))
		if p.ran(shell) {
			p.fail("with sentinel's binary gone, the call ran")
		}
		r, _ := p.srv.Result()
		if !strings.Contains(r, gone) {
			t.Errorf("with sentinel's binary gone, the result does not say so (%q): %q", gone, r)
		}
		t.Logf("refused (%s); the model got %q", p.elapsed.Round(time.Millisecond), abbreviate(r, 2000))
	})
}

// keepEvent writes a hook event into SENTINEL_LIVE_EVENTS, when set, for
// recording it as a fixture.
func keepEvent(t *testing.T, h *host, k kind, e string) {
	dir := os.Getenv("SENTINEL_LIVE_EVENTS")
	if dir == "" {
		return
	}
	name := filepath.Join(dir, fmt.Sprintf("%s-%s-%d.json", h.agent, k, time.Now().UnixNano()))
	if err := os.WriteFile(name, []byte(e), 0o644); err != nil {
		t.Log(err)
	}
}

func abbreviate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
