package live_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gitsentinel/sentinel/guard/hostrun"
)

// ampNoTurn is why Amp has no live turn: its CLI runs no agent loop of its
// own that a fake model could answer.
const ampNoTurn = "Amp's agent loop runs on Amp's servers, not in its CLI: amp -x first asks AMP_URL " +
	"for POST /api/internal?getUserInfo, loadPlugins and loadSkills, then creates the thread with " +
	"POST /api/thread-actors ({\"executorType\":\"local-client\"}), whose answer must carry a threadId, " +
	"a wsToken, an ownerUserId and a threadVersion, and joins the thread's actor at AMP_URL/actors " +
	"over Rivet's actor protocol; the model is called by that actor, with the keys Amp's server " +
	"holds, and the CLI only runs the tools the actor sends it. The CLI has no setting for a model's " +
	"base URL, so a fake model would have to be a fake Amp server; TestLiveAmpDelegate runs Amp's " +
	"own permission engine against the guard instead"

// TestLiveAmp would run Amp's phases against the fake model.
func TestLiveAmp(t *testing.T) { t.Skip(ampNoTurn) }

// ampHost is Amp as the phases install its guard; it has no turn.
var ampHost = &hostrun.Host{Agent: "amp", Package: "@ampcode/cli", Bin: "amp"}

// ampCall is one call put to Amp's permission engine: the tool, and its
// arguments as `amp permissions test` takes them (--key value, strings).
type ampCall struct {
	tool string
	args []string
}

// ampVerdict is what Amp's permission engine decided about a call.
type ampVerdict struct {
	action  string // allow, ask or reject
	exit    int    // 0, 1 or 2
	out     string
	elapsed time.Duration
}

// askAmp runs `amp permissions test --workspace` in the phase's repository:
// Amp's own evaluation of the workspace's rules (.amp/settings.json, which
// install writes) for one call, with the delegate run as a thread runs it
// (the arguments as JSON on stdin, AGENT=amp and AGENT_TOOL_NAME in its
// environment, the exit status read as allow, ask or reject). It needs
// neither a model nor Amp's server.
func askAmp(p *phase, amp string, c ampCall) ampVerdict {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	argv := append([]string{"permissions", "test", "--workspace", c.tool}, c.args...)
	cmd := exec.CommandContext(ctx, amp, argv...)
	// AMP_URL is a closed port on loopback: nothing reaches Amp's server.
	cmd.Dir, cmd.Env = p.repo, p.env([]string{"AMP_URL=http://127.0.0.1:9"})
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	v := ampVerdict{out: out.String(), elapsed: time.Since(start)}
	if cmd.Process != nil {
		// The delegate Amp gave up on (the hang phase's) goes too.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		v.exit = ee.ExitCode()
	case err != nil:
		p.t.Fatalf("amp %s: %v\n%s", strings.Join(argv, " "), err, v.out)
	}
	for _, line := range strings.Split(v.out, "\n") {
		if a, ok := strings.CutPrefix(line, "action: "); ok {
			v.action = strings.TrimSpace(a)
		}
	}
	p.out = v.out
	return v
}

// ampProgram returns Amp's CLI under modules, skipping when npm installed
// only its wrapper: the native binary comes from a platform package
// (@ampcode/cli-linux-x64, …) that must exist at the pinned version.
func ampProgram(t *testing.T, modules string) string {
	t.Helper()
	amp := filepath.Join(modules, ".bin", "amp")
	arch := runtime.GOARCH
	if arch == "amd64" {
		arch = "x64"
	}
	platform := "@ampcode/cli-" + runtime.GOOS + "-" + arch
	out, err := run(t.TempDir(), []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir()}, 30*time.Second, amp, "--version")
	if err != nil {
		if _, serr := os.Stat(filepath.Join(modules, platform)); serr != nil {
			t.Skipf("npm installed only @ampcode/cli's wrapper, whose bin/amp.exe is a placeholder (%v): the native binary is in %s at the same version, which is not installed", err, platform)
		}
		t.Skipf("amp does not run (%v): %s", err, strings.TrimSpace(out))
	}
	t.Logf("amp --version: %s", strings.TrimSpace(out))
	return amp
}

// patchAdding is an apply_patch patch that adds a file.
func patchAdding(path, text string) string {
	return "*** Begin Patch\n*** Add File: " + path + "\n+" + strings.TrimSuffix(text, "\n") + "\n*** End Patch\n"
}

// TestLiveAmpDelegate runs Amp's own permission engine against the guard
// installed in a fresh repository, in the harness's phases: the calls the
// guard refuses are rejected, with sentinel's rule in what Amp keeps for
// the model; an everyday call is allowed; one sentinel asks about is put
// to the operator; Amp waits for a guard slow to answer (it sets its
// delegate no timeout), and a guard whose binary is gone is a rejection. The shell tools of Amp's current modes
// (shell_command, async_shell_command) reach the delegate through the
// rule for Bash, which Amp maps to them.
func TestLiveAmpDelegate(t *testing.T) {
	modules, bins := need(t)
	version, err := installedVersion(modules, ampHost.Package)
	if err != nil {
		t.Skipf("%s is not installed: %v", ampHost.Package, err)
	}
	t.Logf("%s %s", ampHost.Package, version)
	amp := ampProgram(t, modules)
	begin := time.Now()
	defer func() { t.Logf("all phases in %s", time.Since(begin).Round(time.Second)) }()

	shellCalls := func(command string) []ampCall {
		return []ampCall{
			{"Bash", []string{"--cmd", command}},
			{"shell_command", []string{"--command", command}},
			{"async_shell_command", []string{"--command", command}},
		}
	}
	t.Run("control", func(t *testing.T) {
		p := newPhase(t, ampHost, modules, bins, false, false)
		hook := filepath.Join(p.repo, ".git", "hooks", "pre-commit")
		for _, c := range append(shellCalls(dangerCommand), ampCall{"apply_patch", []string{"--patchText", patchAdding(hook, hookText)}}) {
			v := askAmp(p, amp, c)
			if v.action == "reject" {
				p.fail("without the guard, Amp's own rules reject %s: the test proves nothing", c.tool)
			}
			t.Logf("%s: %s without the guard (exit %d, %s)", c.tool, v.action, v.exit, v.elapsed.Round(time.Millisecond))
		}
	})
	t.Run("guard", func(t *testing.T) {
		p := newPhase(t, ampHost, modules, bins, true, false)
		p.install()
		hook := filepath.Join(p.repo, ".git", "hooks", "pre-commit")
		env := filepath.Join(p.repo, ".env")
		type refused struct {
			call ampCall
			rule string
		}
		calls := []refused{
			{ampCall{"create_file", []string{"--path", hook, "--content", hookText}}, ruleOf[write]},
			{ampCall{"edit_file", []string{"--path", env, "--old_str", "API_TOKEN", "--new_str", "X"}}, "path.credentials"},
			{ampCall{"apply_patch", []string{"--patchText", patchAdding(hook, hookText)}}, ruleOf[write]},
			{ampCall{"apply_patch", []string{"--patchText", patchAdding(".git/hooks/pre-push", hookText)}}, ruleOf[write]},
			{ampCall{"Read", []string{"--path", env}}, ruleOf[read]},
		}
		for _, c := range shellCalls(dangerCommand) {
			calls = append(calls, refused{c, ruleOf[shell]})
		}
		for _, r := range calls {
			c, rule := r.call, r.rule
			v := askAmp(p, amp, c)
			if v.action != "reject" || v.exit != 2 {
				p.fail("with the guard, Amp did not reject %s (action %q, exit %d)", c.tool, v.action, v.exit)
			}
			if !strings.Contains(v.out, rule) {
				p.fail("Amp rejected %s, but without sentinel's rule %s", c.tool, rule)
			}
			t.Logf("%s: rejected (%s): %s", c.tool, v.elapsed.Round(time.Millisecond), abbreviate(strings.TrimSpace(v.out), 400))
		}
		for _, e := range p.recorded() {
			// The hook command's `sentinel --version` has an empty stdin.
			if e != "" {
				t.Logf("the delegate's stdin: %s", e)
			}
		}
	})
	t.Run("allowed", func(t *testing.T) {
		p := newPhase(t, ampHost, modules, bins, true, false)
		p.install()
		for _, c := range shellCalls(okCommand) {
			if v := askAmp(p, amp, c); v.action != "allow" || v.exit != 0 {
				p.fail("with the guard, Amp did not allow %s %q (action %q, exit %d)", c.tool, okCommand, v.action, v.exit)
			} else {
				t.Logf("%s: allowed (%s)", c.tool, v.elapsed.Round(time.Millisecond))
			}
		}
	})
	t.Run("ask", func(t *testing.T) {
		p := newPhase(t, ampHost, modules, bins, true, false)
		p.install()
		v := askAmp(p, amp, ampCall{"shell_command", []string{"--command", askCommand}})
		if v.action != "ask" || v.exit != 1 {
			p.fail("Amp did not put a call sentinel asks about to the operator (action %q, exit %d)", v.action, v.exit)
		}
		t.Logf("asked (%s)", v.elapsed.Round(time.Millisecond))
	})
	t.Run("hang", func(t *testing.T) {
		// Amp sets its delegate no timeout, and install writes none for
		// it: a guard that hangs holds the call until it answers. The
		// stand-in answers --version, as the hook command first asks,
		// then hangs for longer than any host's hook timeout before
		// sentinel answers.
		const hang = 20 * time.Second
		p := newPhase(t, ampHost, modules, bins, true, false)
		p.install()
		real := filepath.Join(p.bins, "sentinel.real")
		standIn := "#!/bin/sh\n[ \"$1\" = --version ] && exec \"" + real + "\" --version\nsleep " +
			strconv.Itoa(int(hang.Seconds())) + "\nexec \"" + real + "\" \"$@\"\n"
		if err := os.WriteFile(filepath.Join(p.bins, "sentinel"), []byte(standIn), 0o755); err != nil {
			t.Fatal(err)
		}
		v := askAmp(p, amp, ampCall{"shell_command", []string{"--command", dangerCommand}})
		if v.action != "reject" || v.exit != 2 {
			p.fail("with sentinel slow to answer, Amp did not reject the call (action %q, exit %d)", v.action, v.exit)
		}
		if v.elapsed < hang {
			p.fail("Amp answered in %s, before the guard did", v.elapsed.Round(time.Millisecond))
		}
		t.Logf("Amp waited for the guard and rejected the call (%s): %s", v.elapsed.Round(time.Millisecond), abbreviate(strings.TrimSpace(v.out), 400))
	})
	t.Run("missing", func(t *testing.T) {
		p := newPhase(t, ampHost, modules, bins, true, true)
		p.install()
		v := askAmp(p, amp, ampCall{"shell_command", []string{"--command", dangerCommand}})
		if v.action != "reject" || v.exit != 2 {
			p.fail("with sentinel's binary gone, Amp did not reject the call (action %q, exit %d)", v.action, v.exit)
		}
		if !strings.Contains(v.out, gone) {
			t.Errorf("with sentinel's binary gone, Amp's reason does not say so (%q): %q", gone, v.out)
		}
		t.Logf("rejected (%s): %s", v.elapsed.Round(time.Millisecond), abbreviate(strings.TrimSpace(v.out), 400))
	})
}
