package gitrepo

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/internal/gittest"
)

// TestFileLog checks the first-parent log of one file against what a user's
// configuration could change: log.follow would follow a rename into
// another file's history, log.showSignature would add lines. A side
// branch's commits are left out, its merge is kept, and a commit that
// deletes the file is listed with no data. The path is the root's,
// wherever in the work tree it runs.
func TestFileLog(t *testing.T) {
	gittest.Isolate(t)
	ctx := context.Background()
	dir := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitT(t, dir, "init", "-q", "-b", "main")
	gitT(t, dir, "config", "log.follow", "true")
	gitT(t, dir, "config", "log.showSignature", "true")
	write("old.json", "old\n")
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-q", "-m", "an unrelated file")
	write("f/keep", "")
	gitT(t, dir, "add", "f/keep")
	gitT(t, dir, "mv", "old.json", "f/b.json")
	gitT(t, dir, "commit", "-q", "-m", "renamed into place")
	gitT(t, dir, "checkout", "-q", "-b", "side")
	write("f/b.json", "side\n")
	gitT(t, dir, "commit", "-q", "-a", "-m", "on the side")
	gitT(t, dir, "checkout", "-q", "main")
	gitT(t, dir, "merge", "-q", "--no-ff", "-m", "merge side", "side")
	gitT(t, dir, "rm", "-q", "f/b.json")
	gitT(t, dir, "commit", "-q", "-m", "deleted\n\nwith a body")
	got, err := FileLog(ctx, filepath.Join(dir, "f"), "", "f/b.json")
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, c := range got {
		titles = append(titles, c.Title)
	}
	if want := "renamed into place|merge side|deleted"; strings.Join(titles, "|") != want {
		t.Fatalf("titles %q, want %q", strings.Join(titles, "|"), want)
	}
	if string(got[0].Data) != "old\n" || string(got[1].Data) != "side\n" || got[2].Data != nil {
		t.Fatalf("data %q %q %q", got[0].Data, got[1].Data, got[2].Data)
	}
	if c := got[1]; len(c.Hash) != 40 || !strings.HasPrefix(c.Date, "20") || c.Author == "" {
		t.Fatalf("the merge: %+v", c)
	}
	since, err := FileLog(ctx, dir, "HEAD~1", "f/b.json")
	if err != nil || len(since) != 1 || since[0].Title != "deleted" {
		t.Fatalf("since HEAD~1: %+v, %v", since, err)
	}
	if _, err := FileLog(ctx, dir, "nosuchrev", "f/b.json"); !errors.Is(err, ErrUnknownRevision) {
		t.Fatalf("an unknown --since: %v, want ErrUnknownRevision", err)
	}
	empty := t.TempDir()
	gitT(t, empty, "init", "-q")
	if got, err := FileLog(ctx, empty, "", "f/b.json"); err != nil || len(got) != 0 {
		t.Fatalf("an unborn HEAD: %+v, %v", got, err)
	}
}
