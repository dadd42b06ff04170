package gitrepo

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

var (
	// ArgvFileLog lists, oldest first, the commits on HEAD's first-parent
	// line that changed one file: id, committer date, author and subject,
	// one field a line, each commit ended by NUL. The range and then "--"
	// and the path are appended. Signatures and --follow, which a user's
	// configuration may switch on, are switched off: they would add lines
	// to the output and follow the file's history across renames.
	ArgvFileLog = []string{"log", "--first-parent", "--reverse", "-z", "--no-show-signature", "--no-follow",
		"--format=%H%n%cI%n%an <%ae>%n%s", "--end-of-options"}
)

// maxLogRecord bounds what is kept of one commit in ArgvFileLog's output:
// its id, date, author and subject. git makes the subject of the
// message's whole first paragraph, which may be hundreds of megabytes on
// one line; a longer record is cut, and the title (or, past it, the
// author) shown loses its end.
const maxLogRecord = 16 << 10

// logRecords reads NUL-ended records from r, handing each to fn, cut to
// maxLogRecord bytes (cut is then true).
func logRecords(r io.Reader, fn func(rec []byte, cut bool) error) error {
	br := bufio.NewReaderSize(r, maxLogRecord)
	for {
		rec, err := br.ReadSlice(0)
		cut := false
		if errors.Is(err, bufio.ErrBufferFull) {
			rec, cut = bytes.Clone(rec), true
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice(0)
			}
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if ferr := fn(bytes.TrimSuffix(rec, []byte{0}), cut); ferr != nil {
			return ferr
		}
		if err != nil {
			return nil
		}
	}
}

// FileCommit is a commit on the first-parent line that changed a file, and
// the file as that commit holds it.
type FileCommit struct {
	// Hash is the full commit id.
	Hash string
	// Date is the committer date, strict ISO 8601.
	Date string
	// Author is "Name <email>".
	Author string
	// Title is the subject line.
	Title string
	// Data is the file in the commit, or nil when the commit deletes it.
	Data []byte
}

// FileLog lists, oldest first, the commits on the first-parent line of
// HEAD that changed path (relative to the root of the work tree that holds
// dir), each with the file it holds, in two git
// processes: one git log and one git cat-file --batch. With since set,
// the commits reachable from since are left out; ErrUnknownRevision means
// git cannot resolve it. An unborn HEAD has no commits.
func FileLog(ctx context.Context, dir, since, path string) ([]FileCommit, error) {
	g := &Git{Dir: dir}
	rev := "HEAD"
	if since != "" {
		if _, err := g.locate(ctx, since); err != nil {
			return nil, err
		}
		rev = since + "..HEAD"
	}
	if _, err := g.locate(ctx, "HEAD"); errors.Is(err, ErrUnknownRevision) {
		return nil, nil // no commit yet
	} else if err != nil {
		return nil, err
	}
	// ":(top)" reads path from the root, wherever in the work tree dir is,
	// as the "REV:path" specs below do.
	var commits []FileCommit
	err := g.stream(ctx, func(out io.Reader) error {
		return logRecords(out, func(rec []byte, cut bool) error {
			rec = bytes.TrimPrefix(rec, []byte{'\n'}) // git separates -z records by NUL, and may start one with a newline
			if len(rec) == 0 {
				return nil
			}
			f := strings.SplitN(string(rec), "\n", 4)
			if len(f) < 4 && !cut {
				return fmt.Errorf("git log: unexpected record %q", rec)
			}
			f = append(f, "", "", "")[:4] // what a cut left out of an author too long to keep
			commits = append(commits, FileCommit{Hash: f[0], Date: f[1], Author: f[2], Title: strings.TrimSuffix(f[3], "\n")})
			return nil
		})
	}, ArgvFileLog, rev, "--", ":(top)"+path)
	if err != nil {
		return nil, fmt.Errorf("list the commits that changed %s: %w", path, err)
	}
	specs := make([]string, len(commits))
	for i, c := range commits {
		specs[i] = c.Hash + ":" + path
	}
	blobs, err := ReadSpecs(ctx, dir, specs)
	if err != nil {
		return nil, err
	}
	for i := range commits {
		commits[i].Data = blobs[specs[i]]
	}
	return commits, nil
}
