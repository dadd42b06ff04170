//go:build !unix

package gitconfig

// devOwner is unknown here: git's ownership rules differ, so git decides.
func devOwner(path string) (dev uint64, uid uint32, err error) {
	return 0, 0, unsupported("ownership of %s is not checked on this system", path)
}
