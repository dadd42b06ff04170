//go:build !linux

package chaos

// becomeSubreaper does nothing here: the system's init reaps orphans.
func becomeSubreaper() {}
