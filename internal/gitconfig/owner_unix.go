//go:build unix

package gitconfig

import (
	"os"
	"syscall"
)

// devOwner returns the device and the owner of path.
func devOwner(path string) (dev uint64, uid uint32, err error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, 0, unsupported("stat %s: %v", path, err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, unsupported("no owner for %s", path)
	}
	return uint64(st.Dev), st.Uid, nil
}
