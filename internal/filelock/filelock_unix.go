//go:build unix

package filelock

import (
	"errors"

	"golang.org/x/sys/unix"
)

func tryLock(path string) (func(), bool, error) {
	fd, err := unix.Open(path, unix.O_RDWR|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0o644)
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
	if err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		unix.Close(fd)
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, true, nil
		}
		return nil, false, err
	}
	return func() { unix.Close(fd) }, false, nil
}
