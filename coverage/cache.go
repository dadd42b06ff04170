package coverage

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/gitsentinel/sentinel/internal/atomicfile"
	"github.com/gitsentinel/sentinel/languages"
)

// CacheDirEnv names the environment variable that moves the count cache
// out of the repository, so that clones and CI runs can share it. It wins
// over [coverage] cache_dir.
const CacheDirEnv = "SENTINEL_CACHE_DIR"

// cache holds the counts of files by a key made of the blob id and what
// else decides the result: the engine version, the language and the
// extension. It lives in one file, by default under <git common
// dir>/sentinel/, read once and written back atomically only when
// something was added. Nothing in it depends on the clone, so it may live
// anywhere (SENTINEL_CACHE_DIR, [coverage] cache_dir). Two runs at once may
// each write their own additions; the later rename wins, and what the
// other added is counted again next time. Deleting the file loses nothing
// but time.
type cache struct {
	// root is the directory taken as it is; rel is the file below it,
	// whose directories are created as needed and never followed if they
	// are links. root is empty for no cache at all.
	root, rel string
	// own says that root is a directory of the user's choosing, created
	// when missing.
	own     bool
	mu      sync.Mutex
	entries map[string]*languages.Result
	added   int
	// read is the file as it was found before it was read; a save that
	// finds the same file has nothing of another run's to merge.
	read os.FileInfo
	// loaded is closed once the file is decoded: the decode runs beside
	// the listing of the snapshot and the runners' selection, and every
	// use of entries or read waits for it.
	loaded chan struct{}
}

// wait blocks until the cache file is decoded.
func (c *cache) wait() {
	if c.loaded != nil {
		<-c.loaded
	}
}

// cacheName is the cache file's name; the engine version is part of it, so
// an upgrade starts afresh instead of reusing counts made by older rules.
func cacheName() string {
	return fmt.Sprintf("counts-v%d.bin", languages.Version)
}

// cacheFile is the cache's path below the common directory.
func cacheFile() string {
	return "sentinel/" + cacheName()
}

// maxCacheSize bounds a read of the cache. A link, a FIFO, a directory or
// a file past this size is no cache: it is ignored, and never read until
// memory runs out.
const maxCacheSize = 256 << 20

// cacheLocation says where the cache of a repository lives: the directory
// SENTINEL_CACHE_DIR names (a relative one is relative to the working
// directory), else the configured one (already resolved against the
// repository's root), else below the common git dir. own reports a
// directory of the user's.
func cacheLocation(commonDir, configured string) (root, rel string, own bool) {
	if d := os.Getenv(CacheDirEnv); d != "" {
		if abs, err := filepath.Abs(d); err == nil {
			d = abs
		}
		return d, cacheName(), true
	}
	if configured != "" {
		return configured, cacheName(), true
	}
	if commonDir == "" {
		return "", "", false
	}
	return commonDir, cacheFile(), false
}

// ResolveCacheDir turns [coverage] cache_dir into an absolute path: a
// relative one is relative to the repository's root. Empty stays empty.
func ResolveCacheDir(root, dir string) string {
	if dir == "" || filepath.IsAbs(dir) {
		return dir
	}
	return filepath.Join(root, filepath.FromSlash(dir))
}

// readCache decodes the cache file; anything odd is an empty cache.
func readCache(root, rel string) map[string]*languages.Result {
	data, err := atomicfile.ReadIn(root, rel, maxCacheSize)
	if err != nil {
		return nil
	}
	m, err := decodeCache(data)
	if err != nil {
		return nil
	}
	return m
}

// openCache reads the cache of the repository whose common git dir is
// commonDir (empty for plain files, which have no cache, wherever one is
// set); configured is [coverage] cache_dir, resolved. A missing,
// unreadable or corrupt file is an empty cache.
func openCache(commonDir, configured string) *cache {
	c := &cache{entries: map[string]*languages.Result{}}
	if commonDir == "" {
		return c
	}
	c.root, c.rel, c.own = cacheLocation(commonDir, configured)
	if c.root == "" {
		return c
	}
	c.loaded = make(chan struct{})
	go func() {
		defer close(c.loaded)
		c.read = c.stat()
		if m := readCache(c.root, c.rel); m != nil {
			c.entries = m
		}
	}()
	return c
}

// stat describes the cache file, nil when there is none. It only tells
// one file from another; the reads go through atomicfile.
func (c *cache) stat() os.FileInfo {
	fi, err := os.Lstat(filepath.Join(c.root, filepath.FromSlash(c.rel)))
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	return fi
}

// unchanged reports whether the cache file is still the one read: every
// save renames a new file into place, so another run's save shows as
// another file (or another size or time).
func (c *cache) unchanged() bool {
	c.wait()
	now := c.stat()
	if c.read == nil || now == nil {
		return c.read == nil && now == nil
	}
	return os.SameFile(c.read, now) && c.read.Size() == now.Size() && c.read.ModTime().Equal(now.ModTime())
}

// countKey is the cache key of the count of the file at p. A gated path's
// count (languages.Language.Gated) is kept apart: the same content is a
// test file under a test name and may be filtered out elsewhere.
func countKey(l *languages.Language, p, blob string) string {
	ext := path.Ext(p)
	if l.Gated(p) {
		ext += "\x00gated"
	}
	return cacheKey(l.Name, ext, blob)
}

func cacheKey(lang, ext, blob string) string {
	return lang + "\x00" + ext + "\x00" + blob
}

// tooLargeKey is the key that records a blob past MaxFileSize, whatever
// its language: no language has an empty name, so it meets no count, and
// the limit is part of it.
func tooLargeKey(blob string) string {
	return cacheKey("", "larger than "+strconv.Itoa(MaxFileSize), blob)
}

func (c *cache) get(key string) *languages.Result {
	c.wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[key]
}

func (c *cache) put(key string, r *languages.Result) {
	c.wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[key] = r
	c.added++
}

// tooLarge reports whether the cache knows the blob to be past
// MaxFileSize.
func (c *cache) tooLarge(blob string) bool {
	return blob != "" && c.get(tooLargeKey(blob)) != nil
}

// putTooLarge records a blob past MaxFileSize, so that no later run reads
// or even sizes it again.
func (c *cache) putTooLarge(blob string) {
	if blob != "" {
		c.put(tooLargeKey(blob), &languages.Result{})
	}
}

// save writes the cache back when entries were added, merging what another
// run wrote in the meantime. A cache that cannot be written (a read-only
// repository, a file where its directory should be) costs only time, so
// it is no error. Several runs may save at once: each writes a whole file
// of its own and renames it into place, so the file is always one run's
// complete cache, and at worst lacks what another run added at the same
// moment.
func (c *cache) save() error {
	c.wait()
	if c.root == "" || c.added == 0 {
		return nil
	}
	if !c.unchanged() {
		// Another run saved since this one read: keep what it added.
		for k, v := range readCache(c.root, c.rel) {
			if _, ok := c.entries[k]; !ok {
				c.entries[k] = v
			}
		}
	}
	if c.own {
		// The user's directory, which a CI cache restore may not have
		// made yet.
		os.MkdirAll(c.root, 0o755)
	}
	atomicfile.WriteIn(c.root, c.rel, encodeCache(c.entries), atomicfile.Options{Perm: 0o644, Transient: true, MkdirAll: true})
	c.read = c.stat()
	// A second count through the same cache writes only what it adds.
	c.added = 0
	return nil
}
