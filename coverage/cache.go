package coverage

import (
	"bytes"
	"fmt"
	"path"
	"sync"

	"github.com/gitsentinel/sentinel/internal/atomicfile"
	"github.com/gitsentinel/sentinel/languages"
)

// cache holds the counts of files by a key made of the blob id and what
// else decides the result: the engine version, the language and the
// extension. It lives in one file under <git common dir>/sentinel/, read
// once and written back atomically only when something was added. Two
// runs at once may each write their own additions; the later rename wins,
// and what the other added is counted again next time. Deleting the file
// loses nothing but time.
type cache struct {
	commonDir string
	mu        sync.Mutex
	entries   map[string]*languages.Result
	added     int
	// read is the file as this run read it.
	read []byte
}

// cacheFile is the cache's path below the common directory; the engine
// version is part of it, so an upgrade starts afresh instead of reusing
// counts made by older rules.
func cacheFile() string {
	return fmt.Sprintf("sentinel/counts-v%d.bin", languages.Version)
}

// maxCacheSize bounds a read of the cache. A link, a FIFO, a directory or
// a file past this size is no cache: it is ignored, and never read until
// memory runs out.
const maxCacheSize = 256 << 20

// readCache decodes the cache file; anything odd is an empty cache.
func readCache(commonDir string) map[string]*languages.Result {
	m, _ := readCacheBytes(commonDir)
	return m
}

// readCacheBytes decodes the cache file, and returns the bytes it read.
func readCacheBytes(commonDir string) (map[string]*languages.Result, []byte) {
	data, err := atomicfile.ReadIn(commonDir, cacheFile(), maxCacheSize)
	if err != nil {
		return nil, nil
	}
	m, err := decodeCache(data)
	if err != nil {
		return nil, nil
	}
	return m, data
}

// openCache reads the cache; a missing, unreadable or corrupt file is an
// empty cache.
func openCache(commonDir string) *cache {
	c := &cache{entries: map[string]*languages.Result{}}
	if commonDir == "" {
		return c
	}
	c.commonDir = commonDir
	if m, data := readCacheBytes(commonDir); m != nil {
		c.entries, c.read = m, data
	}
	return c
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

func (c *cache) get(key string) *languages.Result {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[key]
}

func (c *cache) put(key string, r *languages.Result) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[key] = r
	c.added++
}

// save writes the cache back when entries were added, merging what another
// run wrote in the meantime. A cache that cannot be written (a read-only
// repository, a file where its directory should be) costs only time, so
// it is no error.
func (c *cache) save() error {
	if c.commonDir == "" || c.added == 0 {
		return nil
	}
	// What another run wrote meanwhile is kept; the file is decoded again
	// only when it is not the one this run read.
	if data, err := atomicfile.ReadIn(c.commonDir, cacheFile(), maxCacheSize); err == nil && !bytes.Equal(data, c.read) {
		if m, err := decodeCache(data); err == nil {
			for k, v := range m {
				if _, ok := c.entries[k]; !ok {
					c.entries[k] = v
				}
			}
		}
	}
	data := encodeCache(c.entries)
	atomicfile.WriteIn(c.commonDir, cacheFile(), data, atomicfile.Options{Perm: 0o644, Transient: true, MkdirAll: true})
	// A second count through the same cache writes only what it adds.
	c.added, c.read = 0, data
	return nil
}
