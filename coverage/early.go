package coverage

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gitsentinel/sentinel/languages"
)

// maxEarly bounds the files parsed ahead of the selection: enough for the
// commits of every day, few enough that a cold count's workers keep the
// rest.
var maxEarly = 8

// early parses, one parser per CPU, the few test files whose counts the
// cache lacks, while the main goroutine lists the runners' selection and
// walks every entry. When one file of a large tree changed, its parse was
// most of a pre-commit run and started only after that walk. The files are
// the changes git lists against the reference where a check runs that
// listing anyway, or else the entries the cache lacks, guessed by name
// (languages.ForPath); the walk uses a result only where it picks the same
// language for the file, so a wrong guess costs a parse, never a count.
type early struct {
	scanned  chan struct{}
	jobs     map[int]*earlyJob
	cancel   context.CancelFunc
	finished chan struct{}
}

type earlyJob struct {
	lang *languages.Language
	done chan struct{}
	r    *languages.Result
	sk   *SkippedFile
	err  error
}

// maxEarlyChanges is how many changed files the listing of changes may
// name before the guess goes by the cache instead.
const maxEarlyChanges = 64

// startEarly starts the guess and the parses. Only snapshots whose blob
// ids are known from the start (the index, a commit) take part: a
// work-tree file's is known only once it is settled.
func startEarly(ctx context.Context, s *snapshot, c *cache, excludes excludePatterns, o *Options) *early {
	if s.info == nil || o.Mode == WorkTree || o.Mode == Plain {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	ea := &early{scanned: make(chan struct{}), jobs: map[int]*earlyJob{}, cancel: cancel, finished: make(chan struct{})}
	go func() {
		defer close(ea.finished)
		order := ea.pick(s, c, excludes, o)
		// One parser per CPU, as the walk's workers: a commit of ten
		// changed test files parsed eight of them one after the other on
		// one core, and its hook took 5.9 times git status.
		var next atomic.Int64
		var wg sync.WaitGroup
		for range o.workers(len(order)) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := o.newParser()
				defer p.Close()
				for {
					n := int(next.Add(1)) - 1
					if n >= len(order) {
						return
					}
					i := order[n]
					ej := ea.jobs[i]
					if err := ctx.Err(); err != nil {
						ej.err = err
					} else {
						ej.r, ej.sk, _, ej.err = countOne(ctx, s, c, p, job{e: &s.entries[i], lang: ej.lang, idx: i})
					}
					close(ej.done)
				}
			}()
		}
		wg.Wait()
	}()
	return ea
}

// pick chooses the entries to parse early, in order, and publishes them.
func (ea *early) pick(s *snapshot, c *cache, excludes excludePatterns, o *Options) []int {
	defer close(ea.scanned)
	var order []int
	// consider adds entry i unless it cannot be a test file or the cache
	// has it; wait says whether to wait for the cache to be decoded, or
	// to ask it only if it already is.
	consider := func(i int, wait bool) {
		e := &s.entries[i]
		if len(order) == maxEarly || e.blob == "" || e.worktree || (e.mode != "100644" && e.mode != "100755") || !underPaths(e.path, o.Paths) {
			return
		}
		l := languages.ForPath(e.path)
		if l == nil || excludes.match(e.path) {
			return
		}
		get := c.peek
		if wait {
			get = c.get
		}
		if get(tooLargeKey(e.blob)) != nil || get(countKey(l, e.path, e.blob)) != nil {
			return
		}
		ea.jobs[i] = &earlyJob{lang: l, done: make(chan struct{})}
		order = append(order, i)
	}
	if o.changes != nil {
		// The listing of changes is a few ms of git's, beside this; the
		// cache's decode may take longer.
		if changes, _, err := o.changes.wait(); err == nil && len(changes) <= maxEarlyChanges {
			want := make(map[string]string, len(changes))
			for _, ch := range changes {
				if strings.Trim(ch.NewBlob, "0") != "" {
					want[ch.Path] = ch.NewBlob
				}
			}
			for i := range s.entries {
				if b, ok := want[s.entries[i].path]; ok && b == s.entries[i].blob {
					consider(i, false)
				}
			}
			return order
		}
	}
	for i := range s.entries {
		if len(order) == maxEarly {
			break
		}
		consider(i, true)
	}
	return order
}

// take returns the early job of entry i when it counted the file as
// language l would, nil otherwise.
func (ea *early) take(i int, l *languages.Language) *earlyJob {
	if ea == nil {
		return nil
	}
	<-ea.scanned
	if ej := ea.jobs[i]; ej != nil && ej.lang == l {
		return ej
	}
	return nil
}

// stop cancels the early parses the walk did not take and waits for them,
// so that none outlives the count.
func (ea *early) stop() {
	if ea == nil {
		return
	}
	ea.cancel()
	<-ea.finished
}
