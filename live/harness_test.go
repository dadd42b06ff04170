package live_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gitsentinel/sentinel/guard/hostrun"
	"github.com/gitsentinel/sentinel/internal/fakemodel"
)

// The kinds of call the phases make: the host's, and a shell call that
// sentinel answers with ask.
const (
	shell = hostrun.Shell
	write = hostrun.Write
	read  = hostrun.Read
	ask   = hostrun.Kind("ask")
)

type kind = hostrun.Kind

// executable is the host's program under modules.
func executable(h *hostrun.Host, modules string) string {
	if h.Exe != "" {
		return filepath.Join(modules, h.Exe)
	}
	return filepath.Join(modules, ".bin", h.Bin)
}

// phase is one run of a host: a fresh repository and home, the fake
// model, and sentinel's binaries when the guard is installed.
type phase struct {
	t               *testing.T
	h               *hostrun.Host
	dir, home, repo string
	bins            string // this phase's copy of sentinel's binaries
	modules         string
	guard, gone     bool
	hang            bool   // sentinel is a stand-in that outlives the hook's timeout
	events          string // where the wrapper records the hook's events
	out             string // the host's output
	outcome         *hostrun.Outcome
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
)

// The markers of sentinel's reasons: the rule that refuses each call, and
// the hook command's own words when sentinel cannot answer, with the
// status the shell saw for a missing binary (the words alone are in the
// hook command, which some hosts quote back).
var (
	ruleOf = map[kind]string{shell: "git.no-verify", write: "path.git-control", read: "secrets.read"}
	gone   = "(exit status 127)"
	// moduleMark is what sentinel's --version names, which the project's
	// hook command requires of the sentinel it finds on PATH.
	moduleMark = "(github.com/gitsentinel/sentinel)"
)

func newPhase(t *testing.T, h *hostrun.Host, modules, bins string, guard, missing bool) *phase {
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

func (p *phase) git(args ...string) string {
	p.t.Helper()
	out, err := run(p.repo, p.env(nil), 30*time.Second, "git", args...)
	if err != nil {
		p.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// path is the host's PATH: sentinel's copy first when the guard is
// installed (for an entry that finds sentinel on PATH), then the hosts and
// the tools.
func (p *phase) path() []string {
	path := []string{filepath.Join(p.modules, ".bin")}
	if p.bins != "" {
		path = append([]string{p.bins}, path...)
	}
	for _, tool := range []string{"node", "git"} {
		if exe, err := exec.LookPath(tool); err == nil {
			path = append(path, filepath.Dir(exe))
		}
	}
	return append(path, "/usr/local/bin", "/usr/bin", "/bin")
}

// session is the phase as hostrun sees it.
func (p *phase) session() *hostrun.Session {
	return &hostrun.Session{Home: p.home, Repo: p.repo, Tmp: filepath.Join(p.dir, "tmp"), Guarded: p.guard}
}

// env is the host's whole environment: nothing of the test's own but
// what finds the tools, the phase's home, and extra.
func (p *phase) env(extra []string) []string { return p.session().Env(p.path(), extra) }

// install installs the guard into the project with this phase's copy of
// sentinel, then wraps the binary so that the events the host sends are
// recorded; with gone, the binary is then renamed away instead.
func (p *phase) install() {
	p.t.Helper()
	sentinel := filepath.Join(p.bins, "sentinel")
	out, err := run(p.repo, p.env(nil), time.Minute, sentinel, "guard", "install", "--agent", p.h.Agent, "--project")
	if err != nil {
		p.t.Fatalf("sentinel guard install --agent %s: %v\n%s", p.h.Agent, err, out)
	}
	if p.h.AfterInstall != nil {
		if err := p.h.AfterInstall(p.session()); err != nil {
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
		// short of the run's, so that a host that waits still finishes;
		// it answers the project hook's --version as sentinel does, so
		// that what hangs is the guard itself.
		standIn := "#!/bin/sh\ncase $1 in --version) echo \"sentinel hung " + moduleMark + "\"; exit 0 ;; esac\nsleep 40\nexit 1\n"
		if err := os.WriteFile(sentinel, []byte(standIn), 0o755); err != nil {
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
	o, err := p.h.Turn(context.Background(), executable(p.h, p.modules), p.session(), p.path(), calls)
	if err != nil {
		p.t.Fatal(err)
	}
	p.outcome, p.out, p.elapsed = o, o.Output, o.Elapsed
	if o.TimedOut {
		p.fail("%s timed out after %s", p.h.Bin, o.Elapsed.Round(time.Second))
	}
	if !o.Made {
		p.fail("the host never offered any of the tools %v to the model, so the call was not made", hostrun.Names(calls))
	}
}

// fail ends the test with what the host printed and what the model saw.
func (p *phase) fail(format string, args ...any) {
	p.t.Helper()
	p.t.Fatalf("%s\nthe host's output:\n%s\nthe model's requests:\n%s\nthe hook's events:\n%s",
		fmt.Sprintf(format, args...), tail(p.out, 40), p.summary(), strings.Join(p.recorded(), "\n"))
}

// summary is the model's log, when the host ran.
func (p *phase) summary() string {
	if p.outcome == nil {
		return ""
	}
	return p.outcome.Summary
}

// result returns the tool result the host sent back, failing when it sent
// none.
func (p *phase) result() string {
	p.t.Helper()
	r, ok := p.outcome.Result, p.outcome.Returned
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
	a := hostrun.Args{Command: dangerCommand}
	switch {
	case k == ask:
		a.Command = askCommand
	case allowed:
		a.Command = okCommand
	case k == write:
		a = hostrun.Args{Path: filepath.Join(p.repo, p.writeTarget()), Content: hookText}
	case k == read:
		a = hostrun.Args{Path: filepath.Join(p.repo, ".env")}
	}
	c, err := p.h.Scripted(k, a)
	if err != nil {
		p.t.Fatal(err)
	}
	return c
}

// writeTarget is the file the write call creates.
func (p *phase) writeTarget() string {
	if p.h.WriteTo != "" {
		return p.h.WriteTo
	}
	return ".git/hooks/pre-commit"
}

// rule is the rule that refuses the phase's call of kind k.
func (p *phase) rule(k kind) string {
	if k == write && p.writeTarget() == hostrun.EnvWrite {
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
		shows := p.h.ReadShows
		if shows == "" {
			shows = secretValue
		}
		return strings.Contains(p.outcome.Result, shows)
	}
	return p.committed()
}

// liveHost runs a host's four phases, each a subtest.
func liveHost(t *testing.T, h *hostrun.Host) {
	// Hosts spend most of a run waiting on their model, their start-up and
	// the hang phase's timeout: they run three at a time (make live's
	// -parallel), as two at a time took 9.5 minutes on a loaded machine.
	t.Parallel()
	modules, bins := need(t)
	version, err := installedVersion(modules, h.Package)
	if err != nil {
		t.Skipf("%s is not installed: %v", h.Package, err)
	}
	if _, err := os.Stat(executable(h, modules)); err != nil {
		t.Skipf("%s %s has no %s for this platform: %v", h.Package, version, h.Bin, err)
	}
	t.Logf("%s %s", h.Package, version)
	kinds := h.Kinds
	if len(kinds) == 0 {
		kinds = []kind{shell}
	}
	begin := time.Now()
	defer func() { t.Logf("%s %s: all phases in %s", h.Package, version, time.Since(begin).Round(time.Second)) }()

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
		p.recordOrFail(p.exists("asked.txt"), h.AskRuns, "a call sentinel asks about", "runs it, headless", "not run")
	})
	t.Run("hang", func(t *testing.T) {
		if h.HangSkip != "" {
			t.Skip(h.HangSkip)
		}
		p := newPhase(t, h, modules, bins, true, false)
		p.hang = true
		p.install()
		p.run(p.scripted(shell, false))
		p.recordOrFail(p.ran(shell), h.HangRuns, "a call with sentinel hung past the hook's timeout", "runs it", "refused")
	})
	t.Run("missing", func(t *testing.T) {
		p := newPhase(t, h, modules, bins, true, true)
		p.install()
		p.run(p.scripted(shell, false))
		if p.ran(shell) {
			p.fail("with sentinel's binary gone, the call ran")
		}
		r := p.outcome.Result
		if !strings.Contains(r, gone) {
			t.Errorf("with sentinel's binary gone, the result does not say so (%q): %q", gone, r)
		}
		t.Logf("refused (%s); the model got %q", p.elapsed.Round(time.Millisecond), abbreviate(r, 2000))
	})
}

// recordOrFail checks what a phase's call did against what the host is
// recorded to do (runs): a host recorded to run the call is logged when
// it does, and any other outcome than the recorded one fails the test.
func (p *phase) recordOrFail(ran, runs bool, what, ranWords, heldWords string) {
	p.t.Helper()
	r := abbreviate(p.outcome.Result, 300)
	switch {
	case ran && runs:
		p.t.Logf("RAN: %s %s (%s); the model got %q", p.h.Bin, ranWords, p.elapsed.Round(time.Millisecond), r)
	case ran:
		p.fail("%s ran", what)
	case runs:
		p.fail("%s was not run: the host holds, so what it is recorded to do is wrong", what)
	default:
		p.t.Logf("%s (%s); the model got %q", heldWords, p.elapsed.Round(time.Millisecond), r)
	}
}

// keepEvent writes a hook event into SENTINEL_LIVE_EVENTS, when set, for
// recording it as a fixture.
func keepEvent(t *testing.T, h *hostrun.Host, k kind, e string) {
	dir := os.Getenv("SENTINEL_LIVE_EVENTS")
	if dir == "" {
		return
	}
	name := filepath.Join(dir, fmt.Sprintf("%s-%s-%d.json", h.Agent, k, time.Now().UnixNano()))
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
