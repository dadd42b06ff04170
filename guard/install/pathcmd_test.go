package install

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeBuild writes an executable named sentinel into dir that answers
// --version as a build of sentinel does (or with version, when it is not
// empty), and otherwise keeps its stdin in dir/event and runs body.
func fakeBuild(t *testing.T, dir, version, body string) string {
	t.Helper()
	if version == "" {
		version = "sentinel version test " + moduleMark
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "sentinel")
	script := "#!/bin/sh\n" +
		"if [ \"$1\" = --version ]; then echo " + shq(version) + "; exit 0; fi\n" +
		"cat > " + shq(filepath.Join(dir, "event")) + "\n" + body + "\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// runIn runs a hook command as a host does, with PATH and a working
// directory of its own.
func runIn(t *testing.T, shell, command, dir, path, event string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(shell, "-c", command)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(event)
	cmd.Env = []string{"PATH=" + path, "HOME=" + t.TempDir()}
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("%s -c: %v", shell, err)
	}
	return o.String(), e.String(), code
}

// TestPathHookCommandNamesNoMachinePath: a project's command is the same
// on every machine, whatever binary ran the install.
func TestPathHookCommandNamesNoMachinePath(t *testing.T) {
	for name, tg := range Targets {
		cmd := tg.PathHookCommand()
		if strings.Contains(cmd, "/home/") || strings.Contains(cmd, "/root/") || strings.Contains(cmd, "/go/bin") {
			t.Errorf("%s: %s", name, cmd)
		}
		// No single quote inside, and no backslash before a quote or a
		// backslash: every shell a host may start passes it on intact.
		inner := strings.TrimSuffix(strings.TrimPrefix(cmd, "/bin/sh -c '"), "'")
		if strings.Contains(inner, "'") || strings.Contains(inner, `\'`) || strings.Contains(inner, `\\`) {
			t.Errorf("%s: a quote a shell would read: %s", name, cmd)
		}
	}
}

// TestPathHookCommandFailsClosed runs a project's command for every agent
// in every shell: a build of sentinel on PATH answers, byte for byte; no
// sentinel on PATH, a stand-in whose --version is not sentinel's, and one
// that a relative PATH entry finds are each the host's refusal, and the
// stand-in never sees the event.
func TestPathHookCommandFailsClosed(t *testing.T) {
	if _, err := os.Stat("/usr/bin/sentinel"); err == nil {
		t.Skip("a sentinel in /usr/bin would answer for the missing one")
	}
	const sys = "/usr/bin:/bin"
	event := `{"tool_name":"Bash","tool_input":{"command":"ls"}}`
	for _, shell := range hostShells(t) {
		for name, tg := range Targets {
			t.Run(filepath.Base(shell)+"/"+name, func(t *testing.T) {
				cmd := tg.PathHookCommand()
				dir := t.TempDir()

				out, errOut, code := runIn(t, shell, cmd, dir, sys, event)
				wantDeny(t, name, out, errOut, code, "127")

				// Another program named sentinel, first on PATH.
				other := filepath.Join(dir, "node_modules", ".bin")
				fakeBuild(t, other, "2.4.1", `echo '{"decision":"allow"}'; exit 0`)
				out, errOut, code = runIn(t, shell, cmd, dir, other+":"+sys, event)
				wantDeny(t, name, out, errOut, code, "127")
				if _, err := os.Stat(filepath.Join(other, "event")); err == nil {
					t.Error("the stand-in was run with the event")
				}

				// A build of sentinel that a relative PATH entry finds: the
				// directory the host runs in decides what that is.
				rel := filepath.Join(dir, "bin")
				fakeBuild(t, rel, "", "exit 0")
				out, errOut, code = runIn(t, shell, cmd, dir, "bin:"+sys, event)
				wantDeny(t, name, out, errOut, code, "127")
				if _, err := os.Stat(filepath.Join(rel, "event")); err == nil {
					t.Error("a sentinel found through a relative PATH entry was run")
				}

				// A build of sentinel on PATH: its answers pass as they are,
				// and it reads the whole event.
				for _, verdict := range []string{"allow", "deny"} {
					body, wantOut, wantErr, wantExit := replay(t, name, verdict)
					bin := filepath.Join(dir, verdict)
					fakeBuild(t, bin, "", body)
					out, errOut, code = runIn(t, shell, cmd, dir, bin+":"+sys, event)
					if out != wantOut || errOut != wantErr || code != wantExit {
						t.Errorf("%s: got exit %d, stdout %q, stderr %q; want %d, %q, %q", verdict, code, out, errOut, wantExit, wantOut, wantErr)
					}
					if got, _ := os.ReadFile(filepath.Join(bin, "event")); string(got) != event {
						t.Errorf("%s: the guard read %q", verdict, got)
					}
				}

				// It crashes, or is killed.
				crash := filepath.Join(dir, "crash")
				fakeBuild(t, crash, "", "echo boom >&2; exit 3")
				out, errOut, code = runIn(t, shell, cmd, dir, crash+":"+sys, event)
				if name == "amp" {
					// Amp's own statuses are 0, 1 and 2; 3 is a reject.
					if code != 2 {
						t.Errorf("amp: a crash with status 3: exit %d, want 2", code)
					}
				} else {
					wantDeny(t, name, out, errOut, code, "3")
				}
				killed := filepath.Join(dir, "killed")
				fakeBuild(t, killed, "", "kill -9 $$")
				out, errOut, code = runIn(t, shell, cmd, dir, killed+":"+sys, event)
				wantDeny(t, name, out, errOut, code, "137")
			})
		}
	}
}

// TestPathHookCommandRecognised: install, uninstall and doctor find a
// project's command, and the binary it runs is the sentinel on PATH.
func TestPathHookCommandRecognised(t *testing.T) {
	for name, tg := range Targets {
		cmd := tg.PathHookCommand()
		bins, ok := guardCommand(cmd)
		if !ok || strings.Join(bins, "|") != "sentinel" {
			t.Errorf("%s: %v %v", name, bins, ok)
		}
	}
	// A variable set some other way names no binary doctor could look up.
	if bins, ok := guardCommand(`/bin/sh -c 'b=/opt/x; "$b" guard --agent claude'`); !ok || strings.Join(bins, "|") != "${b}" {
		t.Errorf("another variable: %v %v", bins, ok)
	}
	onPath := func(s string) (string, error) { return "/usr/bin/" + s, nil }
	notOnPath := func(string) (string, error) { return "", exec.ErrNotFound }
	h := Hook{Binaries: []string{"sentinel"}}
	if got := h.Missing(os.Getenv, onPath); got != "" {
		t.Errorf("on PATH: %q", got)
	}
	if got := h.Missing(os.Getenv, notOnPath); got != "sentinel is not on PATH" {
		t.Errorf("not on PATH: %q", got)
	}
}
