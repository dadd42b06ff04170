package install

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitsentinel/sentinel/internal/atomicfile"
)

// below is the directory an install reads and writes under: the
// project's root, whose content someone else may have committed, so that
// no link in it leads a write outside; or for a user's settings, the
// directory of the file the user's link (if any) resolves to. Empty, it
// reads by plain paths, following links, as doctor does.
type below string

// maxSettings bounds a read of an agent's settings or hook file.
const maxSettings = 8 << 20

func (b below) rel(path string) (string, error) {
	rel, err := filepath.Rel(string(b), path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside %s", path, string(b))
	}
	return rel, nil
}

func (b below) read(path string) ([]byte, error) {
	if b == "" {
		// Links are followed, to a regular file only, opened without
		// blocking: a committed link to a FIFO must not stall doctor.
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return nil, err
		}
		return atomicfile.ReadFile(real, maxSettings)
	}
	rel, err := b.rel(path)
	if err != nil {
		return nil, err
	}
	return atomicfile.ReadIn(string(b), rel, maxSettings)
}

func (b below) write(path string, data []byte, mode fs.FileMode, force bool) error {
	if b == "" {
		return fmt.Errorf("write %s: no directory to write below", path)
	}
	rel, err := b.rel(path)
	if err != nil {
		return err
	}
	return atomicfile.WriteIn(string(b), rel, data, atomicfile.Options{Perm: mode, ForceMode: force, MkdirAll: true})
}

// exists reports a file at path; a link there counts, so that it is
// never taken for absent and written over.
func (b below) exists(path string) (bool, error) {
	if b == "" {
		_, err := os.Lstat(path)
		return err == nil, nil
	}
	rel, err := b.rel(path)
	if err != nil {
		return false, err
	}
	_, _, err = atomicfile.Lstat(string(b), rel)
	var le *atomicfile.LinkError
	return !errors.Is(err, fs.ErrNotExist) || errors.As(err, &le), nil
}

func (b below) remove(path string) error {
	if b == "" {
		return fmt.Errorf("remove %s: no directory to remove below", path)
	}
	rel, err := b.rel(path)
	if err != nil {
		return err
	}
	return atomicfile.RemoveIn(string(b), rel)
}

// UserSettings returns the file to edit for a user-level settings path and
// the directory its install writes under: a link there is followed only
// to a file the user owns outside any repository.
func UserSettings(path string) (string, string, error) {
	target, err := atomicfile.UserTarget(path)
	if err != nil {
		return "", "", err
	}
	// The user's own directories, links and all, are theirs to arrange.
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return "", "", err
	}
	return target, filepath.Dir(target), nil
}

// ProjectDirs lists the directories, relative to a project's root, where an
// install writes the agents' project settings and hook files.
func ProjectDirs() []string {
	seen := map[string]bool{}
	var out []string
	for _, name := range TargetNames() {
		t := Targets[name]
		for _, rel := range append([]string{t.Project}, t.extraFiles(t.Project)...) {
			d := filepath.ToSlash(filepath.Dir(filepath.FromSlash(rel)))
			if d != "." && !seen[d] {
				seen[d] = true
				out = append(out, d)
			}
		}
	}
	return out
}
