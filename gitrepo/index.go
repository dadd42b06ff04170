package gitrepo

import (
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitsentinel/sentinel/internal/gitconfig"
)

// The index is read in-process because listing it through `git ls-files -s`
// and comparing it with the work tree through `git diff-files` were two
// processes and about a third of a warm count. The reader knows exactly the
// formats it accepts: versions 2 to 4, optional extensions, and entries of
// files, symbolic links and submodules. Anything else (a split or sparse
// index, an extension git requires that this reader does not know, a bad
// checksum, a cut file, GIT_DIR or GIT_WORK_TREE in the environment) is left
// to git itself, so the answer is git's in every case.

// errIndexUnread says the index is one the in-process reader leaves to git.
var errIndexUnread = errors.New("index left to git")

// statData is what git's stat cache keeps of a file, as it stores it: each
// field cut to 32 bits.
type statData struct {
	ctimeSec, ctimeNsec uint32
	mtimeSec, mtimeNsec uint32
	dev, ino            uint32
	mode                uint32
	uid, gid            uint32
	size                uint32
}

// Index entry flags, from git's read-cache.c.
const (
	flagAssumeValid  = 0x8000
	flagExtended     = 0x4000
	flagStageMask    = 0x3000
	flagNameMask     = 0x0fff
	extSkipWorktree  = 0x4000
	extIntentToAdd   = 0x2000
	extKnown         = extSkipWorktree | extIntentToAdd
	modeTypeMask     = 0o170000
	modeRegular      = 0o100000
	modeSymlink      = 0o120000
	modeGitlink      = 0o160000
	indexHeaderBytes = 12
)

// Index is git's index as read in-process: its entries in git's order, and
// what tells whether a work-tree file still matches its entry.
type Index struct {
	// Entries are the index's files, as `git ls-files -s` lists them.
	Entries []Entry
	stats   []statData
	ext     []uint16 // extended flags: skip-worktree, intent-to-add
	root    string
	// modified, when git compared the work tree, lists what it found.
	modified map[string]bool
	byGit    bool
	// mtime of the index file: an entry written in the same second or
	// later may have changed since without its stat data showing it.
	mtimeSec, mtimeNsec uint32
	// resolved says the index keeps resolve-undo records (REUC): a
	// conflict was resolved and staged since the merge began.
	resolved bool
}

// indexPath is the index file git would read for the work tree at root:
// GIT_INDEX_FILE (relative to the root, where git runs), or the git dir's.
// ok is false where git's own discovery could differ: GIT_DIR,
// GIT_WORK_TREE or GIT_COMMON_DIR set, anything odd at root/.git.
func indexPath(root string) (string, bool) {
	for _, v := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR"} {
		if os.Getenv(v) != "" {
			return "", false
		}
	}
	dir, err := gitconfig.WorkTreeGitDir(root)
	if err != nil {
		return "", false
	}
	if p := os.Getenv("GIT_INDEX_FILE"); p != "" {
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		return p, true
	}
	return filepath.Join(dir, "index"), true
}

// ReadIndex reads the index of the work tree info names, in-process. It
// returns errIndexUnread, wrapped, for an index it leaves to git; a missing
// index file is an empty index, as git reads it.
func ReadIndex(info *Info) (*Index, error) {
	hashLen := 20
	switch info.ObjectFormat {
	case "sha1":
	case "sha256":
		hashLen = 32
	default:
		return nil, fmt.Errorf("%w: object format %q", errIndexUnread, info.ObjectFormat)
	}
	p, ok := indexPath(info.Root)
	if !ok {
		return nil, unread("the git dir is not the work tree's .git")
	}
	f, err := os.Open(p)
	if errors.Is(err, os.ErrNotExist) {
		return &Index{Entries: []Entry{}, root: info.Root}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errIndexUnread, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 1<<31 {
		return nil, fmt.Errorf("%w: not a readable index file", errIndexUnread)
	}
	data := make([]byte, fi.Size())
	if _, err := readFull(f, data); err != nil {
		return nil, fmt.Errorf("%w: %v", errIndexUnread, err)
	}
	ix, err := parseIndex(data, hashLen)
	if err != nil {
		return nil, err
	}
	ix.root = info.Root
	ix.mtimeSec, ix.mtimeNsec = fileMtime(fi)
	return ix, nil
}

func readFull(f *os.File, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := f.Read(b[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// parseIndex decodes an index file. Every string is cut from one copy of
// the file and one of the hex object ids.
func parseIndex(data []byte, hashLen int) (*Index, error) {
	if len(data) < indexHeaderBytes+hashLen {
		return nil, unread("%d bytes", len(data))
	}
	if string(data[:4]) != "DIRC" {
		return nil, unread("no index signature")
	}
	version := binary.BigEndian.Uint32(data[4:])
	if version < 2 || version > 4 {
		return nil, unread("version %d", version)
	}
	body, sum := data[:len(data)-hashLen], data[len(data)-hashLen:]
	// index.skipHash writes zeros where the checksum goes. The sum is
	// checked beside the parse, on another core.
	sumOK := make(chan bool, 1)
	if strings.Trim(string(sum), "\x00") != "" {
		go func() {
			var h hash.Hash = sha1.New()
			if hashLen == 32 {
				h = sha256.New()
			}
			h.Write(body)
			sumOK <- string(h.Sum(nil)) == string(sum)
		}()
	} else {
		sumOK <- true
	}
	ix, err := parseIndexBody(body, hashLen, version)
	if !<-sumOK {
		return nil, unread("checksum mismatch")
	}
	return ix, err
}

// parseIndexBody decodes the entries and checks the extensions of an index
// whose header and size are known to be sound.
func parseIndexBody(body []byte, hashLen int, version uint32) (*Index, error) {
	n := binary.BigEndian.Uint32(body[8:])
	// An entry takes at least 62 bytes: a count beyond that is a lie,
	// and must not size an allocation.
	if uint64(n) > uint64(len(body))/40 {
		return nil, unread("%d entries in %d bytes", n, len(body))
	}
	all := string(body)
	hexIDs := make([]byte, int(n)*hashLen*2)
	ix := &Index{Entries: make([]Entry, 0, n), stats: make([]statData, 0, n), ext: make([]uint16, 0, n)}
	off := indexHeaderBytes
	prev := ""
	fixed := 40 + hashLen + 2
	for i := 0; i < int(n); i++ {
		if off+fixed > len(body) {
			return nil, unread("entry %d cut short", i)
		}
		b := body[off:]
		st := statData{
			ctimeSec: be32(b[0:]), ctimeNsec: be32(b[4:]),
			mtimeSec: be32(b[8:]), mtimeNsec: be32(b[12:]),
			dev: be32(b[16:]), ino: be32(b[20:]), mode: be32(b[24:]),
			uid: be32(b[28:]), gid: be32(b[32:]), size: be32(b[36:]),
		}
		id := b[40 : 40+hashLen]
		flags := binary.BigEndian.Uint16(b[40+hashLen:])
		p := fixed
		var ext uint16
		if flags&flagExtended != 0 {
			if version < 3 || p+2 > len(b) {
				return nil, unread("entry %d: extended flags in version %d", i, version)
			}
			ext = binary.BigEndian.Uint16(b[p:])
			p += 2
			if ext&^extKnown != 0 {
				return nil, unread("entry %d: unknown extended flags %#x", i, ext)
			}
		}
		var name string
		if version == 4 {
			strip, k := gitVarint(b[p:])
			if k == 0 || strip > uint64(len(prev)) {
				return nil, unread("entry %d: bad path prefix", i)
			}
			p += k
			nul := strings.IndexByte(all[off+p:], 0)
			if nul < 0 {
				return nil, unread("entry %d: path not terminated", i)
			}
			name = prev[:len(prev)-int(strip)] + all[off+p:off+p+nul]
			off += p + nul + 1
		} else {
			nul := strings.IndexByte(all[off+p:], 0)
			if nul < 0 {
				return nil, unread("entry %d: path not terminated", i)
			}
			name = all[off+p : off+p+nul]
			// Entries are padded with NULs to a multiple of eight bytes.
			off += (p + nul + 8) &^ 7
			if off > len(body) {
				return nil, unread("entry %d cut short", i)
			}
		}
		if l := int(flags & flagNameMask); l != flagNameMask && l != len(name) || l == flagNameMask && len(name) < flagNameMask {
			return nil, unread("entry %d: path length %d, flags say %d", i, len(name), l)
		}
		if !cleanIndexPath(name) || name <= prev && i > 0 && !(name == prev && stageOf(flags) > ix.Entries[i-1].Stage) {
			return nil, unread("entry %d: path %q out of order or not clean", i, name)
		}
		var mode string
		switch st.mode & modeTypeMask {
		case modeRegular:
			switch st.mode &^ modeTypeMask {
			case 0o644:
				mode = "100644"
			case 0o755:
				mode = "100755"
			default:
				return nil, unread("entry %d: mode %o", i, st.mode)
			}
		case modeSymlink:
			mode = "120000"
		case modeGitlink:
			mode = "160000"
		default: // a sparse index's directories, or worse
			return nil, unread("entry %d: mode %o", i, st.mode)
		}
		if st.mode&^modeTypeMask != 0 && mode != "100644" && mode != "100755" {
			return nil, unread("entry %d: mode %o", i, st.mode)
		}
		h := hexIDs[i*hashLen*2 : (i+1)*hashLen*2]
		hex.Encode(h, id)
		ix.Entries = append(ix.Entries, Entry{Path: name, Mode: mode, Stage: stageOf(flags)})
		ix.stats = append(ix.stats, st)
		ix.ext = append(ix.ext, ext|flags&flagAssumeValid)
		prev = name
	}
	for off < len(body) {
		if off+8 > len(body) {
			return nil, unread("extension header cut short")
		}
		sig := body[off : off+4]
		size := be32(body[off+4:])
		// An extension whose name starts with a capital is optional;
		// any other (a split index's "link", a sparse index's "sdir")
		// changes what the entries mean.
		if sig[0] < 'A' || sig[0] > 'Z' {
			return nil, unread("required extension %q", sig)
		}
		if uint64(size) > uint64(len(body)-off-8) {
			return nil, unread("extension %q cut short", sig)
		}
		if string(sig) == "REUC" && size > 0 {
			ix.resolved = true
		}
		off += 8 + int(size)
	}
	ids := string(hexIDs)
	for i := range ix.Entries {
		ix.Entries[i].Blob = ids[i*hashLen*2 : (i+1)*hashLen*2]
	}
	return ix, nil
}

// unread is an index the reader leaves to git, and why.
func unread(format string, a ...any) error {
	return fmt.Errorf("%w: %s", errIndexUnread, fmt.Sprintf(format, a...))
}

func be32(b []byte) uint32 { return binary.BigEndian.Uint32(b) }

func stageOf(flags uint16) int { return int(flags&flagStageMask) >> 12 }

// gitVarint decodes git's offset varint (varint.c), which differs from
// LEB128: each continuation adds one before the shift. k is 0 when the
// number is cut short or overflows.
func gitVarint(b []byte) (v uint64, k int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	v = uint64(c & 127)
	k = 1
	for c&128 != 0 {
		v++
		if v == 0 || v>>(64-7) != 0 || k >= len(b) {
			return 0, 0
		}
		c = b[k]
		k++
		v = v<<7 + uint64(c&127)
	}
	return v, k
}

// cleanIndexPath accepts the paths git itself writes: relative, slash-
// separated, no empty, "." or ".." component, no ".git" directory.
func cleanIndexPath(p string) bool {
	if p == "" {
		return false
	}
	start := 0
	for i := 0; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		switch part := p[start:i]; len(part) {
		case 0:
			return false
		case 1:
			if part == "." {
				return false
			}
		case 2:
			if part == ".." {
				return false
			}
		case 4:
			if part[0] == '.' && (part[1]|0x20) == 'g' && (part[2]|0x20) == 'i' && (part[3]|0x20) == 't' {
				return false
			}
		}
		start = i + 1
	}
	return true
}

// Changed reports whether the work-tree file of entry i may differ from
// the index: git's stat comparison (diff-files without a refresh), made
// stricter where git trusts a flag. A file whose stat data does not match,
// that was written in the same second as the index or later, that is gone
// (unless sparse checkout keeps it out of the work tree), or that is only
// intended to be added counts as changed; its content then decides. The
// assume-unchanged flag is not trusted: the work tree's content is what is
// counted.
func (ix *Index) Changed(i int) bool {
	if ix.byGit {
		return ix.Entries[i].Stage != 0 || ix.modified[ix.Entries[i].Path]
	}
	e, st := &ix.Entries[i], &ix.stats[i]
	if e.Stage != 0 || ix.ext[i]&extIntentToAdd != 0 {
		return true
	}
	if e.Mode == "160000" {
		return false // a submodule: never counted, whatever its state
	}
	now, ok := lstatData(filepath.Join(ix.root, filepath.FromSlash(e.Path)))
	if !ok {
		return ix.ext[i]&extSkipWorktree == 0
	}
	if now.mode&modeTypeMask != st.mode&modeTypeMask || (now.mode^st.mode)&0o100 != 0 && st.mode&modeTypeMask == modeRegular {
		return true
	}
	if !sameStat(st, &now) {
		return true
	}
	// Racily clean: written no earlier than the index, so a change in
	// the same tick would not show in the stat data. git compares the
	// content then, and so does this.
	if ix.racy(st) {
		return !ix.sameContent(e)
	}
	return false
}

// sameStat reports whether a file's stat data is what the index recorded.
func sameStat(st, now *statData) bool {
	if now.size != st.size || now.ino != st.ino || now.uid != st.uid || now.gid != st.gid ||
		now.mtimeSec != st.mtimeSec || now.ctimeSec != st.ctimeSec {
		return false
	}
	// A git that keeps no nanoseconds writes zeros, and compares seconds.
	return !(st.mtimeNsec != 0 && now.mtimeNsec != st.mtimeNsec || st.ctimeNsec != 0 && now.ctimeNsec != st.ctimeNsec)
}

// racy reports an entry written no earlier than the index itself.
func (ix *Index) racy(st *statData) bool { return st.mtimeSec >= ix.mtimeSec }

// sameContent hashes the work-tree file as git hashes a blob, without
// filters, and compares it with the entry's: equal means unchanged for
// certain; different may still be a filter's doing, and counts as changed.
func (ix *Index) sameContent(e *Entry) bool {
	p := filepath.Join(ix.root, filepath.FromSlash(e.Path))
	var h hash.Hash = sha1.New()
	if len(e.Blob) == 64 {
		h = sha256.New()
	}
	if e.Mode == "120000" {
		target, err := os.Readlink(p)
		if err != nil {
			return false
		}
		fmt.Fprintf(h, "blob %d\x00%s", len(target), target)
		return hex.EncodeToString(h.Sum(nil)) == e.Blob
	}
	f, err := openRegular(p)
	if err != nil {
		return false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	fmt.Fprintf(h, "blob %d\x00", fi.Size())
	if n, err := io.Copy(h, f); err != nil || n != fi.Size() {
		return false
	}
	return hex.EncodeToString(h.Sum(nil)) == e.Blob
}

// IndexEntries lists the index git would commit, honouring GIT_INDEX_FILE:
// read in-process where the index is one the reader knows, by git
// otherwise.
func IndexEntries(ctx context.Context, info *Info) ([]Entry, error) {
	if ix, err := ReadIndex(info); err == nil {
		return ix.Entries, nil
	}
	return IndexEntriesGit(ctx, info.Root)
}

// WorkTreeIndex reads the index and what tells which work-tree files may
// differ from it: in-process where it can, otherwise through `git ls-files`
// and `git diff-files`, run at once.
func WorkTreeIndex(ctx context.Context, info *Info) (*Index, error) {
	if canStat {
		if ix, err := ReadIndex(info); err == nil {
			return ix, nil
		}
	}
	var modified map[string]bool
	var modErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		modified, modErr = ModifiedFiles(ctx, info.Root)
	}()
	es, err := IndexEntriesGit(ctx, info.Root)
	<-done
	if err != nil {
		return nil, err
	}
	if modErr != nil {
		return nil, modErr
	}
	return &Index{Entries: es, modified: modified, byGit: true, root: info.Root}, nil
}
