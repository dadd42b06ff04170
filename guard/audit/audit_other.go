//go:build !unix

package audit

import (
	"fmt"
	"io/fs"
	"os"
)

// noFollow has no portable equivalent here; refuseLink checks instead.
const noFollow = 0

// refuseLink refuses a symbolic link at path. Unlike O_NOFOLLOW it leaves a
// moment between the check and the open.
func refuseLink(path string) error {
	if st, err := os.Lstat(path); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symbolic link; the guard never writes its trail through one: delete it", path)
	}
	return nil
}

func isLinkError(error) bool { return false }

func isFIFOError(error) bool { return false }

// tryLock has no flock here: each record is still one write on a
// descriptor opened for appending.
func tryLock(*os.File) (bool, error) { return true, nil }
