package trailers

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
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
