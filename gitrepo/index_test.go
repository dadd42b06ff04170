package gitrepo

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gitsentinel/sentinel/internal/gittest"
	"golang.org/x/sys/unix"
)

// indexRepo makes a repository whose files carry a modification time an
// hour old, recorded so in the index, so that no entry is racily clean:
// the stat comparison then has to decide, not the racy rule.
func indexRepo(t *testing.T, initArgs ...string) string {
	t.Helper()
	gittest.Isolate(t)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	gitT(t, dir, append([]string{"init", "-q", "-b", "main"}, initArgs...)...)
	files := map[string]string{
		"a_test.go":            "package a\n",
		"dir/b_test.go":        "package b\n",
		"dir/sub/c.py":         "def test_c(): pass\n",
		"exec.sh":              "#!/bin/sh\n",
		"ünïcode/é_test.go":    "package u\n",
		"same/size_test.go":    "package s // 1\n",
		"gone_test.go":         "package g\n",
		"skip/sparse_test.go":  "package sp\n",
		"assume/unchanged.go":  "package au\n",
		"deep/a/b/c/d/e/f.txt": strings.Repeat("x", 100),
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(name, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a_test.go", filepath.Join(dir, "link_test.go")); err != nil {
		t.Fatal(err)
	}
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-q", "-m", "files")
	// A submodule's entry, without the submodule.
	head := gitT(t, dir, "rev-parse", "HEAD")
	gitT(t, dir, "update-index", "--add", "--cacheinfo", "160000,"+head+",sub")
	ageFiles(t, dir)
	return dir
}

// agedAt is the time ageFiles gives files. It is set once: a file aged
// again keeps its change time, which git, comparing whole seconds, would
// not record anew when it changes within the same second.
var agedAt = time.Now().Add(-time.Hour).Truncate(time.Second)

// ageFiles sets every tracked file's times an hour back and lets git
// record them, so that the index is newer than every entry.
func ageFiles(t *testing.T, dir string) {
	t.Helper()
	old := agedAt
	for _, p := range strings.Split(strings.TrimRight(gitT(t, dir, "ls-files", "-z"), "\x00"), "\x00") {
		full := filepath.Join(dir, filepath.FromSlash(p))
		fi, err := os.Lstat(full)
		switch {
		case err != nil, fi.ModTime().Equal(old):
		case fi.Mode().IsRegular():
			if err := os.Chtimes(full, old, old); err != nil {
				t.Fatal(err)
			}
		case fi.Mode()&os.ModeSymlink != 0:
			tv := unix.NsecToTimeval(old.UnixNano())
			if err := unix.Lutimes(full, []unix.Timeval{tv, tv}); err != nil {
				t.Fatal(err)
			}
		}
	}
	gitT(t, dir, "update-index", "-q", "--refresh")
	// The index is written now, an hour after every file.
	time.Sleep(10 * time.Millisecond)
}

// checkIndex compares the in-process index with git ls-files -s, and the
// stat comparison with git diff-files: every file git finds changed must be
// changed here too, and, with no racily clean entry, nothing else but what
// the reader is stricter about (assume-unchanged files) may be.
func checkIndex(t *testing.T, dir string, stricter ...string) *Index {
	t.Helper()
	ctx := context.Background()
	info, err := RepoInfo(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := IndexEntriesGit(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := ReadIndex(info)
	if err != nil {
		t.Fatalf("ReadIndex: %v", err)
	}
	if !reflect.DeepEqual(ix.Entries, want) {
		t.Fatalf("in-process index differs from git ls-files -s:\n got %v\nwant %v", ix.Entries, want)
	}
	mod, err := ModifiedFiles(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	extra := map[string]bool{}
	for _, s := range stricter {
		extra[s] = true
	}
	var got, wantMod []string
	// A submodule's state is git's to report; sentinel never counts one.
	extra["sub"] = true
	for i, e := range ix.Entries {
		if ix.Changed(i) && !extra[e.Path] {
			got = append(got, e.Path)
		}
	}
	for p := range mod {
		if !extra[p] {
			wantMod = append(wantMod, p)
		}
	}
	sort.Strings(wantMod)
	got = uniq(got)
	if !reflect.DeepEqual(got, wantMod) {
		t.Fatalf("changed files:\n got %q\nwant %q (git diff-files)", got, wantMod)
	}
	for _, s := range stricter {
		for i, e := range ix.Entries {
			if e.Path == s && !ix.Changed(i) {
				t.Errorf("%s: not changed in-process, want changed", s)
			}
		}
	}
	return ix
}

func uniq(s []string) []string {
	var out []string
	for i, v := range s {
		if i == 0 || s[i-1] != v {
			out = append(out, v)
		}
	}
	return out
}

// writeFile writes a file dated two hours back: older than the index, so
// not racily clean, and not the hour-old time ageFiles gives.
func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
}

// TestIndexMatchesGit runs the in-process reader against git over the
// index versions, both object formats and the states a work tree can be
// in.
func TestIndexMatchesGit(t *testing.T) {
	for _, format := range []string{"sha1", "sha256"} {
		for _, version := range []string{"2", "3", "4"} {
			t.Run(format+"/v"+version, func(t *testing.T) {
				dir := indexRepo(t, "--object-format="+format)
				gitT(t, dir, "update-index", "--index-version", version)
				ageFiles(t, dir)
				checkIndex(t, dir)

				// Edits git sees: new size, deletion, mode and type changes.
				writeFile(t, dir, "a_test.go", "package a // edited\n")
				if err := os.Remove(filepath.Join(dir, "gone_test.go")); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(filepath.Join(dir, "exec.sh"), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Remove(filepath.Join(dir, "link_test.go")); err != nil {
					t.Fatal(err)
				}
				writeFile(t, dir, "link_test.go", "a_test.go")
				// The cheap move: same size, the old modification time
				// put back. The change time still tells.
				p := filepath.Join(dir, "same/size_test.go")
				fi, err := os.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				writeFile(t, dir, "same/size_test.go", "package s // 2\n")
				if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
					t.Fatal(err)
				}
				// Flags: skip-worktree with the file gone is unchanged to
				// git; assume-unchanged hides an edit from git, not here.
				gitT(t, dir, "update-index", "--skip-worktree", "skip/sparse_test.go")
				if err := os.Remove(filepath.Join(dir, "skip/sparse_test.go")); err != nil {
					t.Fatal(err)
				}
				gitT(t, dir, "update-index", "--assume-unchanged", "assume/unchanged.go")
				writeFile(t, dir, "assume/unchanged.go", "package au // edited\n")
				// Intent to add: in the index with the empty blob.
				writeFile(t, dir, "new_test.go", "package n\n")
				gitT(t, dir, "add", "-N", "new_test.go")
				if version != "4" {
					// add -N writes extended flags: version 3 at least.
					gitT(t, dir, "update-index", "--index-version", "3")
				}
				ageFiles(t, dir)
				// ageFiles refreshed the index; edit again after it.
				writeFile(t, dir, "a_test.go", "package a // edited twice\n")
				// git compares whole seconds: an edit of the same size in
				// the second the index last recorded, its time put back,
				// escapes git's diff-files. The reader compares
				// nanoseconds too, and must see it.
				checkIndex(t, dir, "assume/unchanged.go", "same/size_test.go")
			})
		}
	}
}

// TestIndexRacy checks that an entry written in the index's own second is
// changed, whatever its stat data says: git compares its content.
func TestIndexRacy(t *testing.T) {
	dir := indexRepo(t)
	ctx := context.Background()
	p := filepath.Join(dir, "a_test.go")
	if err := os.WriteFile(p, []byte("package a // 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitT(t, dir, "add", "a_test.go")
	info, err := RepoInfo(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	changed := func() bool {
		t.Helper()
		ix, err := ReadIndex(info)
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range ix.Entries {
			if e.Path == "a_test.go" {
				return ix.Changed(i)
			}
		}
		t.Fatal("a_test.go is not in the index")
		return false
	}
	// Racily clean and unchanged: the content, hashed, says so.
	if changed() {
		t.Fatal("a file just added, unchanged, is changed")
	}
	// Same size, same times: only the content can tell.
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("package a // 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if !changed() {
		t.Fatal("a file edited in the index's second is not changed")
	}
}

// TestIndexConflictAndWorktree covers merge stages and a linked worktree,
// whose .git is a file naming its git dir.
func TestIndexConflictAndWorktree(t *testing.T) {
	dir := indexRepo(t)
	gitT(t, dir, "checkout", "-q", "-b", "side")
	writeFile(t, dir, "a_test.go", "package a // side\n")
	gitT(t, dir, "commit", "-qam", "side")
	gitT(t, dir, "checkout", "-q", "main")
	writeFile(t, dir, "a_test.go", "package a // main\n")
	gitT(t, dir, "commit", "-qam", "main")
	if _, err := (Exec{}).Run(context.Background(), dir, nil, "merge", "-q", "side"); err == nil {
		t.Fatal("the merge did not conflict")
	}
	ix := checkIndex(t, dir)
	stages := 0
	for _, e := range ix.Entries {
		if e.Path == "a_test.go" {
			stages++
		}
	}
	if stages != 3 {
		t.Fatalf("a_test.go has %d stages, want 3", stages)
	}
	gitT(t, dir, "merge", "--abort")

	wt := filepath.Join(t.TempDir(), "wt")
	gitT(t, dir, "worktree", "add", "-q", wt, "side")
	ageFiles(t, wt)
	writeFile(t, wt, "dir/b_test.go", "package b // wt\n")
	checkIndex(t, wt)
}

// TestIndexLeftToGit sets up each index the reader leaves to git, and
// checks that WorkTreeIndex and IndexEntries still give git's answer.
func TestIndexLeftToGit(t *testing.T) {
	ctx := context.Background()
	cases := map[string]func(t *testing.T, dir string){
		"split index": func(t *testing.T, dir string) {
			gitT(t, dir, "update-index", "--split-index")
		},
		"sparse index": func(t *testing.T, dir string) {
			gitT(t, dir, "sparse-checkout", "init", "--cone", "--sparse-index")
			gitT(t, dir, "sparse-checkout", "set", "dir")
		},
		"GIT_DIR": func(t *testing.T, dir string) {
			t.Setenv("GIT_DIR", filepath.Join(dir, ".git"))
		},
		"bad checksum": func(t *testing.T, dir string) {
			p := filepath.Join(dir, ".git", "index")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			b[len(b)-1] ^= 1
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		},
	}
	for name, set := range cases {
		t.Run(name, func(t *testing.T) {
			dir := indexRepo(t)
			info, err := RepoInfo(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			set(t, dir)
			if _, err := ReadIndex(info); !errors.Is(err, errIndexUnread) {
				t.Fatalf("ReadIndex: %v, want it left to git", err)
			}
			want, wantErr := IndexEntriesGit(ctx, dir)
			got, err := IndexEntries(ctx, info)
			if (err != nil) != (wantErr != nil) || !reflect.DeepEqual(got, want) {
				t.Fatalf("IndexEntries = %v, %v; git %v, %v", got, err, want, wantErr)
			}
			ix, err := WorkTreeIndex(ctx, info)
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("WorkTreeIndex: %v; git: %v", err, wantErr)
			}
			if err == nil && !reflect.DeepEqual(ix.Entries, want) {
				t.Fatalf("WorkTreeIndex = %v, want %v", ix.Entries, want)
			}
		})
	}
}

// TestIndexFileEnv reads the index GIT_INDEX_FILE names, as a hook of
// `git commit -a` or `git commit PATH` sees it.
func TestIndexFileEnv(t *testing.T) {
	dir := indexRepo(t)
	other := filepath.Join(t.TempDir(), "other-index")
	t.Setenv("GIT_INDEX_FILE", other)
	gitT(t, dir, "read-tree", "HEAD")
	writeFile(t, dir, "a_test.go", "package a // staged elsewhere\n")
	gitT(t, dir, "add", "a_test.go")
	ix := checkIndex(t, dir)
	if len(ix.Entries) == 0 {
		t.Fatal("empty index")
	}
	t.Setenv("GIT_INDEX_FILE", "")
	os.Unsetenv("GIT_INDEX_FILE")
	main, err := IndexEntriesGit(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(main, ix.Entries) {
		t.Fatal("GIT_INDEX_FILE's index is the same as the repository's")
	}
}

func TestGitVarint(t *testing.T) {
	// git's varint.c: 0..127 in one byte; 128 is 0x80 0x00.
	for _, c := range []struct {
		in   []byte
		want uint64
		k    int
	}{
		{[]byte{0}, 0, 1},
		{[]byte{127}, 127, 1},
		{[]byte{0x80, 0}, 128, 2},
		{[]byte{0x80, 0x7f}, 255, 2},
		{[]byte{0x81, 0}, 256, 2},
		{[]byte{0x80}, 0, 0},
		{nil, 0, 0},
	} {
		if v, k := gitVarint(c.in); v != c.want || k != c.k {
			t.Errorf("gitVarint(%x) = %d, %d; want %d, %d", c.in, v, k, c.want, c.k)
		}
	}
}

// FuzzParseIndex feeds the reader arbitrary files: it must never panic, and
// whatever it accepts must be entries git could have written.
func FuzzParseIndex(f *testing.F) {
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x00"), 20)
	f.Fuzz(func(t *testing.T, data []byte, hashLen int) {
		if hashLen != 20 && hashLen != 32 {
			hashLen = 20
		}
		ix, err := parseIndex(data, hashLen)
		if err != nil {
			if !errors.Is(err, errIndexUnread) {
				t.Fatalf("error not marked as left to git: %v", err)
			}
			return
		}
		for i, e := range ix.Entries {
			if !cleanIndexPath(e.Path) || len(e.Blob) != 2*hashLen || e.Stage > 3 {
				t.Fatalf("entry %d accepted: %+v", i, e)
			}
			if i > 0 && e.Path < ix.Entries[i-1].Path {
				t.Fatalf("entries out of order: %q after %q", e.Path, ix.Entries[i-1].Path)
			}
		}
	})
}

// BenchmarkParseIndex reads the index of the repository
// SENTINEL_BENCH_REPO names. Skipped without the variable.
func BenchmarkParseIndex(b *testing.B) {
	dir := os.Getenv("SENTINEL_BENCH_REPO")
	if dir == "" {
		b.Skip("SENTINEL_BENCH_REPO is not set")
	}
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := parseIndex(data, 20); err != nil {
			b.Fatal(err)
		}
	}
}
