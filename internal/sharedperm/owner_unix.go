//go:build unix

package sharedperm

import (
	"io/fs"
	"os"
	"os/user"
	"strconv"
	"syscall"
)

// adjust is Adjust on an open file: a link at path is not followed, and
// the file changed is the one whose owner was checked.
func adjust(path string, s Shared) error {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	perm := fs.FileMode(st.Mode & 0o777)
	want := s.File(perm)
	if st.Mode&syscall.S_IFMT == syscall.S_IFDIR {
		want = s.Dir(perm)
	}
	if int(st.Uid) != os.Geteuid() || Bits(want) == uint32(st.Mode&0o7777) {
		return nil
	}
	if err := syscall.Fchmod(fd, Bits(want)); err != nil {
		return &fs.PathError{Op: "chmod", Path: path, Err: err}
	}
	return nil
}

// ownerOf names a file's owner and group, by name where the system knows
// them, by number otherwise.
func ownerOf(fi fs.FileInfo) (owner, group string) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "its owner", "unknown"
	}
	owner = strconv.FormatUint(uint64(st.Uid), 10)
	if u, err := user.LookupId(owner); err == nil {
		owner = u.Username
	}
	group = strconv.FormatUint(uint64(st.Gid), 10)
	if g, err := user.LookupGroupId(group); err == nil {
		group = g.Name
	}
	return owner, group
}

// Bits is a mode as chmod(2) takes it: the permission bits, and S_ISGID
// for fs.ModeSetgid.
func Bits(m fs.FileMode) uint32 {
	u := uint32(m.Perm())
	if m&fs.ModeSetgid != 0 {
		u |= syscall.S_ISGID
	}
	return u
}
