package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// shq quotes s for a POSIX shell.
func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// fakeSentinel writes an executable named sentinel into dir that reads its
// stdin and runs body.
func fakeSentinel(t *testing.T, dir, body string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "sentinel")
	if err := os.WriteFile(p, []byte("#!/bin/sh\ncat >/dev/null\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// replay is a fake's body that answers exactly as sentinel answered a
// recorded event: fixtures/guard/events/<agent>-<verdict>.*.
func replay(t *testing.T, agent, verdict string) (body, stdout, stderr string, exit int) {
	t.Helper()
	base := filepath.Join("..", "..", "fixtures", "guard", "events", agent+"-"+verdict)
	out, err := os.ReadFile(base + ".stdout")
	if err != nil {
		t.Fatal(err)
	}
	errOut, _ := os.ReadFile(base + ".stderr")
	if b, err := os.ReadFile(base + ".exit"); err == nil {
		exit, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	body = "printf '%s' " + shq(string(out)) + "; printf '%s' " + shq(string(errOut)) + " >&2; exit " + strconv.Itoa(exit)
	return body, string(out), string(errOut), exit
}

// hostRun runs a hook command the way hosts do: handed to a shell's -c,
// with the event on stdin.
func hostRun(t *testing.T, shell, command, path string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(shell, "-c", command)
	cmd.Stdin = strings.NewReader(`{"tool_name":"Bash","tool_input":{"command":"ls"}}`)
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

// wantDeny checks a refusal in the host's own terms, naming the status
// the shell saw.
func wantDeny(t *testing.T, agent, stdout, stderr string, code int, status string) {
	t.Helper()
	why := "(exit status " + status + "): the call is refused; run sentinel doctor"
	switch agent {
	case "cursor":
		var a map[string]string
		if err := json.Unmarshal([]byte(stdout), &a); err != nil || a["permission"] != "deny" ||
			!strings.Contains(a["user_message"], why) || !strings.Contains(a["agent_message"], why) || code != 2 {
			t.Errorf("cursor: exit %d, stdout %q (%v)", code, stdout, err)
		}
	case "copilot":
		var a map[string]string
		if err := json.Unmarshal([]byte(stdout), &a); err != nil || a["permissionDecision"] != "deny" ||
			!strings.Contains(a["permissionDecisionReason"], why) || code == 0 {
			t.Errorf("copilot: exit %d, stdout %q (%v)", code, stdout, err)
		}
	case "cline":
		var a struct {
			Cancel       bool   `json:"cancel"`
			ErrorMessage string `json:"errorMessage"`
		}
		if err := json.Unmarshal([]byte(stdout), &a); err != nil || !a.Cancel || !strings.Contains(a.ErrorMessage, why) || code == 0 {
			t.Errorf("cline: exit %d, stdout %q (%v)", code, stdout, err)
		}
	default:
		// The other hosts block on exit status 2 alone and show stderr
		// (Amp rejects on any status from 2 up).
		if code != 2 || !strings.Contains(stderr, why) {
			t.Errorf("%s: exit %d, stderr %q, want 2 and %q", agent, code, stderr, why)
		}
	}
}

// hostShells are the shells a host may hand the command to (Codex uses the
// user's $SHELL); the command must mean the same in each.
func hostShells(t *testing.T) []string {
	var out []string
	for _, s := range []string{"sh", "bash", "dash", "zsh", "fish", "csh", "tcsh"} {
		if p, err := exec.LookPath(s); err == nil {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		t.Skip("no shell")
	}
	return out
}

// TestHookCommandFailsClosed runs the installed command for every agent
// with a binary that is missing, crashes, is killed or answers, and checks
// what the host receives.
func TestHookCommandFailsClosed(t *testing.T) {
	sys := "/usr/bin:/bin"
	for _, shell := range hostShells(t) {
		for name, tg := range Targets {
			t.Run(filepath.Base(shell)+"/"+name, func(t *testing.T) {
				dir := t.TempDir()
				gone := filepath.Join(dir, "gone", "sentinel")
				cmd, err := tg.HookCommand(gone, false)
				if err != nil {
					t.Fatal(err)
				}
				out, errOut, code := hostRun(t, shell, cmd, sys)
				wantDeny(t, name, out, errOut, code, "127")

				// A binary that is there but cannot run.
				noexec := filepath.Join(dir, "noexec", "sentinel")
				fakeSentinel(t, filepath.Dir(noexec), "exit 0")
				os.Chmod(noexec, 0o644)
				cmd, _ = tg.HookCommand(noexec, false)
				out, errOut, code = hostRun(t, shell, cmd, sys)
				wantDeny(t, name, out, errOut, code, "126")

				// A crash: exit status 1, after part of an answer on stdout. The
				// hosts go by the exit status, so the stray bytes only spoil
				// the message of Cursor and Copilot CLI.
				crash := fakeSentinel(t, filepath.Join(dir, "crash"), `printf '{"perm'; echo boom >&2; exit 1`)
				cmd, _ = tg.HookCommand(crash, false)
				out, errOut, code = hostRun(t, shell, cmd, sys)
				if name == "cursor" || name == "copilot" || name == "cline" {
					out = strings.TrimPrefix(out, `{"perm`)
				}
				if name == "amp" {
					// Status 1 is Amp's "ask the operator", which the
					// command keeps: not an allow.
					if code != 1 {
						t.Errorf("amp: a crash with status 1: exit %d, want 1 (ask)", code)
					}
				} else {
					wantDeny(t, name, out, errOut, code, "1")
				}

				// Killed by a signal (the host's own timeout kills too).
				killed := fakeSentinel(t, filepath.Join(dir, "killed"), "kill -9 $$")
				cmd, _ = tg.HookCommand(killed, false)
				out, errOut, code = hostRun(t, shell, cmd, sys)
				wantDeny(t, name, out, errOut, code, "137")

				// sentinel's own answers pass through byte for byte.
				for _, verdict := range []string{"allow", "deny"} {
					body, wantOut, wantErr, wantExit := replay(t, name, verdict)
					bin := fakeSentinel(t, filepath.Join(dir, verdict), body)
					cmd, _ = tg.HookCommand(bin, false)
					out, errOut, code = hostRun(t, shell, cmd, sys)
					if out != wantOut || errOut != wantErr || code != wantExit {
						t.Errorf("%s: got exit %d, stdout %q, stderr %q; want %d, %q, %q", verdict, code, out, errOut, wantExit, wantOut, wantErr)
					}
				}

				// An error sentinel explains itself exits 2: a refusal for
				// Claude Code, Codex and Gemini CLI as it is; Cursor and
				// Copilot CLI get their own deny.
				failed := fakeSentinel(t, filepath.Join(dir, "failed"), "echo 'sentinel: cannot read the config' >&2; exit 2")
				cmd, _ = tg.HookCommand(failed, false)
				out, errOut, code = hostRun(t, shell, cmd, sys)
				if name == "cursor" || name == "copilot" || name == "cline" {
					wantDeny(t, name, out, errOut, code, "2")
				} else if code != 2 || errOut != "sentinel: cannot read the config\n" || out != "" {
					t.Errorf("exit 2: got %d, %q, %q", code, out, errOut)
				}
			})
		}
	}
}

// TestHookCommandProjectFallback checks a project's command: the absolute
// path first, then sentinel on PATH, then a refusal.
func TestHookCommandProjectFallback(t *testing.T) {
	if _, err := os.Stat("/usr/bin/sentinel"); err == nil {
		t.Skip("a sentinel in /usr/bin would answer for the missing one")
	}
	for _, shell := range hostShells(t) {
		for name, tg := range Targets {
			t.Run(filepath.Base(shell)+"/"+name, func(t *testing.T) {
				dir := t.TempDir()
				onPath := filepath.Join(dir, "path")
				fakeSentinel(t, onPath, `printf 'from PATH: %s\n' "$*"`)
				abs := filepath.Join(dir, "abs", "sentinel")
				cmd, err := tg.HookCommand(abs, true)
				if err != nil {
					t.Fatal(err)
				}
				want := "from PATH: guard --agent " + name + "\n"
				if out, _, code := hostRun(t, shell, cmd, onPath+":/usr/bin:/bin"); out != want || code != 0 {
					t.Errorf("absent binary, sentinel on PATH: exit %d, %q", code, out)
				}
				out, errOut, code := hostRun(t, shell, cmd, "/usr/bin:/bin")
				wantDeny(t, name, out, errOut, code, "127")

				fakeSentinel(t, filepath.Dir(abs), `printf 'from the path written: %s\n' "$*"`)
				want = "from the path written: guard --agent " + name + "\n"
				if out, _, code := hostRun(t, shell, cmd, onPath+":/usr/bin:/bin"); out != want || code != 0 {
					t.Errorf("binary present: exit %d, %q", code, out)
				}
			})
		}
	}
}

func TestHookCommandRefusesPathsItCannotQuote(t *testing.T) {
	tg := Targets["claude"]
	for _, bad := range []string{"sentinel", "bin/sentinel", "/o'brien/sentinel", `/a"b/sentinel`, "/a$b/sentinel", "/a`b`/sentinel", `/a\b/sentinel`, "/a\nb/sentinel"} {
		if cmd, err := tg.HookCommand(bad, false); err == nil {
			t.Errorf("%q: wrote %q", bad, cmd)
		}
	}
	cmd, err := tg.HookCommand("/Users/Jane Doe/go/bin/sentinel", true)
	if err != nil {
		t.Fatal(err)
	}
	if bins, ok := guardCommand(cmd); !ok || strings.Join(bins, "|") != "/Users/Jane Doe/go/bin/sentinel|sentinel" {
		t.Errorf("a path with a space: %v %v", bins, ok)
	}
}

// TestGuardCommandRecognisesEveryForm checks the marker: every command an
// install ever wrote is found, with its binaries, and nothing else is.
func TestGuardCommandRecognisesEveryForm(t *testing.T) {
	user, _ := Targets["codex"].HookCommand("/opt/sentinel/bin/sentinel", false)
	project, _ := Targets["cursor"].HookCommand("/opt/sentinel/bin/sentinel", true)
	for _, tc := range []struct {
		cmd  string
		bins string // "" for not ours
	}{
		{"sentinel guard --agent claude", "sentinel"},
		{"/home/jane/go/bin/sentinel guard --agent claude", "/home/jane/go/bin/sentinel"},
		{user, "/opt/sentinel/bin/sentinel"},
		{project, "/opt/sentinel/bin/sentinel|sentinel"},
		{`bash -lc '"$HOME/go/bin/sentinel" guard'`, "${HOME}/go/bin/sentinel"},
		{"~/bin/sentinel guard --agent gemini", "~/bin/sentinel"},
		{"/usr/local/bin/sntl guard --agent codex", "/usr/local/bin/sntl"},
		{"/x/sentinel.exe guard", "/x/sentinel.exe"},
		{`s\entinel guard`, "sentinel"},
		{"./lint-commands.sh", ""},
		{"echo sentinel guard", ""},
		{"sentinel guard explain --command 'rm -rf /'", ""},
		{"sentinel check", ""},
		{"/usr/local/bin/other guard --agent vim", ""},
		{"say 'sentinel guard' done", ""},
	} {
		bins, ok := guardCommand(tc.cmd)
		if got := strings.Join(bins, "|"); ok != (tc.bins != "") || got != tc.bins {
			t.Errorf("%q: %v %q, want %q", tc.cmd, ok, got, tc.bins)
		}
	}
	// Copilot CLI's exec form, run without a shell.
	if _, bins, ok := guardEntry(map[string]any{"exec": "/opt/sentinel", "args": []any{"guard", "--agent", "copilot"}}); !ok || bins[0] != "/opt/sentinel" {
		t.Errorf("exec form: %v %v", bins, ok)
	}
	// An entry that does not parse as shell still matches the old text.
	if _, ok := guardCommand("sentinel guard --agent claude 'unclosed"); !ok {
		t.Error("unparsable old entry not found")
	}
}

// TestReinstallReplacesOldEntries installs over a bare-name entry and over
// an older absolute one: one entry remains, the other hooks stay, and no
// backup is taken of a file that already ran the guard.
func TestReinstallReplacesOldEntries(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	old := `{"hooks":{"PreToolUse":[
		{"matcher":"Bash","hooks":[{"type":"command","command":"./lint.sh"}]},
		{"matcher":"Bash|Write","hooks":[{"type":"command","command":"sentinel guard --agent claude","timeout":5}]},
		{"matcher":"Bash","hooks":[{"type":"command","command":"/old/place/sentinel guard --agent claude"}]}]}}`
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	tg := Targets["claude"]
	cmd, _ := tg.HookCommand("/new/place/sentinel", true)
	res, err := Install(tg, existingDir(path), path, cmd)
	if err != nil || !res.Changed || res.Backup != "" {
		t.Fatalf("install: %+v %v", res, err)
	}
	hooks, err := InstalledHooks(path)
	if err != nil || len(hooks) != 1 || hooks[0].Command != cmd || hooks[0].Event != "PreToolUse" {
		t.Fatalf("after reinstall: %+v %v", hooks, err)
	}
	if b, _ := os.ReadFile(path); !bytes.Contains(b, []byte("./lint.sh")) {
		t.Errorf("the other hook went:\n%s", b)
	}
	if _, err := os.Stat(path + BackupSuffix); err == nil {
		t.Error("backed up a file that already ran the guard")
	}
	if res, err := Install(tg, existingDir(path), path, cmd); err != nil || res.Changed {
		t.Errorf("second install changed the file: %+v %v", res, err)
	}
	if res, err := Uninstall(tg, existingDir(path), path); err != nil || !res.Changed {
		t.Fatalf("uninstall: %+v %v", res, err)
	}
	if ok, err := Installed(path); ok || err != nil {
		t.Errorf("still installed after uninstall: %v", err)
	}
	// Uninstall leaves a file without the guard exactly as it is.
	before, _ := os.ReadFile(path)
	other := filepath.Join(dir, "other.json")
	os.WriteFile(other, []byte(`{"hooks": {"PreToolUse": []}, "z": 1, "a": 2}`), 0o644)
	if res, err := Uninstall(tg, existingDir(other), other); err != nil || res.Changed {
		t.Errorf("uninstall rewrote a file without the guard: %+v %v", res, err)
	}
	if b, _ := os.ReadFile(other); string(b) != `{"hooks": {"PreToolUse": []}, "z": 1, "a": 2}` {
		t.Errorf("changed: %s", b)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("second file touched the first")
	}
}

func TestHookMissing(t *testing.T) {
	dir := t.TempDir()
	exe := fakeSentinel(t, filepath.Join(dir, "ok"), "exit 0")
	plain := filepath.Join(dir, "plain")
	os.WriteFile(plain, []byte("x"), 0o644)
	env := map[string]string{"HOME": filepath.Join(dir, "ok")}
	getenv := func(k string) string { return env[k] }
	notOnPath := func(string) (string, error) { return "", exec.ErrNotFound }
	onPath := func(s string) (string, error) { return "/usr/bin/" + s, nil }
	for _, tc := range []struct {
		bins []string
		look func(string) (string, error)
		want string
	}{
		{[]string{exe}, notOnPath, ""},
		{[]string{"~/sentinel"}, notOnPath, ""},
		{[]string{"${HOME}/sentinel"}, notOnPath, ""},
		{[]string{filepath.Join(dir, "gone")}, notOnPath, filepath.Join(dir, "gone") + " does not exist"},
		{[]string{plain}, notOnPath, plain + " is not an executable file"},
		{[]string{dir}, notOnPath, dir + " is not an executable file"},
		{[]string{filepath.Join(dir, "gone"), "sentinel"}, onPath, ""},
		{[]string{filepath.Join(dir, "gone"), "sentinel"}, notOnPath, filepath.Join(dir, "gone") + " does not exist, and sentinel is not on PATH"},
	} {
		if got := (Hook{Binaries: tc.bins}).Missing(getenv, tc.look); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.bins, got, tc.want)
		}
	}
}

func TestInstallPaths(t *testing.T) {
	project, user := InstallPaths()
	has := func(list []string, p string) bool {
		for _, x := range list {
			if x == p {
				return true
			}
		}
		return false
	}
	for name, tg := range Targets {
		for _, p := range []string{tg.Project, tg.Project + BackupSuffix} {
			if !has(project, p) {
				t.Errorf("%s: project paths lack %s", name, p)
			}
		}
		for _, p := range []string{tg.User, tg.User + BackupSuffix} {
			if !has(user, p) {
				t.Errorf("%s: user paths lack %s", name, p)
			}
		}
	}
	for _, p := range []string{".codex/hooks.json", ".github/hooks/sentinel.json", ".github/hooks/sentinel.json.sentinel-backup"} {
		if !has(project, p) {
			t.Errorf("project paths lack %s: %v", p, project)
		}
	}
	if !has(user, ".copilot/hooks/sentinel.json") {
		t.Errorf("user paths lack Copilot CLI's: %v", user)
	}
	for _, list := range [][]string{project, user} {
		for i := 1; i < len(list); i++ {
			if list[i] == list[i-1] {
				t.Errorf("%s is listed twice", list[i])
			}
		}
	}
	for _, p := range []string{".augment/sentinel-guard.sh", ".amp/sentinel-guard.sh", ".agents/plugins/sentinel/plugin.json", ".factory/hooks.json", ".factory/hooks/hooks.json"} {
		if !has(project, p) {
			t.Errorf("project paths lack %s", p)
		}
	}
	// Every file an install writes is on the lists, with the twin there.
	home, root := t.TempDir(), t.TempDir()
	for _, tg := range Targets {
		cmd, _ := tg.HookCommand("/x/sentinel", true)
		for base, rel := range map[string]string{root: tg.Project, home: tg.User} {
			p := filepath.Join(base, filepath.FromSlash(rel))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if strings.HasSuffix(p, ".json") {
				os.WriteFile(p, []byte("{}"), 0o644)
			}
			for _, twin := range tg.twins {
				tp := filepath.Join(filepath.Dir(p), filepath.FromSlash(twin))
				os.MkdirAll(filepath.Dir(tp), 0o755)
				os.WriteFile(tp, []byte(`{"PreToolUse":[]}`), 0o644)
			}
			if _, err := Install(tg, existingDir(p), p, cmd); err != nil {
				t.Fatal(err)
			}
		}
	}
	for base, list := range map[string][]string{root: project, home: user} {
		filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(base, p)
				if !has(list, filepath.ToSlash(rel)) {
					t.Errorf("install wrote %s, which InstallPaths does not list", rel)
				}
			}
			return nil
		})
	}
}

// TestHookCommandReadsTheWholeEvent writes a large event to a command whose
// binary is missing, and to one whose binary stops reading early: the host
// must not get a broken pipe, which Codex takes for a failed hook and lets
// the call run.
func TestHookCommandReadsTheWholeEvent(t *testing.T) {
	event := append([]byte(`{"tool_name":"Write","tool_input":{"content":"`), bytes.Repeat([]byte("x"), 2<<20)...)
	event = append(event, `"}}`...)
	for name, tg := range Targets {
		dir := t.TempDir()
		early := filepath.Join(dir, "early", "sentinel")
		os.MkdirAll(filepath.Dir(early), 0o755)
		os.WriteFile(early, []byte("#!/bin/sh\nhead -c 10 >/dev/null\nexit 0\n"), 0o755)
		for _, bin := range []string{filepath.Join(dir, "gone", "sentinel"), early} {
			cmd, _ := tg.HookCommand(bin, true)
			c := exec.Command("/bin/sh", "-c", cmd)
			c.Env = []string{"PATH=/usr/bin:/bin"}
			in, err := c.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			_, werr := in.Write(event)
			in.Close()
			c.Wait()
			if werr != nil {
				t.Errorf("%s, %s: writing the event: %v", name, filepath.Base(filepath.Dir(bin)), werr)
			}
		}
	}
}
