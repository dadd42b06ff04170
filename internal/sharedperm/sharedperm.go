// Package sharedperm gives the files and directories sentinel creates the
// modes git would give its own. Below the git directory that is
// core.sharedRepository's rule (git's git_config_perm, calc_shared_perm
// and adjust_shared_perm in setup.c and path.c): "group" adds g+rw, and
// g+s on directories; "all" adds o+r as well; an octal value is the mode
// itself. Elsewhere it is the umask alone, which a plain create applies.
// A repository that several people commit to works only when what one of
// them creates the others can write: a file sentinel made 0644 whatever
// the umask refused everyone's commits but its maker's.
package sharedperm

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Shared is a value of core.sharedRepository, as git reads it: Umask,
// Group, Everybody, or an octal mode (Mode).
type Shared int

// The values of core.sharedRepository without a mode of their own. As in
// git, a positive value is the bits added to what the umask leaves, a
// negative one the exact mode, negated.
const (
	// Umask is "umask", "false" or unset: the umask alone decides.
	Umask Shared = 0
	// Group is "group" or "true": the group may read and write.
	Group Shared = 0o660
	// Everybody is "all", "world" or "everybody": the group may read and
	// write, and everyone else read.
	Everybody Shared = 0o664
)

// Mode is the octal value of core.sharedRepository that sets the mode of
// every file: 0640 gives exactly rw-r-----.
func Mode(perm fs.FileMode) Shared { return -Shared(perm & 0o666) }

// Parse reads a value of core.sharedRepository as git's git_config_perm
// does; implicit is a key written without '=', which git reads as true.
// A value git refuses is an error.
func Parse(value string, implicit bool) (Shared, error) {
	if implicit {
		return Group, nil
	}
	switch value {
	case "umask":
		return Umask, nil
	case "group":
		return Group, nil
	case "all", "world", "everybody":
		return Everybody, nil
	}
	n, octal := strtol8(value)
	if !octal {
		b, err := parseBool(value)
		if err != nil {
			return Umask, fmt.Errorf("core.sharedRepository = %q: %w", value, err)
		}
		if b {
			return Group, nil
		}
		return Umask, nil
	}
	// 0, 1 and 2 are the old spellings of umask, group and everybody.
	switch n {
	case 0:
		return Umask, nil
	case 1:
		return Group, nil
	case 2:
		return Everybody, nil
	}
	if n&0o600 != 0o600 {
		return Umask, fmt.Errorf("core.sharedRepository = %q: the owner of files must always have read and write permissions", value)
	}
	return -Shared(n & 0o666), nil
}

// strtol8 reads value as C's strtol(value, &end, 8) with *end == 0: white
// space, a sign, and octal digits to the end (none at all reads as 0).
func strtol8(value string) (int64, bool) {
	s := strings.TrimLeft(value, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	if s == "" {
		// strtol reads no number and leaves end at the start: only an
		// empty value ends there.
		return 0, value == ""
	}
	var n int64
	for _, c := range s {
		if c < '0' || c > '7' {
			return 0, false
		}
		if n < 1<<40 {
			n = n*8 + int64(c-'0')
		}
	}
	if neg {
		n = -n
	}
	return n, true
}

// parseBool is git's git_config_bool for a value that is not octal: the
// words, or a number (in C's bases, with an optional k, m or g) that is
// true when it is not zero.
func parseBool(v string) (bool, error) {
	switch strings.ToLower(v) {
	case "true", "yes", "on":
		return true, nil
	case "false", "no", "off", "":
		return false, nil
	}
	num := strings.TrimRight(v, "kKmMgG")
	if len(v)-len(num) > 1 || strings.ContainsAny(num, "_") {
		return false, errors.New("not a boolean, a number or a mode")
	}
	n, err := strconv.ParseInt(num, 0, 64)
	if err != nil || strings.HasPrefix(strings.TrimLeft(num, "+-"), "0o") || strings.HasPrefix(strings.TrimLeft(num, "+-"), "0b") {
		return false, errors.New("not a boolean, a number or a mode")
	}
	return n != 0, nil
}

// File returns the mode git gives a file it created with mode, which the
// umask has already trimmed: calc_shared_perm. An executable file gets
// the execute bits of the read bits it is given.
func (s Shared) File(mode fs.FileMode) fs.FileMode {
	if s == Umask {
		return mode
	}
	tweak := fs.FileMode(s)
	if s < 0 {
		tweak = fs.FileMode(-s)
	}
	if mode&0o200 == 0 {
		tweak &^= 0o222
	}
	if mode&0o100 != 0 {
		tweak |= (tweak & 0o444) >> 2
	}
	if s < 0 {
		return mode&^0o777 | tweak
	}
	return mode | tweak
}

// Dir returns the mode git gives a directory it created with mode:
// adjust_shared_perm. Whoever may read it may enter it, and a directory
// the group gains access to is set-group-ID, so that what is created in
// it belongs to the same group.
func (s Shared) Dir(mode fs.FileMode) fs.FileMode {
	if s == Umask {
		return mode
	}
	m := s.File(mode)
	m |= (m & 0o444) >> 2
	if m&0o060 != 0 {
		m |= fs.ModeSetgid
	}
	return m
}

// Adjust gives the file or directory at path the mode s asks for, when
// this user owns it and it lacks that mode, as git's adjust_shared_perm
// does for what git creates. It changes nothing under Umask, and never
// follows a symbolic link at path.
func (s Shared) Adjust(path string) error {
	if s == Umask {
		return nil
	}
	return adjust(path, s)
}

// DeniedError is a file or directory of sentinel's that this user may not
// write, as a repository several people commit to has them when the one
// who made them did not share them.
type DeniedError struct {
	// Path is the file or directory that refused.
	Path string
	// Err is what the system said.
	Err error
}

// Denied wraps err in a *DeniedError for path when err is a refusal of
// permission (EACCES, EPERM), and returns it unchanged otherwise.
func Denied(path string, err error) error {
	var de *DeniedError
	if err == nil || !errors.Is(err, fs.ErrPermission) || errors.As(err, &de) {
		return err
	}
	return &DeniedError{Path: path, Err: err}
}

// Unwrap returns what the system said.
func (e *DeniedError) Unwrap() error { return e.Err }

// Error names the path, who owns it and with what mode, and the commands
// that let the group write it.
func (e *DeniedError) Error() string {
	said := e.Err.Error()
	var errno syscall.Errno
	if errors.As(e.Err, &errno) {
		said = errno.Error()
	}
	const why = "in a repository several people commit to, what sentinel and git create must be the group's"
	fi, err := os.Lstat(e.Path)
	if err != nil {
		return fmt.Sprintf("%s: %s; %s: run `git config core.sharedRepository group`, and commit with `umask 002`", e.Path, said, why)
	}
	chmod := "g+rw"
	if fi.IsDir() {
		chmod = "g+rwxs"
	}
	owner, group := ownerOf(fi)
	mode := uint32(fi.Mode().Perm())
	if fi.Mode()&fs.ModeSetgid != 0 {
		mode |= 0o2000
	}
	return fmt.Sprintf("%s: %s (owner %s, group %s, mode %04o); %s: everyone commits with `umask 002`, the repository has `git config core.sharedRepository group`, and %s runs `chmod %s %s`",
		e.Path, said, owner, group, mode, why, owner, chmod, shellWord(e.Path))
}

// shellWord quotes a path for a POSIX shell when it needs it.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/+-@:%,=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
