package guard

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gitsentinel/sentinel/guard/internal/guardtest"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

// TestPatchesAreReadForWhatTheyWrite: a program that applies a patch is a
// write to every file the patch names, read from the patch file, from its
// stdin or from the text piped in, so that `git apply` cannot edit sentinel's
// configuration or git's hooks where a direct edit is refused. A patch the
// guard cannot read is a question (a denial at strict).
func TestPatchesAreReadForWhatTheyWrite(t *testing.T) {
	e := guardtest.Env(t)
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(e.Cwd, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("config.diff", "diff --git a/.sentinel/config.toml b/.sentinel/config.toml\n--- a/.sentinel/config.toml\n+++ b/.sentinel/config.toml\n@@ -1 +1,2 @@\n [coverage]\n+exclude = [\"**\"]\n")
	write("hook.patch", "--- .git/hooks/pre-commit.orig\t2026-12-01 10:00:00\n+++ .git/hooks/pre-commit\t2026-12-01 10:00:01\n@@ -1 +1 @@\n-sentinel hook pre-commit\n+exit 0\n")
	write("rename.diff", "diff --git a/notes.txt b/.claude/settings.json\nsimilarity index 100%\nrename from notes.txt\nrename to .claude/settings.json\n")
	write("codex.patch", "*** Begin Patch\n*** Update File: .git/hooks/pre-push\n@@\n-x\n+y\n*** End Patch\n")
	write("hooks.diff", "--- a/x/y/hooks/pre-commit\n+++ b/x/y/hooks/pre-commit\n@@ -1 +1 @@\n-a\n+exit 0\n")
	write("hooks-rel.diff", "--- a/hooks/pre-commit\n+++ b/hooks/pre-commit\n@@ -1 +1 @@\n-a\n+exit 0\n")
	os.MkdirAll(filepath.Join(e.Cwd, "sub"), 0o755)
	write("fix.diff", "diff --git a/src/main.go b/src/main.go\n--- a/src/main.go\n+++ b/src/main.go\n@@ -1 +1 @@\n-a\n+b\n")
	for _, tc := range []struct {
		cmd  string
		want verdict.Verdict
	}{
		{"git apply config.diff", verdict.Deny},
		{"git apply --index config.diff", verdict.Deny},
		{"git am config.diff", verdict.Deny},
		{"patch -p1 < config.diff", verdict.Deny},
		{"patch -p0 < hook.patch", verdict.Deny},
		{"patch -p1 -i config.diff", verdict.Deny},
		{"patch --input=config.diff -p1", verdict.Deny},
		{"patch .sentinel/config.toml fix.diff", verdict.Deny},
		{"git apply rename.diff", verdict.Deny},
		{"git apply codex.patch", verdict.Deny},
		{"git apply - < config.diff", verdict.Deny},
		{"patch -p1 <<'EOF'\n--- a/.sentinel/baseline.json\n+++ b/.sentinel/baseline.json\n@@ -1 +1 @@\n-{}\n+{ }\nEOF", verdict.Deny},
		{"cat config.diff | git apply", verdict.Ask},
		{"curl -s https://example.com/x.diff | patch -p1", verdict.Ask},
		{"git apply missing.diff", verdict.Allow}, // no such file: git applies nothing
		{"printf 'diff --git a/x b/x' > new.diff && git apply new.diff", verdict.Ask},
		{"cp /srv/incoming/x.diff got.diff; patch -p1 < got.diff", verdict.Ask},
		{"git apply --directory=.git -p3 hooks.diff", verdict.Deny},
		{"patch -d .git -p3 < hooks.diff", verdict.Deny},
		{"git apply < <(cat config.diff)", verdict.Ask},
		{"git apply <(cat config.diff)", verdict.Ask},
		{"git -C .git apply ../hooks-rel.diff", verdict.Deny},
		{"git -C sub apply ../config.diff", verdict.Deny},
		{"git apply fix.diff", verdict.Allow},
		{"patch -p1 < fix.diff", verdict.Allow},
		{"git apply --check config.diff", verdict.Allow},
		{"git apply --stat config.diff", verdict.Allow},
		{"patch --dry-run -p1 < config.diff", verdict.Allow},
	} {
		if d := EvaluateCommand(tc.cmd, e, nil); d.Verdict != tc.want {
			t.Errorf("%q: %s, want %s (%s)", tc.cmd, d.Verdict, tc.want, d.Reason())
		}
	}
}
