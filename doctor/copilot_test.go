package doctor

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/guard/install"
)

// TestCopilotUntrusted: Copilot CLI trusts a folder that is, or is inside,
// an absolute path its config.json lists, under either key, in the file
// as Copilot writes it (with comments); anything else, a file that does
// not read included, trusts nothing.
func TestCopilotUntrusted(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	repo := filepath.Join(base, "src", "repo")
	sub := filepath.Join(repo, "sub")
	link := filepath.Join(base, "link")
	for _, d := range []string{home, sub} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(repo, link); err != nil {
		t.Fatal(err)
	}
	list := func(key string, folders ...string) string {
		b, _ := json.Marshal(map[string]any{key: folders})
		return string(b)
	}
	written := "// User settings belong in settings.json.\n// This file is managed automatically.\n{\n  \"trustedFolders\": [\n    " + jsonString(repo) + ",\n  ],\n}\n"
	for _, c := range []struct {
		name, config, dir string
		copilotHome       bool
		trusted           bool
	}{
		{name: "no config", dir: repo},
		{name: "as Copilot writes it", config: written, dir: repo, trusted: true},
		{name: "a folder inside", config: list("trustedFolders", repo), dir: sub, trusted: true},
		{name: "a parent", config: list("trustedFolders", base), dir: repo, trusted: true},
		{name: "the root", config: list("trustedFolders", "/"), dir: repo, trusted: true},
		{name: "the older key", config: list("trusted_folders", repo), dir: repo, trusted: true},
		{name: "both keys", config: `{"trustedFolders":["/elsewhere"],"trusted_folders":[` + jsonString(repo) + `]}`, dir: repo, trusted: true},
		{name: "through a link", config: list("trustedFolders", link), dir: repo, trusted: true},
		{name: "started through a link", config: list("trustedFolders", repo), dir: link, trusted: true},
		{name: "trailing slash", config: list("trustedFolders", repo+"/"), dir: repo, trusted: true},
		{name: "a folder inside only", config: list("trustedFolders", sub), dir: repo},
		{name: "a sibling that shares the prefix", config: list("trustedFolders", repo[:len(repo)-1]), dir: repo},
		{name: "relative", config: list("trustedFolders", "src/repo"), dir: repo},
		{name: "tilde", config: list("trustedFolders", "~/../src/repo"), dir: repo},
		{name: "another folder", config: list("trustedFolders", "/elsewhere"), dir: repo},
		{name: "other settings only", config: `{"model":"gpt-5.4"}`, dir: repo},
		{name: "does not read", config: `{"trustedFolders": [` + jsonString(repo), dir: repo},
		{name: "not a list", config: `{"trustedFolders": ` + jsonString(repo) + `}`, dir: repo},
		{name: "not all strings", config: `{"trustedFolders": [` + jsonString(repo) + `, 5]}`, dir: repo},
		{name: "in COPILOT_HOME", config: list("trustedFolders", repo), dir: repo, copilotHome: true, trusted: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := filepath.Join(home, strings.ReplaceAll(c.name, " ", "-"))
			env := map[string]string{"HOME": h}
			dir := filepath.Join(h, ".copilot")
			if c.copilotHome {
				dir = filepath.Join(h, "copilot-home")
				env["COPILOT_HOME"] = dir
				// The file in ~/.copilot is not read then.
				if err := os.MkdirAll(filepath.Join(h, ".copilot"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(h, ".copilot", "config.json"), []byte(`{"trustedFolders":[]}`), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if c.config != "" {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(c.config), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got := copilotUntrusted(func(k string) string { return env[k] }, c.dir)
			if (got.why == "") != c.trusted {
				t.Fatalf("trusted %v, want %v (%q)", got.why == "", c.trusted, got.why)
			}
			if want := filepath.Join(dir, "config.json"); got.config != want {
				t.Errorf("config %q, want %q", got.config, want)
			}
		})
	}
	if got := copilotUntrusted(func(string) string { return "" }, repo); got.why == "" || got.config != "" {
		t.Errorf("without HOME: %+v, want untrusted", got)
	}
}

// TestCopilotUntrustedGuard: the Copilot CLI guard of a project in a
// folder Copilot does not trust is broken, with the trust that fixes it;
// trusted, the entry is self-tested as any other. The user's own hooks
// run in every folder.
func TestCopilotUntrustedGuard(t *testing.T) {
	f := newFixture(t, "repo")
	t2 := install.Targets["copilot"]
	entry, _ := json.Marshal(map[string]any{"version": 1, "hooks": map[string]any{"preToolUse": []any{
		map[string]any{"type": "command", "bash": t2.PathHookCommand(), "timeoutSec": 5},
	}}})
	project := f.write(".github/hooks/sentinel.json", string(entry))
	config := filepath.Join(f.home, ".copilot", "config.json")

	r := f.check()
	got := find(r, "guard/copilot")
	if len(got) != 1 || got[0].Status != Broken || r.Healthy() {
		t.Fatalf("copilot, untrusted: %+v", got)
	}
	wantMsg := "copilot guard (" + project + "): Copilot CLI trusts no folder yet (it has no config.json), and skips the project's hooks here, silently (the call then runs)"
	wantFix := `trust the folder in Copilot CLI: answer its prompt with "Yes, and remember this folder", or add ` + jsonString(resolved(f.root)) + ` to "trustedFolders" in ` + config
	if got[0].Message != wantMsg || got[0].Fix != wantFix {
		t.Fatalf("copilot, untrusted:\n got %q\n fix %q\nwant %q\n fix %q", got[0].Message, got[0].Fix, wantMsg, wantFix)
	}

	f.write(config, `{"trustedFolders":["/elsewhere"]}`)
	got = find(f.check(), "guard/copilot")
	if len(got) != 1 || got[0].Status != Broken || !strings.HasSuffix(got[0].Message, "Copilot CLI does not trust this folder, and skips the project's hooks in it, silently (the call then runs)") {
		t.Fatalf("copilot, another folder trusted: %+v", got)
	}

	f.write(config, "// This file is managed automatically.\n{\n  \"trustedFolders\": [\n    "+jsonString(f.root)+"\n  ]\n}\n")
	for _, g := range find(f.check(), "guard/copilot") {
		if strings.Contains(g.Message, "skips the project's hooks") {
			t.Fatalf("copilot, trusted: %+v", g)
		}
	}

	// The user's own hooks are not the project's: no trust is read.
	f = newFixture(t, "repo")
	user := f.write(filepath.Join(f.home, ".copilot", "hooks", "sentinel.json"), string(entry))
	for _, g := range find(f.check(), "guard/copilot") {
		if strings.Contains(g.Message, "skips the project's hooks") || !strings.Contains(g.Message, user) {
			t.Fatalf("copilot, the user's hooks: %+v", g)
		}
	}
}

// TestStripJSONC: comments and trailing commas go, what strings hold
// stays.
func TestStripJSONC(t *testing.T) {
	for in, want := range map[string]string{
		"// a\n{\"a\": 1, // b\n}":                "\n{\"a\": 1 \n}",
		`{"a": "x//y", "b": "/*z*/"}`:             `{"a": "x//y", "b": "/*z*/"}`,
		`{"a": "q\"//", /* c */ "b": [1, 2, ], }`: `{"a": "q\"//",   "b": [1, 2 ] }`,
		`{"a": 1 /* open`:                         `{"a": 1 /* open`,
	} {
		if got := string(stripJSONC([]byte(in))); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

// TestCopilotHooksOff: "disableAllHooks" in the project's Copilot CLI
// settings switches off the guard, the user's own included: broken, with
// the edit that fixes it.
func TestCopilotHooksOff(t *testing.T) {
	f := newFixture(t, "repo")
	entry, _ := json.Marshal(map[string]any{"version": 1, "hooks": map[string]any{"preToolUse": []any{
		map[string]any{"type": "command", "bash": install.Targets["copilot"].PathHookCommand(), "timeoutSec": 5},
	}}})
	f.write(filepath.Join(f.home, ".copilot", "hooks", "sentinel.json"), string(entry))
	f.write(".github/copilot/settings.json", "// the team's\n{\"disableAllHooks\": false,}\n")
	local := f.write(".github/copilot/settings.local.json", "{\n  // off for now\n  \"disableAllHooks\": true\n}\n")
	got := find(f.check(), "guard/copilot")
	want := `copilot guard: ` + local + ` sets "disableAllHooks", so Copilot CLI runs no hook in a folder it trusts, the guard's and your own with them`
	if len(got) != 1 || got[0].Status != Broken || got[0].Message != want || got[0].Fix != `remove "disableAllHooks" from `+local {
		t.Fatalf("copilot: %+v, want one broken finding %q", got, want)
	}
}
