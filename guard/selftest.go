package guard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gitsentinel/sentinel/guard/hosts"
	"github.com/gitsentinel/sentinel/guard/install"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

// The self-test proves, on the user's machine, that each installed guard
// enforces: it runs the command the host runs, as the host runs it (its
// settings' command through sh, Cline's hook file itself), with the host's
// own event for a call the guard always refuses and for an everyday one,
// and reads the answers as the host would. A guard that lets the refused
// call through fails open; one whose answer is no decision the host
// knows does not enforce either.

// Samples of the self-test: a call every guard refuses, and an everyday
// one.
const (
	SelfTestRefused = "git push --force origin main"
	SelfTestAllowed = "ls"
)

// failClosed is a sample's answer when the installed command refused it
// itself, sentinel having given none.
const failClosed = "deny, by the hook's own refusal"

// SelfTestTimeout bounds one run of an installed hook: the hosts give
// theirs 5 s or more, and a hook slower than that is one the host gives up
// on.
const SelfTestTimeout = 5 * time.Second

// SelfTestOptions says which installed guards to test.
type SelfTestOptions struct {
	// Root is the project's root; "" outside a repository.
	Root string
	// Home is the user's home directory.
	Home string
	// Agents are the hosts to test; none tests every host with an
	// installed entry.
	Agents []string
	// Env is the environment the hooks run with, as the host passes it
	// on; nil is this process's.
	Env []string
}

// SelfTestResult is one installed entry's test.
type SelfTestResult struct {
	// Agent is the host; Path its settings file; Event the entry's event.
	Agent string `json:"agent"`
	Path  string `json:"path"`
	Event string `json:"event"`
	// Command is what the host runs.
	Command string `json:"command"`
	// Refused and Allowed say what the hook answered to each sample:
	// "deny", "allow", "ask", or "no decision" with what it printed.
	Refused string `json:"refused"`
	Allowed string `json:"allowed"`
	// Enforcing reports that the hook refused the call it must refuse;
	// Answered that sentinel itself answered, not the command's own
	// refusal when sentinel is missing or fails (which refuses every call).
	Enforcing bool `json:"enforcing"`
	Answered  bool `json:"answered"`
	// Note says what else a person should know: an everyday call the
	// hook refused (the user's own rules, or a broken install).
	Note string `json:"note,omitempty"`
}

// SelfTest runs every installed guard entry of the hosts asked for, in the
// project at o.Root and in the user's settings, with the two samples.
func SelfTest(ctx context.Context, o SelfTestOptions) ([]SelfTestResult, error) {
	agents := o.Agents
	if len(agents) == 0 {
		agents = install.TargetNames()
	}
	var out []SelfTestResult
	for _, name := range agents {
		t := install.Targets[name]
		if t == nil {
			return nil, fmt.Errorf("no agent %q: sentinel guards %s", name, strings.Join(install.TargetNames(), ", "))
		}
		var paths []string
		if o.Root != "" {
			paths = append(paths, filepath.Join(o.Root, filepath.FromSlash(t.Project)))
			if t.Local != "" {
				paths = append(paths, filepath.Join(o.Root, filepath.FromSlash(t.Local)))
			}
		}
		if o.Home != "" {
			if p := filepath.Join(o.Home, filepath.FromSlash(t.User)); !slicesContains(paths, p) {
				paths = append(paths, p)
			}
		}
		cwd := o.Root
		if cwd == "" {
			cwd = o.Home
		}
		for _, p := range paths {
			res, err := SelfTestFile(ctx, name, p, cwd, o.Env)
			if err != nil {
				return nil, err
			}
			out = append(out, res...)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Agent < out[j].Agent })
	return out, nil
}

// SelfTestFile runs the installed entries of one agent's settings file at
// path, in the directory cwd, with the environment env (nil: this
// process's), as SelfTest does for every file.
func SelfTestFile(ctx context.Context, agent, path, cwd string, env []string) ([]SelfTestResult, error) {
	if install.Targets[agent] == nil {
		return nil, fmt.Errorf("no agent %q: sentinel guards %s", agent, strings.Join(install.TargetNames(), ", "))
	}
	hooks, err := install.InstalledHooks(path)
	if err != nil {
		return nil, err
	}
	o := SelfTestOptions{Root: cwd, Env: env}
	var out []SelfTestResult
	// A host runs the same command for each of its events: the command is
	// what is tested, once per file.
	seen := map[string]bool{}
	for _, h := range hooks {
		if !seen[h.Command] {
			seen[h.Command] = true
			out = append(out, selfTestOne(ctx, o, agent, path, h))
		}
	}
	return out, nil
}

// slicesContains reports whether ss holds s.
func slicesContains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// selfTestOne runs one entry with both samples.
func selfTestOne(ctx context.Context, o SelfTestOptions, agent, path string, h install.Hook) SelfTestResult {
	r := SelfTestResult{Agent: agent, Path: path, Event: h.Event, Command: h.Command}
	cwd := o.Root
	if cwd == "" {
		cwd = o.Home
	}
	d := hosts.Dialects[agent]
	run := func(command string) (string, hosts.Answer) {
		event, env, ok := hosts.SampleEvent(agent, command, cwd)
		if !ok {
			return "no decision: sentinel has no sample event for " + agent, hosts.Answer{}
		}
		got := runHook(ctx, path, h, cwd, append(append([]string(nil), o.envOr()...), env...), event)
		call, _ := d.Parse(event)
		for _, v := range []verdict.Verdict{verdict.Deny, verdict.Ask, verdict.Allow} {
			want := d.Answer(sampleOutcome(v), call)
			if sameDecision(got, want) {
				return v.String(), got
			}
		}
		// The installed command's own refusal, when sentinel is missing or
		// failed: the host's deny, without sentinel's reason.
		if exit, stdout := install.Targets[agent].FailAnswer(); sameDecision(got, hosts.Answer{Exit: exit, Stdout: []byte(stdout)}) {
			return failClosed, got
		}
		return "no decision: " + describeAnswer(got), got
	}
	var refused hosts.Answer
	r.Refused, refused = run(SelfTestRefused)
	r.Allowed, _ = run(SelfTestAllowed)
	r.Enforcing = r.Refused == verdict.Deny.String() || r.Refused == failClosed
	switch {
	case r.Refused == failClosed:
		r.Answered = false
		r.Note = "sentinel itself did not answer, so the hook refuses every call (" + verdict.OneLine(refused.Stderr) + "): install it where the hook looks (`make install` in sentinel's source), then run `sentinel doctor`"
	case r.Enforcing && r.Allowed != verdict.Allow.String():
		r.Note = "the everyday call " + SelfTestAllowed + " was answered " + r.Allowed + ": your own [[guard.rules]] may say so; otherwise the install is broken: run `sentinel guard install --agent " + agent + "` again"
	}
	r.Answered = r.Refused != failClosed
	return r
}

// envOr is the hooks' environment.
func (o SelfTestOptions) envOr() []string {
	if o.Env != nil {
		return o.Env
	}
	return os.Environ()
}

// sampleOutcome is a decision of the guard for a sample call.
func sampleOutcome(v verdict.Verdict) verdict.Outcome {
	if v == verdict.Allow {
		return verdict.Outcome{Verdict: v}
	}
	var out verdict.Outcome
	out.Add(verdict.Finding{RuleID: "selftest", Severity: verdict.High, Verdict: v, Reason: "the sentinel guard test"})
	return out
}

// runHook runs an entry as its host does: a settings file's command
// through sh, a hook file (Cline's) as the program it is.
func runHook(ctx context.Context, path string, h install.Hook, cwd string, env []string, stdin []byte) hosts.Answer {
	ctx, cancel := context.WithTimeout(ctx, SelfTestTimeout)
	defer cancel()
	var cmd *exec.Cmd
	if strings.HasSuffix(path, ".json") || strings.HasSuffix(path, ".js") {
		cmd = exec.CommandContext(ctx, "/bin/sh", "-c", h.Command)
	} else {
		cmd = exec.CommandContext(ctx, path)
	}
	cmd.Dir, cmd.Env, cmd.Stdin = cwd, env, bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	a := hosts.Answer{Stdout: stdout.Bytes(), Stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		a.Exit = ee.ExitCode()
	case err != nil:
		a.Exit = -1
		a.Stderr += err.Error()
	}
	if ctx.Err() != nil {
		a.Exit, a.Stderr = -1, "timed out after "+SelfTestTimeout.String()
	}
	return a
}

// sameDecision reports whether two answers say the same to the host: the
// same exit status, and output of the same shape, the words that carry a
// decision ("deny", "block") equal and the sentences (reasons) aside.
func sameDecision(got, want hosts.Answer) bool {
	if got.Exit != want.Exit {
		return false
	}
	g, w := bytes.TrimSpace(got.Stdout), bytes.TrimSpace(want.Stdout)
	if len(g) == 0 || len(w) == 0 {
		return len(g) == len(w)
	}
	var gv, wv any
	if json.Unmarshal(g, &gv) != nil || json.Unmarshal(w, &wv) != nil {
		return bytes.Equal(g, w)
	}
	return sameShape(gv, wv)
}

// sameShape compares two JSON values: objects with the same keys, lists
// of the same length, numbers and booleans equal, and strings equal when
// the wanted one is a word (a decision), not a sentence.
func sameShape(g, w any) bool {
	switch w := w.(type) {
	case map[string]any:
		gm, ok := g.(map[string]any)
		if !ok || len(gm) != len(w) {
			return false
		}
		for k, wv := range w {
			gv, ok := gm[k]
			if !ok || !sameShape(gv, wv) {
				return false
			}
		}
		return true
	case []any:
		gl, ok := g.([]any)
		if !ok || len(gl) != len(w) {
			return false
		}
		for i := range w {
			if !sameShape(gl[i], w[i]) {
				return false
			}
		}
		return true
	case string:
		gs, ok := g.(string)
		if !ok {
			return false
		}
		if len(w) <= 24 && !strings.ContainsAny(w, " \t\n") {
			return gs == w
		}
		return true
	default:
		return fmt.Sprint(g) == fmt.Sprint(w)
	}
}

// describeAnswer says, on one line, what a hook printed and how it ended.
func describeAnswer(a hosts.Answer) string {
	s := fmt.Sprintf("exit %d", a.Exit)
	if out := strings.TrimSpace(string(a.Stdout)); out != "" {
		s += ", stdout " + verdict.OneLine(out)
	}
	if e := strings.TrimSpace(a.Stderr); e != "" {
		s += ", stderr " + verdict.OneLine(e)
	}
	return s
}
