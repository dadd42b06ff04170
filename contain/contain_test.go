package contain

import (
	"context"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/config"
)

// fixture makes a repository with sentinel's files, a host's settings and
// secrets, and a home with keys.
func fixture(t *testing.T) (top, home string, getenv func(string) string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	top, home = filepath.Join(root, "repo"), filepath.Join(root, "home")
	for _, d := range []string{top, home + "/.ssh", top + "/.sentinel", top + "/.claude", top + "/app"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("git", "init", "-q", top).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	for _, f := range []string{top + "/.env", top + "/.env.example", top + "/app/.env.local", top + "/.sentinel/config.toml",
		top + "/.claude/settings.json", home + "/.ssh/id_ed25519", home + "/.ssh/id_ed25519.pub", home + "/.ssh/known_hosts"} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"HOME": home, "PATH": "/usr/bin:/bin"}
	return top, home, func(k string) string { return env[k] }
}

func TestPolicy(t *testing.T) {
	top, home, getenv := fixture(t)
	p, err := Build(context.Background(), Options{Dir: top, Command: []string{"claude", "--model", "opus"}, Getenv: getenv,
		User: config.Run{Hide: []string{"~/notes"}, Reveal: []string{".env"}}, Project: config.Run{Hide: []string{"app"}}})
	if err != nil {
		t.Fatal(err)
	}
	git := filepath.Join(top, ".git")
	for _, c := range []struct {
		list []string
		name string
		path string
		want bool
	}{
		{p.Writable, "writable", top, true},
		{p.Writable, "writable", git, true},
		{p.Writable, "writable", filepath.Join(home, ".claude"), true},                   // made for the host
		{p.ReadOnly, "read-only", filepath.Join(home, ".claude", "settings.json"), true}, // made, to be bound
		{p.ReadOnly, "read-only", filepath.Join(git, "hooks"), true},
		{p.ReadOnly, "read-only", filepath.Join(git, "config"), true},
		{p.ReadOnly, "read-only", filepath.Join(top, ".sentinel"), true},
		{p.ReadOnly, "read-only", filepath.Join(top, ".claude"), true},
		{p.ReadOnly, "read-only", filepath.Join(top, ".claude", "settings.json"), true},
		{p.Hidden, "hidden", filepath.Join(top, ".env"), false}, // revealed by the user
		{p.Hidden, "hidden", filepath.Join(top, ".env.example"), false},
		{p.Hidden, "hidden", filepath.Join(top, "app"), true}, // the project hides more
		{p.Hidden, "hidden", filepath.Join(home, ".ssh", "id_ed25519"), true},
		{p.Hidden, "hidden", filepath.Join(home, ".ssh", "id_ed25519.pub"), false},
		{p.Hidden, "hidden", filepath.Join(home, ".ssh", "known_hosts"), false},
	} {
		if got := slices.Contains(c.list, c.path); got != c.want {
			t.Errorf("%s has %s: %v, want %v", c.name, c.path, got, c.want)
		}
	}
	if p.Mark.Agent != "claude" || p.Mark.Model != "opus" {
		t.Errorf("mark = %+v, want claude with model opus", p.Mark)
	}
	// Claude Code keeps its global state file in its state directory, and
	// its missing hook settings there are made neutral, to be bound.
	if !slices.Equal(p.Env, []string{"CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude")}) {
		t.Errorf("env = %q, want CLAUDE_CONFIG_DIR in ~/.claude", p.Env)
	}
	settings := filepath.Join(home, ".claude", "settings.json")
	if b, err := os.ReadFile(settings); err != nil || string(b) != "{}\n" || !slices.Equal(p.Placeholders, []string{settings}) {
		t.Errorf("the missing user settings were not made neutral: %q %v, placeholders %q", b, err, p.Placeholders)
	}
	// The hooks directory is made, so that it can be protected.
	if fi, err := os.Stat(filepath.Join(git, "sentinel")); err != nil || !fi.IsDir() {
		t.Errorf("the cache directory was not made: %v", err)
	}
}

// TestClaudeConfigDir: a CLAUDE_CONFIG_DIR of the user's own is the
// state, and its settings are protected as ~/.claude's are; a relative
// one is refused; the global state file is seeded inside once.
func TestClaudeConfigDir(t *testing.T) {
	top, home, getenv := fixture(t)
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte(`{"seen":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(context.Background(), Options{Dir: top, Command: []string{"claude"}, Getenv: getenv}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(home, ".claude", ".claude.json")); err != nil || string(b) != `{"seen":1}` {
		t.Errorf("the state inside was not seeded from ~/.claude.json: %q %v", b, err)
	}
	own := filepath.Join(home, "cc")
	env := func(k string) string {
		if k == "CLAUDE_CONFIG_DIR" {
			return own
		}
		return getenv(k)
	}
	p, err := Build(context.Background(), Options{Dir: top, Command: []string{"claude"}, Getenv: env})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Env) != 0 || !slices.Contains(p.Writable, own) || !slices.Contains(p.ReadOnly, filepath.Join(own, "settings.json")) {
		t.Errorf("CLAUDE_CONFIG_DIR: env %q, writable %q, read-only %q", p.Env, p.Writable, p.ReadOnly)
	}
	rel := func(k string) string {
		if k == "CLAUDE_CONFIG_DIR" {
			return "cc"
		}
		return getenv(k)
	}
	if _, err := Build(context.Background(), Options{Dir: top, Command: []string{"claude"}, Getenv: rel}); err == nil || !strings.Contains(err.Error(), "CLAUDE_CONFIG_DIR") {
		t.Errorf("a relative CLAUDE_CONFIG_DIR: %v, want a refusal", err)
	}
}

// TestProjectCannotWiden: a repository's [run] may hide, never widen.
func TestProjectCannotWiden(t *testing.T) {
	top, _, getenv := fixture(t)
	off := false
	for _, r := range []config.Run{{Writable: []string{"/"}}, {Reveal: []string{".env"}}, {SearchEnv: &off}} {
		if _, err := Build(context.Background(), Options{Dir: top, Command: []string{"sh"}, Getenv: getenv, Project: r}); err == nil || !strings.Contains(err.Error(), "only your own configuration") {
			t.Errorf("Build with the project's %+v: %v, want a refusal", r, err)
		}
	}
}

// TestEnvAtAnyDepth: a .env deep in the work tree is hidden; the user's
// search_env = false leaves the search out, and hide lists the file.
func TestEnvAtAnyDepth(t *testing.T) {
	top, _, getenv := fixture(t)
	deep := filepath.Join(top, "a", "b", "c", "d", "e", "f")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	env := filepath.Join(deep, ".env.local")
	if err := os.WriteFile(env, []byte("K=V\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(env)
	p, err := Build(context.Background(), Options{Dir: top, Command: []string{"sh"}, Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(p.Hidden, real) {
		t.Errorf("hidden %q lacks %s", p.Hidden, real)
	}
	off := false
	p, err = Build(context.Background(), Options{Dir: top, Command: []string{"sh"}, Getenv: getenv, User: config.Run{SearchEnv: &off}})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(p.Hidden, real) {
		t.Errorf("with search_env = false, hidden %q holds %s", p.Hidden, real)
	}
}

// TestLinkRefused: a protected path reached through a link the agent
// could replace is refused.
func TestLinkRefused(t *testing.T) {
	top, _, getenv := fixture(t)
	elsewhere := t.TempDir()
	if err := os.Rename(filepath.Join(top, ".sentinel"), filepath.Join(elsewhere, "s")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(elsewhere, "s"), filepath.Join(top, ".sentinel")); err != nil {
		t.Fatal(err)
	}
	_, err := Build(context.Background(), Options{Dir: top, Command: []string{"sh"}, Getenv: getenv})
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("Build with .sentinel a link: %v, want a refusal", err)
	}
}

// TestBwrapOrder: the read-only binds come after the writable ones they
// sit in, the secrets last, and the command after --.
func TestBwrapOrder(t *testing.T) {
	top, _, getenv := fixture(t)
	p, err := Build(context.Background(), Options{Dir: top, Command: []string{"sh", "-c", "true"}, Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	a := bwrapArgs(p, bwrapSpec{socket: "/s", isDir: isDir, empty: "/e", run: []runEntry{{name: "lock", link: "/run/lock"}, {name: "user"}}})
	at := func(flag, path string) int {
		for i := 0; i+2 < len(a); i++ {
			if a[i] == flag && a[i+2] == path {
				return i
			}
		}
		t.Fatalf("no %s … %s in %q", flag, path, a)
		return -1
	}
	rw := at("--bind", top)
	hooks := at("--ro-bind", filepath.Join(top, ".git", "hooks"))
	env := at("--ro-bind", filepath.Join(top, ".env"))
	tmp := slices.Index(a, "/tmp")
	if !(at("--ro-bind", "/") < tmp && a[tmp-1] == "--tmpfs" && tmp < rw && rw < hooks && hooks < env) {
		t.Errorf("binds out of order: / then /tmp then the work tree then the hooks then .env: %q", a)
	}
	for _, want := range []string{"--die-with-parent", "--unshare-pid", "--disable-userns", "--new-session"} {
		if !slices.Contains(a, want) {
			t.Errorf("no %s in %q", want, a)
		}
	}
	dash := slices.Index(a, "--")
	if got := a[dash+1:]; got[len(got)-3] != "sh" || got[len(got)-1] != "true" {
		t.Errorf("the command after --: %q", got)
	}
	// With a terminal: no new session, the filter instead.
	a = bwrapArgs(p, bwrapSpec{isDir: isDir, terminal: true})
	if slices.Contains(a, "--new-session") || !slices.Contains(a, "--seccomp") {
		t.Errorf("with a terminal: %q", a)
	}
}

func TestSeatbelt(t *testing.T) {
	top, _, getenv := fixture(t)
	p, err := Build(context.Background(), Options{Dir: top, Command: []string{"sh"}, Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	prof := seatbeltProfile(p)
	w := strings.Index(prof, "(allow file-write*")
	ro := strings.Index(prof, "(deny file-write*\n")
	hooks := strings.Index(prof, `(subpath "`+filepath.Join(top, ".git", "hooks")+`")`)
	secret := strings.Index(prof, `(subpath "`+filepath.Join(top, ".env")+`")`)
	if w < 0 || ro < w || hooks < ro || secret < hooks || !strings.Contains(prof, "(deny file-read* file-write*") {
		t.Errorf("profile out of order:\n%s", prof)
	}
	if got := sbplString(`a"b\c`); got != `"a\"b\\c"` {
		t.Errorf("sbplString = %s", got)
	}
}

func TestFilter(t *testing.T) {
	f := tiocstiFilter()
	if f == nil {
		t.Skip("no ABI table for this platform")
	}
	if len(f)%8 != 0 {
		t.Fatalf("filter of %d bytes", len(f))
	}
	var sawTIOCSTI bool
	for i := 0; i < len(f); i += 8 {
		code := binary.NativeEndian.Uint16(f[i:])
		jt, jf := int(f[i+2]), int(f[i+3])
		if code == bpfJeqK && i/8+1+max(jt, jf) >= len(f)/8 {
			t.Errorf("instruction %d jumps past the end", i/8)
		}
		if code == bpfJeqK && binary.NativeEndian.Uint32(f[i+4:]) == tiocsti {
			sawTIOCSTI = true
		}
	}
	if !sawTIOCSTI {
		t.Error("the filter does not test TIOCSTI")
	}
}

func TestMarkFor(t *testing.T) {
	if m, _ := markFor([]string{"/usr/local/bin/codex", "-m", "gpt-5"}, ""); m.Agent != "codex" {
		t.Errorf("codex: %+v", m)
	}
	if m, _ := markFor([]string{"bash"}, ""); m.Agent != "agent" {
		t.Errorf("bash: %+v, want agent: whatever runs under sentinel run is taken for one", m)
	}
	if m, _ := markFor([]string{"bash"}, "gemini:pro"); m.Agent != "gemini" || m.Model != "pro" {
		t.Errorf("--agent gemini:pro: %+v", m)
	}
}

// TestPolicyCall: one tool call of a host that runs outside (sentinel run
// --call) writes the work tree and the real /tmp, not the host's state,
// and cannot read the host's login; without the host's name it is
// refused.
func TestPolicyCall(t *testing.T) {
	top, home, getenv := fixture(t)
	for _, d := range []string{home + "/.claude"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(home+"/.claude/.credentials.json", []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := Build(context.Background(), Options{Dir: top, Command: []string{"/bin/sh", "-c", "ls"}, Agent: "claude", Call: true, Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Fresh) != 0 || !slices.Contains(p.Writable, "/tmp") || !slices.Contains(p.Writable, top) {
		t.Errorf("fresh %q, writable %q", p.Fresh, p.Writable)
	}
	if slices.Contains(p.Writable, home+"/.claude") {
		t.Errorf("the host's state is writable to a call: %q", p.Writable)
	}
	if !slices.Contains(p.Hidden, home+"/.claude/.credentials.json") {
		t.Errorf("the host's login is not hidden from a call: %q", p.Hidden)
	}
	if p.Mark.Agent != "claude" {
		t.Errorf("mark %+v", p.Mark)
	}
	// The whole host, by contrast, keeps its state and its login.
	h, err := Build(context.Background(), Options{Dir: top, Command: []string{"claude"}, Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(h.Writable, home+"/.claude") || slices.Contains(h.Hidden, home+"/.claude/.credentials.json") {
		t.Errorf("the host run: writable %q, hidden %q", h.Writable, h.Hidden)
	}
	if _, err := Build(context.Background(), Options{Dir: top, Command: []string{"ls"}, Call: true, Getenv: getenv}); err == nil {
		t.Error("a call without the host's name was contained")
	}
}
