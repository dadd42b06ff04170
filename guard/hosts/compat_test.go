package hosts

import (
	"os"
	"testing"
)

// For this commit only, the dialects' test runs as it was written in
// package guard, from guard/ with its fixtures one directory up, so that
// the ratchet knows the moved test by its body; the next commit writes its
// path for this package in place.
func TestMain(m *testing.M) {
	if err := os.Chdir(".."); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}
