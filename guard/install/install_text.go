package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"

	"github.com/gitsentinel/sentinel/internal/atomicfile"
	"github.com/gitsentinel/sentinel/internal/sharedperm"
)

// Option changes where Install and Uninstall keep a settings file's
// original.
type Option func(*options)

type options struct {
	// backupBase is the directory the originals are written below, and
	// backupDir the directory below it that holds them, by each file's
	// path from the project's root. Empty, an original is kept beside
	// its file, as <file>.sentinel-backup.
	backupBase, backupDir string
	// shared is core.sharedRepository, which the backups below the git
	// directory follow.
	shared sharedperm.Shared
}

func newOptions(opts []Option) *options {
	o := &options{}
	for _, opt := range opts {
		opt(o)
	}
	return o
}

// BackupsIn keeps the originals of a project's settings below base, the
// work tree's own git directory, at dir/<the file's path from the
// project's root>, with the modes core.sharedRepository gives git's own
// files. A copy beside a committed file is an untracked file in every
// `git status`, one `git add -A` commits and `git clean -x` deletes; in
// the git directory git never lists it, nothing in the repository (its
// .gitignore, its info/exclude, which every worktree shares) has to be
// changed to hide it, and it goes with the worktree whose file it is.
// Without this option an original is kept beside its file, as
// <file>.sentinel-backup: for a user's own settings, outside any
// repository.
func BackupsIn(base, dir string, shared sharedperm.Shared) Option {
	return func(o *options) { o.backupBase, o.backupDir, o.shared = base, dir, shared }
}

// backupAt is where the original of path is kept, and the directory it
// is written below.
func (o *options) backupAt(b below, path string) (below, string, error) {
	if o.backupBase == "" {
		return b, path + BackupSuffix, nil
	}
	rel, err := b.rel(path)
	if err != nil {
		return "", "", err
	}
	return below(o.backupBase), filepath.Join(o.backupBase, filepath.FromSlash(o.backupDir), rel), nil
}

// moveOldBackup moves a backup an earlier install left beside a project's
// file into the git directory, where this one keeps it, unless one is
// there already. One that cannot be read (a link, not a regular file) is
// left where it is: it is not sentinel's to follow.
func (o *options) moveOldBackup(b below, path string, res *InstallResult) error {
	if o.backupBase == "" {
		return nil
	}
	old := path + BackupSuffix
	if there, err := b.exists(old); !there || err != nil {
		return err
	}
	nb, np, err := o.backupAt(b, path)
	if err != nil {
		return err
	}
	if there, err := nb.backupThere(np); there || err != nil {
		return err
	}
	data, err := b.read(old)
	if err != nil {
		return nil
	}
	if err := nb.writeShared(np, data, o.shared); err != nil {
		return err
	}
	if err := b.remove(old); err != nil {
		return err
	}
	res.MovedBackup = np
	return nil
}

// canonical is how sentinel writes a settings file that is new, and the
// form two settings are compared in: sorted keys, two-space indent,
// numbers as they were written.
func canonical(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// canonicalText decodes a settings file's text and writes it canonically.
func canonicalText(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("data after the JSON value")
	}
	return canonical(v)
}

// writeSettings replaces a settings file whose text was orig (nil for a
// missing file) with the settings want, unless they are what it holds.
// The new text is orig with edit's minimal changes, when they read back
// as exactly want; otherwise, and for a new file, want written
// canonically. With keep the original is first copied to its backup,
// once; with restore (an uninstall) a backup that holds exactly want is
// put back byte for byte, and goes.
func writeSettings(b below, o *options, path string, orig []byte, want map[string]any, edit func(*textDoc) error, keep, restore bool) (*InstallResult, error) {
	res := &InstallResult{Path: path}
	if err := o.moveOldBackup(b, path, res); err != nil {
		return nil, err
	}
	wantText, err := canonical(want)
	if err != nil {
		return nil, err
	}
	out := wantText
	if orig != nil {
		if cur, err := canonicalText(orig); err == nil && bytes.Equal(cur, wantText) {
			return res, nil
		}
		text, why := editText(orig, edit, wantText)
		if why != "" {
			res.Reformatted = why
		} else {
			out = text
		}
	}
	bb, backup, err := o.backupAt(b, path)
	if err != nil {
		return nil, err
	}
	restored := false
	switch {
	case keep:
		there, err := bb.backupThere(backup)
		if err != nil {
			return nil, err
		}
		if !there {
			if err := bb.writeShared(backup, orig, o.shared); err != nil {
				return nil, err
			}
			res.Backup = backup
		}
	case restore:
		if there, err := bb.backupThere(backup); err != nil || !there {
			break
		}
		if data, err := bb.read(backup); err == nil {
			if c, err := canonicalText(data); err == nil && bytes.Equal(c, wantText) {
				out, restored, res.Reformatted = data, true, ""
			}
		}
		if !restored {
			res.KeptBackup = backup
		}
	}
	if err := b.write(path, out, 0o644, false); err != nil {
		return nil, err
	}
	res.Changed = true
	if restored {
		// The file is its original again: the copy has done its work.
		if err := bb.remove(backup); err != nil {
			return nil, err
		}
		res.Restored = true
	}
	return res, nil
}

// editText applies edit to a copy of orig, and returns the text, or why
// the file must be rewritten whole instead.
func editText(orig []byte, edit func(*textDoc) error, want []byte) ([]byte, string) {
	d, err := newTextDoc(orig)
	if err == nil {
		err = edit(d)
	}
	if err != nil {
		return nil, err.Error()
	}
	if got, err := canonicalText(d.data); err != nil || !bytes.Equal(got, want) {
		// Never expected: the edit is checked, not trusted.
		return nil, "the edited text did not read back as the settings meant"
	}
	return d.data, ""
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// pickHook chooses what of an event list's element goes with sentinel's
// hooks: an entry of sentinel's, or a group behind a matcher that holds
// only sentinel's hooks, goes whole; a group that holds others loses its
// first hook of sentinel's. As withoutOurs does.
func pickHook(v any) (bool, int) {
	group, ok := v.(map[string]any)
	inner, isGroup := group["hooks"].([]any)
	if !ok || !isGroup {
		return isOurs(v), -1
	}
	ours, first := 0, -1
	for j, h := range inner {
		if isOurs(h) {
			ours++
			if first < 0 {
				first = j
			}
		}
	}
	switch {
	case ours == 0:
		return false, -1
	case ours == len(inner):
		return true, -1
	}
	return false, first
}

// editInstallHooks is installHooksAt's change as a text edit.
func editInstallHooks(d *textDoc, t *Target, command string, at []string) error {
	for _, k := range sortedKeys(t.top) {
		if err := d.setMissing(nil, k, t.top[k]); err != nil {
			return err
		}
	}
	entries := t.entries(command)
	if len(at) > 0 {
		if hooks, err := d.node(at...); err != nil || hooks == nil {
			if err != nil {
				return err
			}
			return d.setMissing(nil, at[0], entries)
		}
	}
	for _, ev := range sortedKeys(entries) {
		keys := append(slices.Clone(at), ev)
		if _, err := d.dropFromList(keys, pickHook); err != nil {
			return err
		}
		if err := d.addToList(keys, entries[ev], false); err != nil {
			return err
		}
	}
	return nil
}

// editUninstallHooks is uninstallHooksAt's change as a text edit.
func editUninstallHooks(d *textDoc, t *Target, at []string) error {
	removedAny := false
	for _, ev := range sortedKeys(t.entries("")) {
		keys := append(slices.Clone(at), ev)
		removed, err := d.dropFromList(keys, pickHook)
		if err != nil {
			return err
		}
		if !removed {
			continue
		}
		removedAny = true
		// A twin listed the event before the install (or the entry would
		// not be there): its list stays, empty, for the host still reads
		// it in place of the settings file's.
		if len(at) == 0 {
			continue
		}
		if n, err := d.listLen(keys...); err != nil || n == 0 {
			if err != nil {
				return err
			}
			if err := d.removeKey(at, ev); err != nil {
				return err
			}
		}
	}
	if !removedAny || len(at) == 0 {
		return nil
	}
	n, err := d.objLen(at...)
	if err != nil || n != 0 {
		return err
	}
	return d.removeKey(nil, at[0])
}

func pickKiro(v any) (bool, int) {
	hm, ok := v.(map[string]any)
	return ok && isOurs(hm["action"]), -1
}

func pickAmp(v any) (bool, int) {
	_, _, ours := ampOurs(v)
	return ours, -1
}

// editInstallKiro is installKiro's change as a text edit.
func editInstallKiro(d *textDoc, command string) error {
	if err := d.setMissing(nil, "version", "v1"); err != nil {
		return err
	}
	if _, err := d.dropFromList([]string{"hooks"}, pickKiro); err != nil {
		return err
	}
	return d.addToList([]string{"hooks"}, []any{kiroHook(command)}, false)
}

// editUninstallKiro is uninstallKiro's change as a text edit, for a file
// that keeps more than sentinel's hook.
func editUninstallKiro(d *textDoc) error {
	_, err := d.dropFromList([]string{"hooks"}, pickKiro)
	return err
}

// editInstallAmp is installAmp's change as a text edit: the rules go
// first.
func editInstallAmp(d *textDoc, rules []any) error {
	if _, err := d.dropFromList([]string{ampKey}, pickAmp); err != nil {
		return err
	}
	return d.addToList([]string{ampKey}, rules, true)
}

// editUninstallAmp is uninstallAmp's change as a text edit.
func editUninstallAmp(d *textDoc) error {
	if _, err := d.dropFromList([]string{ampKey}, pickAmp); err != nil {
		return err
	}
	n, err := d.listLen(ampKey)
	if err != nil || n != 0 {
		return err
	}
	return d.removeKey(nil, ampKey)
}

// backupThere reports a backup at path. A link there, or on the way
// there, or anything but a regular file, is an error: a backup is never
// written through one, nor skipped without a word.
func (b below) backupThere(path string) (bool, error) {
	rel, err := b.rel(path)
	if err != nil {
		return false, err
	}
	_, _, err = atomicfile.Lstat(string(b), rel)
	var le *atomicfile.LinkError
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist) && !errors.As(err, &le):
		return false, nil
	}
	return false, fmt.Errorf("keep the original as %s: %w; remove what is there, then run the install again", path, err)
}

// writeShared writes a file sentinel keeps for itself (a backup) below b,
// with the modes core.sharedRepository gives git's files.
func (b below) writeShared(path string, data []byte, shared sharedperm.Shared) error {
	rel, err := b.rel(path)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteIn(string(b), rel, data, atomicfile.Options{Perm: 0o644, MkdirAll: true, Shared: shared}); err != nil {
		return fmt.Errorf("keep the original: %w", err)
	}
	return nil
}
