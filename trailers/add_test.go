package trailers

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestAddAssistedByPlacement(t *testing.T) {
	const v = "Claude:claude-opus-4-5"
	syn := DefaultSyntax()
	for _, tc := range []struct{ name, in, want string }{
		{"new paragraph", "Title\n\nBody.\n", "Title\n\nBody.\n\nAssisted-by: " + v + "\n"},
		{"title only", "Title\n", "Title\n\nAssisted-by: " + v + "\n"},
		{"no final newline", "Title", "Title\n\nAssisted-by: " + v},
		{"trailing blank line kept", "Title\n\n", "Title\n\nAssisted-by: " + v + "\n\n"},
		{"end of block", "Title\n\nFixes: #1\n", "Title\n\nFixes: #1\nAssisted-by: " + v + "\n"},
		{"end of block no newline", "Title\n\nFixes: #1", "Title\n\nFixes: #1\nAssisted-by: " + v},
		{"before first sign-off", "T\n\nB\n\nFixes: #1\nSigned-off-by: A <a@x>\nSigned-off-by: B <b@x>\n",
			"T\n\nB\n\nFixes: #1\nAssisted-by: " + v + "\nSigned-off-by: A <a@x>\nSigned-off-by: B <b@x>\n"},
		{"after existing assisted-by", "T\n\nAssisted-by: Cursor:gpt-5\nSigned-off-by: A <a@x>\n",
			"T\n\nAssisted-by: Cursor:gpt-5\nAssisted-by: " + v + "\nSigned-off-by: A <a@x>\n"},
		{"after continued assisted-by", "T\n\nAssisted-by: Cursor:gpt-5\n  sparse\nSigned-off-by: A <a@x>\n",
			"T\n\nAssisted-by: Cursor:gpt-5\n  sparse\nAssisted-by: " + v + "\nSigned-off-by: A <a@x>\n"},
		{"same value any case", "T\n\nassisted-by: claude:CLAUDE-OPUS-4-5\n", "T\n\nassisted-by: claude:CLAUDE-OPUS-4-5\n"},
		{"comments kept below", "T\n\nBody\n# Please enter the commit message\n#\n",
			"T\n\nBody\n\nAssisted-by: " + v + "\n# Please enter the commit message\n#\n"},
		{"scissors and diff kept", "T\n\nSigned-off-by: A <a@x>\n# ------------------------ >8 ------------------------\ndiff --git a/x b/x\n",
			"T\n\nAssisted-by: " + v + "\nSigned-off-by: A <a@x>\n# ------------------------ >8 ------------------------\ndiff --git a/x b/x\n"},
		{"crlf", "T\r\n\r\nFixes: 1\r\n", "T\r\n\r\nFixes: 1\r\nAssisted-by: " + v + "\r\n"},
		{"crlf new paragraph", "T\r\n", "T\r\n\r\nAssisted-by: " + v + "\r\n"},
		{"prose with colon is not a block", "T\n\nNote: this is prose\nthat goes on\n",
			"T\n\nNote: this is prose\nthat goes on\n\nAssisted-by: " + v + "\n"},
		{"claude footer", "T\n\n🤖 Generated with [Claude Code](https://claude.com/claude-code)\n",
			"T\n\n🤖 Generated with [Claude Code](https://claude.com/claude-code)\n\nAssisted-by: " + v + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, changed, err := syn.AddAssistedBy([]byte(tc.in), v)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("got  %q\nwant %q", got, tc.want)
			}
			if changed != (tc.in != tc.want) {
				t.Errorf("changed = %v", changed)
			}
			again, changed, err := syn.AddAssistedBy(got, v)
			if err != nil || changed || !bytes.Equal(again, got) {
				t.Errorf("second run changed the message: %q (%v)", again, err)
			}
		})
	}
}

func TestAddAssistedByRefuses(t *testing.T) {
	syn := DefaultSyntax()
	for _, tc := range []struct {
		name, in, value string
		want            error
		wantText        string
	}{
		{"empty message", "", "A:b", ErrEmptyMessage, ""},
		{"divider at the end without newline", "Title\n\nBody\n---", "A:b", ErrNoPlace, ""},
		{"only comments", "# comment\n\n", "A:b", ErrEmptyMessage, ""},
		{"invalid utf-8", "T\n\nB\xff\n", "A:b", nil, "3:2: the message is not valid UTF-8"},
		{"nul byte", "T\x00\n", "A:b", nil, "1:2: the message contains a NUL byte"},
		{"empty value", "T\n", " ", nil, "invalid Assisted-by value"},
		{"newline in value", "T\n", "A:b\nSigned-off-by: x", nil, "invalid Assisted-by value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := syn.AddAssistedBy([]byte(tc.in), tc.value)
			if err == nil {
				t.Fatal("no error")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if tc.wantText != "" && !strings.Contains(err.Error(), tc.wantText) {
				t.Fatalf("error %q, want it to contain %q", err, tc.wantText)
			}
		})
	}
}

// TestAddMatchesGit compares AddAssistedBy with `git interpret-trailers
// --where after --if-exists addIfDifferent` on the corpus, wherever the two
// mean the same thing: git reformats the lines of a block it rewrites and
// uses bare LF, so a message counts only when git's output is the input
// plus one line; and git has no "before the first Signed-off-by".
func TestAddMatchesGit(t *testing.T) {
	isolateGit(t)
	dir, syn := gitRepoWith(t, nil)
	const v = "Claude:claude-opus-4-5"
	line := []byte(AssistedBy + ": " + v + "\n")
	compared := 0
	msgs := corpus(t)
	for _, name := range sortedKeys(msgs) {
		msg := msgs[name]
		b := syn.Find(msg)
		if bytes.Contains(msg, []byte("\r")) || hasKey(&b, SignedOffBy) && !hasKey(&b, AssistedBy) {
			continue
		}
		ours, _, err := syn.AddAssistedBy(msg, v)
		if err != nil {
			continue
		}
		want, err := gitInterpret(dir, msg, "--where", "after", "--if-exists", "addIfDifferent", "--trailer", AssistedBy+": "+v)
		if err != nil {
			continue
		}
		if !bytes.Equal(msg, want) {
			i := bytes.Index(want, line)
			if i < 0 || !bytes.Equal(append(append([]byte(nil), want[:i]...), want[i+len(line):]...), msg) {
				continue
			}
		}
		compared++
		if !bytes.Equal(ours, want) {
			t.Errorf("%s: differs from git\n got: %q\nwant: %q", name, ours, want)
		}
	}
	if compared < 100 {
		t.Errorf("compared %d messages with git, want at least 100", compared)
	}
	t.Logf("compared %d messages with git", compared)
}

func hasKey(b *Block, key string) bool {
	for _, ln := range b.Lines {
		if ln.IsTrailer && strings.EqualFold(ln.Token, key) {
			return true
		}
	}
	return false
}

func TestAddDetected(t *testing.T) {
	syn := DefaultSyntax()
	claude := Lookup("claude")
	for _, tc := range []struct {
		name, in, model, format, want string
	}{
		{"unknown model, same agent credited", "T\n\nAssisted-by: Claude:claude-opus-4\n", "", "", "T\n\nAssisted-by: Claude:claude-opus-4\n"},
		{"unknown model, any case", "T\n\nassisted-by: claude:claude-opus-4\n", "", "", "T\n\nassisted-by: claude:claude-opus-4\n"},
		{"unknown model, another agent", "T\n\nAssisted-by: Codex:gpt-5\n", "", "", "T\n\nAssisted-by: Codex:gpt-5\nAssisted-by: Claude:unknown\n"},
		{"known model differs", "T\n\nAssisted-by: Claude:claude-opus-4\n", "claude-sonnet-4", "",
			"T\n\nAssisted-by: Claude:claude-opus-4\nAssisted-by: Claude:claude-sonnet-4\n"},
		{"agent name inside another's", "T\n\nAssisted-by: Claudette:x\n", "", "", "T\n\nAssisted-by: Claudette:x\nAssisted-by: Claude:unknown\n"},
		{"custom format", "T\n\nAssisted-by: Claude (claude-opus-4)\n", "", "{agent} ({model})", "T\n\nAssisted-by: Claude (claude-opus-4)\n"},
		{"format without a model", "T\n\nAssisted-by: Claude\n", "", "{agent}", "T\n\nAssisted-by: Claude\n"},
		{"prose is not a credit", "T\n\nWritten with Claude:claude-opus-4 here\n", "", "", "T\n\nWritten with Claude:claude-opus-4 here\n\nAssisted-by: Claude:unknown\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &Detection{Agent: claude, Name: claude.Name, Model: tc.model}
			got, _, err := syn.AddDetected([]byte(tc.in), d, tc.format, nil)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
