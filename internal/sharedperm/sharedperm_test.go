//go:build unix

package sharedperm

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/gitsentinel/sentinel/internal/gittest"
)

// TestParse reads every spelling of core.sharedRepository as git's
// git_config_perm does, refusals included.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		value    string
		implicit bool
		want     Shared
		err      bool
	}{
		{"", true, Group, false},
		{"", false, Umask, false},
		{"umask", false, Umask, false},
		{"group", false, Group, false},
		{"true", false, Group, false},
		{"YES", false, Group, false},
		{"false", false, Umask, false},
		{"off", false, Umask, false},
		{"all", false, Everybody, false},
		{"world", false, Everybody, false},
		{"everybody", false, Everybody, false},
		{"0", false, Umask, false},
		{"1", false, Group, false},
		{"2", false, Everybody, false},
		{"0660", false, Mode(0o660), false},
		{"0640", false, Mode(0o640), false},
		{"660", false, Mode(0o660), false},
		{"0600", false, Mode(0o600), false},
		{"0777", false, Mode(0o666), false}, // nobody gets x from the mode itself
		{"9", false, Group, false},          // not octal: a number, so a boolean
		{"0x10", false, Group, false},
		{"0444", false, Umask, true}, // the owner must read and write
		{"10", false, Umask, true},   // octal 010
		{"maybe", false, Umask, true},
	} {
		got, err := Parse(tc.value, tc.implicit)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("Parse(%q, %v) = %o, %v; want %o, error %v", tc.value, tc.implicit, got, err, tc.want, tc.err)
		}
	}
}

// TestModesMatchGit checks File and Dir against the modes git itself gives
// what `git init --shared=VALUE` creates, under the umasks 022 and 002: a
// directory (.git/refs), a file (.git/HEAD) and an executable one (a hook
// sample, where the templates have them). The umask is the process's, so
// this test does not run in parallel with others.
func TestModesMatchGit(t *testing.T) {
	gittest.Isolate(t)
	for _, umask := range []int{0o022, 0o002, 0o077} {
		old := syscall.Umask(umask)
		t.Cleanup(func() { syscall.Umask(old) })
		for _, value := range []string{"umask", "group", "all", "0660", "0640", "0600", "0664"} {
			dir := filepath.Join(t.TempDir(), "r")
			if out, err := exec.Command("git", "init", "-q", "--shared="+value, dir).CombinedOutput(); err != nil {
				t.Fatalf("git init --shared=%s: %v\n%s", value, err, out)
			}
			s, err := Parse(value, false)
			if err != nil {
				t.Fatal(err)
			}
			created := fs.FileMode(0o777 &^ umask)
			check := func(rel string, want fs.FileMode) {
				t.Helper()
				fi, err := os.Lstat(filepath.Join(dir, ".git", rel))
				if err != nil {
					t.Fatal(err)
				}
				if got := fi.Mode() & (fs.ModePerm | fs.ModeSetgid); got != want {
					t.Errorf("umask %03o, --shared=%s: git gave %s %v, sharedperm %v", umask, value, rel, got, want)
				}
			}
			check("refs", s.Dir(created))
			check("HEAD", s.File(created&0o666))
			if _, err := os.Lstat(filepath.Join(dir, ".git", "hooks", "pre-commit.sample")); err == nil {
				check("hooks/pre-commit.sample", s.File(created))
			}
		}
		syscall.Umask(old)
	}
}

// TestDeniedError checks that a refusal of permission names the path, its
// owner and mode, and ends with the commands that share it; any other
// error goes through as it is.
func TestDeniedError(t *testing.T) {
	dir := t.TempDir()
	err := Denied(dir, &fs.PathError{Op: "open", Path: "x", Err: syscall.EACCES})
	var de *DeniedError
	if !errors.As(err, &de) || !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("got %v, want a DeniedError that is ErrPermission", err)
	}
	msg := err.Error()
	if !regexp.MustCompile(`, mode [0-7]{4}\); `).MatchString(msg) {
		t.Errorf("message %q gives no mode in octal", msg)
	}
	for _, want := range []string{dir + ": permission denied (owner ", "`umask 002`", "`git config core.sharedRepository group`", "runs `chmod g+rwxs " + dir + "`"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if !strings.HasSuffix(msg, "`") {
		t.Errorf("message %q does not end with the command", msg)
	}
	file := filepath.Join(dir, "lock")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if msg := Denied(file, syscall.EPERM).Error(); !strings.HasSuffix(msg, "`chmod g+rw "+file+"`") {
		t.Errorf("a file: %q", msg)
	}
	other := errors.New("disk full")
	if Denied(dir, other) != other || Denied(dir, nil) != nil {
		t.Error("an error that is not about permission was wrapped")
	}
}

// TestAdjust checks that Adjust gives a file and a directory this user
// owns the mode asked for, and never changes what a link points at.
func TestAdjust(t *testing.T) {
	dir := t.TempDir()
	file, sub, link := filepath.Join(dir, "lock"), filepath.Join(dir, "sentinel"), filepath.Join(dir, "link")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{file, sub} {
		if err := Group.Adjust(p); err != nil {
			t.Fatal(err)
		}
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o664 {
		t.Errorf("file %v, want -rw-rw-r--", fi.Mode())
	}
	if fi, _ := os.Stat(sub); fi.Mode()&(fs.ModePerm|fs.ModeSetgid) != 0o775|fs.ModeSetgid {
		t.Errorf("directory %v, want drwxrwsr-x", fi.Mode())
	}
	target := filepath.Join(dir, "elsewhere")
	if err := os.WriteFile(target, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := Mode(0o600).Adjust(link); err == nil {
		t.Error("adjusted through a link")
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o644 {
		t.Errorf("the link's target became %v", fi.Mode())
	}
}
