package coverage

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gitsentinel/sentinel/gitrepo"
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
// dir>/sentinel/, and beside it a directory of segments: each run that adds
// counts writes only those, as a small file of its own, so a commit that
// parsed one file does not rewrite the counts of every file. When segments
// pile up, a run merges them into the file (compaction). Every write is a
// whole file renamed into place. Nothing in it depends on the clone, so it
// may live anywhere (SENTINEL_CACHE_DIR, [coverage] cache_dir). Two runs at
// once may lose each other's additions at a compaction; what is lost is
// counted again next time. Deleting the cache loses nothing but time.
type cache struct {
	// root is the directory taken as it is; rel is the file below it,
	// whose directories are created as needed and never followed if they
	// are links. root is empty for no cache at all.
	root, rel string
	// own says that root is a directory of the user's choosing, created
	// when missing.
	own bool
	mu  sync.Mutex
	// entries are the counts, each decoded when first looked up;
	// interned is shared by those decodes.
	entries  cacheSet
	interned map[string]string
	// fresh are the entries this run added and has not saved.
	fresh map[string]*languages.Result
	// based says the file existed when the cache was read; segs are the
	// segments read with it.
	based bool
	segs  []string
	// used are the keys this run looked up and found, or added; whole
	// says it counted a whole snapshot, so that what it did not use is
	// an old version of a file, which a compaction may drop.
	used  map[string]bool
	whole bool
	// distrust, when set, names the blobs whose counts must come from
	// their content (Options.Verify): get answers nil for them.
	distrust func(blob string) bool
	// mac tags what this run adds; with proving set (Options.Verify), an
	// entry read from a file answers only when its tag proves it.
	mac     *cacheMAC
	proving bool
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

// maxSegments is how many segments a cache holds before a save merges
// them into the file.
const maxSegments = 16

// segmentDir is the directory of the segments of the cache file rel.
func segmentDir(rel string) string { return rel + ".d" }

// evictSlack is how many entries beyond one and a half times those a whole
// count used a cache keeps before a compaction drops the unused ones: the
// cache, and every run's decode of it, stays within that of the tree.
var evictSlack = 1000

// readCacheParts reads the cache file and its segments, and lists the
// segments it read and the keys they hold. based reports a file that
// read; a corrupt segment is skipped (and merged away at the next
// compaction).
func readCacheParts(root, rel string) (m cacheSet, segs []string, recent map[string]bool, based bool) {
	recent = map[string]bool{}
	m = newCacheSet()
	if data, err := atomicfile.ReadIn(root, rel, maxCacheSize); err == nil {
		if cs, err := scanCache(data); err == nil {
			m, based = cs, true
		}
	}
	names, _ := atomicfile.ReadDirIn(root, segmentDir(rel))
	sort.Strings(names)
	for _, n := range names {
		segs = append(segs, n)
		data, err := atomicfile.ReadIn(root, segmentDir(rel)+"/"+n, maxCacheSize)
		if err != nil {
			continue
		}
		seg, err := scanCache(data)
		if err != nil {
			continue
		}
		seg.keys(func(k string) { recent[k] = true })
		m.overlay(seg)
	}
	return m, segs, recent, based
}

// openCache reads the cache of the repository whose common git dir is
// commonDir (empty for plain files, which have no cache, wherever one is
// set); configured is [coverage] cache_dir, resolved. A missing,
// unreadable or corrupt file is an empty cache.
func openCache(commonDir, configured string) *cache {
	c := &cache{entries: newCacheSet(), interned: map[string]string{}, fresh: map[string]*languages.Result{}, used: map[string]bool{}}
	if commonDir == "" {
		return c
	}
	c.root, c.rel, c.own = cacheLocation(commonDir, configured)
	if c.root == "" {
		return c
	}
	c.mac = loadCacheMAC()
	c.loaded = make(chan struct{})
	go func() {
		defer close(c.loaded)
		c.entries, c.segs, _, c.based = readCacheParts(c.root, c.rel)
	}()
	return c
}

// countKey is the cache key of the count of the file at p. A gated path's
// count (languages.Language.Gated) is kept apart: the same content is a
// test file under a test name and may be filtered out elsewhere.
func countKey(l *languages.Language, p, blob string) string {
	return cacheKey(l.Name, countExt(l, p), blob)
}

// countExt is the part of a count's key that the file's path decides.
func countExt(l *languages.Language, p string) string {
	ext := path.Ext(p)
	if l.Gated(p) {
		ext += "\x00gated"
	}
	return ext
}

func cacheKey(lang, ext, blob string) string {
	return lang + "\x00" + ext + "\x00" + blob
}

// keyBlob is the blob id a cache key ends with.
func keyBlob(key string) string {
	return key[strings.LastIndexByte(key, 0)+1:]
}

// tooLargeKey is the key that records a blob past MaxFileSize, whatever
// its language: no language has an empty name, so it meets no count, and
// the limit is part of it.
func tooLargeKey(blob string) string {
	return cacheKey("", "larger than "+strconv.Itoa(MaxFileSize), blob)
}

// refusedKey is the key that records a blob the count of its language
// refuses for a reason (too many tests, nested too deep): the reason is
// part of the key, and the limits are part of the reason.
func refusedKey(l *languages.Language, p, blob, reason string) string {
	return cacheKey(l.Name, countExt(l, p)+"\x00refused: "+reason, blob)
}

// refusals are the reasons a cached refusal may have.
func refusals() []string {
	return []string{languages.TooManyTestsReason(), languages.TooDeepReason()}
}

// refused returns the skip of a blob the cache knows its language's count
// to refuse, or nil.
func (c *cache) refused(l *languages.Language, p, blob string) *SkippedFile {
	for _, reason := range refusals() {
		if c.get(refusedKey(l, p, blob, reason)) != nil {
			return refusedFor(p, reason)
		}
	}
	return nil
}

// putRefused records a refusal of the blob, for the reasons that depend on
// its content alone.
func (c *cache) putRefused(l *languages.Language, p, blob, reason string) {
	for _, r := range refusals() {
		if r == reason {
			c.put(refusedKey(l, p, blob, reason), &languages.Result{Language: l.Name})
		}
	}
}

func (c *cache) get(key string) *languages.Result {
	if c.distrust != nil && c.distrust(keyBlob(key)) {
		return nil
	}
	c.wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.proving && c.mac == nil {
		// No key, nothing proven: every count comes from content.
		return nil
	}
	r := c.entries.lookup(key, c.interned, c.prover())
	if r != nil {
		c.used[key] = true
	}
	return r
}

// prover is the tagger entries must be proven by, or nil when any entry
// answers.
func (c *cache) prover() *cacheMAC {
	if c.proving {
		return c.mac
	}
	return nil
}

// prefetch decodes, on a goroutine of its own, the entries of the blobs
// that a snapshot lists, which its count is about to look up: their
// decode runs while the count selects its files instead of in its walk.
// An entry the walk reaches first it decodes itself; an old version of a
// file, which no snapshot lists, is never decoded.
func (c *cache) prefetch(blobs []string) {
	if c.root == "" {
		return
	}
	go func() {
		c.wait()
		want := make(map[string]bool, len(blobs))
		for _, b := range blobs {
			if b != "" {
				want[b] = true
			}
		}
		var keys []string
		c.mu.Lock()
		for k := range c.entries.raw {
			if want[keyBlob(k)] {
				keys = append(keys, k)
			}
		}
		c.mu.Unlock()
		for _, k := range keys {
			c.mu.Lock()
			if !c.proving || c.mac != nil {
				c.entries.lookup(k, c.interned, c.prover())
			}
			c.mu.Unlock()
		}
	}()
}

func (c *cache) put(key string, r *languages.Result) {
	c.wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries.put(key, r)
	c.fresh[key] = r
	c.used[key] = true
}

// peek is get when the cache is decoded already, and nil before: for a
// guess that must not wait for it.
func (c *cache) peek(key string) *languages.Result {
	if c.loaded != nil {
		select {
		case <-c.loaded:
		default:
			return nil
		}
	}
	return c.get(key)
}

// countedWhole records that this run counted a whole snapshot through the
// cache.
func (c *cache) countedWhole() {
	c.mu.Lock()
	c.whole = true
	c.mu.Unlock()
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

// save writes what this run added: a segment of its own, or, when there
// is no cache file yet or segments have piled up, the whole cache merged
// with what other runs wrote meanwhile, after which the segments merged
// are removed. A cache that cannot be written (a read-only repository, a
// file where its directory should be) costs only time, so it is no error.
func (c *cache) save() error {
	c.wait()
	if c.root == "" || len(c.fresh) == 0 {
		return nil
	}
	opts := atomicfile.Options{Perm: 0o666, Transient: true, MkdirAll: true}
	if c.own {
		// The user's directory, which a CI cache restore may not have
		// made yet.
		os.MkdirAll(c.root, 0o777)
	} else {
		// Below the git dir, the cache is everyone's who commits, as
		// core.sharedRepository says git's own files are; a setting that
		// does not read leaves the umask to decide.
		opts.Shared, _ = gitrepo.SharedRepository(context.Background(), c.root)
	}
	if c.based && len(c.segs) < maxSegments {
		name := fmt.Sprintf("%d-%d.bin", time.Now().UnixNano(), os.Getpid())
		if atomicfile.WriteIn(c.root, segmentDir(c.rel)+"/"+name, encodeCache(c.fresh, c.mac), opts) == nil {
			c.segs = append(c.segs, name)
		}
		clear(c.fresh)
		return nil
	}
	// Another run may have saved since this one read: keep what it added.
	now, segs, recent, _ := readCacheParts(c.root, c.rel)
	c.mu.Lock()
	now.keys(func(k string) {
		if !c.entries.has(k) {
			c.entries.copyEntry(now, k)
		}
	})
	out := c.entries
	if c.whole && c.entries.len() > len(c.used)+len(c.used)/2+evictSlack {
		// Every commit adds the counts of its changed files, and the
		// cache would grow with the history, and every run's decode with
		// it. What a whole count did not use is an old version of a file:
		// kept are the entries it used and those other runs added since
		// the last compaction.
		out = newCacheSet()
		for k := range c.used {
			out.copyEntry(c.entries, k)
		}
		for k := range recent {
			out.copyEntry(c.entries, k)
		}
	}
	data := encodeSet(out, c.mac)
	c.mu.Unlock()
	if atomicfile.WriteIn(c.root, c.rel, data, opts) == nil {
		for _, n := range segs {
			atomicfile.RemoveIn(c.root, segmentDir(c.rel)+"/"+n)
		}
		c.based, c.segs = true, nil
	}
	clear(c.fresh)
	return nil
}
