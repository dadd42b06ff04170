package coverage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gitsentinel/sentinel/config"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/atomicfile"
	"github.com/gitsentinel/sentinel/internal/quote"
	"github.com/gitsentinel/sentinel/languages"
	"github.com/gobwas/glob"
)

// MaxFileSize is the largest file counted; a bigger one is reported and
// skipped.
const MaxFileSize = 8 << 20

// Options says what to count.
type Options struct {
	// cache, when set, is the cache to count through, already open.
	cache *cache
	// info, when set, is where the repository lives, already asked.
	info *gitrepo.Info
	// changes, when set, is the listing of the files the snapshot changes
	// from its reference, under way.
	changes *changesRun
	// stagedConfig, in Index mode, counts with the configuration the
	// index holds, read from its entry, in place of Excludes and Scopes
	// (ProjectOptions sets it).
	stagedConfig bool
	// Dir is a directory inside the repository, or the directory to count
	// in Plain mode.
	Dir string
	// Mode is the snapshot.
	Mode Mode
	// Rev is the revision for Rev mode.
	Rev string
	// Paths restricts the count to these slash paths relative to the root
	// and what is below them.
	Paths []string
	// Excludes are patterns of paths never counted, beside DefaultExcludes.
	Excludes []string
	// Progress, when set, is told how far the scan has come, once the
	// scan has lasted ProgressAfter (a second when zero).
	Progress      Progress
	ProgressAfter time.Duration
	// Workers is the number of parsers; 0 means one per CPU.
	Workers int
	// Scopes split the ratchet's rows by part of the repository.
	Scopes []config.Scope
	// ParseTimeout bounds the parse of one file; 0 means the default.
	ParseTimeout time.Duration
	// Verify, when set, is the revision whose files the count cache is
	// trusted for: a file that differs between that revision and the
	// snapshot is counted from its content on both sides (its tests, and
	// those it had), and so is every file when the revision does not
	// exist. "-" trusts the cache for nothing.
	// In Index mode only HEAD can be named. The cache is a file that
	// anyone who can write to it can forge, and a forged count for a
	// changed test file would hide the tests it lost; a check that must
	// hold trusts it only for what the reference already had.
	Verify string
	// CacheDir is the directory of the count cache ([coverage] cache_dir,
	// absolute); empty keeps it below the common git dir.
	// SENTINEL_CACHE_DIR wins over both.
	CacheDir string
}

// Progress is told the number of files to parse, then each one parsed.
type Progress interface {
	Start(total int)
	Step()
	Finish()
}

// File is one counted file.
type File struct {
	// Path is the slash path relative to the root.
	Path string `json:"path"`
	// Result is what the file holds.
	*languages.Result
}

// SkippedFile is a candidate file that was not counted, and why.
type SkippedFile struct {
	// Path is the slash path.
	Path string `json:"path"`
	// Reason says why: binary, not UTF-8 (or not the encoding it
	// declares), too large, too slow to parse, symlink, submodule,
	// missing.
	Reason string `json:"reason"`
	// Content reports a file skipped for what it holds (binary, not text,
	// too large, too slow to parse), not for what it is (a symlink, a
	// submodule, missing): its tests are there, and are not counted.
	Content bool `json:"-"`
	// Cause says what became of a file that held tests before, completing
	// "<path> …, so its tests are not counted".
	Cause string `json:"-"`
}

// skip records why a candidate file was not counted; cause completes
// "<path> …" in the report of a drop.
func skip(path, reason, cause string, content bool) SkippedFile {
	return SkippedFile{Path: path, Reason: reason, Cause: cause, Content: content}
}

// Figures are the counts of one language, or of all.
type Figures struct {
	Files      int `json:"files"`
	Tests      int `json:"tests"`
	Skipped    int `json:"skipped"`
	Assertions int `json:"assertions"`
	Vacuous    int `json:"vacuous"`
	Benchmarks int `json:"benchmarks"`
	Subtests   int `json:"subtests"`
}

// Counts is the result of a count.
type Counts struct {
	// Root is the root the paths are relative to.
	Root string
	// Files are the counted files, sorted by path.
	Files []File
	// Skipped are the candidates that could not be counted.
	Skipped []SkippedFile
	// Parsed and Cached say how many files were parsed and how many came
	// from the cache.
	Parsed, Cached int
	// Baseline is the content of .sentinel/baseline.json in the same
	// snapshot, nil when it has none.
	Baseline []byte
	// BaselineName says where the baseline was read, for messages.
	BaselineName string
	// CommonDir is the repository's common git dir (empty for plain files).
	CommonDir string
	// counting is what the count counted with: the options', or the
	// index's own configuration.
	counting config.Counting
	// Temps are files of the snapshot that are temporary files a killed
	// sentinel left behind, and that git add picked up.
	Temps []string

	scopes []scope
	// info and cache are kept for the identity check, which counts the
	// reference's side of the changed files through the same cache.
	info  *gitrepo.Info
	cache *cache
	// pyDeps are, for each Python module, the other modules its classes'
	// bases and its imported tests come from: a change to those can
	// change its tests.
	pyDeps map[string][]string
}

// scope is a compiled [[coverage.scope]].
type scope struct {
	name  string
	globs []*glob.Pattern
}

func compileScopes(cs []config.Scope) ([]scope, error) {
	var out []scope
	for _, c := range cs {
		sc := scope{name: c.Name}
		for _, p := range c.Paths {
			comp := glob.Compiler{Separators: []rune{'/'}, Globstar: true}
			g, err := comp.Compile(p)
			if err != nil {
				return nil, fmt.Errorf("coverage.scope %q: path %q: %w", c.Name, p, err)
			}
			sc.globs = append(sc.globs, g)
		}
		out = append(out, sc)
	}
	return out, nil
}

// RowKey is the ratchet's row for a file: its language, prefixed with the
// first scope that covers it ("api/go").
func (c *Counts) RowKey(path, language string) string {
	for _, sc := range c.scopes {
		for _, g := range sc.globs {
			if g.Match(path) {
				return sc.name + "/" + language
			}
		}
	}
	return language
}

// Rows returns the figures per ratchet row: per language, or per scope and
// language when scopes are configured.
func (c *Counts) Rows() map[string]*Figures {
	m := map[string]*Figures{}
	for _, f := range c.Files {
		k := c.RowKey(f.Path, f.Language)
		fig := m[k]
		if fig == nil {
			fig = &Figures{}
			m[k] = fig
		}
		fig.add(f.Result)
	}
	return m
}

// Languages returns the figures per language.
func (c *Counts) Languages() map[string]*Figures {
	m := map[string]*Figures{}
	for _, f := range c.Files {
		fig := m[f.Language]
		if fig == nil {
			fig = &Figures{}
			m[f.Language] = fig
		}
		fig.add(f.Result)
	}
	return m
}

// Total returns the figures over all languages.
func (c *Counts) Total() *Figures {
	t := &Figures{}
	for _, f := range c.Files {
		t.add(f.Result)
	}
	return t
}

// ParseErrors lists the files counted from a tree with ERROR nodes.
func (c *Counts) ParseErrors() []string {
	var out []string
	for _, f := range c.Files {
		if f.ParseError {
			out = append(out, f.Path)
		}
	}
	return out
}

func (fg *Figures) add(r *languages.Result) {
	fg.Files++
	active := r.Active()
	fg.Tests += active
	fg.Skipped += len(r.Tests) - active
	fg.Assertions += r.Assertions
	fg.Vacuous += r.Vacuous
	fg.Benchmarks += r.Benchmarks
	fg.Subtests += r.Subtests
}

type job struct {
	e    *entry
	lang *languages.Language
	idx  int
	// full parses the file whatever the prefilter says: a Python module
	// whose tests are all inherited has no test marker of its own.
	full bool
}

// Count counts the snapshot the options name.
func Count(ctx context.Context, o Options) (*Counts, error) {
	s, err := openSnapshot(ctx, &o)
	if err != nil {
		return nil, err
	}
	defer s.close()
	return countSnapshot(ctx, s, o)
}

// countSnapshot counts the files of an open snapshot.
func countSnapshot(ctx context.Context, s *snapshot, o Options) (*Counts, error) {
	var err error
	c := o.cache
	switch {
	case c != nil:
	case s.info != nil:
		c = openCache(s.info.CommonDir, o.CacheDir)
	default:
		c = openCache("", "")
	}
	if o.Verify != "" && c.distrust == nil {
		c.distrust = distrusted(ctx, s.root, o)
		c.proving = true
	}
	if o.Mode == Index && o.stagedConfig && s.info != nil && s.partialRev == "" {
		if err := stagedCounting(ctx, s, &o); err != nil {
			return nil, err
		}
	}
	excludes := compileExcludes(append(append([]string(nil), DefaultExcludes...), o.Excludes...))
	if s.info != nil && s.partialRev == "" && len(o.Paths) == 0 {
		c.countedWhole()
	}
	blobs := make([]string, len(s.entries))
	for i := range s.entries {
		blobs[i] = s.entries[i].blob
	}
	c.prefetch(blobs)
	ea := startEarly(ctx, s, c, excludes, &o)
	defer ea.stop()
	out := &Counts{Root: s.root, info: s.info, cache: c, counting: o.counting()}
	if out.scopes, err = compileScopes(o.Scopes); err != nil {
		return nil, err
	}
	if s.info != nil {
		out.CommonDir = s.info.CommonDir
		if out.Baseline, out.BaselineName, err = s.baseline(ctx, o.Mode, o.Rev); err != nil {
			return nil, err
		}
	}
	results := make([]*languages.Result, len(s.entries))
	skipped := make([]*SkippedFile, len(s.entries))
	var jobs []job
	type earlyUse struct {
		idx  int
		full bool
		ej   *earlyJob
	}
	var fromEarly []earlyUse
	sel := s.sel
	if sel == nil {
		sel = newSelection(ctx, s)
	}
	py, err := newPyCount(ctx, s)
	if err != nil {
		return nil, err
	}
	if err := py.readConftests(ctx, c, o); err != nil {
		return nil, err
	}
	for i := range s.entries {
		e := &s.entries[i]
		if atomicfile.IsTemp(path.Base(e.path)) && o.Mode != WorkTree {
			out.Temps = append(out.Temps, e.path)
		}
		if !underPaths(e.path, o.Paths) || excludes.match(e.path) {
			continue
		}
		l := sel.Language(e.path)
		full := false
		if py.owns(e.path) {
			l, full = py.language(ctx, i)
		}
		if l == nil {
			continue
		}
		e.settle()
		switch e.mode {
		case "120000":
			out.Skipped = append(out.Skipped, skip(e.path, "symlink", "is now a symbolic link", false))
			continue
		case "160000":
			out.Skipped = append(out.Skipped, skip(e.path, "submodule", "is now a submodule", false))
			continue
		}
		if c.tooLarge(e.blob) {
			out.Skipped = append(out.Skipped, tooLarge(e.path))
			out.Cached++
			continue
		}
		if e.blob != "" {
			if r := c.get(countKey(l, e.path, e.blob)); r != nil && !(full && r.Filtered) {
				results[i] = r
				out.Cached++
				continue
			}
			if sf := c.refused(l, e.path, e.blob); sf != nil {
				out.Skipped = append(out.Skipped, *sf)
				out.Cached++
				continue
			}
		}
		if ej := ea.take(i, l); ej != nil {
			fromEarly = append(fromEarly, earlyUse{i, full, ej})
			continue
		}
		jobs = append(jobs, job{e: e, lang: l, idx: i, full: full})
	}

	hits, err := parseAll(ctx, s, c, jobs, results, skipped, &o)
	if err != nil {
		return nil, err
	}
	var redo []job
	for _, u := range fromEarly {
		<-u.ej.done
		if u.ej.err != nil {
			return nil, u.ej.err
		}
		if u.full && u.ej.r != nil && u.ej.r.Filtered {
			// Parsed by its name's rule, but wanted whatever the
			// prefilter says: the walk's own parse decides.
			redo = append(redo, job{e: &s.entries[u.idx], lang: u.ej.lang, idx: u.idx, full: true})
			continue
		}
		results[u.idx], skipped[u.idx] = u.ej.r, u.ej.sk
		keep(c, job{e: &s.entries[u.idx], lang: u.ej.lang, idx: u.idx}, u.ej.r, u.ej.sk, false)
	}
	if _, err := parseAll(ctx, s, c, redo, results, skipped, &o); err != nil {
		return nil, err
	}
	out.Parsed = len(jobs) - hits + len(fromEarly)
	out.Cached += hits
	if err := py.collect(ctx, c, results, skipped, o); err != nil {
		return nil, err
	}
	if py != nil {
		out.pyDeps = py.deps
	}
	s.settle(ctx, results)
	for i := range s.entries {
		switch {
		case skipped[i] != nil:
			out.Skipped = append(out.Skipped, *skipped[i])
		case results[i] != nil && !results[i].Filtered:
			out.Files = append(out.Files, File{Path: s.entries[i].path, Result: results[i]})
		}
	}
	sort.Slice(out.Files, func(i, j int) bool { return out.Files[i].Path < out.Files[j].Path })
	sort.Slice(out.Skipped, func(i, j int) bool { return out.Skipped[i].Path < out.Skipped[j].Path })
	if err := c.save(); err != nil {
		return nil, err
	}
	return out, nil
}

// workers is how many parsers n files get: Options.Workers, else one per
// CPU, never more than the files.
func (o *Options) workers(n int) int {
	w := o.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	return min(w, n)
}

// newParser is a worker's parser, with the options' time limit.
func (o *Options) newParser() *languages.Parser {
	p := languages.NewParser()
	if o.ParseTimeout > 0 {
		p.Timeout = o.ParseTimeout
	}
	return p
}

// parseAll reads and parses the jobs on one worker per CPU, each with its
// own parser. It returns how many jobs the cache answered once their
// content was hashed.
func parseAll(ctx context.Context, s *snapshot, c *cache, jobs []job, results []*languages.Result, skipped []*SkippedFile, o *Options) (int, error) {
	if len(jobs) == 0 {
		return 0, nil
	}
	workers := o.workers(len(jobs))
	progress := startProgress(o.Progress, o.ProgressAfter, len(jobs))
	defer progress.finish()

	ch := make(chan job)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	var hits atomic.Int64
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := o.newParser()
			defer p.Close()
			for j := range ch {
				r, sk, hit, err := countOne(ctx, s, c, p, j)
				if hit {
					hits.Add(1)
				}
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
				}
				results[j.idx], skipped[j.idx] = r, sk
				keep(c, j, r, sk, hit)
				progress.step()
			}
		}()
	}
	for _, j := range jobs {
		if ctx.Err() != nil {
			break
		}
		ch <- j
	}
	close(ch)
	wg.Wait()
	if firstErr != nil {
		return int(hits.Load()), firstErr
	}
	return int(hits.Load()), ctx.Err()
}

// keep caches what counting job j gave: its result, or that its blob is
// too large. A hit came from the cache already.
func keep(c *cache, j job, r *languages.Result, sk *SkippedFile, hit bool) {
	if r != nil && j.e.blob != "" && !hit {
		c.put(countKey(j.lang, j.e.path, j.e.blob), r)
	}
	if sk != nil && sk.Content && sk.Reason == tooLargeReason() {
		c.putTooLarge(j.e.blob)
	}
	if sk != nil && sk.Content && j.e.blob != "" && !hit {
		c.putRefused(j.lang, j.e.path, j.e.blob, sk.Reason)
	}
}

// countOne reads and counts one file. A file that cannot be counted gets a
// reason instead of a result; only a failure of sentinel itself is an error.
// A work-tree file that git reports changed is often not (an edit undone, a
// touch): once hashed, the cache may know it, and hit reports that.
func countOne(ctx context.Context, s *snapshot, c *cache, p *languages.Parser, j job) (r *languages.Result, skipped *SkippedFile, hit bool, err error) {
	why := func(reason, cause string, content bool) *SkippedFile {
		sf := skip(j.e.path, reason, cause, content)
		return &sf
	}
	var src []byte
	if j.e.onDisk == "" && j.e.blob != "" && s.objects != nil {
		if !j.e.worktree {
			src = s.sameInWorkTree(j.e)
		}
		if src == nil {
			// A blob's size is in its header: a file too large to count
			// is never read.
			if size, err := s.objects.BlobSize(ctx, j.e.blob); err == nil && size > MaxFileSize {
				sf := tooLarge(j.e.path)
				return nil, &sf, false, nil
			}
		}
	}
	switch {
	case src != nil:
	case j.e.worktree || j.e.onDisk != "" || j.e.blob == "" || s.objects == nil:
		src, err = s.read(ctx, j.e)
	default:
		// The work tree's copy was tried above.
		src, err = s.objects.ReadBlob(ctx, j.e.blob)
	}
	if err != nil {
		var le *atomicfile.LinkError
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, why("missing from the work tree", "is missing from the work tree", false), false, nil
		case errors.Is(err, atomicfile.ErrTooLarge):
			sf := tooLarge(j.e.path)
			return nil, &sf, false, nil
		case errors.As(err, &le):
			return nil, why(le.What, "is now "+le.What, false), false, nil
		}
		return nil, nil, false, fmt.Errorf("read %s: %w", quote.Path(j.e.path), err)
	}
	if j.e.blob == "" && s.info != nil {
		j.e.blob = blobID(src)
		if r := c.get(countKey(j.lang, j.e.path, j.e.blob)); r != nil && !(j.full && r.Filtered) {
			return r, nil, true, nil
		}
		if sf := c.refused(j.lang, j.e.path, j.e.blob); sf != nil {
			return nil, sf, true, nil
		}
	}
	switch {
	case len(src) > MaxFileSize:
		sf := tooLarge(j.e.path)
		return nil, &sf, false, nil
	case isBinary(src):
		return nil, why("binary", "is now binary (a NUL byte in its first 8000 bytes)", true), false, nil
	}
	text, err := j.lang.Text(src)
	var ee *languages.EncodingError
	if errors.As(err, &ee) {
		cause := "is now " + ee.Error()
		if !ee.Unsupported && !ee.BOM {
			// "not valid UTF-8": "is no longer valid UTF-8".
			cause = "is no longer " + strings.TrimPrefix(ee.Error(), "not ")
		}
		return nil, why(ee.Error(), cause, true), false, nil
	}
	if err != nil {
		return nil, nil, false, fmt.Errorf("read %s: %w", quote.Path(j.e.path), err)
	}
	if !j.full && !j.lang.Admits(j.e.path, text) {
		return &languages.Result{Language: j.lang.Name, Filtered: true}, nil, false, nil
	}
	r, err = p.Count(ctx, j.lang, j.e.path, text)
	if sf := refusal(j.e.path, err); sf != nil {
		return nil, sf, false, nil
	}
	if errors.Is(err, languages.ErrParseTimeout) {
		return nil, why(fmt.Sprintf("the %s parser gave up on it after %v", j.lang.Name, p.Timeout),
			fmt.Sprintf("can no longer be parsed in time (the %s parser gave up on it after %v)", j.lang.Name, p.Timeout), true), false, nil
	}
	if err != nil {
		return nil, nil, false, err
	}
	return r, nil, false, nil
}

// refusal is the skip of a file that holds more than a file may (more
// tests than languages.MaxTests, brackets nested past
// languages.MaxNesting), for the error of its count; nil for another
// error. Each depends on the file's content alone, and is cached so.
func refusal(path string, err error) *SkippedFile {
	var reason string
	switch {
	case errors.Is(err, languages.ErrTooManyTests):
		reason = languages.TooManyTestsReason()
	case errors.Is(err, languages.ErrTooDeep):
		reason = languages.TooDeepReason()
	default:
		return nil
	}
	return refusedFor(path, reason)
}

// refusedFor is the skip of a file refused for the reason.
func refusedFor(path, reason string) *SkippedFile {
	sf := skip(path, reason, "is now refused ("+reason+")", true)
	return &sf
}

// tooLargeReason is the reason given for a file past MaxFileSize.
func tooLargeReason() string {
	return fmt.Sprintf("larger than %d MiB", MaxFileSize>>20)
}

// tooLarge skips a file past MaxFileSize.
func tooLarge(path string) SkippedFile {
	limit := tooLargeReason()
	return skip(path, limit, "is now "+limit, true)
}

// progressState drives a Progress that appears only once the scan has
// lasted longer than a delay: it is checked at each file, so a short scan
// never shows a bar.
type progressState struct {
	p       Progress
	mu      sync.Mutex
	begun   time.Time
	after   time.Duration
	done    int
	total   int
	started bool
}

func startProgress(p Progress, after time.Duration, total int) *progressState {
	if after <= 0 {
		after = time.Second
	}
	return &progressState{p: p, total: total, after: after, begun: time.Now()}
}

func (ps *progressState) step() {
	if ps.p == nil {
		return
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	ps.done++
	switch {
	case ps.started:
		ps.p.Step()
	case time.Since(ps.begun) >= ps.after:
		ps.started = true
		ps.p.Start(ps.total)
		for i := 0; i < ps.done; i++ {
			ps.p.Step()
		}
	}
}

func (ps *progressState) finish() {
	if ps.p == nil {
		return
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.started {
		ps.p.Finish()
	}
}

// WriteList prints one test per line: path:line, language, name, status.
func (c *Counts) WriteList(w io.Writer) error {
	for _, f := range c.Files {
		for _, t := range f.Tests {
			if _, err := fmt.Fprintf(w, "%s:%d\t%s\t%s\t%s\n", quote.Path(f.Path), t.Line, f.Language, quote.Name(t.Name), t.Status); err != nil {
				return err
			}
		}
	}
	return nil
}

// CountTargets counts what the command line names: the snapshot of the
// repository containing dir, restricted to targets (paths relative to dir)
// when there are any. A target outside any git repository is counted as
// plain files, so that an unpacked tree can be counted too.
func CountTargets(ctx context.Context, dir string, targets []string, o Options) (*Counts, error) {
	if len(targets) == 0 {
		targets = []string{"."}
	}
	var merged *Counts
	var inRepo []string
	repoRoot := ""
	var repo *gitrepo.Info
	for _, t := range targets {
		abs := t
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(dir, t)
		}
		st, err := os.Stat(abs)
		if err != nil && o.Mode == WorkTree {
			return nil, fmt.Errorf("count %s: %w", quote.Path(t), err)
		}
		probe := abs
		if err == nil && !st.IsDir() {
			probe = filepath.Dir(abs)
		}
		if err != nil {
			probe = dir
		}
		info, err := gitrepo.RepoInfo(ctx, probe)
		if errors.Is(err, gitrepo.ErrNotRepository) {
			if o.Mode != WorkTree {
				return nil, fmt.Errorf("count %s: %w", quote.Path(t), err)
			}
			po := o
			po.Mode, po.Dir, po.Paths = Plain, abs, nil
			c, err := Count(ctx, po)
			if err != nil {
				return nil, err
			}
			merged = merge(merged, c)
			continue
		}
		if err != nil {
			return nil, err
		}
		if repoRoot != "" && repoRoot != info.Root {
			return nil, fmt.Errorf("count %s: the paths are in different repositories; count each on its own", quote.Path(t))
		}
		repoRoot, repo = info.Root, info
		rel, err := filepath.Rel(info.Root, abs)
		if err != nil || strings.HasPrefix(rel, "..") {
			return nil, fmt.Errorf("count %s: outside the repository at %s", quote.Path(t), quote.Path(info.Root))
		}
		inRepo = append(inRepo, filepath.ToSlash(rel))
	}
	if repoRoot != "" {
		cfg, err := config.Load(repoRoot)
		if err != nil {
			return nil, err
		}
		ro := o
		ro.Dir, ro.Paths, ro.info = repoRoot, inRepo, repo
		ro.Excludes = append(append([]string(nil), o.Excludes...), cfg.Coverage.Exclude...)
		c, err := Count(ctx, ro)
		if err != nil {
			return nil, err
		}
		merged = merge(merged, c)
	}
	return merged, nil
}

func merge(a, b *Counts) *Counts {
	if a == nil {
		return b
	}
	a.Files = append(a.Files, b.Files...)
	a.Skipped = append(a.Skipped, b.Skipped...)
	a.Parsed += b.Parsed
	a.Cached += b.Cached
	return a
}
