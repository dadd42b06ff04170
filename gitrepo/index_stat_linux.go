//go:build linux

package gitrepo

import (
	"os"
	"syscall"
)

// lstatData is a file's stat data as git keeps it, cut to 32 bits.
func lstatData(name string) (statData, bool) {
	var st syscall.Stat_t
	for {
		err := syscall.Lstat(name, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return statData{}, false
		}
		break
	}
	return statData{
		ctimeSec: uint32(st.Ctim.Sec), ctimeNsec: uint32(st.Ctim.Nsec),
		mtimeSec: uint32(st.Mtim.Sec), mtimeNsec: uint32(st.Mtim.Nsec),
		dev: uint32(st.Dev), ino: uint32(st.Ino), mode: st.Mode,
		uid: st.Uid, gid: st.Gid, size: uint32(st.Size),
	}, true
}

// fileMtime is a file's modification time, cut as git cuts it.
func fileMtime(fi os.FileInfo) (sec, nsec uint32) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint32(st.Mtim.Sec), uint32(st.Mtim.Nsec)
	}
	t := fi.ModTime()
	return uint32(t.Unix()), uint32(t.Nanosecond())
}

// openRegular opens a file for reading only if it is a regular file, not
// following a link and not blocking on a FIFO put there since it was
// stat'ed.
func openRegular(name string) (*os.File, error) {
	fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), name)
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, os.ErrInvalid
	}
	return f, nil
}

// canStat says whether lstatData reads what git's stat cache holds.
const canStat = true
