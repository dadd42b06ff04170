package atomicfile

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
)

func TestWriteFileKeepsMode(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "msg")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(target, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(target)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Errorf("content %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("left temporary files behind: %v", entries)
	}
}

func TestWriteFileFailureLeavesOriginal(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only directories")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "msg")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	if err := WriteFile(target, []byte("new"), 0o644); err == nil {
		t.Fatal("write into a read-only directory succeeded")
	}
	if b, _ := os.ReadFile(target); string(b) != "old" {
		t.Errorf("original changed to %q", b)
	}
}

func TestWriteFileRefusesDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := WriteFile(dir, []byte("x"), 0o644); err == nil {
		t.Fatal("wrote over a directory")
	}
}

// TestReadDirIn lists a directory below a root without writers' temporary
// files, treats a missing one as empty and refuses one reached through a
// link.
func TestReadDirIn(t *testing.T) {
	root := t.TempDir()
	if names, err := ReadDirIn(root, "d"); err != nil || len(names) != 0 {
		t.Fatalf("missing directory: %q, %v", names, err)
	}
	for _, n := range []string{"a.bin", "b.bin", ".a.bin" + TempMarker + "123"} {
		if err := WriteIn(root, "d/"+n, []byte("x"), Options{Perm: 0o644, MkdirAll: true}); err != nil {
			t.Fatal(err)
		}
	}
	names, err := ReadDirIn(root, "d")
	sort.Strings(names)
	if err != nil || !reflect.DeepEqual(names, []string{"a.bin", "b.bin"}) {
		t.Fatalf("ReadDirIn = %q, %v", names, err)
	}
	if err := os.Symlink(filepath.Join(root, "d"), filepath.Join(root, "l")); err != nil {
		t.Fatal(err)
	}
	if names, err := ReadDirIn(root, "l"); err == nil {
		t.Fatalf("a linked directory was listed: %q", names)
	}
}
