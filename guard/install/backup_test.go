//go:build unix

package install

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gitsentinel/sentinel/internal/atomicfile"
	"github.com/gitsentinel/sentinel/internal/sharedperm"
)

// TestBackupsInGitDir: a project's original goes below the git directory,
// not beside the committed file; uninstall puts it back from there and
// removes it; a backup an earlier install left beside the file moves in.
func TestBackupsInGitDir(t *testing.T) {
	tg := Targets["claude"]
	root := filepath.Join(t.TempDir(), "p")
	gitDir := filepath.Join(root, ".git")
	path := filepath.Join(root, ".claude", "settings.json")
	os.MkdirAll(gitDir, 0o755)
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(claudeSettingsText), 0o644)
	opt := BackupsIn(gitDir, "sentinel/backups", sharedperm.Group)
	backup := filepath.Join(gitDir, "sentinel", "backups", ".claude", "settings.json")

	res, err := Install(tg, root, path, tg.PathHookCommand(), opt)
	if err != nil || res.Backup != backup {
		t.Fatalf("install: %+v %v", res, err)
	}
	if _, err := os.Lstat(path + BackupSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a backup beside the file: %v", err)
	}
	st, err := os.Stat(backup)
	if err != nil || string(mustRead(t, backup)) != claudeSettingsText {
		t.Fatalf("the backup: %v", err)
	}
	if st.Mode().Perm()&0o060 != 0o060 {
		t.Errorf("the backup's mode %v ignores core.sharedRepository=group", st.Mode())
	}
	res, err = Uninstall(tg, root, path, opt)
	if err != nil || !res.Restored {
		t.Fatalf("uninstall: %+v %v", res, err)
	}
	if string(mustRead(t, path)) != claudeSettingsText {
		t.Error("not restored")
	}
	if _, err := os.Stat(backup); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the backup stayed: %v", err)
	}

	// An earlier install's backup beside the file moves into the git
	// directory, whatever the file holds.
	os.WriteFile(path+BackupSuffix, []byte(claudeSettingsText), 0o644)
	res, err = Install(tg, root, path, tg.PathHookCommand(), opt)
	if err != nil || res.MovedBackup != backup || res.Backup != "" {
		t.Fatalf("install over an old backup: %+v %v", res, err)
	}
	if _, err := os.Lstat(path + BackupSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the old backup stayed beside the file: %v", err)
	}
	if string(mustRead(t, backup)) != claudeSettingsText {
		t.Error("the moved backup differs")
	}
	if res, err := Uninstall(tg, root, path, opt); err != nil || !res.Restored || string(mustRead(t, path)) != claudeSettingsText {
		t.Errorf("uninstall from the moved backup: %+v %v", res, err)
	}
}

// TestBackupNeverThroughALink: a link in the git directory where the
// backup goes, to a directory elsewhere, is refused; nothing is written
// where it points, and the settings are left as they were.
func TestBackupNeverThroughALink(t *testing.T) {
	tg := Targets["claude"]
	root := filepath.Join(t.TempDir(), "p")
	gitDir := filepath.Join(root, ".git")
	outside := t.TempDir()
	path := filepath.Join(root, ".claude", "settings.json")
	os.MkdirAll(filepath.Join(gitDir, "sentinel"), 0o755)
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(claudeSettingsText), 0o644)
	if err := os.Symlink(outside, filepath.Join(gitDir, "sentinel", "backups")); err != nil {
		t.Fatal(err)
	}
	_, err := Install(tg, root, path, tg.PathHookCommand(), BackupsIn(gitDir, "sentinel/backups", sharedperm.Umask))
	var le *atomicfile.LinkError
	if !errors.As(err, &le) {
		t.Fatalf("install through a link: %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("wrote through the link: %v", entries)
	}
	if string(mustRead(t, path)) != claudeSettingsText {
		t.Error("the settings changed")
	}
}
