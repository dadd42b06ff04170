//go:build !linux

package gitrepo

import "os"

// lstatData is not implemented here: each system names the fields of its
// stat structure differently, so the work tree is compared by git.
func lstatData(string) (statData, bool) { return statData{}, false }

// fileMtime is a file's modification time, cut as git cuts it.
func fileMtime(fi os.FileInfo) (sec, nsec uint32) {
	t := fi.ModTime()
	return uint32(t.Unix()), uint32(t.Nanosecond())
}

// openRegular is not used where lstatData is not implemented.
func openRegular(string) (*os.File, error) { return nil, os.ErrInvalid }

// canStat says whether lstatData reads what git's stat cache holds.
const canStat = false
