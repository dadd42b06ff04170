package githooks

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/gitsentinel/sentinel/gitrepo"
)

// TestManagedHooksConfigs: each manager's configuration, in the forms the
// README shows and the others the manager reads; a call in a comment, or
// under another hook, runs nothing.
func TestManagedHooksConfigs(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  map[string]string // hook: manager config:line
	}{
		{"husky", map[string]string{
			".husky/commit-msg": "#!/usr/bin/env sh\n/usr/local/bin/sentinel hook commit-msg \"$1\"\n",
			".husky/pre-commit": "# sentinel hook pre-commit\nnpm test\n",
			".husky/pre-push":   "sentinel hook commit-msg x\n",
		}, map[string]string{"commit-msg": "husky .husky/commit-msg:2"}},
		{"lefthook yaml", map[string]string{
			"lefthook.yml": "pre-commit:\n  commands:\n    sentinel:\n      run: sentinel hook pre-commit\n" +
				"pre-push:\n  commands:\n    other:\n      run: sentinel hook pre-commit\n",
			".lefthook-local.yml": "'pre-push':\n  commands:\n    sentinel:\n      run: sentinel hook pre-push {1} {2}\n",
		}, map[string]string{"pre-commit": "lefthook lefthook.yml:4", "pre-push": "lefthook .lefthook-local.yml:4"}},
		{"lefthook toml", map[string]string{
			"lefthook.toml": "[commit-msg.commands.sentinel]\nrun = \"sentinel hook commit-msg {1}\"\n",
		}, map[string]string{"commit-msg": "lefthook lefthook.toml:2"}},
		{"lefthook json", map[string]string{
			"lefthook.json": "{\n  \"pre-commit\": {\n    \"commands\": {\"sentinel\": {\"run\": \"sentinel hook pre-commit\"}}\n  }\n}\n",
		}, map[string]string{"pre-commit": "lefthook lefthook.json:3"}},
		{"pre-commit", map[string]string{
			".pre-commit-config.yaml": "repos:\n  - repo: local\n    hooks:\n" +
				"      - {id: a, entry: sentinel hook commit-msg, language: system, stages: [commit-msg]}\n" +
				"      - id: b\n        entry: sentinel hook pre-commit\n        language: system\n" +
				"      - id: c\n        entry: sentinel hook pre-push\n        stages:\n          - commit\n",
		}, map[string]string{"commit-msg": "pre-commit .pre-commit-config.yaml:4", "pre-commit": "pre-commit .pre-commit-config.yaml:6"}},
		{"pre-commit old stage names", map[string]string{
			".pre-commit-config.yaml": "repos:\n- repo: local\n  hooks:\n  - id: c\n    entry: sentinel hook pre-push\n    stages: [push]\n",
		}, map[string]string{"pre-push": "pre-commit .pre-commit-config.yaml:5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for name, content := range tc.files {
				p := filepath.Join(root, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				writeExec(t, p, content)
			}
			got := map[string]string{}
			for hook, m := range ManagedHooks(root, &gitrepo.Hooks{Dir: filepath.Join(root, ".git", "hooks")}) {
				got[hook] = m.Manager + " " + m.Config + ":" + strconv.Itoa(m.Line)
				if m.ShimInstalled {
					t.Errorf("%s: the shim is installed in an empty hooks dir", hook)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestManagedHooksShims: a manager's hook counts only where git looks, and
// only when git can run it.
func TestManagedHooksShims(t *testing.T) {
	root := t.TempDir()
	hooks := filepath.Join(root, ".git", "hooks")
	os.MkdirAll(hooks, 0o755)
	os.MkdirAll(filepath.Join(root, ".husky", "_"), 0o755)
	writeExec(t, filepath.Join(root, ".husky", "pre-commit"), "sentinel hook pre-commit\n")
	writeExec(t, filepath.Join(root, "lefthook.yml"), "commit-msg:\n  commands:\n    s:\n      run: sentinel hook commit-msg {1}\n")
	writeExec(t, filepath.Join(hooks, "commit-msg"), "#!/bin/sh\ncall_lefthook run \"commit-msg\" \"$@\"\n")

	m := ManagedHooks(root, &gitrepo.Hooks{Dir: hooks})
	if !m["commit-msg"].ShimInstalled || m["commit-msg"].Install != "lefthook install" {
		t.Errorf("lefthook: %+v", m["commit-msg"])
	}
	if m["pre-commit"].ShimInstalled || m["pre-commit"].Install != "npx husky" {
		t.Errorf("husky without core.hooksPath: %+v", m["pre-commit"])
	}
	os.Chmod(filepath.Join(hooks, "commit-msg"), 0o644)
	if ManagedHooks(root, &gitrepo.Hooks{Dir: hooks})["commit-msg"].ShimInstalled {
		t.Error("a lefthook hook git cannot run counts as installed")
	}

	husky := filepath.Join(root, ".husky", "_")
	if ManagedHooks(root, &gitrepo.Hooks{Dir: husky, HooksPath: ".husky/_"})["pre-commit"].ShimInstalled {
		t.Error("husky's hooks path without its shim counts as installed")
	}
	writeExec(t, filepath.Join(husky, "pre-commit"), "#!/usr/bin/env sh\n. \"$(dirname \"$0\")/h\"\n")
	if !ManagedHooks(root, &gitrepo.Hooks{Dir: husky, HooksPath: ".husky/_"})["pre-commit"].ShimInstalled {
		t.Error("husky v9's shim is not seen")
	}
	// Before v9, core.hooksPath was .husky itself.
	if !ManagedHooks(root, &gitrepo.Hooks{Dir: filepath.Join(root, ".husky"), HooksPath: ".husky"})["pre-commit"].ShimInstalled {
		t.Error("husky v8's hooks path is not seen")
	}
}

// TestInstallLeavesManagedHooks: install does not refuse, or take over, a
// hook a manager already runs sentinel for; it installs the others.
func TestInstallLeavesManagedHooks(t *testing.T) {
	dir := repo(t)
	hooks := filepath.Join(dir, ".git", "hooks")
	os.MkdirAll(hooks, 0o755)
	writeExec(t, filepath.Join(dir, "lefthook.yml"), "commit-msg:\n  commands:\n    s:\n      run: sentinel hook commit-msg {1}\n")
	shim := "#!/bin/sh\ncall_lefthook run \"commit-msg\" \"$@\"\n"
	writeExec(t, filepath.Join(hooks, "commit-msg"), shim)
	actions, err := Install(context.Background(), InstallOptions{Dir: dir, Bin: "/x"})
	if err != nil {
		t.Fatal(err)
	}
	if len(actions) != 3 || actions[0].What != "left to lefthook, which runs sentinel for it" || actions[1].What != "installed" {
		t.Fatalf("actions %+v", actions)
	}
	if b, _ := os.ReadFile(filepath.Join(hooks, "commit-msg")); string(b) != shim {
		t.Error("lefthook's hook was taken over")
	}
	st, err := Status(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if st[0].Managed == nil || !st[0].Managed.ShimInstalled || !st[1].Installed || st[0].Owner != nil {
		t.Errorf("status %+v", st)
	}
}
