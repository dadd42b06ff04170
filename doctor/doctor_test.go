package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/githooks"
	"github.com/gitsentinel/sentinel/guard/install"
	"github.com/gitsentinel/sentinel/internal/gittest"
)

// fixture is a repository with sentinel's hooks and a baseline, and a home
// directory of its own.
type fixture struct {
	t          *testing.T
	root, home string
	env        map[string]string
}

// newFixture makes a healthy repository at root (its name may hold
// characters a terminal acts on) with a home directory beside it.
func newFixture(t *testing.T, name string) *fixture {
	t.Helper()
	gittest.Isolate(t)
	base := t.TempDir()
	f := &fixture{t: t, root: filepath.Join(base, name), home: filepath.Join(base, "home")}
	f.env = map[string]string{"HOME": f.home, "XDG_CONFIG_HOME": filepath.Join(f.home, ".config"), "XDG_STATE_HOME": filepath.Join(f.home, ".state")}
	for _, d := range []string{f.root, f.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f.git("init", "-q", "-b", "main")
	if _, err := githooks.Install(context.Background(), githooks.InstallOptions{Dir: f.root, Bin: "/opt/sentinel/bin/sentinel"}); err != nil {
		t.Fatal(err)
	}
	f.write(".sentinel/baseline.json", "{\n  \"accepted\": [],\n  \"peaks\": {},\n  \"version\": 1\n}\n")
	return f
}

func (f *fixture) git(args ...string) {
	f.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "core.hooksPath=" + os.DevNull}, args...)...)
	cmd.Dir = f.root
	if out, err := cmd.CombinedOutput(); err != nil {
		f.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// write writes a file below the root (or an absolute path).
func (f *fixture) write(rel, content string) string {
	f.t.Helper()
	p := rel
	if !filepath.IsAbs(p) {
		p = filepath.Join(f.root, filepath.FromSlash(rel))
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
		f.t.Fatal(err)
	}
	return p
}

// check runs doctor in the repository, with sentinel and ssh-keygen on
// PATH at /usr/bin.
func (f *fixture) check() *Report {
	f.t.Helper()
	r, err := Check(context.Background(), Options{
		Dir:      f.root,
		Getenv:   func(k string) string { return f.env[k] },
		LookPath: func(name string) (string, error) { return "/usr/bin/" + name, nil },
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return r
}

// find returns the findings about subject.
func find(r *Report, subject string) []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Subject == subject {
			out = append(out, f)
		}
	}
	return out
}

// claudeEntry is Claude Code's settings with one group: sentinel's command
// as install writes it (edited by edit) behind matcher.
func claudeEntry(t *testing.T, matcher string, edit func(string) string) string {
	t.Helper()
	cmd, err := install.Targets["claude"].HookCommand("/usr/bin/sentinel", true)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{
		"matcher": matcher, "hooks": []any{map[string]any{"type": "command", "command": edit(cmd), "timeout": 5, "onFailure": "block"}},
	}}}})
	return string(b)
}

const fullMatcher = "Bash|PowerShell|Write|Edit|MultiEdit|NotebookEdit|Read|Grep"

// TestHealthyWithAdvice: a repository with everything in place is healthy
// whatever agents' directories are about: .github says nothing of Copilot
// CLI, and ~/.claude without the guard is advice with its install.
func TestHealthyWithAdvice(t *testing.T) {
	f := newFixture(t, "repo")
	f.write(".github/workflows/ci.yml", "on: push\n")
	os.MkdirAll(filepath.Join(f.home, ".claude"), 0o755)
	r := f.check()
	if !r.Healthy() || len(r.Fixes()) != 0 {
		t.Fatalf("not healthy: %+v", r.Findings)
	}
	if got := find(r, "guard/copilot"); len(got) > 0 {
		t.Errorf("copilot: %+v", got)
	}
	want := Finding{Status: Advice, Subject: "guard/claude", Message: "claude: ~/.claude exists; guard it with sentinel guard install --agent claude", Fix: "sentinel guard install --agent claude"}
	if got := find(r, "guard/claude"); len(got) != 1 || got[0].Status != want.Status || got[0].Message != want.Message || got[0].Fix != want.Fix {
		t.Errorf("claude: %+v, want %+v", got, want)
	}
	var out bytes.Buffer
	if err := r.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "\nadvice   claude: ~/.claude exists;") || !strings.HasSuffix(out.String(), "\nnothing is missing\n") {
		t.Errorf("text:\n%s", out.String())
	}
}

// TestFakeEntries: real Claude Code settings whose entry looks installed
// and does nothing are broken, each with the install that replaces it.
func TestFakeEntries(t *testing.T) {
	for name, c := range map[string]struct {
		settings, want string
	}{
		"exit 0 first": {claudeEntry(t, fullMatcher, func(c string) string { return "exit 0; " + c }), "is not the command sentinel installs"},
		"true or":      {claudeEntry(t, fullMatcher, func(c string) string { return "true || " + c }), "is not the command sentinel installs"},
		"colon and":    {claudeEntry(t, fullMatcher, func(c string) string { return ": && " + c }), "is not the command sentinel installs"},
		"or true":      {claudeEntry(t, fullMatcher, func(c string) string { return c + " || true" }), "is not the command sentinel installs"},
		"no such tool": {claudeEntry(t, "Bsh", func(c string) string { return c }), `the matcher "Bsh" names no tool claude has`},
		"Read only":    {claudeEntry(t, "Read", func(c string) string { return c }), `the matcher "Read" covers only Read`},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, "repo")
			path := f.write(".claude/settings.json", c.settings)
			r := f.check()
			if r.Healthy() {
				t.Fatalf("healthy: %+v", r.Findings)
			}
			got := find(r, "guard/claude")
			if len(got) != 1 || got[0].Status != Broken || !strings.HasPrefix(got[0].Message, "claude guard ("+path+"): ") || !strings.Contains(got[0].Message, c.want) {
				t.Fatalf("claude: %+v, want one broken finding with %q", got, c.want)
			}
			if want := []string{"sentinel guard install --agent claude --project"}; !slices.Equal(r.Fixes(), want) {
				t.Errorf("fixes %q, want %q", r.Fixes(), want)
			}
		})
	}
}

// TestExpectAndGone: an agent [guard] expect names is missing where it is
// guarded nowhere; one guard install recorded is missing where it is gone;
// otherwise it is not a gap.
func TestExpectAndGone(t *testing.T) {
	f := newFixture(t, "repo")
	f.write(".sentinel/config.toml", "[guard]\nexpect = [\"cursor\"]\n")
	r := f.check()
	got := find(r, "guard/cursor")
	if len(got) != 1 || got[0].Status != Missing || !strings.HasSuffix(got[0].Message, "): [guard] expect names cursor") || got[0].Fix != "sentinel guard install --agent cursor --project" {
		t.Fatalf("cursor: %+v", got)
	}

	f = newFixture(t, "repo")
	user := filepath.Join(f.home, ".codex", "hooks.json")
	if err := install.Remember(context.Background(), filepath.Join(f.env["XDG_STATE_HOME"], "sentinel"), "codex", user); err != nil {
		t.Fatal(err)
	}
	r = f.check()
	got = find(r, "guard/codex")
	want := "codex guard (" + user + "): sentinel guard install put it there, and it is gone"
	if len(got) != 1 || got[0].Status != Missing || got[0].Message != want || got[0].Fix != "sentinel guard install --agent codex --user" {
		t.Fatalf("codex: %+v, want %q", got, want)
	}
}

// TestPreCommitChain: sentinel's hook kept as pre-commit.legacy by
// pre-commit's migration mode runs, and doctor says how; where the
// configuration calls sentinel too it runs twice, and the finding names
// the command that stops it.
func TestPreCommitChain(t *testing.T) {
	f := newFixture(t, "repo")
	hooks := filepath.Join(f.root, ".git", "hooks")
	if err := os.Rename(filepath.Join(hooks, "pre-commit"), filepath.Join(hooks, "pre-commit.legacy")); err != nil {
		t.Fatal(err)
	}
	f.write(".git/hooks/pre-commit", "#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\n# ID: 138fd403232d2ddd5efb44317e38bf03\nexit 0\n")
	f.write(".pre-commit-config.yaml", "repos:\n  - repo: local\n    hooks:\n      - id: sentinel-pre-commit\n        entry: sentinel hook pre-commit\n        language: system\n")
	r := f.check()
	if !r.Healthy() {
		t.Fatalf("not healthy: %+v", r.Findings)
	}
	got := find(r, "hook/pre-commit")
	if len(got) != 1 || got[0].Status != OK || !strings.Contains(got[0].Message, "then sentinel's as pre-commit.legacy (sentinel runs twice: .pre-commit-config.yaml:5 calls it too") ||
		got[0].Fix != "pre-commit install -f --hook-type pre-commit" {
		t.Fatalf("pre-commit: %+v", got)
	}
}

// TestQuotedForPeople: the text output quotes a path that holds an escape
// sequence, as the rest of sentinel's text does; the JSON carries it as it
// is.
func TestQuotedForPeople(t *testing.T) {
	f := newFixture(t, "re\x1b[31mpo")
	f.write(".claude/settings.json", claudeEntry(t, "Bsh", func(c string) string { return c }))
	r := f.check()
	got := find(r, "guard/claude")
	if len(got) != 1 || !strings.Contains(got[0].Message, "re\x1b[31mpo") {
		t.Fatalf("claude: %+v", got)
	}
	var text, js bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text.String(), "\x1b") || !strings.Contains(text.String(), `re\033[31mpo`) {
		t.Errorf("text output:\n%q", text.String())
	}
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		OK       bool      `json:"ok"`
		Findings []Finding `json:"findings"`
		Fixes    []string  `json:"fixes"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OK || len(doc.Fixes) != 1 || !slices.ContainsFunc(doc.Findings, func(f Finding) bool { return strings.Contains(f.Message, "re\x1b[31mpo") }) {
		t.Errorf("JSON:\n%s", js.String())
	}
}

// TestHooksSwitchedOff: Claude Code's disableAllHooks in its local
// settings switches off the guard installed in the project's: broken, not
// ok, with the edit that fixes it.
func TestHooksSwitchedOff(t *testing.T) {
	f := newFixture(t, "repo")
	f.write(".claude/settings.json", claudeEntry(t, fullMatcher, func(c string) string { return c }))
	local := f.write(".claude/settings.local.json", `{"disableAllHooks": true}`)
	r := f.check()
	got := find(r, "guard/claude")
	want := `claude guard: ` + local + ` sets "disableAllHooks", so claude runs no hook, the guard's with them`
	if len(got) != 1 || got[0].Status != Broken || got[0].Message != want || got[0].Fix != `remove "disableAllHooks" from `+local {
		t.Fatalf("claude: %+v, want one broken finding %q", got, want)
	}
}

// TestClineLinkedHook: Cline CLI 3 skips a hook file that is a link, even
// to sentinel's own script, so doctor calls it broken rather than running
// the script through the link.
func TestClineLinkedHook(t *testing.T) {
	f := newFixture(t, "repo")
	tg := install.Targets["cline"]
	real := filepath.Join(f.root, "hooks", "PreToolUse")
	if _, err := install.Install(tg, f.root, real, tg.PathHookCommand()); err != nil {
		t.Fatal(err)
	}
	hook := filepath.Join(f.root, filepath.FromSlash(tg.Project))
	if err := os.MkdirAll(filepath.Dir(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "..", "hooks", "PreToolUse"), hook); err != nil {
		t.Fatal(err)
	}
	got := find(f.check(), "guard/cline")
	want := "cline guard (" + hook + "): the hook file is a symbolic link, and Cline CLI 3 skips a link without a word (the call then runs)"
	fix := "remove the link " + hook + ", then: sentinel guard install --agent cline --project"
	if len(got) != 1 || got[0].Status != Broken || got[0].Message != want || got[0].Fix != fix {
		t.Fatalf("cline: %+v, want one broken finding %q with the fix %q", got, want, fix)
	}
}

// TestFactoryTwinShadows: a .factory/hooks.json that lists PreToolUse
// hooks runs them in place of settings.json's, so the guard installed in
// settings.json guards nothing: broken, fixed by installing again; and a
// user's hooks.json with "hooksDisabled": true switches every hook off.
func TestFactoryTwinShadows(t *testing.T) {
	f := newFixture(t, "repo")
	tg := install.Targets["factory"]
	settings := filepath.Join(f.root, ".factory", "settings.json")
	if _, err := install.Install(tg, f.root, settings, tg.PathHookCommand()); err != nil {
		t.Fatal(err)
	}
	twin := f.write(".factory/hooks.json", `{"PreToolUse":[{"matcher":"Execute","hooks":[{"type":"command","command":"/usr/local/bin/audit"}]}]}`)
	got := find(f.check(), "guard/factory")
	want := "factory guard (" + settings + "): the entry under PreToolUse never runs: " + twin + " lists PreToolUse hooks, which factory runs in place of this file's"
	if len(got) != 1 || got[0].Status != Broken || got[0].Message != want || got[0].Fix != "sentinel guard install --agent factory --project" {
		t.Fatalf("factory: %+v, want one broken finding %q", got, want)
	}
	if _, err := install.Install(tg, f.root, settings, tg.PathHookCommand()); err != nil {
		t.Fatal(err)
	}
	if got := find(f.check(), "guard/factory"); len(got) != 1 || got[0].Status != OK {
		t.Fatalf("factory, installed again: %+v", got)
	}
	off := f.write(filepath.Join(f.home, ".factory", "hooks.json"), `{"hooksDisabled":true}`)
	got = find(f.check(), "guard/factory")
	want = `factory guard: ` + off + ` sets "hooksDisabled", so factory runs no hook, the guard's with them`
	if len(got) != 1 || got[0].Status != Broken || got[0].Message != want || got[0].Fix != `remove "hooksDisabled" from `+off {
		t.Fatalf("factory: %+v, want one broken finding %q", got, want)
	}
}

// TestKiloPluginsOff: Kilo Code loads no plugin under KILO_PURE, and
// nothing of the project's under KILO_DISABLE_PROJECT_CONFIG: the guard
// the project holds is broken under either, in the environment doctor
// runs in.
func TestKiloPluginsOff(t *testing.T) {
	for _, tc := range []struct{ env, want string }{
		{"KILO_PURE", `kilo guard: KILO_PURE is set, so kilo loads no plugin, the guard's with them`},
		{"KILO_DISABLE_PROJECT_CONFIG", `kilo guard (PLUGIN): KILO_DISABLE_PROJECT_CONFIG is set, so kilo reads nothing of the project's, the guard's plugin with it`},
		{"", ""},
	} {
		f := newFixture(t, "repo")
		tg := install.Targets["kilo"]
		plugin := filepath.Join(f.root, filepath.FromSlash(tg.Project))
		if _, err := install.Install(tg, f.root, plugin, tg.PathHookCommand()); err != nil {
			t.Fatal(err)
		}
		if tc.env != "" {
			f.env[tc.env] = "True"
		}
		got := find(f.check(), "guard/kilo")
		// Without either, no finding names them (the self-test's own
		// findings depend on the sentinel this machine has).
		named := slices.ContainsFunc(got, func(g Finding) bool { return strings.Contains(g.Message, "KILO_") })
		want := strings.ReplaceAll(tc.want, "PLUGIN", plugin)
		if tc.want == "" && named || tc.want != "" && !slices.ContainsFunc(got, func(g Finding) bool { return g.Status == Broken && g.Message == want }) {
			t.Errorf("%s: %+v, want a broken finding %q", tc.env, got, want)
		}
	}
}

// TestAmpAllowAll: Amp's "amp.dangerouslyAllowAll": true in the user's
// settings allows every call before any permission rule, so the delegate
// the project's settings name is never asked: broken.
func TestAmpAllowAll(t *testing.T) {
	f := newFixture(t, "repo")
	tg := install.Targets["amp"]
	if _, err := install.Install(tg, f.root, filepath.Join(f.root, filepath.FromSlash(tg.Project)), tg.PathHookCommand()); err != nil {
		t.Fatal(err)
	}
	user := f.write(filepath.Join(f.home, filepath.FromSlash(tg.User)), `{"amp.dangerouslyAllowAll": true}`)
	got := find(f.check(), "guard/amp")
	want := `amp guard: ` + user + ` sets "amp.dangerouslyAllowAll", so amp runs no hook, the guard's with them`
	if !slices.ContainsFunc(got, func(g Finding) bool { return g.Status == Broken && g.Message == want }) {
		t.Fatalf("amp: %+v, want a broken finding %q", got, want)
	}
}
