// Package coverage counts tests and assertions over a snapshot of a
// repository (a commit's tree, the index or the work tree's tracked files),
// caching each file's counts by blob id.
package coverage

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gitsentinel/sentinel/coverage/runners"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/atomicfile"
)

// Mode is which snapshot of a repository to count.
type Mode int

// The snapshots.
const (
	// WorkTree counts the work tree's copies of the tracked files.
	WorkTree Mode = iota
	// Index counts the index that is being committed (GIT_INDEX_FILE
	// honoured).
	Index
	// Rev counts a commit's tree.
	Rev
	// Plain counts the files under a directory that is not in a git
	// repository.
	Plain
)

// entry is one file of a snapshot.
type entry struct {
	path string // slash-separated, relative to the snapshot's root
	blob string // git's object id of the content, when known
	mode string // git's mode; "" for plain files
	// onDisk is the absolute path to read, for plain files.
	onDisk string
	// worktree says the content is the work tree's file at path, below
	// the snapshot's root.
	worktree bool
	// wt, until settle, is the index whose stat data says whether the
	// work-tree file still has blob's content; wi is the entry's place
	// in it. Only the files that are counted or read are compared.
	wt *gitrepo.Index
	wi int
}

// settle drops the blob id of a work-tree file that may no longer hold the
// index's content: its content is then hashed when read.
func (e *entry) settle() {
	if e.wt != nil {
		if e.wt.Changed(e.wi) {
			e.blob = ""
		}
		e.wt = nil
	}
}

// snapshot is the list of files to count and a way to read them.
type snapshot struct {
	root    string
	info    *gitrepo.Info // nil for plain files
	entries []entry
	objects *gitrepo.Objects
	// partialRev, for a snapshot of some files of a commit only, is the
	// revision whose tree holds the rest.
	partialRev string
	// sel, when set, is the runners' file selection of the whole tree,
	// for a snapshot that lists only some of its files.
	sel *runners.Selection
	// context, when set, lists the whole tree that entries are a part
	// of: Python's configuration and base classes are read there.
	context func(context.Context) ([]entry, error)
}

func (s *snapshot) close() {
	if s.objects != nil {
		s.objects.Close()
	}
}

// read returns the content of an entry and, for work-tree files that differ
// from the index, the blob id computed as git computes it.
func (s *snapshot) read(ctx context.Context, e *entry) ([]byte, error) {
	// A work-tree file is someone else's content: a link to /dev/zero or
	// a FIFO where a test file was must not hang or exhaust memory.
	switch {
	case e.worktree:
		return atomicfile.ReadIn(s.root, e.path, MaxFileSize)
	case e.onDisk != "":
		return atomicfile.ReadFile(e.onDisk, MaxFileSize)
	}
	if b := s.sameInWorkTree(e); b != nil {
		return b, nil
	}
	return s.objects.ReadBlob(ctx, e.blob)
}

// sameInWorkTree returns the work tree's copy of a blob entry (of the index
// or of a commit) when git would hash it to the entry's blob, which makes
// it that blob; nil otherwise. Most blobs a count reads are in the work
// tree as they are in the index or at HEAD, and a file is read and hashed
// in microseconds, where a blob packed in the object store costs the load
// of the pack's index (4 ms of a pre-commit hook that read only a few
// package.json files from it) and its deltas.
func (s *snapshot) sameInWorkTree(e *entry) []byte {
	if s.root == "" || len(e.blob) != 40 || (e.mode != "100644" && e.mode != "100755") {
		return nil // no work tree, a SHA-256 repository, not a file
	}
	b, err := atomicfile.ReadIn(s.root, e.path, MaxBaselineSize)
	if err != nil || blobID(b) != e.blob {
		return nil
	}
	return b
}

// baseline reads the baseline of the snapshot: the work tree's file, or the
// blob the index or the tree holds.
func (s *snapshot) baseline(ctx context.Context, mode Mode, rev string) ([]byte, string, error) {
	if mode == WorkTree {
		b, err := ReadWorkTreeBaseline(s.root)
		if b == nil {
			return nil, "", err
		}
		return b, BaselinePath, nil
	}
	for i := range s.entries {
		if s.entries[i].path == BaselinePath {
			b, err := s.read(ctx, &s.entries[i])
			name := StagedBaselineName
			if mode == Rev {
				name = rev + ":" + BaselinePath
			}
			return b, name, err
		}
	}
	return nil, "", nil
}

// blobID hashes content as git hashes a blob, so that an edited work-tree
// file that matches a committed blob hits the same cache entry.
func blobID(content []byte) string {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(content)) + "\x00"))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// openSnapshot lists the files of the snapshot the options name.
func openSnapshot(ctx context.Context, o *Options) (*snapshot, error) {
	if o.Mode == Plain {
		return plainSnapshot(o.Dir)
	}
	info := o.info
	if info == nil {
		var err error
		if info, err = gitrepo.RepoInfo(ctx, o.Dir); err != nil {
			return nil, err
		}
	}
	if info.Root == "" {
		return nil, errors.New("a bare repository has no work tree to count: pass --rev REV")
	}
	if o.cache == nil {
		// Decoded while the snapshot is listed.
		o.cache = openCache(info.CommonDir, o.CacheDir)
	}
	s := &snapshot{root: info.Root, info: info, objects: gitrepo.OpenObjects(info)}
	switch o.Mode {
	case Rev:
		es, err := treeEntries(ctx, info.Root, o.Rev)
		if err != nil {
			s.close()
			return nil, err
		}
		s.entries = es
	case Index:
		es, err := gitrepo.IndexEntries(ctx, info)
		if err != nil {
			s.close()
			return nil, err
		}
		for _, e := range es {
			if e.Stage > 1 {
				continue // a conflict's other sides; stage 1 is the base
			}
			s.entries = append(s.entries, entry{path: e.Path, blob: e.Blob, mode: e.Mode})
		}
	default:
		ix, err := gitrepo.WorkTreeIndex(ctx, info)
		if err != nil {
			s.close()
			return nil, err
		}
		es := ix.Entries
		s.entries = make([]entry, 0, len(es))
		for i, e := range es {
			if i > 0 && es[i-1].Path == e.Path {
				continue // conflict stages, listed together: the work tree has one copy
			}
			s.entries = append(s.entries, entry{path: e.Path, blob: e.Blob, mode: e.Mode, worktree: true, wt: ix, wi: i})
		}
	}
	return s, nil
}

// treeEntries lists a commit's tree.
func treeEntries(ctx context.Context, root, rev string) ([]entry, error) {
	es, err := gitrepo.TreeEntries(ctx, root, rev)
	if err != nil {
		return nil, err
	}
	out := make([]entry, 0, len(es))
	for _, e := range es {
		out = append(out, entry{path: e.Path, blob: e.Blob, mode: e.Mode})
	}
	return out, nil
}

func plainSnapshot(dir string) (*snapshot, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err == nil && !st.IsDir() {
		return &snapshot{root: filepath.Dir(abs), entries: []entry{{path: filepath.Base(abs), mode: "100644", onDisk: abs}}}, nil
	}
	s := &snapshot{root: abs}
	err = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(abs, p)
		if err != nil {
			return err
		}
		mode := "100644"
		if d.Type()&fs.ModeSymlink != 0 {
			mode = "120000"
		} else if !d.Type().IsRegular() {
			return nil
		}
		s.entries = append(s.entries, entry{path: filepath.ToSlash(rel), mode: mode, onDisk: p})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk %s: %w", dir, err)
	}
	return s, nil
}

// DefaultExcludes are the paths never counted: vendored and generated code,
// and test data, which holds sample files rather than tests.
var DefaultExcludes = []string{"vendor/**", "node_modules/**", "third_party/**", "**/testdata/**"}

// excluded reports whether a path falls under an exclude pattern: a pattern
// matches the path or, for "dir/**", anything below a "dir" at the top or,
// with a leading "**/", at any depth.
func excluded(p string, patterns []string) bool {
	return compileExcludes(patterns).match(p)
}

// excludePattern is an exclude pattern read once: the path is matched
// against it for every file of the tree on every count.
type excludePattern struct {
	pat      string // without a leading "**/" or a trailing "/**"
	anyDepth bool   // "**/" led it
	dir      bool   // "/**" ended it: it names a directory
	literal  bool   // pat holds no glob character
}

// excludePatterns are a count's exclude patterns, read once.
type excludePatterns []excludePattern

func compileExcludes(patterns []string) excludePatterns {
	out := make(excludePatterns, 0, len(patterns))
	for _, pat := range patterns {
		x := excludePattern{anyDepth: strings.HasPrefix(pat, "**/")}
		pat = strings.TrimPrefix(pat, "**/")
		x.pat, x.dir = strings.CutSuffix(pat, "/**")
		x.literal = !strings.ContainsAny(x.pat, `*?[\`)
		out = append(out, x)
	}
	return out
}

func (ps excludePatterns) match(p string) bool {
	for i := range ps {
		if ps[i].match(p) {
			return true
		}
	}
	return false
}

func (x *excludePattern) match(p string) bool {
	if x.dir {
		// Each directory of p, without splitting it into a new slice.
		for rest := p; ; {
			seg, after, more := strings.Cut(rest, "/")
			if !more {
				return false // the last segment is the file's name
			}
			if x.literal && seg == x.pat {
				return true
			}
			if !x.literal {
				if ok, _ := path.Match(x.pat, seg); ok {
					return true
				}
			}
			if !x.anyDepth {
				return false
			}
			rest = after
		}
	}
	if ok, _ := path.Match(x.pat, p); ok {
		return true
	}
	if x.anyDepth {
		ok, _ := path.Match(x.pat, path.Base(p))
		return ok
	}
	return false
}

// underPaths reports whether p is one of the paths or below one of them;
// no paths means everything.
func underPaths(p string, paths []string) bool {
	if len(paths) == 0 {
		return true
	}
	for _, q := range paths {
		if q == "" || q == "." || p == q || strings.HasPrefix(p, strings.TrimSuffix(q, "/")+"/") {
			return true
		}
	}
	return false
}

// isBinary uses git's rule: a NUL byte in the first 8000 bytes.
func isBinary(b []byte) bool {
	if len(b) > 8000 {
		b = b[:8000]
	}
	return bytes.IndexByte(b, 0) >= 0
}
