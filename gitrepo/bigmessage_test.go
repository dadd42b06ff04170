package gitrepo

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// countingReader yields size bytes of a commit object, a header and then a
// message of repeated text ending in last, and counts what was read.
type countingReader struct {
	r    io.Reader
	read int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read += int64(n)
	return n, err
}

// hugeCommit is a commit object whose message is body bytes of text, then
// a trailer line.
func hugeCommit(body int64) (io.Reader, int64) {
	header := "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nparent 1111111111111111111111111111111111111111\n" +
		"author Jane Doe <jane@example.com> 1 +0000\ncommitter Jane Doe <jane@example.com> 1 +0000\n\n"
	title := "A title\n\n"
	last := "\nCo-authored-by: Claude <noreply@anthropic.com>\n"
	line := "the quick brown fox jumps over the lazy dog again and again\n"
	text := io.LimitReader(&repeat{s: line}, body)
	r := io.MultiReader(strings.NewReader(header+title), text, strings.NewReader(last))
	return r, int64(len(header)+len(title)+len(last)) + body
}

type repeat struct {
	s string
	i int
}

func (r *repeat) Read(p []byte) (int, error) {
	for n := range p {
		p[n] = r.s[r.i%len(r.s)]
		r.i++
	}
	return len(p), nil
}

// TestReadCommitBoundsTheMessage checks that a commit whose message is
// larger than MaxMessage is read only as far as its title, however large:
// the rest is neither read nor kept, and the commit says it is truncated.
// One at the bound is read whole, to its last line.
func TestReadCommitBoundsTheMessage(t *testing.T) {
	r, size := hugeCommit(300 << 20)
	cr := &countingReader{r: r}
	c, err := readCommit("0123456789abcdef0123456789abcdef01234567", cr, size)
	if err != nil {
		t.Fatal(err)
	}
	if cr.read > maxCommitHeader+messageHead {
		t.Errorf("read %d bytes of a %d-byte commit, want at most %d", cr.read, size, maxCommitHeader+messageHead)
	}
	if !c.Truncated() || len(c.Message) > messageHead {
		t.Errorf("truncated = %v with %d bytes of message kept, want true and at most %d", c.Truncated(), len(c.Message), messageHead)
	}
	if want := int64(300<<20) + int64(len("A title\n\n\nCo-authored-by: Claude <noreply@anthropic.com>\n")); c.MessageSize != want {
		t.Errorf("message size %d, want %d", c.MessageSize, want)
	}
	if !bytes.HasPrefix(c.Message, []byte("A title\n")) || c.Author != "Jane Doe <jane@example.com>" || len(c.Parents) != 1 {
		t.Errorf("title, author or parents lost: %q %q %v", c.Message[:min(20, len(c.Message))], c.Author, c.Parents)
	}

	// At the bound, the message is whole.
	body := int64(MaxMessage - len("A title\n\n\nCo-authored-by: Claude <noreply@anthropic.com>\n"))
	r, size = hugeCommit(body)
	c, err = readCommit("c", r, size)
	if err != nil {
		t.Fatal(err)
	}
	if c.Truncated() || len(c.Message) != MaxMessage || !bytes.HasSuffix(c.Message, []byte("Co-authored-by: Claude <noreply@anthropic.com>\n")) {
		t.Errorf("a message of MaxMessage bytes: truncated = %v, %d bytes", c.Truncated(), len(c.Message))
	}
	// One byte over, it is not, though the object is read whole.
	r, size = hugeCommit(body + 1)
	if c, err = readCommit("c", r, size); err != nil || !c.Truncated() || c.MessageSize != MaxMessage+1 {
		t.Errorf("a message of MaxMessage+1 bytes: %v, truncated = %v, size %d", err, c != nil && c.Truncated(), c.MessageSize)
	}
}

// TestReadCommitRefusesHugeHeaders checks that a commit whose header lines
// alone are larger than sentinel reads is an error naming it, not a
// commit with its parents or identities cut short.
func TestReadCommitRefusesHugeHeaders(t *testing.T) {
	header := "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor " + strings.Repeat("x", 3<<20) + " <a@x> 1 +0000\n\nmsg\n"
	_, err := readCommit("0123456789abcdef0123", strings.NewReader(header), int64(len(header)))
	if err == nil || !strings.Contains(err.Error(), "commit 0123456789ab: its header lines are larger than") {
		t.Fatalf("got %v, want the header refused by commit", err)
	}
}

// TestReadersBoundHugeMessages checks every reader of commits against a
// repository with a message of three times MaxMessage: go-git's and git
// cat-file's ranges, and CommitsByID, each keep only the title and the
// size, and the range above such a commit reads its parents alone.
func TestReadersBoundHugeMessages(t *testing.T) {
	dir := historyRepo(t)
	ctx := context.Background()
	msg := "Huge\n\n" + strings.Repeat("the quick brown fox jumps over the lazy dog\n", 3*MaxMessage/44) + "\nSigned-off-by: Jane Doe <jane@example.com>\n"
	file := filepath.Join(t.TempDir(), "msg")
	if err := os.WriteFile(file, []byte(msg), 0o644); err != nil {
		t.Fatal(err)
	}
	gitT(t, dir, "commit", "-q", "--allow-empty", "--cleanup=verbatim", "-F", file)
	huge := gitT(t, dir, "rev-parse", "HEAD")
	gitT(t, dir, "commit", "-q", "--allow-empty", "-m", "after")
	check := func(name string, cs []Commit) {
		t.Helper()
		var found bool
		for _, c := range cs {
			if c.Hash != huge {
				if c.Truncated() {
					t.Errorf("%s: %s is truncated", name, c.Short())
				}
				continue
			}
			found = true
			if !c.Truncated() || c.MessageSize != int64(len(msg)) || string(c.Message[:5]) != "Huge\n" || len(c.Parents) != 1 {
				t.Errorf("%s: truncated = %v, size %d (want %d), head %q, parents %v", name, c.Truncated(), c.MessageSize, len(msg), c.Message[:min(5, len(c.Message))], c.Parents)
			}
		}
		if !found {
			t.Errorf("%s: the huge commit is missing", name)
		}
	}
	got, err := Range(ctx, dir, "root..HEAD")
	if err != nil {
		t.Fatal(err)
	}
	check("go-git", got)
	cli, err := rangeCLI(ctx, &Git{Dir: dir}, "root..HEAD")
	if err != nil {
		t.Fatal(err)
	}
	check("cat-file", cli)
	byID, err := CommitsByID(ctx, dir, []string{huge, gitT(t, dir, "rev-parse", "HEAD")})
	if err != nil {
		t.Fatal(err)
	}
	check("by id", byID)
	batch, err := commitsBatch(ctx, &Git{Dir: dir}, []string{huge, gitT(t, dir, "rev-parse", "HEAD")})
	if err != nil {
		t.Fatal(err)
	}
	check("by id through cat-file", batch)
	// Packed, go-git streams it from the pack.
	gitT(t, dir, "gc", "-q")
	if got, err = Range(ctx, dir, "root..HEAD"); err != nil {
		t.Fatal(err)
	}
	check("go-git, packed", got)
	above, err := Range(ctx, dir, huge+"..HEAD")
	if err != nil || len(above) != 1 || string(above[0].Message) != "after\n" {
		t.Fatalf("the range above it: %+v, %v", above, err)
	}
}

// TestFileLogCutsHugeSubjects checks that a subject of megabytes, which
// git makes of a message's whole first paragraph, comes back cut to what
// a record keeps, with the commit's id, date and author whole.
func TestFileLogCutsHugeSubjects(t *testing.T) {
	dir := historyRepo(t)
	if err := os.WriteFile(filepath.Join(dir, "b.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitT(t, dir, "add", "b.json")
	file := filepath.Join(t.TempDir(), "msg")
	if err := os.WriteFile(file, []byte(strings.Repeat("word ", 3*MaxMessage/5)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitT(t, dir, "commit", "-q", "-F", file)
	got, err := FileLog(context.Background(), dir, "", "b.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("got %d commits, want 1", len(got))
	}
	c := got[0]
	if c.Hash != gitT(t, dir, "rev-parse", "HEAD") || !strings.HasPrefix(c.Date, "20") || c.Author != "Jane Doe <jane@example.com>" || string(c.Data) != "{}\n" {
		t.Errorf("commit %+v", c)
	}
	if len(c.Title) > maxLogRecord || !strings.HasPrefix(c.Title, "word word") {
		t.Errorf("title of %d bytes, want at most %d", len(c.Title), maxLogRecord)
	}
}
