package coverage

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/gitsentinel/sentinel/internal/atomicfile"
	"github.com/gitsentinel/sentinel/languages"
)

// CacheKeyEnv names the environment variable that holds the secret the
// count cache's entries are tagged with. CI runners that share a cache
// through their cache service share it too, as a secret of the job that
// runs sentinel; without it, the key is the user's own, in
// $XDG_STATE_HOME/sentinel/cache.key.
const CacheKeyEnv = "SENTINEL_CACHE_KEY"

// The count cache is a file anyone who can write to it can forge: a CI
// cache a pull request's job saved, a directory runners share. A forged
// count of an unchanged blob would let a check trust counts the content
// does not hold. So each entry carries a tag, an HMAC-SHA256 keyed outside
// the repository over the engine version, the entry's key (language,
// extension, blob id) and its result, and a check that must hold
// (Options.Verify: sentinel ci, the pre-push hook) takes from the cache
// only entries whose tag proves them; the others are counted again from
// the blob. Local counts, through a cache in the user's own git dir, take
// every entry as before.

// cacheMAC tags and proves cache entries with one key.
type cacheMAC struct{ key []byte }

// tagSize is the length of a tag: 128 bits of an HMAC-SHA256.
const tagSize = 16

// tag returns the tag of the entry k with the result encoding enc; nil
// when there is no key.
func (m *cacheMAC) tag(k string, enc []byte) []byte {
	if m == nil {
		return nil
	}
	h := hmac.New(sha256.New, m.key)
	h.Write([]byte(strconv.Itoa(languages.Version)))
	h.Write([]byte{0})
	h.Write([]byte(k))
	h.Write([]byte{0})
	h.Write(enc)
	return h.Sum(nil)[:tagSize]
}

// provesRaw reports whether tag proves the entry k with encoding enc.
func (m *cacheMAC) provesRaw(k string, enc, tag []byte) bool {
	return m != nil && len(tag) == tagSize && hmac.Equal(tag, m.tag(k, enc))
}

// proves reports whether tag proves the entry k with result r.
func (m *cacheMAC) proves(k string, r *languages.Result, tag []byte) bool {
	var w cacheWriter
	w.result(r)
	return m.provesRaw(k, w.buf, tag)
}

// keyFileSize is the length of a key file sentinel writes.
const keyFileSize = 32

var (
	userMACOnce sync.Once
	userMAC     *cacheMAC
)

// loadCacheMAC returns the tagger of the user's cache: keyed by
// SENTINEL_CACHE_KEY, else by the user's key file, made on first use; nil
// when neither can be had (no state directory, a read-only home), and the
// cache then tags nothing and proves nothing.
func loadCacheMAC() *cacheMAC {
	if v := os.Getenv(CacheKeyEnv); v != "" {
		sum := sha256.Sum256([]byte(v))
		return &cacheMAC{key: sum[:]}
	}
	userMACOnce.Do(func() {
		if key, err := userCacheKey(stateDir()); err == nil {
			userMAC = &cacheMAC{key: key}
		}
	})
	return userMAC
}

// stateDir is $XDG_STATE_HOME/sentinel, or ~/.local/state/sentinel; ""
// when neither is an absolute path.
func stateDir() string {
	dir := os.Getenv("XDG_STATE_HOME")
	if !filepath.IsAbs(dir) {
		dir = ""
		if home := os.Getenv("HOME"); filepath.IsAbs(home) {
			dir = filepath.Join(home, ".local", "state")
		}
	}
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "sentinel")
}

// userCacheKey reads the key file in dir, or makes it: random bytes,
// readable by the user alone, linked into place whole so that two runs at
// once end with the same key.
func userCacheKey(dir string) ([]byte, error) {
	if dir == "" {
		return nil, errors.New("no state directory")
	}
	const name = "cache.key"
	key, err := atomicfile.ReadIn(dir, name, 4*keyFileSize)
	if err == nil && len(key) >= keyFileSize {
		return key, nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, ".cache.key-")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	key = make([]byte, keyFileSize)
	rand.Read(key)
	if _, err := f.Write(key); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	// A link fails where the name exists: the key another run made first
	// wins, and is read back.
	if err := os.Link(f.Name(), filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	key, err = atomicfile.ReadIn(dir, name, 4*keyFileSize)
	if err != nil || len(key) < keyFileSize {
		return nil, errors.New("unreadable cache key")
	}
	return key, nil
}
