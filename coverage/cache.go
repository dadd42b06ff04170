package coverage

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
	path    string
	mu      sync.Mutex
	entries map[string]*languages.Result
	added   int
}

// cacheFile is the cache's file name; the engine version is part of it, so
// an upgrade starts afresh instead of reusing counts made by older rules.
func cacheFile(commonDir string) string {
	return filepath.Join(commonDir, "sentinel", fmt.Sprintf("counts-v%d.gob", languages.Version))
}

// openCache reads the cache; a missing, unreadable or corrupt file is an
// empty cache.
func openCache(commonDir string) *cache {
	c := &cache{entries: map[string]*languages.Result{}}
	if commonDir == "" {
		return c
	}
	c.path = cacheFile(commonDir)
	data, err := os.ReadFile(c.path)
	if err != nil {
		return c
	}
	var m map[string]*languages.Result
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&m); err == nil {
		c.entries = m
	}
	return c
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
// run wrote in the meantime.
func (c *cache) save() error {
	if c.path == "" || c.added == 0 {
		return nil
	}
	if data, err := os.ReadFile(c.path); err == nil {
		var m map[string]*languages.Result
		if gob.NewDecoder(bytes.NewReader(data)).Decode(&m) == nil {
			for k, v := range m {
				if _, ok := c.entries[k]; !ok {
					c.entries[k] = v
				}
			}
		}
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(c.entries); err != nil {
		return fmt.Errorf("encode the count cache: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o755); err != nil {
		return fmt.Errorf("count cache: %w", err)
	}
	err := atomicfile.WriteTransient(c.path, buf.Bytes(), 0o644)
	if errors.Is(err, fs.ErrPermission) {
		// A read-only repository still gets its counts, only slower.
		return nil
	}
	return err
}
