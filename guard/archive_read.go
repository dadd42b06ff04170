package guard

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The archive readers list entries' names and link targets, never their
// contents (but a zip symlink's, which is its target). They read a regular
// file only, opened without blocking (a FIFO put in its place is refused),
// within bounds of size, entries and time: the guard runs on every tool
// call, and an archive it cannot list in time is one whose entries are
// not known.

// archiveFormat is a format an archiver reads.
type archiveFormat uint8

const (
	formatTar  archiveFormat = iota // tar, plain or gzip or bzip2 compressed
	formatZip                       // zip, by its central directory
	formatCpio                      // cpio's portable ASCII formats
	formatAr                        // ar's common format, GNU and BSD names
)

// entryKind is what an entry makes.
type entryKind uint8

const (
	entryFile entryKind = iota // a file, a directory, anything else with a name
	entrySymlink
	entryHardlink
)

// archiveEntry is one entry of an archive: its name and, for a link, its
// target.
type archiveEntry struct {
	name, link string
	kind       entryKind
}

const (
	// maxArchiveFile bounds the archive file itself: a tar is skipped
	// through, and a zip read by its directory, so this is not what is
	// read.
	maxArchiveFile = 256 << 20
	// maxInflated bounds the bytes decompressed from a compressed tar.
	maxInflated = 32 << 20
	// archiveTime bounds the time spent listing one archive.
	archiveTime = 100 * time.Millisecond
)

// errArchiveBounds is an archive past the bounds.
var errArchiveBounds = errors.New("it is too large to list in time")

// listArchive lists the entries of the archive file at p in the first of
// formats it reads as, trying each: a file that reads as two formats
// holds the entries of both. A missing file is fs.ErrNotExist; any other
// error says, for a reason, why the entries are not known.
func listArchive(p string, formats []archiveFormat) ([]archiveEntry, error) {
	f, size, err := openArchive(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	deadline := time.Now().Add(archiveTime)
	var out []archiveEntry
	var firstErr error
	ok := false
	for _, fm := range formats {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		var es []archiveEntry
		switch fm {
		case formatTar:
			es, err = listTar(f, deadline)
		case formatZip:
			es, err = listZip(f, size)
		case formatCpio:
			es, err = listCpio(f, deadline)
		case formatAr:
			es, err = listAr(f, deadline)
		}
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		ok = true
		out = append(out, es...)
	}
	if !ok {
		return nil, firstErr
	}
	return out, nil
}

// openArchive opens a regular file of at most maxArchiveFile bytes,
// through links, without blocking on a FIFO.
func openArchive(p string) (*os.File, int64, error) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, 0, err
		}
		return nil, 0, fmt.Errorf("the guard cannot open it")
	}
	f, err := os.OpenFile(real, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, 0, fmt.Errorf("the guard cannot open it")
	}
	fi, err := f.Stat()
	switch {
	case err != nil || !fi.Mode().IsRegular():
		f.Close()
		return nil, 0, fmt.Errorf("it is not a regular file")
	case fi.Size() > maxArchiveFile:
		f.Close()
		return nil, 0, fmt.Errorf("it is larger than %d MiB", maxArchiveFile>>20)
	}
	return f, fi.Size(), nil
}

// compressions the guard does not decompress, by their magic numbers.
var unreadCompressions = []struct {
	magic []byte
	name  string
}{
	{[]byte{0xfd, '7', 'z', 'X', 'Z', 0}, "xz"},
	{[]byte{0x28, 0xb5, 0x2f, 0xfd}, "zstd"},
	{[]byte{0x1f, 0x9d}, "compress"},
	{[]byte("LZIP"), "lzip"},
	{[]byte{0x04, 0x22, 0x4d, 0x18}, "lz4"},
	{[]byte{0x89, 'L', 'Z', 'O'}, "lzop"},
	{[]byte{0x5d, 0, 0}, "lzma"},
}

// listTar lists a tar archive, decompressing gzip and bzip2 as tar -x
// does by itself; a tar that is not read to its end whole is an error,
// never a partial list, since tar writes the entries before the fault.
func listTar(f *os.File, deadline time.Time) ([]archiveEntry, error) {
	head := make([]byte, 6)
	n, _ := f.ReadAt(head, 0)
	head = head[:n]
	br := bufio.NewReaderSize(f, 64<<10)
	// Plain: the tar reader skips contents by seeking, in the buffer or
	// the file.
	var r io.Reader = &seekBuffer{f: f, br: br}
	switch {
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("its gzip stream does not read")
		}
		r = &boundedReader{r: zr, left: maxInflated, deadline: deadline}
	case bytes.HasPrefix(head, []byte("BZh")):
		r = &boundedReader{r: bzip2.NewReader(br), left: maxInflated, deadline: deadline}
	default:
		for _, c := range unreadCompressions {
			if bytes.HasPrefix(head, c.magic) {
				return nil, fmt.Errorf("it is compressed with %s, which the guard does not read", c.name)
			}
		}
	}
	tr := tar.NewReader(r)
	var out []archiveEntry
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil && !errors.Is(err, tar.ErrInsecurePath) {
			if errors.Is(err, errArchiveBounds) {
				return nil, err
			}
			return nil, fmt.Errorf("it does not read as a tar archive")
		}
		if len(out) > maxArchiveChecks || time.Now().After(deadline) {
			return nil, errArchiveBounds
		}
		en := archiveEntry{name: h.Name}
		switch h.Typeflag {
		case tar.TypeSymlink:
			en.kind, en.link = entrySymlink, h.Linkname
		case tar.TypeLink:
			en.kind, en.link = entryHardlink, h.Linkname
		}
		out = append(out, en)
	}
}

// seekBuffer is a file read through a buffer that seeks forward within
// the buffer where it can: the tar reader skips each entry's content with
// two seeks, which would otherwise be system calls.
type seekBuffer struct {
	f   *os.File
	br  *bufio.Reader
	pos int64
}

func (s *seekBuffer) Read(p []byte) (int, error) {
	n, err := s.br.Read(p)
	s.pos += int64(n)
	return n, err
}

func (s *seekBuffer) Seek(off int64, whence int) (int64, error) {
	if whence != io.SeekCurrent || off < 0 {
		return 0, errors.New("seekBuffer seeks forward only")
	}
	if off <= int64(s.br.Buffered()) {
		n, err := s.br.Discard(int(off))
		s.pos += int64(n)
		return s.pos, err
	}
	if _, err := s.f.Seek(s.pos+off, io.SeekStart); err != nil {
		return 0, err
	}
	s.br.Reset(s.f)
	s.pos += off
	return s.pos, nil
}

// boundedReader reads at most left bytes, until deadline.
type boundedReader struct {
	r        io.Reader
	left     int64
	deadline time.Time
	reads    int
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, errArchiveBounds
	}
	if b.reads++; b.reads%64 == 0 && time.Now().After(b.deadline) {
		return 0, errArchiveBounds
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

// maxZipLink bounds the read of a zip symlink's target.
const maxZipLink = 4096

// listZip lists a zip archive by its central directory, as unzip reads
// it; a symbolic link's target is its content.
func listZip(f *os.File, size int64) ([]archiveEntry, error) {
	zr, err := zip.NewReader(f, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, fmt.Errorf("it does not read as a zip archive")
	}
	if len(zr.File) > maxArchiveChecks {
		return nil, errArchiveBounds
	}
	out := make([]archiveEntry, 0, len(zr.File))
	for _, zf := range zr.File {
		en := archiveEntry{name: zf.Name}
		if zf.Mode()&fs.ModeSymlink != 0 {
			rc, err := zf.Open()
			if err != nil {
				return nil, fmt.Errorf("a link in it does not read")
			}
			b, err := io.ReadAll(io.LimitReader(rc, maxZipLink+1))
			rc.Close()
			if err != nil || len(b) > maxZipLink {
				return nil, fmt.Errorf("a link in it does not read")
			}
			en.kind, en.link = entrySymlink, string(b)
		}
		out = append(out, en)
	}
	return out, nil
}

// listCpio lists a cpio archive in the portable ASCII formats (newc, crc
// and odc); the old binary format is one the guard does not read.
func listCpio(f *os.File, deadline time.Time) ([]archiveEntry, error) {
	br := bufio.NewReader(f)
	var out []archiveEntry
	skip := func(n int64) error {
		_, err := br.Discard(int(n))
		return err
	}
	notCpio := fmt.Errorf("it does not read as a cpio archive the guard knows")
	for off := int64(0); ; {
		if len(out) > maxArchiveChecks || time.Now().After(deadline) {
			return nil, errArchiveBounds
		}
		magic := make([]byte, 6)
		if _, err := io.ReadFull(br, magic); err != nil {
			return nil, notCpio
		}
		var mode, nameLen, size int64
		var hdr int64
		switch string(magic) {
		case "070701", "070702":
			b := make([]byte, 104)
			if _, err := io.ReadFull(br, b); err != nil {
				return nil, notCpio
			}
			field := func(i int) int64 {
				v, err := strconv.ParseInt(string(b[i*8:i*8+8]), 16, 64)
				if err != nil {
					return -1
				}
				return v
			}
			mode, size, nameLen, hdr = field(1), field(6), field(11), 110
		case "070707":
			b := make([]byte, 70)
			if _, err := io.ReadFull(br, b); err != nil {
				return nil, notCpio
			}
			field := func(at, n int) int64 {
				v, err := strconv.ParseInt(string(b[at:at+n]), 8, 64)
				if err != nil {
					return -1
				}
				return v
			}
			mode, nameLen, size, hdr = field(12, 6), field(53, 6), field(59, 11), 76
		default:
			return nil, notCpio
		}
		if mode < 0 || size < 0 || nameLen <= 0 || nameLen > 1<<16 || off+hdr+nameLen+size > maxArchiveFile {
			return nil, notCpio
		}
		name := make([]byte, nameLen)
		if _, err := io.ReadFull(br, name); err != nil {
			return nil, notCpio
		}
		n := strings.TrimRight(string(name), "\x00")
		pad := func(x int64) int64 { return 0 }
		if hdr == 110 {
			pad = func(x int64) int64 { return (4 - x%4) % 4 }
		}
		if err := skip(pad(hdr + nameLen)); err != nil {
			return nil, notCpio
		}
		if n == "TRAILER!!!" {
			return out, nil
		}
		en := archiveEntry{name: n}
		if mode&0o170000 == 0o120000 && size <= maxZipLink {
			target := make([]byte, size)
			if _, err := io.ReadFull(br, target); err != nil {
				return nil, notCpio
			}
			en.kind, en.link = entrySymlink, string(target)
		} else if err := skip(size); err != nil {
			return nil, notCpio
		}
		if err := skip(pad(size)); err != nil {
			return nil, notCpio
		}
		off += hdr + nameLen + pad(hdr+nameLen) + size + pad(size)
		out = append(out, en)
	}
}

// maxArNames bounds ar's table of long names.
const maxArNames = 1 << 20

// listAr lists an ar archive's members: GNU's long names from the //
// table, BSD's #1/N names before the data. A thin archive, whose members
// are other files, is one the guard does not read.
func listAr(f *os.File, deadline time.Time) ([]archiveEntry, error) {
	br := bufio.NewReader(f)
	notAr := fmt.Errorf("it does not read as an ar archive the guard knows")
	magic := make([]byte, 8)
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != "!<arch>\n" {
		return nil, notAr
	}
	var out []archiveEntry
	var longNames string
	for {
		if len(out) > maxArchiveChecks || time.Now().After(deadline) {
			return nil, errArchiveBounds
		}
		h := make([]byte, 60)
		if _, err := io.ReadFull(br, h); err == io.EOF {
			return out, nil
		} else if err != nil || string(h[58:60]) != "`\n" {
			return nil, notAr
		}
		size, err := strconv.ParseInt(strings.TrimSpace(string(h[48:58])), 10, 64)
		if err != nil || size < 0 || size > maxArchiveFile {
			return nil, notAr
		}
		name := strings.TrimRight(string(h[:16]), " ")
		data := size + size%2
		switch {
		case name == "/" || name == "/SYM64/" || name == "__.SYMDEF" || name == "__.SYMDEF SORTED":
			name = "" // the symbol table
		case name == "//":
			if size > maxArNames {
				return nil, notAr
			}
			b := make([]byte, size)
			if _, err := io.ReadFull(br, b); err != nil {
				return nil, notAr
			}
			longNames, name, data = string(b), "", size%2
		case strings.HasPrefix(name, "#1/"):
			n, err := strconv.Atoi(name[3:])
			if err != nil || n < 0 || int64(n) > size || n > maxZipLink {
				return nil, notAr
			}
			b := make([]byte, n)
			if _, err := io.ReadFull(br, b); err != nil {
				return nil, notAr
			}
			name, data = strings.TrimRight(string(b), "\x00"), data-int64(n)
		case strings.HasPrefix(name, "/"):
			at, err := strconv.Atoi(name[1:])
			if err != nil || at < 0 || at >= len(longNames) {
				return nil, notAr
			}
			name = longNames[at:]
			if i := strings.Index(name, "/\n"); i >= 0 {
				name = name[:i]
			} else if i := strings.IndexByte(name, '\n'); i >= 0 {
				name = name[:i]
			}
		default:
			name = strings.TrimSuffix(name, "/")
		}
		if _, err := br.Discard(int(data)); err != nil {
			return nil, notAr
		}
		if name != "" {
			out = append(out, archiveEntry{name: name})
		}
	}
}
