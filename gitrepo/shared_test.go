//go:build unix

package gitrepo

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/internal/gittest"
	"github.com/gitsentinel/sentinel/internal/sharedperm"
)

// TestSharedRepository reads core.sharedRepository as git does, in-process
// and through git config (which a setting on git's command line calls
// for): the last value, a key without '=' as group, unset as the umask,
// and a value git refuses as an error with the setting that works.
func TestSharedRepository(t *testing.T) {
	dir := gittest.Repo(t)
	config := filepath.Join(dir, ".git", "config")
	base, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, lines string
		want        sharedperm.Shared
		err         bool
	}{
		{"unset", "", sharedperm.Umask, false},
		{"group", "[core]\n\tsharedRepository = group\n", sharedperm.Group, false},
		{"the last value", "[core]\n\tsharedRepository = group\n\tsharedRepository = 0640\n", sharedperm.Mode(0o640), false},
		{"no value", "[core]\n\tsharedRepository\n", sharedperm.Group, false},
		{"an empty value", "[core]\n\tsharedRepository =\n", sharedperm.Umask, false},
		{"refused", "[core]\n\tsharedRepository = 0444\n", sharedperm.Umask, true},
	} {
		if err := os.WriteFile(config, append(append([]byte(nil), base...), tc.lines...), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, via := range []string{"in-process", "git config"} {
			if via == "git config" {
				t.Setenv("GIT_CONFIG_PARAMETERS", "'x.y=z'")
			}
			got, err := SharedRepository(context.Background(), dir)
			if (err != nil) != tc.err || got != tc.want {
				t.Errorf("%s, %s: %o, %v; want %o, error %v", tc.name, via, got, err, tc.want, tc.err)
			}
			if err != nil && !strings.HasSuffix(err.Error(), "run `git config core.sharedRepository group`") {
				t.Errorf("%s, %s: %v names no fix", tc.name, via, err)
			}
		}
		os.Unsetenv("GIT_CONFIG_PARAMETERS")
	}
}

// TestLockRepositoryShared checks that the repository's lock follows
// core.sharedRepository: with group, the group may write the lock and
// its directory, whatever the umask.
func TestLockRepositoryShared(t *testing.T) {
	dir := gittest.Repo(t)
	gitT(t, dir, "config", "core.sharedRepository", "group")
	common := filepath.Join(dir, ".git")
	unlock, err := LockRepository(context.Background(), dir, common)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	for path, want := range map[string]fs.FileMode{"sentinel": 0o070 | fs.ModeSetgid, "sentinel/lock": 0o060} {
		fi, err := os.Stat(filepath.Join(common, path))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode()&want != want {
			t.Errorf("%s is %v, want %v among its bits", path, fi.Mode(), want)
		}
	}
}
