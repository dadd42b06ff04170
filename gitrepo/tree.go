package gitrepo

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/gitsentinel/sentinel/internal/gitconfig"
)

var (
	// ArgvRepoInfo prints the object format, the work tree's root and the
	// common git dir.
	ArgvRepoInfo = []string{"rev-parse", "--show-object-format", "--show-toplevel", "--git-common-dir"}
	// ArgvLsFilesStage lists the index (GIT_INDEX_FILE honoured) with modes,
	// blob ids and stages.
	ArgvLsFilesStage = []string{"ls-files", "-s", "-z", "--full-name"}
	// ArgvDiffFiles lists tracked files whose work-tree content may differ
	// from the index, by git's stat cache.
	ArgvDiffFiles = []string{"diff-files", "--name-only", "-z", "--no-renames"}
	// ArgvLsTree lists a commit's tree recursively; the revision is appended.
	ArgvLsTree = []string{"ls-tree", "-r", "-z", "--full-tree"}
	// ArgvStagedFiles lists the files whose staged content differs from
	// HEAD's (GIT_INDEX_FILE honoured).
	ArgvStagedFiles = []string{"diff-index", "--cached", "--name-only", "-z", "--no-renames", "HEAD", "--"}
)

// Info is where a repository lives.
type Info struct {
	// Root is the work tree's root (empty in a bare repository).
	Root string
	// CommonDir is the git dir shared by all worktrees: objects, refs and
	// sentinel's cache live there.
	CommonDir string
	// ObjectFormat is "sha1" or "sha256".
	ObjectFormat string
}

// RepoInfo says where the repository containing dir lives: found
// in-process where git's discovery is certain to agree
// (gitconfig.Discover), otherwise asked of git in one process, or two when
// a path holds a newline.
func RepoInfo(ctx context.Context, dir string) (*Info, error) {
	if r, err := gitconfig.Discover(dir, os.LookupEnv); err == nil {
		return &Info{Root: r.Root, CommonDir: r.CommonDir, ObjectFormat: r.ObjectFormat}, nil
	}
	return repoInfoGit(ctx, dir)
}

// repoInfoGit asks git where the repository containing dir lives.
func repoInfoGit(ctx context.Context, dir string) (*Info, error) {
	g := &Git{Dir: dir}
	out, err := g.revParse(ctx, ArgvRepoInfo)
	if err != nil {
		return nil, err
	}
	format, paths, err := splitFirst(out)
	if err != nil {
		return nil, err
	}
	// Two paths, one line each: where they hold more than the one newline
	// between them, the root alone says where the first one ends.
	root, common, ok := strings.Cut(paths, "\n")
	if strings.Contains(common, "\n") {
		if root, err = g.Toplevel(ctx); err != nil {
			return nil, err
		}
		common, ok = strings.CutPrefix(paths, root+"\n")
	}
	if !ok {
		return nil, fmt.Errorf("git rev-parse: unexpected output %q", out)
	}
	if !filepath.IsAbs(common) {
		common = filepath.Join(dir, common)
	}
	return &Info{Root: root, CommonDir: filepath.Clean(common), ObjectFormat: format}, nil
}

// Entry is a file of the index or of a tree.
type Entry struct {
	// Path is slash-separated, relative to the root.
	Path string
	// Mode is git's octal mode: 100644, 100755, 120000 (symlink), 160000
	// (submodule).
	Mode string
	// Blob is the object id.
	Blob string
	// Stage is the merge stage; 0 outside a conflict.
	Stage int
}

// IndexEntriesGit lists the index git would commit, honouring
// GIT_INDEX_FILE, through `git ls-files`.
func IndexEntriesGit(ctx context.Context, root string) ([]Entry, error) {
	out, err := (&Git{Dir: root}).run(ctx, nil, ArgvLsFilesStage)
	if err != nil {
		return nil, fmt.Errorf("list the index: %w", err)
	}
	// "<mode> <object> <stage>\t<path>"
	return parseEntries(out, "the index", func(f []string, path string) Entry {
		stage, _ := strconv.Atoi(f[2])
		return Entry{Path: path, Mode: f[0], Blob: f[1], Stage: stage}
	})
}

// parseEntries splits NUL-terminated "<three fields>\t<path>" records, the
// shape of both git ls-files -s -z and git ls-tree -z. Every string is cut
// from one copy of the output: a tree of 100,000 files is then one
// allocation of text, not three per file.
func parseEntries(out []byte, what string, entry func(fields []string, path string) Entry) ([]Entry, error) {
	all := string(out)
	entries := make([]Entry, 0, strings.Count(all, "\x00"))
	var f [3]string
	for len(all) > 0 {
		rec, rest, _ := strings.Cut(all, "\x00")
		all = rest
		if rec == "" {
			continue
		}
		meta, path, ok := strings.Cut(rec, "\t")
		n := 0
		for meta != "" && n <= len(f) {
			field, rest, _ := strings.Cut(meta, " ")
			meta = rest
			if field == "" {
				continue
			}
			if n < len(f) {
				f[n] = field
			}
			n++
		}
		if !ok || n != len(f) {
			return nil, fmt.Errorf("list %s: unexpected %q", what, rec)
		}
		entries = append(entries, entry(f[:], path))
	}
	return entries, nil
}

// ModifiedFiles lists the tracked files whose work-tree copy may differ
// from the index (deleted ones included).
func ModifiedFiles(ctx context.Context, root string) (map[string]bool, error) {
	out, err := (&Git{Dir: root}).run(ctx, nil, ArgvDiffFiles)
	if err != nil {
		return nil, fmt.Errorf("compare the work tree with the index: %w", err)
	}
	return nulSet(out), nil
}

// nulSet reads a NUL-terminated list of paths, as git prints with -z.
func nulSet(out []byte) map[string]bool {
	m := map[string]bool{}
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			m[string(p)] = true
		}
	}
	return m
}

// StagedFiles lists the files the commit being made changes from HEAD:
// added, modified or deleted in the index. ok is false when git cannot
// compare with HEAD (an unborn branch), so every file is new.
func StagedFiles(ctx context.Context, root string) (files map[string]bool, ok bool) {
	out, err := (&Git{Dir: root}).run(ctx, nil, ArgvStagedFiles)
	if err != nil {
		return nil, false
	}
	return nulSet(out), true
}

// TreeEntries lists the files of a revision's tree.
func TreeEntries(ctx context.Context, root, rev string) ([]Entry, error) {
	out, err := (&Git{Dir: root}).run(ctx, nil, ArgvLsTree, rev+"^{tree}", "--")
	if err != nil {
		var ee *ExitError
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("revision %q: %s: %w", rev, strings.TrimPrefix(ee.Stderr, "fatal: "), ErrUnknownRevision)
		}
		return nil, err
	}
	// "<mode> <type> <object>\t<path>"
	return parseEntries(out, rev, func(f []string, path string) Entry {
		return Entry{Path: path, Mode: f[0], Blob: f[2]}
	})
}

// Objects reads blobs: in-process through go-git's storage where it can,
// through one long-running `git cat-file --batch` otherwise. It is safe for
// concurrent use.
type Objects struct {
	mu  sync.Mutex
	st  *store
	git *Git

	batch   *batchReader
	batchMu sync.Mutex

	check   *batchReader
	checkMu sync.Mutex
}

// OpenObjects opens the object store of a repository.
func OpenObjects(info *Info) *Objects {
	o := &Objects{git: &Git{Dir: info.Root}}
	if info.ObjectFormat == "sha1" {
		o.st = openStore(info.CommonDir)
	}
	return o
}

// Close stops the git process, if one was started.
func (o *Objects) Close() error {
	o.checkMu.Lock()
	var err error
	if o.check != nil {
		err = o.check.close()
		o.check = nil
	}
	o.checkMu.Unlock()
	o.batchMu.Lock()
	defer o.batchMu.Unlock()
	if o.batch != nil {
		if e := o.batch.close(); e != nil {
			err = e
		}
	}
	return err
}

// ReadBlob returns a blob's content.
func (o *Objects) ReadBlob(ctx context.Context, id string) ([]byte, error) {
	if o.st != nil {
		o.mu.Lock()
		b, found, err := o.st.readBlob(id)
		o.mu.Unlock()
		if found {
			return b, err
		}
		// Not found in-process: a partial clone's missing blob, an
		// unknown pack feature; git knows how to get it.
	}
	o.batchMu.Lock()
	defer o.batchMu.Unlock()
	if o.batch == nil {
		b, err := startBatch(ctx, o.git)
		if err != nil {
			return nil, err
		}
		o.batch = b
	}
	return o.batch.read(id)
}

// batchReader is a running `git cat-file --batch`.
type batchReader struct {
	stdin  io.WriteCloser
	stdout *bufio.Reader
	wait   func() error
}

func startBatch(ctx context.Context, g *Git) (*batchReader, error) {
	return startBatchArgv(ctx, g, ArgvCatFileBatch)
}

func startBatchArgv(ctx context.Context, g *Git, argv []string) (*batchReader, error) {
	cmd := g.command(ctx, argv)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start git cat-file: %w", err)
	}
	return &batchReader{stdin: in, stdout: bufio.NewReaderSize(out, 64<<10), wait: cmd.Wait}, nil
}

func (b *batchReader) read(id string) ([]byte, error) {
	return b.readMax(id, -1)
}

// errTooLarge is an object over readMax's bound.
var errTooLarge = errors.New("larger than the bound")

// readMax reads an object of at most max bytes (any size when max is
// negative); a larger one is skipped, and errTooLarge.
func (b *batchReader) readMax(id string, max int64) ([]byte, error) {
	if _, err := io.WriteString(b.stdin, id+"\n"); err != nil {
		return nil, fmt.Errorf("read blob %s: %w", id, err)
	}
	header, err := b.stdout.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", id, err)
	}
	f := strings.Fields(header)
	if len(f) == 2 && f[1] == "missing" {
		return nil, fmt.Errorf("read blob %s: %w", id, ErrObjectNotFound)
	}
	if len(f) != 3 {
		return nil, fmt.Errorf("read blob %s: unexpected %q", id, strings.TrimSpace(header))
	}
	size, err := strconv.Atoi(f[2])
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", id, err)
	}
	if max >= 0 && int64(size) > max {
		if _, err := io.CopyN(io.Discard, b.stdout, int64(size)+1); err != nil {
			return nil, fmt.Errorf("read blob %s: %w", id, err)
		}
		return nil, fmt.Errorf("read blob %s: %d bytes: %w", id, size, errTooLarge)
	}
	buf := make([]byte, size+1)
	if _, err := io.ReadFull(b.stdout, buf); err != nil {
		return nil, fmt.Errorf("read blob %s: %w", id, err)
	}
	return buf[:size], nil
}

// readCommit reads a commit through the running `git cat-file --batch`,
// as readCommit bounds it: what is left of a message too large to read
// goes by unread, so that the next object's header comes next.
func (b *batchReader) readCommit(id string) (*rawCommit, error) {
	if _, err := io.WriteString(b.stdin, id+"\n"); err != nil {
		return nil, fmt.Errorf("read commit %s: %w", id, err)
	}
	header, err := b.stdout.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", id, err)
	}
	f := strings.Fields(header)
	if len(f) == 2 && f[1] == "missing" {
		return nil, fmt.Errorf("read commit %s: %w", id, ErrObjectNotFound)
	}
	if len(f) != 3 || f[1] != "commit" {
		return nil, fmt.Errorf("read commit %s: unexpected %q", id, strings.TrimSpace(header))
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", id, err)
	}
	body := io.LimitReader(b.stdout, size)
	c, err := readCommit(f[0], body, size)
	// The rest of the object and its newline are read in any case: git
	// blocks until its output is read, and close waits for git.
	if _, derr := io.Copy(io.Discard, body); derr != nil && err == nil {
		err = fmt.Errorf("read commit %s: %w", id, derr)
	}
	if _, derr := b.stdout.ReadByte(); derr != nil && err == nil {
		err = fmt.Errorf("read commit %s: %w", id, derr)
	}
	return c, err
}

func (b *batchReader) close() error {
	b.stdin.Close()
	return b.wait()
}

var (
	// ArgvMergeBase prints the best common ancestor of two commits.
	ArgvMergeBase = []string{"merge-base"}
	// ArgvIsAncestor exits 0 when the first commit is an ancestor of the
	// second (or the same), 1 when it is not.
	ArgvIsAncestor = []string{"merge-base", "--is-ancestor"}
	// ArgvResolveCommit prints the full id of the commit a revision
	// (appended, with ^{commit}) names, and fails with 1 on none.
	ArgvResolveCommit = []string{"rev-parse", "--verify", "--quiet", "--end-of-options"}
	// ArgvIsShallow prints whether the repository is a shallow clone.
	ArgvIsShallow = []string{"rev-parse", "--is-shallow-repository"}
	// ArgvRevListNotRemotes lists the commits of a ref that a remote does
	// not have; the commit and "--not --remotes=REMOTE" are appended.
	ArgvRevListNotRemotes = []string{"rev-list", "--reverse"}
)

// ReadSpecs reads "<rev>:<path>" objects in one git cat-file --batch; a
// spec that names nothing maps to nil.
func ReadSpecs(ctx context.Context, root string, specs []string) (map[string][]byte, error) {
	return ReadSpecsMax(ctx, root, specs, -1)
}

// ReadSpecsMax is ReadSpecs with a bound: an object larger than max bytes
// is not read (its content is skipped) and maps to nil, like one that is
// not there. A negative max reads any size.
func ReadSpecsMax(ctx context.Context, root string, specs []string, max int64) (map[string][]byte, error) {
	out := map[string][]byte{}
	if len(specs) == 0 {
		return out, nil
	}
	b, err := startBatch(ctx, &Git{Dir: root})
	if err != nil {
		return nil, err
	}
	defer b.close()
	for _, s := range specs {
		data, err := b.readMax(s, max)
		if errors.Is(err, ErrObjectNotFound) || errors.Is(err, errTooLarge) {
			out[s] = nil
			continue
		}
		if err != nil {
			return nil, err
		}
		out[s] = data
	}
	return out, nil
}

// MergeBase returns the best common ancestor of two commits, or "" when
// they have none.
func MergeBase(ctx context.Context, root, a, b string) (string, error) {
	out, err := (&Git{Dir: root}).run(ctx, nil, ArgvMergeBase, a, b)
	var ee *ExitError
	if errors.As(err, &ee) && ee.Code == 1 {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// HeadCommit returns the full id of the commit HEAD names; "" on an
// unborn branch.
func HeadCommit(ctx context.Context, root string) (string, error) {
	return ResolveCommit(ctx, root, "HEAD")
}

// ResolveCommit returns the full id of the commit rev names; "" when it
// names none.
func ResolveCommit(ctx context.Context, root, rev string) (string, error) {
	out, err := (&Git{Dir: root}).run(ctx, nil, ArgvResolveCommit, rev+"^{commit}")
	var ee *ExitError
	if errors.As(err, &ee) && ee.Code == 1 {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// IsAncestor reports whether commit a is b or one of its ancestors.
func IsAncestor(ctx context.Context, root, a, b string) (bool, error) {
	_, err := (&Git{Dir: root}).run(ctx, nil, ArgvIsAncestor, a, b)
	var ee *ExitError
	if errors.As(err, &ee) && ee.Code == 1 {
		return false, nil
	}
	return err == nil, err
}

// IsShallow reports whether the repository is a shallow clone.
func IsShallow(ctx context.Context, root string) bool {
	out, err := (&Git{Dir: root}).run(ctx, nil, ArgvIsShallow)
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// NotOnRemote lists, oldest first, the commits reachable from commit that
// no ref of the remote has, as the pre-commit framework computes them.
func NotOnRemote(ctx context.Context, root, commit, remote string) ([]string, error) {
	out, err := (&Git{Dir: root}).run(ctx, nil, ArgvRevListNotRemotes, commit, "--not", "--remotes="+remote)
	if err != nil {
		return nil, fmt.Errorf("list the commits %s does not have: %w", remote, err)
	}
	return strings.Fields(string(out)), nil
}
