//go:build unix

package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/gitsentinel/sentinel/internal/sharedperm"
	"golang.org/x/sys/unix"
)

// WriteIn replaces the file rel below root with data, atomically. No part
// of rel is followed if it is a symbolic link; root itself is taken as it
// is. Stale temporary files in the target's directory are removed first.
func WriteIn(root, rel string, data []byte, o Options) error {
	parts, err := splitRel(rel)
	if err != nil {
		return err
	}
	dir := filepath.Join(append([]string{root}, parts[:len(parts)-1]...)...)
	dfd, err := openDir(root, parts[:len(parts)-1], o.MkdirAll, o.Shared)
	if err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	defer unix.Close(dfd)
	base := parts[len(parts)-1]
	sweep(dfd)
	m := fileMode{create: o.Perm.Perm(), shared: o.Shared}
	if o.ForceMode {
		m.exact = true
	}
	var st unix.Stat_t
	switch err := unix.Fstatat(dfd, base, &st, unix.AT_SYMLINK_NOFOLLOW); {
	case err == nil && o.ReplaceLink && uint32(st.Mode)&unix.S_IFMT == unix.S_IFLNK:
	case err == nil:
		if what := oddFile(uint32(st.Mode)); what != "" {
			return &LinkError{Path: rel, What: what}
		}
		if !o.ForceMode {
			m.create, m.exact = fs.FileMode(st.Mode&0o777), true
		}
	case errors.Is(err, unix.ENOENT):
	default:
		return fmt.Errorf("write %s: %w", rel, err)
	}
	// A sweeper in another process may remove our temporary file in the
	// instant between its creation and its lock; the rename then fails
	// with ENOENT, and writing again is safe.
	for try := 0; ; try++ {
		err := writeTemp(dfd, base, data, m, o.Transient)
		if errors.Is(err, unix.ENOENT) && try < 3 {
			continue
		}
		if err != nil {
			// The temporary file and the rename need the directory
			// writable; that is what a refusal is about.
			return fmt.Errorf("write %s: %w", rel, sharedperm.Denied(dir, err))
		}
		return nil
	}
}

// fileMode is the mode a written file ends with.
type fileMode struct {
	// create is the mode the temporary file is created with: trimmed by
	// the umask unless exact is set, when it is the mode itself (an
	// existing file's, or ForceMode's).
	create fs.FileMode
	exact  bool
	// shared adjusts the result as git adjusts its own files'.
	shared sharedperm.Shared
}

func writeTemp(dfd int, base string, data []byte, m fileMode, transient bool) (err error) {
	var name string
	var fd int
	for {
		var rnd [6]byte
		if _, err := rand.Read(rnd[:]); err != nil {
			return err
		}
		name = "." + base + TempMarker + hex.EncodeToString(rnd[:])
		perm := uint32(m.create)
		if m.exact {
			perm = 0o600 // until the mode is set below
		}
		fd, err = unix.Openat(dfd, name, unix.O_CREAT|unix.O_EXCL|unix.O_WRONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, perm)
		if errors.Is(err, unix.EEXIST) {
			continue
		}
		if err != nil {
			return err
		}
		break
	}
	f := os.NewFile(uintptr(fd), name)
	defer func() {
		f.Close()
		if err != nil {
			unix.Unlinkat(dfd, name, 0)
		}
	}()
	// The lock dies with this process: a sweeper that can take it knows
	// the writer is gone.
	if err = unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		return err
	}
	if _, err = f.Write(data); err != nil {
		return err
	}
	// A new file has the mode the umask left of create, as a plain
	// create would; an exact one is set. Either is then adjusted as git
	// adjusts its own under core.sharedRepository.
	mode := m.create
	if !m.exact {
		var st unix.Stat_t
		if err = unix.Fstat(fd, &st); err != nil {
			return err
		}
		mode = fs.FileMode(st.Mode & 0o777)
	}
	if final := m.shared.File(mode); m.exact || final != mode {
		if err = f.Chmod(final); err != nil {
			return err
		}
	}
	if !transient {
		if err = f.Sync(); err != nil {
			return err
		}
	}
	if err = unix.Renameat(dfd, name, dfd, base); err != nil {
		return err
	}
	if !transient {
		// The rename is durable only once the directory is.
		unix.Fsync(dfd)
	}
	return nil
}

// ReadIn reads the regular file rel below root without following a link
// in any part of rel, and without blocking on a FIFO or a device. A file
// over limit bytes (limit > 0) is ErrTooLarge. A missing file is
// fs.ErrNotExist.
func ReadIn(root, rel string, limit int64) ([]byte, error) {
	parts, err := splitRel(rel)
	if err != nil {
		return nil, err
	}
	dfd, err := openDir(root, parts[:len(parts)-1], false, sharedperm.Umask)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	defer unix.Close(dfd)
	fd, err := unix.Openat(dfd, parts[len(parts)-1], unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EMLINK) {
			return nil, &LinkError{Path: rel, What: "a symbolic link"}
		}
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	f := os.NewFile(uintptr(fd), rel)
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	if what := oddFile(uint32(st.Mode)); what != "" {
		return nil, &LinkError{Path: rel, What: what}
	}
	if limit > 0 && st.Size > limit {
		return nil, fmt.Errorf("read %s: %w (%d bytes, the limit is %d)", rel, ErrTooLarge, st.Size, limit)
	}
	var r io.Reader = f
	if limit > 0 {
		r = io.LimitReader(f, limit+1)
	}
	data, err := readSized(r, st.Size)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	if limit > 0 && int64(len(data)) > limit {
		return nil, fmt.Errorf("read %s: %w (the limit is %d bytes)", rel, ErrTooLarge, limit)
	}
	return data, nil
}

// Lstat reports what is at rel below root without following links: a
// regular file's size and mode, or a LinkError for anything else.
func Lstat(root, rel string) (fs.FileMode, int64, error) {
	parts, err := splitRel(rel)
	if err != nil {
		return 0, 0, err
	}
	dfd, err := openDir(root, parts[:len(parts)-1], false, sharedperm.Umask)
	if err != nil {
		return 0, 0, err
	}
	defer unix.Close(dfd)
	var st unix.Stat_t
	if err := unix.Fstatat(dfd, parts[len(parts)-1], &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		if errors.Is(err, unix.ENOENT) {
			return 0, 0, fs.ErrNotExist
		}
		return 0, 0, err
	}
	if what := oddFile(uint32(st.Mode)); what != "" {
		return 0, 0, &LinkError{Path: rel, What: what}
	}
	return fs.FileMode(st.Mode & 0o777), st.Size, nil
}

// Sweep removes the temporary files that killed writers left in the
// directory rel below root ("" or "." for root itself), and returns their
// names. A temporary file still locked by its writer stays.
func Sweep(root, rel string) []string {
	var parts []string
	if rel != "" && rel != "." {
		var err error
		if parts, err = splitRel(rel); err != nil {
			return nil
		}
	}
	dfd, err := openDir(root, parts, false, sharedperm.Umask)
	if err != nil {
		return nil
	}
	defer unix.Close(dfd)
	var out []string
	for _, n := range sweep(dfd) {
		out = append(out, path.Join(append(parts, n)...))
	}
	return out
}

// legacyAge is how old a temporary file of an older sentinel, which did
// not lock it, must be before it is taken for abandoned.
const legacyAge = 10 * time.Second

func sweep(dfd int) []string {
	dup, err := unix.Dup(dfd)
	if err != nil {
		return nil
	}
	d := os.NewFile(uintptr(dup), ".")
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	var removed []string
	for _, n := range names {
		if !IsTemp(n) {
			continue
		}
		fd, err := unix.Openat(dfd, n, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		var st unix.Stat_t
		ok := unix.Fstat(fd, &st) == nil && uint32(st.Mode)&unix.S_IFMT == unix.S_IFREG &&
			unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB) == nil
		if ok && !strings.Contains(n, TempMarker) {
			ok = time.Since(time.Unix(st.Mtim.Unix())) > legacyAge
		}
		if ok && unix.Unlinkat(dfd, n, 0) == nil {
			removed = append(removed, n)
		}
		unix.Close(fd)
	}
	return removed
}

// openDir opens root, then each of dirs below it without following links,
// creating missing ones when mkdir is set: with the mode git's mkdir gives
// them, 0777 less the umask, adjusted by shared as git adjusts its own.
func openDir(root string, dirs []string, mkdir bool, shared sharedperm.Shared) (int, error) {
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, sharedperm.Denied(root, &fs.PathError{Op: "open", Path: root, Err: err})
	}
	for i, d := range dirs {
		made := false
		if mkdir {
			err := unix.Mkdirat(fd, d, 0o777)
			if err != nil && !errors.Is(err, unix.EEXIST) {
				unix.Close(fd)
				return -1, sharedperm.Denied(filepath.Join(append([]string{root}, dirs[:i]...)...), &fs.PathError{Op: "mkdir", Path: path.Join(dirs[:i+1]...), Err: err})
			}
			made = err == nil
		}
		nfd, err := unix.Openat(fd, d, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err == nil && made && shared != sharedperm.Umask {
			// As git's adjust_shared_perm, best effort: the directory is
			// this process's own.
			var st unix.Stat_t
			if unix.Fstat(nfd, &st) == nil {
				unix.Fchmod(nfd, sharedperm.Bits(shared.Dir(fs.FileMode(st.Mode&0o777))))
			}
		}
		if err != nil {
			var st unix.Stat_t
			if serr := unix.Fstatat(fd, d, &st, unix.AT_SYMLINK_NOFOLLOW); serr == nil {
				if what := oddDir(uint32(st.Mode)); what != "" {
					unix.Close(fd)
					return -1, &LinkError{Path: path.Join(dirs[:i+1]...), What: what}
				}
			}
			unix.Close(fd)
			if errors.Is(err, unix.ENOENT) {
				return -1, &fs.PathError{Op: "open", Path: path.Join(dirs[:i+1]...), Err: fs.ErrNotExist}
			}
			return -1, sharedperm.Denied(filepath.Join(append([]string{root}, dirs[:i+1]...)...), &fs.PathError{Op: "open", Path: path.Join(dirs[:i+1]...), Err: err})
		}
		unix.Close(fd)
		fd = nfd
	}
	return fd, nil
}

func oddFile(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return ""
	case unix.S_IFLNK:
		return "a symbolic link"
	case unix.S_IFDIR:
		return "a directory"
	}
	return "not a regular file"
}

func oddDir(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return ""
	case unix.S_IFLNK:
		return "a symbolic link"
	}
	return "not a directory"
}

// RemoveIn removes the regular file rel below root without following a
// link in any part of rel; a missing file is no error.
func RemoveIn(root, rel string) error {
	if _, _, err := Lstat(root, rel); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	parts, _ := splitRel(rel)
	dfd, err := openDir(root, parts[:len(parts)-1], false, sharedperm.Umask)
	if err != nil {
		return err
	}
	defer unix.Close(dfd)
	if err := unix.Unlinkat(dfd, parts[len(parts)-1], 0); err != nil && !errors.Is(err, unix.ENOENT) {
		return fmt.Errorf("remove %s: %w", rel, err)
	}
	return nil
}

// readSized reads r to its end into a buffer the size the file had when it
// was opened, plus one byte to see the end: a file read whole on every run
// (the count cache) is then not copied as the buffer grows. A file that
// grew meanwhile is still read whole.
func readSized(r io.Reader, size int64) ([]byte, error) {
	if size <= 0 || size > 1<<30 {
		return io.ReadAll(r)
	}
	buf := make([]byte, 0, size+1)
	for {
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
	}
}

// ReadDirIn lists the names in the directory rel below root, without
// following a link in any part of rel, leaving out the temporary files of
// writers. A missing directory is an empty list.
func ReadDirIn(root, rel string) ([]string, error) {
	parts, err := splitRel(rel)
	if err != nil {
		return nil, err
	}
	dfd, err := openDir(root, parts, false, sharedperm.Umask)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	d := os.NewFile(uintptr(dfd), rel)
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", rel, err)
	}
	out := names[:0]
	for _, n := range names {
		if !IsTemp(n) {
			out = append(out, n)
		}
	}
	return out, nil
}
