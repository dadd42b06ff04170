package filelock

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

func TestLockExcludesAndReleases(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	unlock, err := Lock(context.Background(), path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(context.Background(), path, 50*time.Millisecond); !errors.Is(err, ErrBusy) {
		t.Fatalf("second lock while held: %v, want ErrBusy", err)
	}
	unlock()
	unlock2, err := Lock(context.Background(), path, 50*time.Millisecond)
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	unlock2()
}

// TestLockDiesWithHolder kills a process that holds the lock: the next
// taker must get it at once, though the lock file is still there.
func TestLockDiesWithHolder(t *testing.T) {
	if os.Getenv("FILELOCK_HOLD") != "" {
		if _, err := Lock(context.Background(), os.Getenv("FILELOCK_HOLD"), time.Second); err != nil {
			os.Exit(3)
		}
		os.Stdout.WriteString("held\n")
		time.Sleep(time.Minute)
		return
	}
	path := filepath.Join(t.TempDir(), "lock")
	cmd := exec.Command(os.Args[0], "-test.run", "^TestLockDiesWithHolder$")
	cmd.Env = append(os.Environ(), "FILELOCK_HOLD="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	if _, err := out.Read(buf); err != nil || string(buf) != "held\n" {
		t.Fatalf("holder did not start: %q %v", buf, err)
	}
	if _, err := Lock(context.Background(), path, 50*time.Millisecond); !errors.Is(err, ErrBusy) {
		t.Fatalf("lock held by a live process was taken: %v", err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	start := time.Now()
	unlock, err := Lock(context.Background(), path, time.Second)
	if err != nil {
		t.Fatalf("lock of a killed holder still blocks: %v", err)
	}
	unlock()
	if time.Since(start) > 500*time.Millisecond {
		t.Errorf("took %v to take a dead holder's lock", time.Since(start))
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("lock file was removed: %v", err)
	}
}

// TestLockIgnoresOldPIDFile: a lock file an older sentinel left, holding a
// PID, does not block.
func TestLockIgnoresOldPIDFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	if err := os.WriteFile(path, []byte("12345\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	unlock, err := Lock(context.Background(), path, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
}

func TestLockRefusesSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere")
	if err := os.Symlink(target, filepath.Join(dir, "lock")); err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(context.Background(), filepath.Join(dir, "lock"), 50*time.Millisecond); err == nil {
		t.Fatal("locked through a symbolic link")
	}
	if _, err := os.Stat(target); err == nil {
		t.Error("created the link's target")
	}
}
