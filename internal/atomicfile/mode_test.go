//go:build unix

package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gitsentinel/sentinel/internal/sharedperm"
	"github.com/gitsentinel/sentinel/internal/usertest"
)

// withUmask runs f under the umask u, the process's: the tests that call
// it do not run in parallel.
func withUmask(t *testing.T, u int, f func()) {
	t.Helper()
	old := syscall.Umask(u)
	defer syscall.Umask(old)
	f()
}

func modeOf(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode() & (fs.ModePerm | fs.ModeSetgid)
}

// TestModeFollowsUmask checks that a new file and the directories made
// for it end with the mode a plain create and mkdir would give them under
// the umask (0666 and 0777 less it), where they got 0644 and 0755 whatever
// the umask; that an existing file keeps its mode; and that ForceMode is
// the mode itself.
func TestModeFollowsUmask(t *testing.T) {
	for _, tc := range []struct {
		umask     int
		file, dir fs.FileMode
	}{
		{0o022, 0o644, 0o755},
		{0o002, 0o664, 0o775},
		{0o077, 0o600, 0o700},
	} {
		withUmask(t, tc.umask, func() {
			root := t.TempDir()
			if err := WriteIn(root, "a/b/new", []byte("x"), Options{Perm: 0o666, MkdirAll: true}); err != nil {
				t.Fatal(err)
			}
			if got := modeOf(t, filepath.Join(root, "a/b/new")); got != tc.file {
				t.Errorf("umask %03o: new file %v, want %v", tc.umask, got, tc.file)
			}
			for _, d := range []string{"a", "a/b"} {
				if got := modeOf(t, filepath.Join(root, d)); got != tc.dir {
					t.Errorf("umask %03o: directory %s %v, want %v", tc.umask, d, got, tc.dir)
				}
			}
			if err := os.Chmod(filepath.Join(root, "a/b/new"), 0o640); err != nil {
				t.Fatal(err)
			}
			if err := WriteIn(root, "a/b/new", []byte("y"), Options{Perm: 0o666}); err != nil {
				t.Fatal(err)
			}
			if got := modeOf(t, filepath.Join(root, "a/b/new")); got != 0o640 {
				t.Errorf("umask %03o: an existing file became %v, want it to keep -rw-r-----", tc.umask, got)
			}
			if err := WriteIn(root, "hook", []byte("#!/bin/sh\n"), Options{Perm: 0o755, ForceMode: true}); err != nil {
				t.Fatal(err)
			}
			if got := modeOf(t, filepath.Join(root, "hook")); got != 0o755 {
				t.Errorf("umask %03o: ForceMode gave %v, want -rwxr-xr-x", tc.umask, got)
			}
		})
	}
}

// TestModeShared checks the files and directories written below a git
// dir under core.sharedRepository: group adds g+rw (and g+s and g+x on
// directories) whatever the umask, an octal value is the mode itself, and
// an existing file is adjusted as git adjusts its own.
func TestModeShared(t *testing.T) {
	withUmask(t, 0o022, func() {
		for _, tc := range []struct {
			shared               sharedperm.Shared
			file, dir, hook, old fs.FileMode
		}{
			{sharedperm.Group, 0o664, 0o775 | fs.ModeSetgid, 0o775, 0o664},
			{sharedperm.Everybody, 0o664, 0o775 | fs.ModeSetgid, 0o775, 0o664},
			{sharedperm.Mode(0o640), 0o640, 0o750 | fs.ModeSetgid, 0o750, 0o640},
			{sharedperm.Mode(0o600), 0o600, 0o700, 0o700, 0o600},
		} {
			root := t.TempDir()
			o := Options{Perm: 0o666, MkdirAll: true, Shared: tc.shared}
			if err := WriteIn(root, "sentinel/counts.bin.d/seg", []byte("x"), o); err != nil {
				t.Fatal(err)
			}
			if got := modeOf(t, filepath.Join(root, "sentinel/counts.bin.d/seg")); got != tc.file {
				t.Errorf("shared %o: file %v, want %v", tc.shared, got, tc.file)
			}
			if got := modeOf(t, filepath.Join(root, "sentinel/counts.bin.d")); got != tc.dir {
				t.Errorf("shared %o: directory %v, want %v", tc.shared, got, tc.dir)
			}
			if err := WriteIn(root, "hooks-pre-commit", []byte("#!/bin/sh\n"), Options{Perm: 0o755, ForceMode: true, Shared: tc.shared}); err != nil {
				t.Fatal(err)
			}
			if got := modeOf(t, filepath.Join(root, "hooks-pre-commit")); got != tc.hook {
				t.Errorf("shared %o: hook %v, want %v", tc.shared, got, tc.hook)
			}
			old := filepath.Join(root, "old")
			if err := os.WriteFile(old, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := WriteIn(root, "old", []byte("y"), Options{Perm: 0o666, Shared: tc.shared}); err != nil {
				t.Fatal(err)
			}
			if got := modeOf(t, old); got != tc.old {
				t.Errorf("shared %o: an existing 0644 file became %v, want %v", tc.shared, got, tc.old)
			}
		}
	})
}

// TestWriteDeniedNamesTheFix checks that a write refused for want of
// permission on the directory names the directory, its owner, and the
// commands that share it. Run as root, which no permission stops, it
// writes as the user nobody.
func TestWriteDeniedNamesTheFix(t *testing.T) {
	if usertest.InChild() {
		os.Stdout.WriteString(errString(WriteIn(os.Getenv("ATOMICFILE_TEST_DIR"), "sub/baseline.json", []byte("{}"), Options{Perm: 0o666})))
		return
	}
	root := t.TempDir()
	sub := filepath.Join(root, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	out, ok := usertest.Run(t, "TestWriteDeniedNamesTheFix", []string{"ATOMICFILE_TEST_DIR=" + root}, sub)
	if !ok {
		if err := os.Chmod(sub, 0o555); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(sub, 0o755)
		out = errString(WriteIn(root, "sub/baseline.json", []byte("{}"), Options{Perm: 0o666}))
	}
	for _, want := range []string{"write sub/baseline.json: " + sub + ": permission denied (owner ", "`git config core.sharedRepository group`", "`chmod g+rwxs " + sub + "`"} {
		if !strings.Contains(out, want) {
			t.Errorf("error %q lacks %q", out, want)
		}
	}
}

// errString is what a write said, and whether it was a DeniedError.
func errString(err error) string {
	var de *sharedperm.DeniedError
	switch {
	case err == nil:
		return "no error"
	case !errors.As(err, &de):
		return "not a DeniedError: " + err.Error()
	}
	return err.Error()
}
