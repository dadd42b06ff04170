//go:build !sentinel_front

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gitsentinel/sentinel/internal/gittest"
)

// buildPair builds the two binaries as make does: the front, which links no
// C, and the engine beside it. It returns their directory.
func buildPair(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds both binaries")
	}
	dir := t.TempDir()
	ld := "-X main.version=test-1"
	front := exec.Command("go", "build", "-tags", "sentinel_front", "-ldflags", ld, "-o", filepath.Join(dir, "sentinel"), ".")
	front.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := front.CombinedOutput(); err != nil {
		t.Fatalf("build the front: %v\n%s", err, out)
	}
	if out, err := exec.Command("go", "build", "-ldflags", ld, "-o", filepath.Join(dir, engineName), ".").CombinedOutput(); err != nil {
		t.Fatalf("build the engine: %v\n%s", err, out)
	}
	return dir
}

// runIn runs a binary in dir with stdin, and returns its stdout, stderr
// and exit status.
func runIn(t *testing.T, dir string, stdin []byte, env []string, name string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out.String(), errb.String(), code
}

func bashEvent(t *testing.T, cwd, command string) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]string{"command": command}, "cwd": cwd})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFrontAndEngine runs the installed pair the way hooks and agents do:
// the front answers the hot calls itself, hands every other command line
// and any guard event with code it cannot read to the engine, and says no
// when the engine is missing.
func TestFrontAndEngine(t *testing.T) {
	repo := gittest.Repo(t)
	bin := buildPair(t)
	front := filepath.Join(bin, "sentinel")

	// The first line is the one hooks read; the second says what was
	// built, as gh does. Each spelling asks the same.
	wantVersion := "sentinel version test-1 (github.com/gitsentinel/sentinel)\ncommit unknown, " + runtime.Version() + ", " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	for _, args := range [][]string{{"--version"}, {"-v"}, {"-V"}, {"version"}} {
		if out, _, code := runIn(t, repo, nil, nil, front, args...); code != 0 || out != wantVersion {
			t.Errorf("%s: %q, exit %d; want %q", args[0], out, code, wantVersion)
		}
	}
	// Help comes from the engine, which knows every command.
	if out, _, code := runIn(t, repo, nil, nil, front, "--help"); code != 0 || !strings.Contains(out, "merge-baseline") {
		t.Errorf("--help: exit %d\n%s", code, out)
	}
	// Help is the engine's at every level, after a hook's name too,
	// where the front used to open a message file named --help; so are
	// completions.
	for _, args := range [][]string{{"help", "hook"}, {"hook", "commit-msg", "--help"}, {"hook", "prepare-commit-msg", "-h"}} {
		if out, errs, code := runIn(t, repo, nil, nil, front, args...); code != 0 || !strings.Contains(out, "sentinel hook - ") || errs != "" {
			t.Errorf("%q: exit %d\n%s%s", args, code, out, errs)
		}
	}
	if out, errs, code := runIn(t, repo, nil, nil, front, "hook", "commit-msg", completionFlag); code != 0 || out != "" || errs != "" {
		t.Errorf("completing after hook commit-msg: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if out, _, code := runIn(t, repo, nil, nil, front, "completion", "bash"); code != 0 || !strings.Contains(out, "complete -o bashdefault") {
		t.Errorf("completion bash: exit %d\n%s", code, out)
	}
	if out, _, code := runIn(t, repo, nil, nil, front, "guard", "--agent", "claude", completionFlag); code != 0 || !strings.Contains(out, "explain") {
		t.Errorf("completing after guard --agent claude: exit %d\n%s", code, out)
	}

	allowed := bashEvent(t, repo, "ls -la")
	inline := bashEvent(t, repo, `python3 -c "import shutil; shutil.rmtree('/etc')"`)
	if out, errs, code := runIn(t, repo, allowed, nil, front, "guard"); code != 0 || out != "" {
		t.Errorf("guard, ls: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	// The front links no Python grammar: the engine reads the code.
	if out, _, _ := runIn(t, repo, inline, nil, front, "guard"); !strings.Contains(out, `"deny"`) || !strings.Contains(out, "rm.root") {
		t.Errorf("guard, inline python through the engine: %s", out)
	}

	// The counting commands run in the engine; the hooks `init` writes run
	// the front.
	if _, errs, code := runIn(t, repo, nil, nil, front, "init"); code != 0 {
		t.Fatalf("init: exit %d\n%s", code, errs)
	}
	hook, err := os.ReadFile(filepath.Join(repo, ".git", "hooks", "pre-commit"))
	if err != nil || !strings.Contains(string(hook), "installed_bin='"+front+"'") {
		t.Errorf("the hooks do not name the front binary %s:\n%s", front, hook)
	}
	path := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}
	git := func(args ...string) (string, int) {
		_, errs, code := runIn(t, repo, nil, path, "git", args...)
		return errs, code
	}
	os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module m\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "a_test.go"), []byte("package m\n\nimport \"testing\"\n\nfunc TestOne(t *testing.T) { t.Log(1) }\n\nfunc TestTwo(t *testing.T) { t.Log(2) }\n"), 0o644)
	git("add", "-A")
	if errs, code := git("commit", "-q", "-m", "Add two tests"); code != 0 {
		t.Fatalf("first commit: exit %d\n%s", code, errs)
	}
	os.WriteFile(filepath.Join(repo, "a_test.go"), []byte("package m\n\nimport \"testing\"\n\nfunc TestOne(t *testing.T) { t.Log(1) }\n"), 0o644)
	git("add", "-A")
	if errs, code := git("commit", "-q", "-m", "Drop a test"); code == 0 || !strings.Contains(errs, "TestTwo") {
		t.Errorf("a commit that removes TestTwo passed the engine's pre-commit: exit %d\n%s", code, errs)
	}
	git("checkout", "-q", "HEAD", "--", "a_test.go")
	// The front's own commit-msg hook credits an agent it detects.
	os.WriteFile(filepath.Join(repo, "b.txt"), []byte("b\n"), 0o644)
	git("add", "b.txt")
	agentPath := append([]string{"CLAUDECODE=1"}, path...)
	if _, errs, code := runIn(t, repo, nil, agentPath, "git", "commit", "-q", "-m", "Add b"); code != 0 {
		t.Fatalf("an agent's commit: exit %d\n%s", code, errs)
	}
	if msg, _, _ := runIn(t, repo, nil, nil, "git", "log", "-1", "--format=%B"); !strings.Contains(msg, "Assisted-by: Claude") {
		t.Errorf("the front's commit-msg hook did not add Assisted-by:\n%s", msg)
	}

	// An engine of another build refuses to run for this front.
	if _, errs, code := runIn(t, repo, nil, []string{frontVersionEnv + "=test-0"}, filepath.Join(bin, engineName), "status"); code != exitError || !strings.Contains(errs, "make install") {
		t.Errorf("an engine started by another build's front: exit %d\n%s", code, errs)
	}

	// Without its engine the front still answers what it reads itself,
	// and says no to the rest.
	alone := t.TempDir()
	b, err := os.ReadFile(front)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(alone, "sentinel"), b, 0o755); err != nil {
		t.Fatal(err)
	}
	lone := filepath.Join(alone, "sentinel")
	if out, _, code := runIn(t, repo, allowed, nil, lone, "guard"); code != 0 || out != "" {
		t.Errorf("guard without the engine, ls: exit %d, %q", code, out)
	}
	if out, errs, _ := runIn(t, repo, inline, nil, lone, "guard"); !strings.Contains(out, `"deny"`) || !strings.Contains(out, "engine") || !strings.Contains(errs, "make install") {
		t.Errorf("guard without the engine, inline python: stdout %s, stderr %s", out, errs)
	}
	if _, errs, code := runIn(t, repo, nil, nil, lone, "status"); code != exitError || !strings.Contains(errs, "make install") {
		t.Errorf("status without the engine: exit %d\n%s", code, errs)
	}

	// An engine that answers nothing, or nothing in time, is not an
	// allow: the front passes on only an answer that comes with the
	// engine's explicit verdict, within its deadline.
	for _, tc := range []struct{ name, script, why string }{
		{"silent", "cat >/dev/null; exit 0", "without a verdict"},
		{"stalled", "sleep 30", "no answer within"},
	} {
		if err := os.WriteFile(filepath.Join(alone, engineName), []byte("#!/bin/sh\n"+tc.script+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		out, errs, _ := runIn(t, repo, inline, nil, lone, "guard")
		if !strings.Contains(out, `"deny"`) || !strings.Contains(errs, tc.why) {
			t.Errorf("guard with a %s engine: stdout %s, stderr %s", tc.name, out, errs)
		}
		if took := time.Since(start); took > 20*time.Second {
			t.Errorf("guard with a %s engine took %v", tc.name, took)
		}
	}
}
