//go:build unix

package filelock

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gitsentinel/sentinel/internal/sharedperm"
	"github.com/gitsentinel/sentinel/internal/usertest"
)

func permOf(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode() & (fs.ModePerm | fs.ModeSetgid)
}

// TestRepositoryModes checks the lock's directory and file: 0777 and 0666
// less the umask with no sharing (0644 and 0755 whatever the umask
// before), and git's modes for its own files under core.sharedRepository
// group, whatever the umask; a directory and lock file this user made
// before sharing are adjusted. The umask is the process's: not parallel.
func TestRepositoryModes(t *testing.T) {
	old := syscall.Umask(0o002)
	defer syscall.Umask(old)
	common := t.TempDir()
	unlock, err := Repository(context.Background(), common, sharedperm.Umask)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	if d, f := permOf(t, filepath.Join(common, "sentinel")), permOf(t, filepath.Join(common, "sentinel", "lock")); d != 0o775 || f != 0o664 {
		t.Errorf("umask 002: directory %v and lock %v, want drwxrwxr-x and -rw-rw-r--", d, f)
	}
	syscall.Umask(0o022)
	for _, c := range []string{t.TempDir(), common} {
		if err := os.Chmod(filepath.Join(common, "sentinel", "lock"), 0o644); err != nil {
			t.Fatal(err)
		}
		unlock, err := Repository(context.Background(), c, sharedperm.Group)
		if err != nil {
			t.Fatal(err)
		}
		unlock()
		if d, f := permOf(t, filepath.Join(c, "sentinel")), permOf(t, filepath.Join(c, "sentinel", "lock")); d != 0o775|fs.ModeSetgid || f != 0o664 {
			t.Errorf("group: directory %v and lock %v, want drwxrwsr-x and -rw-rw-r--", d, f)
		}
	}
}

// TestLockOfAnotherUser checks that a lock file another user made, which
// this one may only read, still locks (flock needs no write access), and
// that a lock directory this user cannot create in is refused with the
// fix named. Run as root, the other user is nobody.
func TestLockOfAnotherUser(t *testing.T) {
	if usertest.InChild() {
		var out []string
		unlock, err := Lock(context.Background(), filepath.Join(os.Getenv("FILELOCK_DIR"), "lock"), time.Second)
		if err == nil {
			unlock()
			out = append(out, "locked")
		} else {
			out = append(out, err.Error())
		}
		_, err = Repository(context.Background(), os.Getenv("FILELOCK_COMMON"), sharedperm.Umask)
		var de *sharedperm.DeniedError
		if errors.As(err, &de) {
			out = append(out, err.Error())
		} else {
			out = append(out, "not a DeniedError: "+errString(err))
		}
		os.Stdout.WriteString(strings.Join(out, "\n"))
		return
	}
	dir, common := t.TempDir(), t.TempDir()
	lock := filepath.Join(dir, "lock")
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"FILELOCK_DIR=" + dir, "FILELOCK_COMMON=" + common}
	out, ok := usertest.Run(t, "TestLockOfAnotherUser", env, dir, common)
	if !ok {
		t.Skip("this test needs root, to make files as one user and lock them as another")
	}
	lines := strings.SplitN(out, "\n", 2)
	if lines[0] != "locked" {
		t.Errorf("another user's lock file, readable: %s", lines[0])
	}
	if len(lines) < 2 || !strings.Contains(lines[1], "lock the repository: "+common+": permission denied (owner root") ||
		!strings.HasSuffix(lines[1], "`chmod g+rwxs "+common+"`") {
		t.Errorf("a common dir nobody may write: %q", out)
	}
}

func errString(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}
