package gitrepo

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Commit is what sentinel reads of a commit.
type Commit struct {
	// Hash is the full commit id.
	Hash string
	// Author and Committer are "Name <email>".
	Author, Committer string
	// Message is the raw commit message.
	Message []byte
}

// Short returns the abbreviated commit id.
func (c Commit) Short() string {
	if len(c.Hash) > 12 {
		return c.Hash[:12]
	}
	return c.Hash
}

// Range lists the commits of a range, oldest first: "A..B" is the commits
// reachable from B and not from A, and a single revision is every commit
// reachable from it. Objects are read with go-git; when go-git cannot open
// the repository (extensions it does not know, odd layouts) the git CLI
// reads them instead.
func Range(ctx context.Context, dir, spec string) ([]Commit, error) {
	if strings.Contains(spec, "...") {
		return nil, fmt.Errorf("range %q: only A..B or a single revision is supported", spec)
	}
	repo, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return rangeCLI(ctx, &Git{Dir: dir}, spec)
	}
	return rangeGoGit(repo, spec)
}

func rangeGoGit(repo *git.Repository, spec string) ([]Commit, error) {
	from, to, hasFrom := strings.Cut(spec, "..")
	if !hasFrom {
		to, from = spec, ""
	}
	if to == "" {
		to = "HEAD"
	}
	resolve := func(rev string) (plumbing.Hash, error) {
		h, err := repo.ResolveRevision(plumbing.Revision(rev))
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("unknown revision %q: %w", rev, err)
		}
		return *h, nil
	}
	exclude := map[plumbing.Hash]bool{}
	if hasFrom && from != "" {
		h, err := resolve(from)
		if err != nil {
			return nil, err
		}
		if err := walk(repo, h, nil, func(c *object.Commit) { exclude[c.Hash] = true }); err != nil {
			return nil, err
		}
	}
	h, err := resolve(to)
	if err != nil {
		return nil, err
	}
	var out []Commit
	err = walk(repo, h, exclude, func(c *object.Commit) {
		out = append(out, Commit{
			Hash:      c.Hash.String(),
			Author:    fmt.Sprintf("%s <%s>", c.Author.Name, c.Author.Email),
			Committer: fmt.Sprintf("%s <%s>", c.Committer.Name, c.Committer.Email),
			Message:   []byte(c.Message),
		})
	})
	if err != nil {
		return nil, err
	}
	// walk visits children before parents; reports read oldest first.
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

// walk visits every commit reachable from start and not in stop, each once.
// A shallow clone's missing parents end the walk quietly, as in git.
func walk(repo *git.Repository, start plumbing.Hash, stop map[plumbing.Hash]bool, visit func(*object.Commit)) error {
	seen := map[plumbing.Hash]bool{}
	stack := []plumbing.Hash{start}
	for len(stack) > 0 {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[h] || stop[h] {
			continue
		}
		seen[h] = true
		c, err := repo.CommitObject(h)
		if errors.Is(err, plumbing.ErrObjectNotFound) && h != start {
			continue
		}
		if err != nil {
			return fmt.Errorf("read commit %s: %w", h, err)
		}
		visit(c)
		for i := len(c.ParentHashes) - 1; i >= 0; i-- {
			stack = append(stack, c.ParentHashes[i])
		}
	}
	return nil
}

// rangeCLI lists a range with git rev-list and reads the commits with one
// git cat-file --batch.
func rangeCLI(ctx context.Context, g *Git, spec string) ([]Commit, error) {
	out, err := g.run(ctx, nil, ArgvRevList, spec, "--")
	if err != nil {
		return nil, fmt.Errorf("list commits %s: %w", spec, err)
	}
	ids := strings.Fields(string(out))
	if len(ids) == 0 {
		return nil, nil
	}
	objs, err := g.run(ctx, []byte(strings.Join(ids, "\n")+"\n"), ArgvCatFileBatch)
	if err != nil {
		return nil, fmt.Errorf("read commits: %w", err)
	}
	r := bufio.NewReader(bytes.NewReader(objs))
	commits := make([]Commit, 0, len(ids))
	for range ids {
		header, err := r.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("read commits: %w", err)
		}
		f := strings.Fields(header)
		if len(f) != 3 || f[1] != "commit" {
			return nil, fmt.Errorf("read commits: unexpected %q", strings.TrimSpace(header))
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("read commits: %w", err)
		}
		body := make([]byte, size+1) // the object and its newline
		if _, err := io.ReadFull(r, body); err != nil {
			return nil, fmt.Errorf("read commits: %w", err)
		}
		commits = append(commits, parseRawCommit(f[0], body[:size]))
	}
	return commits, nil
}

// parseRawCommit splits a raw commit object into its identities and message.
func parseRawCommit(hash string, raw []byte) Commit {
	c := Commit{Hash: hash}
	headers, msg, _ := bytes.Cut(raw, []byte("\n\n"))
	c.Message = msg
	for _, line := range strings.Split(string(headers), "\n") {
		key, val, _ := strings.Cut(line, " ")
		switch key {
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
