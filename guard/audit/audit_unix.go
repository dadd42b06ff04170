//go:build unix

package audit

import (
	"errors"
	"os"
	"syscall"
)

// noFollow opens a trail file without following a symbolic link (the open
// fails instead), without blocking on a FIFO, and without leaking the
// descriptor into a checker.
const noFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC

// refuseLink has nothing to do where O_NOFOLLOW refuses links atomically.
func refuseLink(string) error { return nil }

// isLinkError reports the error O_NOFOLLOW gives for a symbolic link
// (FreeBSD says EMLINK).
func isLinkError(err error) bool {
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK)
}

// isFIFOError reports the error a non-blocking open for writing gives for
// a FIFO nobody reads.
func isFIFOError(err error) bool { return errors.Is(err, syscall.ENXIO) }

// tryLock takes an exclusive flock on f without waiting; false means
// another holds it. The kernel drops the lock when its holder dies.
func tryLock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EINTR) {
		return false, nil
	}
	return err == nil, err
}
