package coverage

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gitsentinel/sentinel/languages"
)

// bigTest writes a Go test file just past MaxFileSize.
func bigTest(t *testing.T, dir, name string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("package a\n\nimport \"testing\"\n\n")
	for i := 0; b.Len() <= MaxFileSize; i++ {
		fmt.Fprintf(&b, "func TestBig%d(t *testing.T) { if %d != %d { t.Fatal(\"no\") } }\n", i, i, i)
	}
	write(t, dir, name, b.String())
}

// TestTooLargeIsCachedBySize: a blob past the limit is skipped from its
// size, and the skip is cached like a count, so a warm run neither reads
// nor sizes it.
func TestTooLargeIsCachedBySize(t *testing.T) {
	dir := newRepo(t)
	count(t, Options{Dir: dir, Mode: Index}) // warm for the rest
	bigTest(t, dir, "big_test.go")
	run(t, dir, nil, "add", "big_test.go")
	for _, mode := range []Mode{Index, WorkTree, Rev} {
		o := Options{Dir: dir, Mode: mode, Rev: "HEAD"}
		if mode == Rev {
			run(t, dir, nil, "commit", "-q", "-m", "big")
		}
		c := count(t, o)
		found := false
		for _, s := range c.Skipped {
			if s.Path == "big_test.go" && s.Reason == "larger than 8 MiB" && s.Content {
				found = true
			}
		}
		if !found {
			t.Fatalf("mode %d: big_test.go not skipped as too large: %+v", mode, c.Skipped)
		}
		if mode == Index && c.Parsed != 1 {
			t.Errorf("first count parsed %d, want 1 (the big file, sized)", c.Parsed)
		}
		if mode != Index && c.Parsed != 0 {
			t.Errorf("mode %d: warm count parsed %d", mode, c.Parsed)
		}
	}
	blob := strings.TrimSpace(revParse(t, dir, "HEAD:big_test.go"))
	if !openCache(filepath.Join(dir, ".git"), "").tooLarge(blob) {
		t.Errorf("the cache does not know %s is too large", blob)
	}
}

// TestCacheDirSharedByClones: a cache made through one clone answers
// every file of another, wherever the environment or the configuration
// puts it, and the git dirs hold no cache.
func TestCacheDirSharedByClones(t *testing.T) {
	a := newRepo(t)
	b := filepath.Join(t.TempDir(), "b")
	run(t, a, nil, "clone", "-q", a, b)
	shared := filepath.Join(t.TempDir(), "shared", "cache")
	t.Setenv(CacheDirEnv, shared)

	first := count(t, Options{Dir: a, Mode: Rev, Rev: "HEAD"})
	if first.Parsed == 0 {
		t.Fatalf("cold count parsed nothing")
	}
	second := count(t, Options{Dir: b, Mode: WorkTree})
	if second.Parsed != 0 || second.Cached != first.Parsed || *second.Total() != *first.Total() {
		t.Errorf("the other clone: parsed %d cached %d, %+v; want parsed 0 cached %d, %+v",
			second.Parsed, second.Cached, second.Total(), first.Parsed, first.Total())
	}
	for _, d := range []string{a, b} {
		if _, err := os.Stat(filepath.Join(d, ".git", "sentinel")); err == nil {
			t.Errorf("%s/.git/sentinel exists: the cache went to the git dir", d)
		}
	}
	if _, err := os.Stat(filepath.Join(shared, cacheName())); err != nil {
		t.Errorf("no cache in the shared directory: %v", err)
	}

	// A committed cache_dir is not where the cache goes: the location is
	// the user's (SENTINEL_CACHE_DIR), or the git dir.
	write(t, b, ".sentinel/config.toml", "[coverage]\ncache_dir = \"../c\"\n")
	o, _, err := ProjectOptions(context.Background(), b, WorkTree, "")
	if err != nil {
		t.Fatal(err)
	}
	if o.CacheDir != "" {
		t.Fatalf("cache dir %q from the committed configuration", o.CacheDir)
	}
	if c := count(t, o); c.Parsed != 0 {
		t.Errorf("with SENTINEL_CACHE_DIR set, the shared cache was not used: parsed %d", c.Parsed)
	}
	t.Setenv(CacheDirEnv, "")
	if c := count(t, o); c.Parsed == 0 {
		t.Errorf("the git dir's cache is empty, yet nothing was parsed")
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(b), "c")); err == nil {
		t.Errorf("the cache went to the committed cache_dir")
	}
	if _, err := os.Stat(filepath.Join(b, ".git", "sentinel", cacheName())); err != nil {
		t.Errorf("no cache in the git dir: %v", err)
	}
	if c := count(t, o); c.Parsed != 0 {
		t.Errorf("warm through the git dir: parsed %d", c.Parsed)
	}
}

// TestCacheConcurrentSaves: many writers saving into one directory at once
// never leave a file that does not decode, never fail, and the file holds
// at least the last writer's entries.
func TestCacheConcurrentSaves(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(CacheDirEnv, dir)
	const writers, rounds = 8, 20
	var wg sync.WaitGroup
	errs := make(chan error, writers*rounds)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				c := openCache("unused", "")
				for i := 0; i < 50; i++ {
					c.put(cacheKey("go", ".go", fmt.Sprintf("%d-%d-%d", w, r, i)), &languages.Result{Language: "go", Assertions: i})
				}
				if err := c.save(); err != nil {
					errs <- err
				}
				if m := readCache(dir, cacheName()); m == nil {
					errs <- fmt.Errorf("writer %d round %d: the cache does not decode", w, r)
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	m := readCache(dir, cacheName())
	if len(m) < 50 {
		t.Fatalf("the cache holds %d entries", len(m))
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func revParse(t *testing.T, dir, rev string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "rev-parse", rev).Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestCacheSaveMergesOnlyAnotherRunsFile: a save that writes the whole
// cache keeps what another run saved since this one read it.
func TestCacheSaveMergesOnlyAnotherRunsFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(CacheDirEnv, dir)
	a, b := openCache("unused", ""), openCache("unused", "")
	a.put("a", &languages.Result{Language: "go"})
	b.put("b", &languages.Result{Language: "go"})
	if err := a.save(); err != nil {
		t.Fatal(err)
	}
	// b read no file either: it writes the whole cache, a's entry kept.
	if err := b.save(); err != nil {
		t.Fatal(err)
	}
	if m := readCache(dir, cacheName()); m["a"] == nil || m["b"] == nil {
		t.Fatalf("after both first saves the cache holds %v", m)
	}
}

// TestCacheSegments: a run that adds counts writes a segment of its own,
// not the whole cache; the first save, and the save that finds too many
// segments, write the whole cache merged with what other runs saved, and
// remove the segments merged.
func TestCacheSegments(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(CacheDirEnv, dir)
	segs := func() []string {
		t.Helper()
		names, err := filepath.Glob(filepath.Join(dir, segmentDir(cacheName()), "*"))
		if err != nil {
			t.Fatal(err)
		}
		return names
	}
	for _, k := range []string{"a", "b"} {
		r := openCache("unused", "")
		r.put(k, &languages.Result{Language: "go"})
		if err := r.save(); err != nil {
			t.Fatal(err)
		}
	}
	if n := segs(); len(n) != 1 {
		t.Fatalf("segments after a first save and a second: %v", n)
	}
	before, err := os.Stat(filepath.Join(dir, cacheName()))
	if err != nil {
		t.Fatal(err)
	}
	// A later run adds one entry: one segment, the file untouched.
	c := openCache("unused", "")
	c.put("c", &languages.Result{Language: "go", Assertions: 3})
	if err := c.save(); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(filepath.Join(dir, cacheName()))
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Error("a save of one entry rewrote the cache file")
	}
	if n := segs(); len(n) != 2 {
		t.Fatalf("segments after one more save: %v", n)
	}
	if m := readCache(dir, cacheName()); m["c"] == nil || m["c"].Assertions != 3 || m["a"] == nil {
		t.Fatalf("the cache with a segment holds %v", m)
	}
	// Runs keep adding: the segments never pile past the bound, and
	// nothing is lost when they are merged.
	for i := 0; i < 3*maxSegments; i++ {
		r := openCache("unused", "")
		r.put(fmt.Sprintf("k%d", i), &languages.Result{Language: "go"})
		if err := r.save(); err != nil {
			t.Fatal(err)
		}
		if n := segs(); len(n) > maxSegments {
			t.Fatalf("run %d: %d segments", i, len(n))
		}
	}
	m := readCache(dir, cacheName())
	for i := 0; i < 3*maxSegments; i++ {
		if m[fmt.Sprintf("k%d", i)] == nil {
			t.Fatalf("k%d lost", i)
		}
	}
	if m["a"] == nil || m["b"] == nil || m["c"] == nil {
		t.Fatalf("early entries lost: %v", m)
	}
	// A corrupt segment is a miss, not a failure, and merges away.
	if err := os.WriteFile(filepath.Join(dir, segmentDir(cacheName()), "0-bad.bin"), []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if m := readCache(dir, cacheName()); m["a"] == nil {
		t.Fatal("a corrupt segment hid the cache")
	}
}

// TestCacheEvictsOldVersions: every change adds the counts of its files,
// and a compaction after a whole count drops what that count did not use,
// so that the cache follows the tree rather than its history; a count of
// some paths only drops nothing, and a whole count after the drop parses
// nothing.
func TestCacheEvictsOldVersions(t *testing.T) {
	was := evictSlack
	evictSlack = 0
	defer func() { evictSlack = was }()
	dir := newRepo(t)
	cacheDir := t.TempDir()
	entries := func() int {
		t.Helper()
		return len(readCache(cacheDir, cacheName()))
	}
	count(t, Options{Dir: dir, Mode: WorkTree, CacheDir: cacheDir})
	base := entries()
	if base == 0 {
		t.Fatal("no cache after a count")
	}
	// Old versions of a file of some paths only: kept, whatever their
	// number.
	for i := 0; i < 2*maxSegments; i++ {
		write(t, dir, "a_test.go", fmt.Sprintf("%s// only %d\n", twoTests, i))
		count(t, Options{Dir: dir, Mode: WorkTree, CacheDir: cacheDir, Paths: []string{"a_test.go"}})
	}
	if n := entries(); n < base+2*maxSegments {
		t.Fatalf("counts of some paths only dropped entries: %d, want at least %d", n, base+2*maxSegments)
	}
	// Whole counts: the old versions go at the next compactions. What
	// other runs added since the last compaction stays for one more, and
	// up to maxSegments runs' additions wait in segments: one entry each
	// here.
	for i := 0; i < 3*maxSegments; i++ {
		write(t, dir, "a_test.go", fmt.Sprintf("%s// whole %d\n", twoTests, i))
		count(t, Options{Dir: dir, Mode: WorkTree, CacheDir: cacheDir})
	}
	if n := entries(); n > base+2*maxSegments {
		t.Fatalf("after whole counts the cache holds %d entries, for a tree of %d; without a drop it would be %d", n, base, base+5*maxSegments)
	}
	if c := count(t, Options{Dir: dir, Mode: WorkTree, CacheDir: cacheDir}); c.Parsed != 0 {
		t.Fatalf("a whole count after the drop parsed %d files", c.Parsed)
	}
}
