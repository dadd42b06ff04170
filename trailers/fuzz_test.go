package trailers

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fragments are the pieces generated messages are built from, so that the
// fuzzer reaches trailer blocks, comments, dividers and continuations far
// more often than with random bytes alone.
var fragments = []string{
	"\n", "\n", "\n", "\r\n", " ", "\t", "x", "Title", "body text",
	"Key: v", "Signed-off-by: ", "Signed-off-by: Jane <j@example.com>",
	"(cherry picked from commit abc)", "Co-authored-by: Claude <noreply@anthropic.com>",
	"#", "# comment", ";", ":", "=", "Bug #1", "sign: x", "Fix: y", "---", "--- ",
	"# ------------------------ >8 ------------------------\n",
	"; ------------------------ >8 ------------------------\n",
	"Conflicts:\n", "\tpath", "\v", "\xff", "é", "🤖 Generated with [Claude Code](https://claude.com/claude-code)",
	"Assisted-by: Claude:opus", "BREAKING CHANGE: x", "a b: c",
}

// generate turns fuzz bytes into a message: in fragment mode each byte picks
// a fragment, otherwise the bytes are the message.
func generate(data []byte) []byte {
	if len(data) == 0 || data[0]%2 == 0 {
		return data
	}
	var b bytes.Buffer
	for _, c := range data[1:] {
		b.WriteString(fragments[int(c)%len(fragments)])
	}
	return b.Bytes()
}

// FuzzParseMatchesGit compares the parser with git on generated messages,
// under each of the differential tests' configurations.
func FuzzParseMatchesGit(f *testing.F) {
	isolateGit(f)
	files, _ := filepath.Glob(filepath.Join("..", "fixtures", "trailers", "messages", "*.msg"))
	for i, file := range files {
		if i%7 != 0 {
			continue
		}
		if b, err := os.ReadFile(file); err == nil && len(b) < 4096 {
			f.Add(uint8(i), b)
		}
	}
	f.Add(uint8(0), []byte("\x01\x08\x02\x00\x00\x0a"))
	f.Add(uint8(3), []byte("\x03\x09\x00\x00\x13\x00\x17\x00"))

	type env struct {
		dir string
		syn Syntax
	}
	var envs []env
	for _, cfg := range gitConfigs {
		dir, syn := gitRepoWith(f, cfg.kv)
		envs = append(envs, env{dir, syn})
	}
	f.Fuzz(func(t *testing.T, cfg uint8, data []byte) {
		e := envs[int(cfg)%len(envs)]
		msg := generate(data)
		want, err := gitInterpret(e.dir, msg, "--parse")
		if errors.Is(err, errGitHung) {
			t.Skip("git does not terminate on this input")
		}
		if err != nil {
			t.Fatal(err)
		}
		got := e.syn.Format(e.syn.Parse(msg))
		if !bytes.Equal(got, want) {
			t.Errorf("parse differs from git on %q\n got: %q\nwant: %q", msg, got, want)
		}
	})
}

// FuzzAddAssistedBy checks the promises of AddAssistedBy on any message: it
// only inserts (every other byte stays), the result carries the trailer as
// git would parse it, and a second run changes nothing.
func FuzzAddAssistedBy(f *testing.F) {
	f.Add([]byte("\x01\x07\x00\x09\x00\x0a"))
	f.Add([]byte("Title\n\nSigned-off-by: A <a@x>\n"))
	f.Add([]byte("\x03\x08\x00\x14\x00\x1c\x09"))
	const value = "Claude:claude-opus-4-5"
	syn := DefaultSyntax()
	f.Fuzz(func(t *testing.T, data []byte) {
		msg := generate(data)
		out, changed, err := syn.AddAssistedBy(msg, value)
		if err != nil {
			if CheckText(msg) == nil && !errors.Is(err, ErrEmptyMessage) && !errors.Is(err, ErrNoPlace) {
				t.Fatalf("unexpected error on text: %v", err)
			}
			return
		}
		if !changed {
			if !bytes.Equal(out, msg) {
				t.Fatal("unchanged, but the bytes differ")
			}
		} else if !isInsertion(msg, out) {
			t.Fatalf("not a pure insertion:\n in: %q\nout: %q", msg, out)
		}
		found := false
		for _, tr := range syn.Parse(out) {
			if strings.EqualFold(tr.Token, AssistedBy) && strings.EqualFold(tr.Value, value) {
				found = true
			}
		}
		if !found {
			t.Fatalf("the result has no Assisted-by trailer:\n in: %q\nout: %q", msg, out)
		}
		again, changed, err := syn.AddAssistedBy(out, value)
		if err != nil || changed || !bytes.Equal(again, out) {
			t.Fatalf("second run changed %q into %q (%v)", out, again, err)
		}
	})
}

// isInsertion reports whether out is in with one run of bytes inserted.
func isInsertion(in, out []byte) bool {
	if len(out) <= len(in) {
		return false
	}
	i := 0
	for i < len(in) && in[i] == out[i] {
		i++
	}
	return bytes.Equal(in[i:], out[len(out)-(len(in)-i):])
}
