// Package filelock serialises sentinel's read-modify-write updates with an
// operating-system lock on a file. The lock belongs to the open file, so
// it dies with its holder: a process killed by any signal, or a crash,
// leaves at most a lock file that nobody holds, which never blocks. The
// lock file itself is never removed, because removing it would let two
// processes hold locks on two different files of the same name.
package filelock

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gitsentinel/sentinel/internal/sharedperm"
)

// ErrBusy is returned when another process holds the lock past the
// timeout.
var ErrBusy = errors.New("another sentinel is updating these files")

// poll is how often a waiter tries again.
const poll = 10 * time.Millisecond

// Lock takes the exclusive lock on the file at path, creating it (and not
// following a symbolic link there), and waits up to timeout for a holder
// to let go. The returned function releases it.
func Lock(ctx context.Context, path string, timeout time.Duration) (func(), error) {
	return lock(ctx, path, timeout, sharedperm.Umask)
}

func lock(ctx context.Context, path string, timeout time.Duration, shared sharedperm.Shared) (func(), error) {
	deadline := time.Now().Add(timeout)
	for {
		unlock, busy, err := tryLock(path, shared)
		if err != nil {
			// Creating the file needs its directory writable, opening it
			// the file readable.
			denied := path
			if errors.Is(err, fs.ErrPermission) {
				if _, serr := os.Lstat(path); serr != nil {
					denied = filepath.Dir(path)
				}
			}
			return nil, fmt.Errorf("lock %s: %w", path, sharedperm.Denied(denied, err))
		}
		if !busy {
			return unlock, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%w: %s is still locked after %s; wait for the other sentinel to finish, then run the command again", ErrBusy, path, timeout)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(poll):
		}
	}
}

// RepositoryTimeout is how long a sentinel waits for another to finish
// updating a repository's files. A hook waits no longer than a person
// would.
const RepositoryTimeout = 10 * time.Second

// Repository takes the lock that serialises every read-modify-write of the
// files sentinel keeps in one repository and its linked worktrees (the
// baseline, .gitattributes, the project's agent settings). It lives in
// the git common directory, which git never commits; shared is the
// repository's core.sharedRepository, which the directory and the lock
// file follow as git's own files do, so that everyone who commits can
// take the lock. A directory or lock file this user made before without
// the mode shared asks for is given it.
func Repository(ctx context.Context, commonDir string, shared sharedperm.Shared) (func(), error) {
	dir := filepath.Join(commonDir, "sentinel")
	if err := os.Mkdir(dir, 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("lock the repository: %w", sharedperm.Denied(commonDir, err))
	}
	shared.Adjust(dir)
	return lock(ctx, filepath.Join(dir, "lock"), RepositoryTimeout, shared)
}
