package atomicfile

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// outside is a file beyond the root whose bytes and mtime must survive.
func outside(t *testing.T) (string, func()) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "bashrc")
	if err := os.WriteFile(p, []byte("# the user's own\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(p, old, old)
	st, _ := os.Stat(p)
	return p, func() {
		t.Helper()
		b, _ := os.ReadFile(p)
		st2, _ := os.Stat(p)
		if string(b) != "# the user's own\n" || !st2.ModTime().Equal(st.ModTime()) {
			t.Errorf("the file outside the root changed: %q %v", b, st2.ModTime())
		}
	}
}

func TestWriteInRefusesLinks(t *testing.T) {
	for _, tc := range []struct{ name, rel, link, linkAt string }{
		{"file", ".gitattributes", "", ".gitattributes"},
		{"dir", ".sentinel/baseline.json", "dir", ".sentinel"},
		{"deep", ".claude/settings.json", "", ".claude/settings.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			target, check := outside(t)
			if tc.link == "dir" {
				target = filepath.Dir(target)
			}
			os.MkdirAll(filepath.Dir(filepath.Join(root, tc.linkAt)), 0o755)
			if err := os.Symlink(target, filepath.Join(root, tc.linkAt)); err != nil {
				t.Fatal(err)
			}
			err := WriteIn(root, tc.rel, []byte("x merge=sentinel\n"), Options{Perm: 0o644, MkdirAll: true})
			var le *LinkError
			if !errors.As(err, &le) || le.Path != tc.linkAt {
				t.Fatalf("err = %v, want a LinkError naming %s", err, tc.linkAt)
			}
			check()
			if tc.link == "dir" {
				if entries, _ := os.ReadDir(target); len(entries) != 1 {
					t.Errorf("wrote into the linked directory: %v", entries)
				}
			}
		})
	}
}

func TestReadInBounded(t *testing.T) {
	root := t.TempDir()
	os.Symlink("/dev/zero", filepath.Join(root, "cache"))
	if _, err := ReadIn(root, "cache", 1<<20); err == nil {
		t.Fatal("read through a link to /dev/zero")
	}
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadIn(root, "fifo", 1<<20); done <- err }()
	select {
	case err := <-done:
		var le *LinkError
		if !errors.As(err, &le) {
			t.Errorf("fifo: %v, want a LinkError", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a FIFO blocked")
	}
	os.WriteFile(filepath.Join(root, "big"), bytes.Repeat([]byte("x"), 100), 0o644)
	if _, err := ReadIn(root, "big", 99); !errors.Is(err, ErrTooLarge) {
		t.Errorf("big: %v, want ErrTooLarge", err)
	}
	if b, err := ReadIn(root, "big", 100); err != nil || len(b) != 100 {
		t.Errorf("at the limit: %d %v", len(b), err)
	}
	os.Mkdir(filepath.Join(root, "d"), 0o755)
	if _, err := ReadIn(root, "d", 0); err == nil {
		t.Error("read a directory")
	}
	if _, err := ReadIn(root, "missing", 0); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	if _, err := ReadIn(root, "../x", 0); err == nil {
		t.Error("read above the root")
	}
}

// TestSweep: a temporary file a killed writer left goes; one a live
// writer holds stays.
func TestSweep(t *testing.T) {
	root := t.TempDir()
	dead := filepath.Join(root, ".baseline.json"+TempMarker+"aaaa")
	live := filepath.Join(root, ".baseline.json"+TempMarker+"bbbb")
	legacy := filepath.Join(root, ".baseline.json.sentinel-123")
	young := filepath.Join(root, ".settings.json.sentinel-456")
	for _, p := range []string{dead, live, legacy, young} {
		os.WriteFile(p, []byte("{"), 0o600)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(legacy, old, old)
	f, err := os.Open(live)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	// The holder must be another open file description; a child process
	// makes that plain.
	cmd := exec.Command("sleep", "30")
	cmd.ExtraFiles = []*os.File{f}
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep to hold the lock")
	}
	defer cmd.Process.Kill()
	got := Sweep(root, "")
	want := []string{filepath.Base(dead), filepath.Base(legacy)}
	if strings.Join(got, ",") != strings.Join(want, ",") && strings.Join(got, ",") != want[1]+","+want[0] {
		t.Errorf("swept %v, want %v", got, want)
	}
	for _, p := range []string{live, young} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed", filepath.Base(p))
		}
	}
}

func TestIsTemp(t *testing.T) {
	for name, want := range map[string]bool{
		".baseline.json.sentinel-tmp-0a1b": true,
		".settings.json.sentinel-123":      true,
		"pre-commit.sentinel-prev":         false,
		"settings.json.sentinel-backup":    false,
		".settings.json.sentinel-":         false,
		".x.sentinel-12a":                  false,
		"baseline.json":                    false,
	} {
		if IsTemp(name) != want {
			t.Errorf("IsTemp(%q) = %v", name, !want)
		}
	}
}

func TestUserTarget(t *testing.T) {
	home := t.TempDir()
	repo := filepath.Join(t.TempDir(), "dotfiles")
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	os.WriteFile(filepath.Join(repo, "settings.json"), []byte("{}"), 0o644)
	plain := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(plain, []byte("{}"), 0o644)

	link := filepath.Join(home, "a.json")
	os.Symlink(filepath.Join(repo, "settings.json"), link)
	if _, err := UserTarget(link); err == nil || !strings.Contains(err.Error(), "inside the git repository") {
		t.Errorf("a link into a repository: %v", err)
	}
	link2 := filepath.Join(home, "b.json")
	os.Symlink(plain, link2)
	if got, err := UserTarget(link2); err != nil || got != plain {
		t.Errorf("a link to the user's own file: %q %v", got, err)
	}
	if got, err := UserTarget(filepath.Join(home, "new.json")); err != nil || got != filepath.Join(home, "new.json") {
		t.Errorf("a new file: %q %v", got, err)
	}
}
