package trailers

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/config"
	"github.com/gitsentinel/sentinel/gitrepo"
)

// TestReadMessageBound checks that a message of MaxMessage bytes reads
// whole and one a byte longer is refused, with its title and, from a
// file, its size, and is read no further than a byte past the bound.
func TestReadMessageBound(t *testing.T) {
	at := "Title\n\n" + strings.Repeat("x", gitrepo.MaxMessage-len("Title\n\n"))
	if b, err := ReadMessage(strings.NewReader(at)); err != nil || len(b) != gitrepo.MaxMessage {
		t.Fatalf("a message of MaxMessage bytes: %d bytes, %v", len(b), err)
	}
	r := &limitCount{r: strings.NewReader(at + strings.Repeat("y", 10<<20))}
	_, err := ReadMessage(r)
	var big *MessageTooLargeError
	if !errors.As(err, &big) || big.Title != "Title" || big.Size != 0 {
		t.Fatalf("a longer one from a pipe: %v (%+v)", err, big)
	}
	if r.n > gitrepo.MaxMessage+1 {
		t.Errorf("read %d bytes, want at most %d", r.n, gitrepo.MaxMessage+1)
	}
	file := filepath.Join(t.TempDir(), "COMMIT_EDITMSG")
	if err := os.WriteFile(file, []byte(at+"more"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadMessageFile(file)
	if !errors.As(err, &big) || big.Size != gitrepo.MaxMessage+4 {
		t.Fatalf("a longer one in a file: %v", err)
	}
	rep := TooLargeReport(file, big, "shorten it")
	if rep.OK() || rep.Findings[0].Violations[0].Rule != RuleMessageTooLarge || !strings.Contains(rep.Findings[0].Violations[0].Reason, "the message is 1048580 bytes, and sentinel reads commit messages of up to 1048576 bytes") {
		t.Errorf("report %+v", rep)
	}
}

type limitCount struct {
	r io.Reader
	n int
}

func (l *limitCount) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	l.n += n
	return n, err
}

// TestCheckCommitsRefusesTruncated checks that a commit whose message was
// too large to read is refused by name, whatever the part read says: a
// person's sign-off in it does not make it pass.
func TestCheckCommitsRefusesTruncated(t *testing.T) {
	s := &Settings{Config: config.Default(), Syntax: DefaultSyntax()}
	whole := gitrepo.Commit{Hash: "1111111111111111", Message: []byte("Fine\n\nSigned-off-by: Jane <j@x>\n"), MessageSize: 31, Parents: []string{"p"}}
	huge := gitrepo.Commit{Hash: "2222222222222222", Message: []byte("Huge\n\nSigned-off-by: Jane <j@x>\n"), MessageSize: 300 << 20, Parents: []string{"p"}}
	r, err := s.CheckCommits([]gitrepo.Commit{whole, huge})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 1 {
		t.Fatalf("findings %+v, want the huge commit's alone", r.Findings)
	}
	f := r.Findings[0]
	if f.Source != "222222222222" || f.Title != "Huge" || len(f.Violations) != 1 || f.Violations[0].Rule != RuleMessageTooLarge {
		t.Fatalf("finding %+v", f)
	}
	v := f.Violations[0]
	if !strings.Contains(v.Reason, "the message is 314572800 bytes") || !strings.HasSuffix(v.Fix, "`git rebase -i 222222222222~1` (mark 222222222222 reword)") {
		t.Errorf("violation %+v", v)
	}
}
