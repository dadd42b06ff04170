package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// ErrObjectNotFound is returned for an object the repository does not hold.
var ErrObjectNotFound = errors.New("object not found")

// ErrUnknownRevision is returned for a revision git cannot resolve to a commit.
var ErrUnknownRevision = errors.New("unknown revision")

// Commit is what sentinel reads of a commit.
type Commit struct {
	// Hash is the full commit id.
	Hash string
	// Author and Committer are "Name <email>".
	Author, Committer string
	// Message is the raw commit message, or, when the message is larger
	// than MaxMessage, its first bytes only (see Truncated).
	Message []byte
	// MessageSize is the size of the whole message in bytes.
	MessageSize int64
	// Parents are the parent commit ids.
	Parents []string
	// Signature is the kind of signature the commit carries: "ssh",
	// "openpgp", "x509", "unknown", or "" for none. Only the header's
	// armour is read; git verify-commit checks the signature itself.
	Signature string
}

// MaxMessage is the largest commit message sentinel reads whole, in bytes.
// A message is a few kilobytes, a long one a few dozen; one of hundreds of
// megabytes packs into a few, and read whole it costs a gigabyte and half
// a minute at every check. A larger message is read only as far as its
// title, and every check that needs it whole refuses the commit.
const MaxMessage = 1 << 20

// maxCommitHeader bounds the header lines of a commit that sentinel reads
// (tree, parents, identities, signature): a few kilobytes in practice.
const maxCommitHeader = 1 << 20

// messageHead is what is kept of a message larger than MaxMessage: enough
// for its title.
const messageHead = 4 << 10

// Truncated reports whether the message was too large to read whole, so
// that Message holds only its beginning. A check that reads the trailers,
// the footers or any line but the title must refuse such a commit: what
// it cannot see may be what it looks for.
func (c Commit) Truncated() bool { return c.MessageSize > int64(len(c.Message)) }

// Short returns the abbreviated commit id.
func (c Commit) Short() string { return ShortID(c.Hash) }

// ShortID abbreviates an object id to the 12 characters reports show.
func ShortID(id string) string { return id[:min(12, len(id))] }

// Range lists the commits of a range, oldest first: "A..B" is the commits
// reachable from B and not from A, and a single revision is every commit
// reachable from it. git resolves the revisions, so every revision syntax
// git knows works; go-git's object storage reads the commits in-process.
// Where go-git cannot read the repository (SHA-256 objects, a missing
// object in a partial clone) git cat-file reads them instead.
func Range(ctx context.Context, dir, spec string) ([]Commit, error) {
	if strings.Contains(spec, "...") {
		return nil, fmt.Errorf("range %q: only A..B or a single revision is supported", spec)
	}
	from, to, hasFrom := strings.Cut(spec, "..")
	if !hasFrom {
		to, from = spec, ""
	}
	if to == "" {
		to = "HEAD"
	}
	g := &Git{Dir: dir}
	revs := []string{to}
	if from != "" {
		revs = append(revs, from)
	}
	loc, err := g.locate(ctx, revs...)
	if err != nil {
		return nil, fmt.Errorf("range %q: %w", spec, err)
	}
	if loc.objectFormat == "sha1" {
		if commits, err := rangeStore(loc.commonDir, loc.hashes); err == nil {
			return commits, nil
		}
	}
	return rangeCLI(ctx, g, spec)
}

// location is where a repository keeps its objects, and revisions resolved.
type location struct {
	commonDir    string
	objectFormat string
	hashes       []string
}

// locate asks git, in one process, for the common git dir, the object
// format and the commit ids of revs.
func (g *Git) locate(ctx context.Context, revs ...string) (location, error) {
	args := make([]string, 0, len(revs)+1)
	for _, r := range revs {
		args = append(args, r+"^{commit}")
	}
	args = append(args, "--")
	out, err := g.run(ctx, nil, ArgvLocate, args...)
	if err != nil {
		var ee *ExitError
		if errors.As(err, &ee) && strings.Contains(ee.Stderr, "not a git repository") {
			return location{}, ErrNotRepository
		}
		if errors.As(err, &ee) && ee.Stderr != "" {
			return location{}, fmt.Errorf("%s: %w", strings.TrimPrefix(ee.Stderr, "fatal: "), ErrUnknownRevision)
		}
		return location{}, fmt.Errorf("%w: %w", ErrUnknownRevision, err)
	}
	// The common dir may hold spaces and newlines; the object format, the
	// commit ids and the "--" rev-parse echoes hold neither, so they are
	// taken off the end and the rest is the path.
	all, ok := bytes.CutSuffix(out, []byte{'\n'})
	lines := strings.Split(string(all), "\n")
	if n := len(lines); n > 0 && lines[n-1] == "--" {
		lines = lines[:n-1]
	}
	n := len(lines) - 1 - len(revs)
	if !ok || n < 1 {
		return location{}, fmt.Errorf("git rev-parse: unexpected output %q", out)
	}
	dir := strings.Join(lines[:n], "\n")
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(g.Dir, dir)
	}
	return location{commonDir: dir, objectFormat: lines[n], hashes: lines[n+1:]}, nil
}

// rangeCLI lists a range with git rev-list and reads the commits with one
// git cat-file --batch, a commit at a time.
func rangeCLI(ctx context.Context, g *Git, spec string) ([]Commit, error) {
	out, err := g.run(ctx, nil, ArgvRevList, spec, "--")
	if err != nil {
		return nil, fmt.Errorf("list commits %s: %w", spec, err)
	}
	ids := strings.Fields(string(out))
	if len(ids) == 0 {
		return nil, nil
	}
	return commitsBatch(ctx, g, ids)
}

// commitsBatch reads commits with one git cat-file --batch.
func commitsBatch(ctx context.Context, g *Git, ids []string) ([]Commit, error) {
	b, err := startBatch(ctx, g)
	if err != nil {
		return nil, err
	}
	defer b.close()
	commits := make([]Commit, 0, len(ids))
	for _, id := range ids {
		c, err := b.readCommit(id)
		if err != nil {
			return nil, err
		}
		commits = append(commits, c.Commit)
	}
	return commits, nil
}

// readCommit reads a commit object of size bytes from r. An object of up
// to MaxMessage+maxCommitHeader bytes is read whole; of a larger one only
// the header lines and the beginning of the message are read, so that a
// message of any size costs a bounded read. A commit whose header lines
// are larger than maxCommitHeader is an error.
func readCommit(hash string, r io.Reader, size int64) (*rawCommit, error) {
	if size <= MaxMessage+maxCommitHeader {
		raw := make([]byte, size)
		if _, err := io.ReadFull(r, raw); err != nil {
			return nil, fmt.Errorf("read commit %s: %w", hash, err)
		}
		c := parseRawCommit(hash, raw)
		if len(c.Message) > MaxMessage {
			c.Message = bytes.Clone(c.Message[:messageHead])
		}
		return c, nil
	}
	head := make([]byte, maxCommitHeader+messageHead)
	if _, err := io.ReadFull(r, head); err != nil {
		return nil, fmt.Errorf("read commit %s: %w", hash, err)
	}
	end := bytes.Index(head, []byte("\n\n"))
	if end < 0 || end > maxCommitHeader {
		return nil, fmt.Errorf("commit %s: its header lines are larger than %d bytes, more than sentinel reads of a commit", ShortID(hash), maxCommitHeader)
	}
	c := parseRawCommit(hash, head)
	c.Message = bytes.Clone(c.Message[:min(len(c.Message), messageHead)])
	c.MessageSize = size - int64(end+2)
	return c, nil
}

// rawCommit is a commit as read from the object.
type rawCommit struct {
	Commit
}

// parseRawCommit splits a raw commit object into its parents, identities
// and message. Reading the object directly keeps go-git's commit decoding,
// and the OpenPGP code it pulls in, out of every start-up.
func parseRawCommit(hash string, raw []byte) *rawCommit {
	c := &rawCommit{Commit: Commit{Hash: hash}}
	headers, msg, _ := bytes.Cut(raw, []byte("\n\n"))
	c.Message, c.MessageSize = msg, int64(len(msg))
	for _, line := range strings.Split(string(headers), "\n") {
		key, val, _ := strings.Cut(line, " ")
		switch key {
		case "parent":
			c.Parents = append(c.Parents, val)
		case "gpgsig", "gpgsig-sha256":
			// The first line is the armour; the rest are continuation
			// lines, which start with a space and have no key. A SHA-1
			// repository signs under "gpgsig", a SHA-256 one under
			// "gpgsig-sha256"; a commit has one of them.
			if c.Signature == "" {
				c.Signature = signatureKind(val)
			}
		case "author", "committer":
			// "Name <email> 1700000000 +0000": drop the date.
			if i := strings.LastIndexByte(val, '>'); i >= 0 {
				val = val[:i+1]
			}
			if key == "author" {
				c.Author = val
			} else {
				c.Committer = val
			}
		}
	}
	return c
}

// signatureKind names a signature by its armour's first line, as git's
// gpg-interface tells the formats apart.
func signatureKind(first string) string {
	switch strings.TrimSpace(first) {
	case "-----BEGIN SSH SIGNATURE-----":
		return "ssh"
	case "-----BEGIN PGP SIGNATURE-----", "-----BEGIN PGP MESSAGE-----":
		return "openpgp"
	case "-----BEGIN SIGNED MESSAGE-----":
		return "x509"
	}
	return "unknown"
}

// CommitsByID reads the given commits, in the order given: in-process
// where go-git can read the repository, with git cat-file otherwise.
func CommitsByID(ctx context.Context, root string, ids []string) ([]Commit, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	g := &Git{Dir: root}
	if loc, err := g.locate(ctx); err == nil && loc.objectFormat == "sha1" {
		if commits, err := commitsStore(loc.commonDir, ids); err == nil {
			return commits, nil
		}
	}
	return commitsBatch(ctx, g, ids)
}
