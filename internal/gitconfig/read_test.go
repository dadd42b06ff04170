package gitconfig

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func mapEnv(m map[string]string) Env {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReadOrder reads a repository made by hand with every file present:
// system, the XDG file, ~/.gitconfig, the local file, the worktree file.
func TestReadOrder(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(tmp, "home")
	repo := filepath.Join(tmp, "repo")
	writeFile(t, filepath.Join(tmp, "system"), "[a]\n\tk = system\n")
	writeFile(t, filepath.Join(home, ".config", "git", "config"), "[a]\n\tk = xdg\n")
	writeFile(t, filepath.Join(home, ".gitconfig"), "[a]\n\tk = home\n")
	writeFile(t, filepath.Join(repo, ".git", "HEAD"), "ref: refs/heads/main\n")
	for _, d := range []string{"objects", "refs"} {
		if err := os.MkdirAll(filepath.Join(repo, ".git", d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(repo, ".git", "config"), "[core]\n\trepositoryformatversion = 1\n[extensions]\n\tworktreeConfig\n[a]\n\tk = local\n")
	writeFile(t, filepath.Join(repo, ".git", "config.worktree"), "[a]\n\tk = worktree\n")
	sub := filepath.Join(repo, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"GIT_CONFIG_SYSTEM": filepath.Join(tmp, "system"), "HOME": home}
	entries, err := Read(sub, mapEnv(env))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		if e.Key == "a.k" {
			got = append(got, e.Value)
		}
	}
	if want := []string{"system", "xdg", "home", "local", "worktree"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("order %q, want %q", got, want)
	}

	env["XDG_CONFIG_HOME"] = filepath.Join(tmp, "nowhere")
	env["GIT_CONFIG_NOSYSTEM"] = "yes"
	files, err := Files(sub, mapEnv(env))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0].Path != filepath.Join(home, ".gitconfig") || files[1].Scope != ScopeLocal {
		t.Fatalf("files %+v", files)
	}
}

// TestReadDeclines lists environments the reader leaves to git.
func TestReadDeclines(t *testing.T) {
	tmp := t.TempDir()
	for _, env := range []map[string]string{
		{"GIT_CONFIG_PARAMETERS": "'a.b'='c'", "GIT_CONFIG_NOSYSTEM": "1", "HOME": tmp},
		{"GIT_CONFIG_COUNT": "0", "GIT_CONFIG_NOSYSTEM": "1", "HOME": tmp},
		{"GIT_CONFIG": "/x", "GIT_CONFIG_NOSYSTEM": "1", "HOME": tmp},
		{"GIT_CONFIG_NOSYSTEM": "1"},
		{"GIT_CONFIG_NOSYSTEM": "1", "HOME": "relative"},
		{"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": ""},
		{"GIT_CONFIG_SYSTEM": ""},
		{"GIT_CONFIG_NOSYSTEM": "maybe", "HOME": tmp},
		{"GIT_CONFIG_NOSYSTEM": "1", "HOME": tmp, "GIT_DIR": filepath.Join(tmp, "missing")},
		{"GIT_CONFIG_NOSYSTEM": "1", "HOME": tmp, "GIT_CEILING_DIRECTORIES": "/"},
	} {
		if _, err := Read(tmp, mapEnv(env)); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%q: err = %v, want ErrUnsupported", env, err)
		}
	}
}

func TestParseBool(t *testing.T) {
	for v, want := range map[string]bool{"": false, "1": true, "0": false, "TRUE": true, "off": false, "42": true} {
		if got, err := parseBool(v, false); err != nil || got != want {
			t.Errorf("parseBool(%q) = %v, %v", v, got, err)
		}
	}
	for _, v := range []string{"08", "010", "+1", "-1", "0x1", "1k", " 1", "maybe"} {
		if _, err := parseBool(v, false); err == nil {
			t.Errorf("parseBool(%q) accepted", v)
		}
	}
}
