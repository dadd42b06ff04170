package install

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gitsentinel/sentinel/internal/atomicfile"
	"github.com/gitsentinel/sentinel/internal/filelock"
)

// A settings file's entry can go without a trace: an agent, an editor or
// a checkout rewrites the file, and nothing then says the guard was ever
// there. So guard install records each file it writes the guard into, in
// sentinel's state directory beside the audit trail (which the guard
// keeps agents from writing), and guard uninstall takes the file out
// again: doctor reports a recorded file that no longer runs the guard as
// a guard that was installed and is gone.

// RecordFile is the record's name in sentinel's state directory.
const RecordFile = "guard-installs.json"

// maxRecord bounds a read of the record.
const maxRecord = 1 << 20

// Recorded is one file guard install wrote the guard into.
type Recorded struct {
	// Agent is the target's name.
	Agent string `json:"agent"`
	// Path is the settings file, absolute, as RecordPath names it: a
	// link in its place is not followed, so the user's own link is the
	// file the user named.
	Path string `json:"path"`
}

// record is the file's content.
type record struct {
	Version  int        `json:"version"`
	Installs []Recorded `json:"installs"`
}

// Remember records that guard install wrote the guard for agent into the
// file at path. stateDir is sentinel's state directory; the record is
// read-modify-written under a lock of its own.
func Remember(ctx context.Context, stateDir, agent, path string) error {
	return updateRecord(ctx, stateDir, func(rs []Recorded) []Recorded {
		r := Recorded{Agent: agent, Path: RecordPath(path)}
		if slices.Contains(rs, r) {
			return rs
		}
		return append(rs, r)
	})
}

// Forget takes the file at path out of the record, for agent.
func Forget(ctx context.Context, stateDir, agent, path string) error {
	return updateRecord(ctx, stateDir, func(rs []Recorded) []Recorded {
		r := Recorded{Agent: agent, Path: RecordPath(path)}
		return slices.DeleteFunc(rs, func(x Recorded) bool { return x == r })
	})
}

// RecordPath is how the record names a settings file: its directory's
// links resolved (a repository found through a link is the same
// repository), the file's own name as it is. Compare a path with the
// record's through it.
func RecordPath(path string) string {
	path = filepath.Clean(path)
	if dir, err := filepath.EvalSymlinks(filepath.Dir(path)); err == nil {
		return filepath.Join(dir, filepath.Base(path))
	}
	return path
}

// Remembered returns the record: every file guard install wrote the guard
// into and guard uninstall has not taken it out of. None when there is no
// record.
func Remembered(stateDir string) ([]Recorded, error) {
	if stateDir == "" {
		return nil, nil
	}
	data, err := atomicfile.ReadIn(stateDir, RecordFile, maxRecord)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the record of guard installs: %w", err)
	}
	var r record
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%s: %w; it is sentinel's record of guard installs: remove it, then run sentinel guard install again for each agent", filepath.Join(stateDir, RecordFile), err)
	}
	return r.Installs, nil
}

// updateRecord applies change to the record under its lock, and writes it
// back atomically, sorted.
func updateRecord(ctx context.Context, stateDir string, change func([]Recorded) []Recorded) error {
	if stateDir == "" {
		return fmt.Errorf("no state directory (HOME is not set): set HOME")
	}
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return fmt.Errorf("record the guard install: %w", err)
	}
	unlock, err := filelock.Lock(ctx, filepath.Join(stateDir, "guard-installs.lock"), filelock.RepositoryTimeout)
	if err != nil {
		return err
	}
	defer unlock()
	rs, err := Remembered(stateDir)
	if err != nil {
		return err
	}
	rs = change(rs)
	slices.SortFunc(rs, func(a, b Recorded) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(a.Agent, b.Agent)
	})
	if rs == nil {
		rs = []Recorded{}
	}
	data, err := json.MarshalIndent(record{Version: 1, Installs: rs}, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteIn(stateDir, RecordFile, append(data, '\n'), atomicfile.Options{Perm: 0o600})
}
