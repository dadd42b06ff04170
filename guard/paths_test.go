package guard

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gitsentinel/sentinel/guard/internal/guardtest"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/policy"
	"github.com/gitsentinel/sentinel/guard/shell"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

func TestCheckPath(t *testing.T) {
	e := guardtest.Env(t)
	// A link inside the project that points into ~/.ssh is ~/.ssh.
	ssh := filepath.Join(e.Home, ".ssh")
	if err := os.MkdirAll(ssh, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(ssh, filepath.Join(e.Project, "keys")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		want string // rule id, "" for allowed
	}{
		{"/etc/hosts", "path.system"},
		{"/usr/local/bin/x", "path.system"},
		{"/lib64/x.so", "path.system"},
		{`C:\Windows\System32\drivers\etc\hosts`, "path.system"},
		{"../../../../../../etc/passwd", "path.system"},
		{"keys/authorized_keys", "path.credentials-dir"},
		{"~/.ssh/config", "path.credentials-dir"},
		{"~/.aws/credentials", "path.credentials-dir"},
		{"~/.config/gh/hosts.yml", "path.credentials-dir"},
		{".env", "path.credentials"},
		{"config/.env.production", "path.credentials"},
		{".env.example", ""},
		{".env.sample", ""},
		{"deploy/id_rsa", "path.credentials"},
		{"deploy/id_rsa.pub", ""},
		{"deploy/id_ed25519_sk", "path.credentials"},
		{"deploy/id_ecdsa-work", "path.credentials"},
		{"internal/id_generator.go", ""},
		{"id_map.go", ""},
		{"certs/tls.pem", "path.credentials"},
		{"secrets.yaml", "path.credentials"},
		{"~/.npmrc", "path.credentials"},
		{".npmrc", ""},
		{".claude/settings.local.json", "path.agent-settings"},
		{"~/.codex/config.toml", "path.agent-settings"},
		{".git/hooks/pre-push", "path.git-control"},
		{".git/config", "path.git-control"},
		{".husky/pre-commit", "path.hook-manager"},
		{".pre-commit-config.yaml", "path.hook-manager"},
		{".sentinel/baseline.json", "path.sentinel"},
		{"~/.config/sentinel/config.toml", "path.sentinel"},
		{"main.go", ""},
		{"docs/env.md", ""},
		{"/tmp/out.txt", ""},
	} {
		got := ""
		if f := e.CheckPath(tc.path); f != nil {
			got = f.ID
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.path, got, tc.want)
		}
	}
}

func TestComputedAndStrict(t *testing.T) {
	e := guardtest.Env(t)
	if d := EvaluateCommand("$CMD x", e, nil); d.Verdict != verdict.Ask {
		t.Errorf("computed: %s", d.Verdict)
	}
	e.Level = verdict.Strict
	if d := EvaluateCommand("$(cat tool.txt) -rf x", e, nil); d.Verdict != verdict.Deny {
		t.Errorf("computed, strict: %s", d.Verdict)
	}
}

func TestTooDeep(t *testing.T) {
	e := guardtest.Env(t)
	cmd := "rm -rf /"
	for i := 0; i < shell.MaxDepth+2; i++ {
		cmd = "bash -c " + shellQuote(cmd)
	}
	d := EvaluateCommand(cmd, e, nil)
	if d.Verdict != verdict.Deny || d.Findings[0].RuleID != "parse" {
		t.Errorf("nested %d deep: %s %+v", shell.MaxDepth+2, d.Verdict, d.Findings)
	}
}

func shellQuote(s string) string {
	out := "'"
	for _, r := range s {
		if r == '\'' {
			out += `'\''`
		} else {
			out += string(r)
		}
	}
	return out + "'"
}

// TestCacheDirIsSentinels holds the count cache to the rule of sentinel's
// own state wherever it is moved: the ratchet trusts its entries, so a
// forged one would pass a commit whose tests are gone.
func TestCacheDirIsSentinels(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".sentinel"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".sentinel", "config.toml"), []byte("[coverage]\ncache_dir = \"../shared-cache\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := policy.LoadPolicy("", root)
	if err != nil {
		t.Fatal(err)
	}
	fromEnv := filepath.Join(t.TempDir(), "env-cache")
	e := pathguard.NewEnv(root, func(k string) string {
		if k == "SENTINEL_CACHE_DIR" {
			return fromEnv
		}
		return ""
	})
	p.Configure(e)
	configured := filepath.Join(filepath.Dir(root), "shared-cache")
	for _, tc := range []struct{ command, want string }{
		{"cp /tmp/forged " + filepath.Join(configured, "counts-v14.bin"), verdict.Deny.String()},
		{"rm -rf " + configured, verdict.Deny.String()},
		{"echo x > " + filepath.Join(fromEnv, "counts-v14.bin"), verdict.Deny.String()},
		{"cp /tmp/forged " + filepath.Join(filepath.Dir(root), "shared-cache-not", "x"), verdict.Allow.String()},
	} {
		if got := EvaluateCommand(tc.command, e, p).Verdict.String(); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.command, got, tc.want)
		}
	}
}
