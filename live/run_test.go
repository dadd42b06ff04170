package live_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gitsentinel/sentinel/guard/hostrun"
)

// tamperCommand empties the pre-commit hook and the project's Claude Code
// settings with sort -o, a writer the guard does not model: it allows the
// call, and only the sandbox stands in its way.
const tamperCommand = "sort -o .git/hooks/pre-commit /dev/null; sort -o .claude/settings.json /dev/null; echo TAMPER-DONE"

// everydayCommand is an agent's ordinary work: a file made and committed,
// with the hooks running.
const everydayCommand = "touch ok.txt && git add ok.txt && git commit -q -m 'Add ok' && echo EVERYDAY-DONE"

// TestLiveClaudeCodeContained runs the pinned `claude -p` as `sentinel run
// -- claude …` in a repository with sentinel's hooks and the guard
// installed. A tampering call the guard allows has no effect on disk, and
// Claude Code still sends its result back and ends; an everyday call makes
// a file and a commit whose Assisted-by comes from the sandbox's mark. A
// Claude Code's own state (~/.claude.json, kept in ~/.claude inside) is
// written. A control run outside the sandbox shows that the guard alone lets the
// tampering through.
func TestLiveClaudeCodeContained(t *testing.T) {
	h := claudeHost(t)
	modules, bins := need(t)
	needContainment(t, bins)
	contained := func(t *testing.T) *phase {
		p := newPhase(t, h, modules, bins, true, false)
		p.setUp()
		return p
	}

	if _, err := os.Stat(executable(h, modules)); err != nil {
		t.Skipf("%s is not installed: %v", h.Package, err)
	}
	t.Run("control", func(t *testing.T) {
		p := contained(t)
		p.runShell(tamperCommand, false)
		if p.hookText() != "" || p.settingsText() != "" {
			p.fail("outside the sandbox, the guard did not let %q through: the test proves nothing (hook %q, settings %q)", tamperCommand, p.hookText(), p.settingsText())
		}
		t.Logf("outside: the guard let it through and both files were emptied (%s)", p.elapsed.Round(time.Millisecond))
	})
	t.Run("tamper", func(t *testing.T) {
		p := contained(t)
		hook, settings := p.hookText(), p.settingsText()
		p.runShell(tamperCommand, true)
		if p.hookText() != hook || p.settingsText() != settings {
			p.fail("inside sentinel run, %q changed the hook or the settings", tamperCommand)
		}
		r := p.result()
		if !strings.Contains(r, "TAMPER-DONE") || !strings.Contains(r, "Read-only file system") {
			p.fail("the result Claude Code sent back is not the command's, refused by the file system: %q", r)
		}
		t.Logf("inside: no effect (%s); the model got %q", p.elapsed.Round(time.Millisecond), abbreviate(r, 300))
	})
	t.Run("everyday", func(t *testing.T) {
		p := contained(t)
		p.runShell(everydayCommand, true)
		r := p.result()
		if !p.exists("ok.txt") || !strings.Contains(r, "EVERYDAY-DONE") {
			p.fail("inside sentinel run, the everyday call %q did not run: %q", everydayCommand, r)
		}
		msg := p.git("log", "-1", "--format=%B")
		if !regexp.MustCompile(`(?m)^Assisted-by: Claude:claude-sonnet-4-5$`).MatchString(msg) {
			p.fail("the commit made inside carries no Assisted-by from the mark: %q", msg)
		}
		// Claude Code's own state works inside: it wrote its global state
		// file, which it writes by renaming a temporary file over it.
		state, err := os.ReadFile(filepath.Join(p.home, ".claude", ".claude.json"))
		if err != nil || !strings.Contains(string(state), "firstStartTime") {
			p.fail("Claude Code could not write its own state inside: %v %q", err, abbreviate(string(state), 200))
		}
		if b, _ := os.ReadFile(filepath.Join(p.home, ".claude", "settings.json")); string(b) != "{}\n" {
			p.fail("the user's Claude Code settings, missing at the start, are %q, not made neutral", b)
		}
		t.Logf("inside: committed (%s) with %q; Claude Code's state written", p.elapsed.Round(time.Millisecond), strings.TrimSpace(msg))
	})
}

// claudeHost is Claude Code's entry in hostrun.
func claudeHost(t *testing.T) *hostrun.Host {
	t.Helper()
	return hostrun.Hosts["claude"]
}

// needContainment skips the test where sentinel run cannot build a
// sandbox.
func needContainment(t *testing.T, bins string) {
	t.Helper()
	if out, err := run(t.TempDir(), nil, 30*time.Second, "/bin/sh", "-c", "git init -q && \"$0\" run -- true", filepath.Join(bins, "sentinel")); err != nil {
		t.Skipf("sentinel run cannot contain a command here: %v\n%s", err, out)
	}
}

// setUp installs sentinel's hooks and the guard for Claude Code in the
// project, and commits them, with this phase's sentinel, unwrapped: a
// wrapper that records events outside could not write them inside.
func (p *phase) setUp() {
	p.t.Helper()
	sentinel := filepath.Join(p.bins, "sentinel")
	for _, args := range [][]string{{"init"}, {"guard", "install", "--agent", "claude", "--project"}} {
		if out, err := run(p.repo, p.env(nil), time.Minute, sentinel, args...); err != nil {
			p.t.Fatalf("sentinel %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	p.git("add", "-A", ":!.env")
	p.git("commit", "-q", "-m", "Set up sentinel")
	if p.hookText() == "" || p.settingsText() == "" {
		p.t.Fatal("sentinel init and guard install left no pre-commit hook or no settings")
	}
}

// runShell runs Claude Code for one shell call, under `sentinel run` when
// contained, and checks that it ended and sent the call's result back.
func (p *phase) runShell(command string, contained bool) {
	p.t.Helper()
	s := p.session()
	if contained {
		s.Wrap = []string{filepath.Join(p.bins, "sentinel"), "run", "--"}
	}
	c, err := p.h.Scripted(shell, hostrun.Args{Command: command})
	if err != nil {
		p.t.Fatal(err)
	}
	o, err := p.h.Turn(p.t.Context(), executable(p.h, p.modules), s, p.path(), c)
	if err != nil {
		p.t.Fatal(err)
	}
	p.outcome, p.out, p.elapsed = o, o.Output, o.Elapsed
	if o.TimedOut {
		p.fail("%s timed out after %s", p.h.Bin, o.Elapsed.Round(time.Second))
	}
	if !o.Made {
		p.fail("the host never offered its shell tool to the model")
	}
	p.result()
	if !strings.Contains(o.Output, "Finished.") {
		p.fail("the host did not end its turn with the model's last answer")
	}
}

// hookText is the pre-commit hook's text.
func (p *phase) hookText() string { return p.read(".git/hooks/pre-commit") }

// settingsText is the project's Claude Code settings.
func (p *phase) settingsText() string { return p.read(".claude/settings.json") }

func (p *phase) read(rel string) string {
	b, _ := os.ReadFile(filepath.Join(p.repo, rel))
	return string(b)
}
