package msghook

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/gittest"
	"github.com/gitsentinel/sentinel/trailers"
)

var repo = gittest.Repo

// env is an environment of the given variables and no parent processes,
// so that an agent running the tests is not taken for one under test.
func env(kv ...string) trailers.Env {
	return trailers.Env{Getenv: func(k string) string {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1]
			}
		}
		return ""
	}}
}

func TestCommitMsg(t *testing.T) {
	dir := repo(t)
	file := filepath.Join(dir, ".git", "COMMIT_EDITMSG")
	for _, tc := range []struct {
		name, in, want string
		env            trailers.Env
		refused        bool
	}{
		{"person", "Title\n\nBody.\n", "Title\n\nBody.\n", env(), false},
		{"agent", "Title\n\nBody.\n", "Title\n\nBody.\n\nAssisted-by: Cursor:unknown\n", env("CURSOR_AGENT", "1"), false},
		{"agent sign-off refused and untouched", "Title\n\nSigned-off-by: Jane <j@x>\n", "Title\n\nSigned-off-by: Jane <j@x>\n", env("CURSOR_AGENT", "1"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(file, []byte(tc.in), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := CommitMsg(context.Background(), dir, ".git/COMMIT_EDITMSG", tc.env)
			if err != nil {
				t.Fatal(err)
			}
			if res.Report.OK() == tc.refused {
				t.Errorf("refused = %v, want %v", !res.Report.OK(), tc.refused)
			}
			got, _ := os.ReadFile(file)
			if string(got) != tc.want {
				t.Errorf("message %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCommitMsgErrors(t *testing.T) {
	dir := repo(t)
	if _, err := CommitMsg(context.Background(), dir, "missing", env()); err == nil || !strings.Contains(err.Error(), "read the commit message") {
		t.Errorf("missing file: %v", err)
	}
	file := filepath.Join(dir, "latin1")
	orig := []byte("Titre\n\nFran\xe7ois\n")
	if err := os.WriteFile(file, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := CommitMsg(context.Background(), dir, file, env("CLAUDECODE", "1")); err == nil || !strings.Contains(err.Error(), "3:5: the message is not valid UTF-8") {
		t.Errorf("latin-1 with an agent: %v", err)
	}
	if got, _ := os.ReadFile(file); string(got) != string(orig) {
		t.Errorf("message changed to %q", got)
	}
	// Without an agent there is nothing to write, and nothing to refuse.
	res, err := CommitMsg(context.Background(), dir, file, env())
	if err != nil || !res.Report.OK() {
		t.Errorf("latin-1 without an agent: %v %+v", err, res)
	}
}

// BenchmarkCommitMsg is the hook's work in-process, reading git's
// configuration included (in-process too, unless it needs git config).
func BenchmarkCommitMsg(b *testing.B) {
	dir := repo(b)
	file := filepath.Join(dir, "msg")
	msg := []byte("Add retry to the uploader\n\nRetries three times with backoff, so that a flaky network\ndoes not fail the whole upload.\n\nFixes: #123\n")
	getenv := env("CLAUDECODE", "1", "ANTHROPIC_MODEL", "claude-opus-4-5")
	for b.Loop() {
		if err := os.WriteFile(file, msg, 0o644); err != nil {
			b.Fatal(err)
		}
		if _, err := CommitMsg(context.Background(), dir, file, getenv); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCommitMsgRefusesHugeMessage checks that the hook refuses a message
// larger than sentinel reads, naming the bound, and leaves it as it was,
// agent or not; prepare-commit-msg leaves it alone for the hook to refuse.
func TestCommitMsgRefusesHugeMessage(t *testing.T) {
	dir := repo(t)
	file := filepath.Join(dir, ".git", "COMMIT_EDITMSG")
	msg := "Title\n\n" + strings.Repeat("data\n", gitrepo.MaxMessage/5) + "\nSigned-off-by: Jane <j@x>\n"
	if err := os.WriteFile(file, []byte(msg), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, e := range []trailers.Env{env(), env("CLAUDECODE", "1")} {
		res, err := CommitMsg(context.Background(), dir, ".git/COMMIT_EDITMSG", e)
		if err != nil {
			t.Fatal(err)
		}
		if res.Report.OK() {
			t.Fatal("a message larger than MaxMessage passed")
		}
		v := res.Report.Findings[0].Violations[0]
		if v.Rule != trailers.RuleMessageTooLarge || v.Text != "Title" || !strings.Contains(v.Reason, fmt.Sprintf("the message is %d bytes", len(msg))) || !strings.HasSuffix(v.Fix, "`git commit -F .git/COMMIT_EDITMSG`") {
			t.Errorf("violation %+v", v)
		}
	}
	did, err := PrepareCommitMsg(context.Background(), dir, ".git/COMMIT_EDITMSG", env("CLAUDECODE", "1"))
	if err != nil || did != "" {
		t.Errorf("prepare-commit-msg: %q, %v", did, err)
	}
	if got, _ := os.ReadFile(file); string(got) != msg {
		t.Errorf("the message changed")
	}
}
