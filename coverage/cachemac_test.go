package coverage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/internal/atomicfile"
	"github.com/gitsentinel/sentinel/languages"
)

// TestCacheTagsProveEntries: an entry answers a check that must hold only
// when its tag, by the key of the run, proves it; a tag is never made for
// an entry read from a file, so re-writing a cache does not launder a
// forged one.
func TestCacheTagsProveEntries(t *testing.T) {
	a, b := &cacheMAC{key: []byte("key a")}, &cacheMAC{key: []byte("key b")}
	res := &languages.Result{Language: "go", Tests: []languages.Test{{Name: "TestA", Line: 3, Status: languages.Active}}, Assertions: 1}
	entries := map[string]*languages.Result{"go\x00.go\x00b1": res}
	for _, tc := range []struct {
		name       string
		file       []byte
		mac        *cacheMAC
		wantProven bool
	}{
		{"tagged by the key", encodeCache(entries, a), a, true},
		{"tagged by another key", encodeCache(entries, b), a, false},
		{"untagged", encodeCache(entries, nil), a, false},
		{"the second layout", v2File(entries), a, false},
	} {
		for _, proving := range []bool{true, false} {
			cs, err := scanCache(append([]byte(nil), tc.file...))
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			var m *cacheMAC
			if proving {
				m = tc.mac
			}
			got := cs.lookup("go\x00.go\x00b1", map[string]string{}, m) != nil
			want := tc.wantProven || !proving
			if got != want {
				t.Errorf("%s, proving %v: found %v, want %v", tc.name, proving, got, want)
			}
		}
	}

	// An entry forged without a tag, decoded by a local run and written
	// back with the run's key, still proves nothing.
	cs, err := scanCache(encodeCache(entries, nil))
	if err != nil {
		t.Fatal(err)
	}
	if cs.lookup("go\x00.go\x00b1", map[string]string{}, nil) == nil {
		t.Fatal("a local run does not read the entry")
	}
	cs.put("go\x00.go\x00fresh", res)
	again, err := scanCache(encodeSet(cs, a))
	if err != nil {
		t.Fatal(err)
	}
	if again.lookup("go\x00.go\x00b1", map[string]string{}, a) != nil {
		t.Error("re-writing the cache gave a forged entry a tag")
	}
	if again.lookup("go\x00.go\x00fresh", map[string]string{}, a) == nil {
		t.Error("an entry this run counted has no tag of the run's key")
	}
}

// v2File writes entries in the second layout, which encodeCache no longer
// writes: no tag after each.
func v2File(entries map[string]*languages.Result) []byte {
	w := &cacheWriter{}
	w.buf = append(w.buf, cacheMagicV2...)
	w.uint(uint64(len(entries)))
	for k, r := range entries {
		w.str(k)
		var scratch cacheWriter
		scratch.result(r)
		w.uint(uint64(len(scratch.buf)))
		w.buf = append(w.buf, scratch.buf...)
	}
	return w.buf
}

// TestForgedCacheEntryInCheck: a count that must hold (Options.Verify)
// counts a blob from its content when the cache's entry for it is not
// proven by the run's key, and takes it when it is; a local count takes
// the cache as it is.
func TestForgedCacheEntryInCheck(t *testing.T) {
	dir := newRepo(t)
	t.Setenv(CacheKeyEnv, "the job's secret")
	honest := count(t, Options{Dir: dir, Mode: Rev, Rev: "HEAD"})
	want := honest.Total().Tests

	// The cache as a pull request's job could leave it: every count
	// doubled, under a key that is not the secret.
	forge := func(mac *cacheMAC) {
		t.Helper()
		commonDir := filepath.Join(dir, ".git")
		c := openCache(commonDir, "")
		c.wait()
		forged := map[string]*languages.Result{}
		c.entries.keys(func(k string) {
			r := c.entries.lookup(k, map[string]string{}, nil)
			if r == nil {
				return
			}
			f := *r
			f.Tests = append(append([]languages.Test(nil), r.Tests...), r.Tests...)
			for i := len(r.Tests); i < len(f.Tests); i++ {
				f.Tests[i].Name += "Forged"
			}
			forged[k] = &f
		})
		os.RemoveAll(filepath.Join(commonDir, segmentDir(cacheFile())))
		if err := atomicfile.WriteIn(commonDir, cacheFile(), encodeCache(forged, mac), atomicfile.Options{Perm: 0o644, MkdirAll: true}); err != nil {
			t.Fatal(err)
		}
	}
	forge(&cacheMAC{key: []byte("a key the job chose")})
	if got := count(t, Options{Dir: dir, Mode: Rev, Rev: "HEAD", Verify: "HEAD"}).Total().Tests; got != want {
		t.Errorf("a check counted %d tests through a forged cache, want %d", got, want)
	}
	forge(nil)
	if got := count(t, Options{Dir: dir, Mode: Rev, Rev: "HEAD", Verify: "HEAD"}).Total().Tests; got != want {
		t.Errorf("a check counted %d tests through an untagged cache, want %d", got, want)
	}
	// A local count trusts the user's own cache, forged or not: the
	// figure it sees is the forged one.
	forge(loadCacheMAC())
	if got := count(t, Options{Dir: dir, Mode: Rev, Rev: "HEAD"}).Total().Tests; got == want {
		t.Errorf("the local count did not read the cache (counted %d)", got)
	}
	// Entries the secret proves answer the check: the cache still saves
	// the parse.
	c := count(t, Options{Dir: dir, Mode: Rev, Rev: "HEAD", Verify: "HEAD"})
	if c.Parsed != 0 {
		t.Errorf("a check re-parsed %d files whose entries the key proves", c.Parsed)
	}
	if !strings.Contains(strings.Join(testNames(c), " "), "Forged") {
		t.Error("the proven entries were not the ones read")
	}
}

// testNames lists the names of the tests a count found.
func testNames(c *Counts) []string {
	var out []string
	for _, f := range c.Files {
		for _, ts := range f.Tests {
			out = append(out, ts.Name)
		}
	}
	return out
}

// TestUserCacheKey: the key is made once, readable by the user alone, and
// read back the same.
func TestUserCacheKey(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "sentinel")
	k1, err := userCacheKey(dir)
	if err != nil || len(k1) != keyFileSize {
		t.Fatalf("userCacheKey: %x, %v", k1, err)
	}
	k2, err := userCacheKey(dir)
	if err != nil || string(k1) != string(k2) {
		t.Fatalf("a second read: %x, %v; want %x", k2, err, k1)
	}
	st, err := os.Stat(filepath.Join(dir, "cache.key"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v, %v", st, err)
	}
	if _, err := userCacheKey(""); err == nil {
		t.Error("a key without a state directory")
	}
}
