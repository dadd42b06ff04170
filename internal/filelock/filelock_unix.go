//go:build unix

package filelock

import (
	"errors"
	"io/fs"

	"github.com/gitsentinel/sentinel/internal/sharedperm"
	"golang.org/x/sys/unix"
)

// tryLock opens the lock file, creating it with the mode a plain create
// gives (adjusted by shared, as git adjusts its own files), and tries the
// lock. A lock file this user may only read still locks: flock needs no
// write access, so a lock file another user made without sharing it
// blocks nobody.
func tryLock(path string, shared sharedperm.Shared) (func(), bool, error) {
	const flags = unix.O_CREAT | unix.O_NOFOLLOW | unix.O_CLOEXEC | unix.O_NONBLOCK
	fd, err := unix.Open(path, unix.O_RDWR|flags, 0o666)
	readOnly := false
	if errors.Is(err, unix.EACCES) {
		if rfd, rerr := unix.Open(path, unix.O_RDONLY|flags, 0o666); rerr == nil {
			fd, err, readOnly = rfd, nil, true
		}
	}
	if err != nil {
		return nil, false, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || uint32(st.Mode)&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		if err == nil {
			err = errors.New("not a regular file")
		}
		return nil, false, err
	}
	if want := sharedperm.Bits(shared.File(fs.FileMode(st.Mode & 0o777))); st.Uid == uint32(unix.Geteuid()) && want != st.Mode&0o7777 {
		// As git's adjust_shared_perm; a lock file of another user's is
		// taken as it is.
		unix.Fchmod(fd, want)
	}
	if err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		unix.Close(fd)
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, true, nil
		}
		if readOnly {
			// Where flock is an fcntl lock (NFS), an exclusive lock
			// needs the file open for writing: that is what failed.
			return nil, false, unix.EACCES
		}
		return nil, false, err
	}
	return func() { unix.Close(fd) }, false, nil
}
