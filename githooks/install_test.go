package githooks

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/internal/gittest"
)

func writeExec(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
}

// runScript runs a hook script with sh, as git would, with a PATH that has
// no sentinel on it.
func runScript(t *testing.T, script string, stdin string, env []string, args ...string) (string, int) {
	t.Helper()
	tmp := t.TempDir()
	defer func() {
		// The buffered stdin of pre-push is removed on the way out.
		if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
			t.Errorf("the script left %d files in TMPDIR", len(entries))
		}
	}()
	cmd := exec.Command("sh", append([]string{script}, args...)...)
	cmd.Env = append([]string{"PATH=/usr/bin:/bin", "TMPDIR=" + tmp}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}

func TestScriptFailsClosedWithoutBinary(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		failOpen bool
		code     int
		says     string
	}{
		{false, 1, "put it on PATH (run make install in a clone of sentinel's source), then run `sentinel install` again"},
		{true, 0, "skipping it ([hooks] fail_open = true)"},
	} {
		script, err := render("commit-msg", "/nonexistent/sentinel", tc.failOpen)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "commit-msg")
		writeExec(t, path, string(script))
		out, code := runScript(t, path, "", nil, "msg")
		// There is no release yet: a `go install …@latest` would fail.
		if code != tc.code || !strings.Contains(out, tc.says) || strings.Contains(out, "@latest") {
			t.Errorf("fail_open=%v: exit %d, output %q; want exit %d saying %q", tc.failOpen, code, out, tc.code, tc.says)
		}
	}
}

// TestScriptChainsAndFindsBinary runs a pre-push script whose previous hook
// and "sentinel" both record their arguments and stdin: both must see the
// same, the previous hook first, and its failure must stop the hook.
func TestScriptChainsAndFindsBinary(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	fake := filepath.Join(dir, "fake-sentinel")
	writeExec(t, fake, "#!/bin/sh\n[ \"$1\" = --version ] && { echo 'sentinel version test (github.com/gitsentinel/sentinel)'; exit 0; }\necho \"sentinel $*\" >> "+log+"\ncat >> "+log+"\n")
	script, err := render("pre-push", "/nonexistent/sentinel", false)
	if err != nil {
		t.Fatal(err)
	}
	hook := filepath.Join(dir, "pre-push")
	writeExec(t, hook, string(script))
	writeExec(t, hook+PrevSuffix, "#!/bin/sh\necho \"prev $*\" >> "+log+"\ncat >> "+log+"\nexit ${PREV_EXIT:-0}\n")

	refs := "refs/heads/main 1111 refs/heads/main 0000\nrefs/heads/b 2222 refs/heads/b 0000\n"
	out, code := runScript(t, hook, refs, []string{"SENTINEL_BIN=" + fake}, "origin", "/srv/repo.git")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	got, _ := os.ReadFile(log)
	want := "prev origin /srv/repo.git\n" + refs + "sentinel hook pre-push origin /srv/repo.git\n" + refs
	if string(got) != want {
		t.Errorf("log:\n%s\nwant:\n%s", got, want)
	}

	os.Remove(log)
	out, code = runScript(t, hook, refs, []string{"SENTINEL_BIN=" + fake, "PREV_EXIT=3"}, "origin", "x")
	got, _ = os.ReadFile(log)
	if code != 3 || strings.Contains(string(got), "sentinel hook") {
		t.Errorf("a failing previous hook: exit %d, log %q, output %q; want exit 3 and sentinel not run", code, got, out)
	}
}

func TestInstallUninstallRoundTrip(t *testing.T) {
	dir := repo(t)
	hooks := filepath.Join(dir, ".git", "hooks")
	os.MkdirAll(hooks, 0o755)
	orig := "#!/bin/sh\n# the team's own hook\nexit 0\n"
	if err := os.WriteFile(filepath.Join(hooks, "pre-commit"), []byte(orig), 0o750); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	opts := InstallOptions{Dir: dir, Bin: "/usr/local/bin/sentinel"}
	acts, err := Install(ctx, opts)
	if err != nil || len(acts) != 3 {
		t.Fatalf("install: %v %+v", err, acts)
	}
	for _, name := range DefaultHooks {
		b, err := os.ReadFile(filepath.Join(hooks, name))
		if err != nil || !isOurs(b) || !bytes.HasPrefix(b, []byte("#!/bin/sh\n")) || bytes.Contains(b, []byte("\r")) {
			t.Errorf("%s: not sentinel's POSIX script: %v", name, err)
		}
		if st, _ := os.Stat(filepath.Join(hooks, name)); st.Mode().Perm()&0o111 == 0 {
			t.Errorf("%s is not executable", name)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(hooks, "pre-commit"+PrevSuffix)); string(b) != orig {
		t.Errorf("the previous hook was not kept: %q", b)
	}
	// Reinstalling changes nothing and never chains sentinel to itself.
	acts, err = Install(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range acts {
		if a.What != "already installed" {
			t.Errorf("reinstall: %+v", a)
		}
	}
	if _, err := os.Stat(filepath.Join(hooks, "commit-msg"+PrevSuffix)); err == nil {
		t.Error("sentinel chained its own hook")
	}
	// Uninstall restores the team's hook byte for byte, with its mode.
	if _, err := Uninstall(ctx, dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(hooks, "pre-commit"))
	st, _ := os.Stat(filepath.Join(hooks, "pre-commit"))
	if err != nil || string(b) != orig || st.Mode().Perm() != 0o750 {
		t.Errorf("restored %q mode %v, %v", b, st.Mode().Perm(), err)
	}
	for _, name := range []string{"commit-msg", "pre-push", "pre-commit" + PrevSuffix} {
		if _, err := os.Stat(filepath.Join(hooks, name)); err == nil {
			t.Errorf("%s left behind", name)
		}
	}
}

func TestInstallResumesAndRefuses(t *testing.T) {
	dir := repo(t)
	hooks := filepath.Join(dir, ".git", "hooks")
	os.MkdirAll(hooks, 0o755)
	hook := filepath.Join(hooks, "commit-msg")
	orig := "#!/bin/sh\nexit 0\n"
	writeExec(t, hook, orig)
	// An install interrupted after saving the hook: the hook is still the
	// old one, and a second install finishes the job.
	if err := os.Link(hook, hook+PrevSuffix); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(context.Background(), InstallOptions{Dir: dir, Hooks: []string{"commit-msg"}, Bin: "/x"}); err != nil {
		t.Fatalf("resume: %v", err)
	}
	if b, _ := os.ReadFile(hook + PrevSuffix); string(b) != orig {
		t.Errorf("saved hook %q", b)
	}
	// A foreign hook in front of a different saved one is not clobbered.
	writeExec(t, hook, "#!/bin/sh\necho someone else's\n")
	_, err := Install(context.Background(), InstallOptions{Dir: dir, Hooks: []string{"commit-msg"}, Bin: "/x"})
	if err == nil || !strings.Contains(err.Error(), "move one of them away") {
		t.Errorf("two foreign hooks: %v", err)
	}
	if _, err := Install(context.Background(), InstallOptions{Dir: dir, Hooks: []string{"post-merge"}}); err == nil {
		t.Error("installed an unknown hook")
	}
}

func TestInstallRespectsManagers(t *testing.T) {
	gittest.Isolate(t)
	for _, tc := range []struct{ name, hook, manager string }{
		{"lefthook", "#!/bin/sh\n# lefthook run\ncall_lefthook run \"commit-msg\" \"$@\"\n", "lefthook"},
		{"pre-commit", "#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\n", "pre-commit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := repo(t)
			hooks := filepath.Join(dir, ".git", "hooks")
			os.MkdirAll(hooks, 0o755)
			writeExec(t, filepath.Join(hooks, "commit-msg"), tc.hook)
			_, err := Install(context.Background(), InstallOptions{Dir: dir, Bin: "/x"})
			if err == nil || !strings.Contains(err.Error(), tc.manager+" manages") || !strings.Contains(err.Error(), "sentinel install --force") {
				t.Fatalf("error %v", err)
			}
			if _, err := Install(context.Background(), InstallOptions{Dir: dir, Bin: "/x", Force: true}); err != nil {
				t.Fatalf("--force: %v", err)
			}
		})
	}
}

// TestScriptRunsTheCapturedSentinel: a PATH or SENTINEL_BIN an agent puts
// in front of `git commit` cannot replace the sentinel captured at install
// with a stub that exits 0; once the captured one is gone, only an absolute
// path whose --version names sentinel's module stands in, and a hook that
// finds none fails.
func TestScriptRunsTheCapturedSentinel(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	real := filepath.Join(dir, "real", "sentinel")
	os.MkdirAll(filepath.Dir(real), 0o755)
	writeExec(t, real, "#!/bin/sh\n[ \"$1\" = --version ] && { echo 'sentinel version test (github.com/gitsentinel/sentinel)'; exit 0; }\necho \"real $*\" >> "+log+"\n")
	stubDir := filepath.Join(dir, "stub")
	os.MkdirAll(stubDir, 0o755)
	stub := filepath.Join(stubDir, "sentinel")
	writeExec(t, stub, "#!/bin/sh\necho \"stub $*\" >> "+log+"\nexit 0\n")
	spoof := filepath.Join(dir, "spoof", "sentinel")
	os.MkdirAll(filepath.Dir(spoof), 0o755)
	writeExec(t, spoof, "#!/bin/sh\n[ \"$1\" = --version ] && { echo 'sentinel version test (github.com/gitsentinel/sentinel)'; exit 0; }\necho \"spoof $*\" >> "+log+"\n")
	hookWith := func(bin string) string {
		script, err := render("commit-msg", bin, false)
		if err != nil {
			t.Fatal(err)
		}
		hook := filepath.Join(t.TempDir(), "commit-msg")
		writeExec(t, hook, string(script))
		return hook
	}
	for _, tc := range []struct {
		name      string
		installed string
		env       []string
		want      string // the first word of the log, "" for none
		code      int
	}{
		{"captured, with a stub on PATH", real, []string{"PATH=" + stubDir + ":/usr/bin:/bin"}, "real", 0},
		{"captured, with a stub in SENTINEL_BIN", real, []string{"SENTINEL_BIN=" + stub}, "real", 0},
		{"gone, a stub on PATH", "/nonexistent/sentinel", []string{"PATH=" + stubDir + ":/usr/bin:/bin"}, "", 1},
		{"gone, a stub in SENTINEL_BIN", "/nonexistent/sentinel", []string{"SENTINEL_BIN=" + stub}, "", 1},
		{"gone, a relative PATH entry", "/nonexistent/sentinel", []string{"PATH=spoof:/usr/bin:/bin"}, "", 1},
		{"gone, a build of sentinel in SENTINEL_BIN", "/nonexistent/sentinel", []string{"SENTINEL_BIN=" + spoof}, "spoof", 0},
		{"gone, a build of sentinel on PATH", "/nonexistent/sentinel", []string{"PATH=" + filepath.Dir(spoof) + ":/usr/bin:/bin"}, "spoof", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(log)
			cmd := exec.Command("/bin/sh", hookWith(tc.installed), "msg")
			cmd.Dir = dir
			cmd.Env = append([]string{"PATH=/usr/bin:/bin", "TMPDIR=" + t.TempDir()}, tc.env...)
			out, err := cmd.CombinedOutput()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			got, _ := os.ReadFile(log)
			// Asking a candidate its --version is not running it.
			var ran []string
			for _, l := range strings.Split(strings.TrimSpace(string(got)), "\n") {
				if l != "" && !strings.HasSuffix(l, " --version") {
					ran = append(ran, l)
				}
			}
			first, _, _ := strings.Cut(strings.Join(ran, "\n"), " ")
			if code != tc.code || first != tc.want {
				t.Errorf("exit %d, ran %q (%s); want exit %d, %q", code, got, out, tc.code, tc.want)
			}
		})
	}
}

// TestInstallRefusesAHooksLinkOutOfTheRepository: a committed link at the
// hooks directory (core.hooksPath into the work tree, as husky sets it) that points
// out of the repository is refused, and nothing is written where it
// points; --force installs there.
func TestInstallRefusesAHooksLinkOutOfTheRepository(t *testing.T) {
	dir := repo(t)
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "tools"), 0o755)
	if err := os.Symlink(outside, filepath.Join(dir, "tools", "hooks")); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "-C", dir, "config", "core.hooksPath", "tools/hooks").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	_, err := Install(context.Background(), InstallOptions{Dir: dir, Hooks: []string{"commit-msg"}, Bin: "/x", Force: false})
	if err == nil || !strings.Contains(err.Error(), "a link out of the repository") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("install through the link: %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("install wrote %d files out of the repository", len(entries))
	}
	if _, err := Install(context.Background(), InstallOptions{Dir: dir, Hooks: []string{"commit-msg"}, Bin: "/x", Force: true}); err != nil {
		t.Fatalf("install --force: %v", err)
	}
	if _, err := os.Stat(filepath.Join(outside, "commit-msg")); err != nil {
		t.Errorf("install --force did not write where the link points: %v", err)
	}
	// A hooks directory inside the repository, or configured outside it
	// by the user, installs as before.
	other := repo(t)
	if out, err := exec.Command("git", "-C", other, "config", "core.hooksPath", t.TempDir()).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if _, err := Install(context.Background(), InstallOptions{Dir: other, Hooks: []string{"commit-msg"}, Bin: "/x"}); err != nil {
		t.Errorf("an absolute core.hooksPath of the user's: %v", err)
	}
}
