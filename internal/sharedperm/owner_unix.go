//go:build unix

package sharedperm

import (
	"io/fs"
	"os"
	"os/user"
	"strconv"
	"syscall"
)

// owned reports whether this user owns the file.
func owned(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
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
