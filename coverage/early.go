package coverage

import (
	"context"

	"github.com/gitsentinel/sentinel/languages"
)

// maxEarly bounds the files parsed ahead of the selection: enough for the
// commits of every day, few enough that a cold count's workers keep the
// rest.
var maxEarly = 8

// early parses, on a core of its own, the few test files whose counts the
// cache lacks, while the main goroutine lists the runners' selection and
// walks every entry. When one file of a large tree changed, its parse was
// most of a pre-commit run and started only after that walk. A file is
// guessed by its name (languages.ForPath); the walk then uses the result
// only where it picks the same language for the file, so a wrong guess
// costs a parse, never a count.
type early struct {
	scanned chan struct{}
	jobs    map[int]*earlyJob
}

type earlyJob struct {
	lang *languages.Language
	done chan struct{}
	r    *languages.Result
	sk   *SkippedFile
	err  error
}

// startEarly starts the guess and the parses. Only snapshots whose blob
// ids are known from the start (the index, a commit) take part: a
// work-tree file's is known only once it is settled.
func startEarly(ctx context.Context, s *snapshot, c *cache, excludes excludePatterns, o *Options) *early {
	if s.info == nil || o.Mode == WorkTree || o.Mode == Plain {
		return nil
	}
	ea := &early{scanned: make(chan struct{}), jobs: map[int]*earlyJob{}}
	go func() {
		var order []int
		for i := range s.entries {
			e := &s.entries[i]
			if e.blob == "" || e.worktree || (e.mode != "100644" && e.mode != "100755") || !underPaths(e.path, o.Paths) {
				continue
			}
			l := languages.ForPath(e.path)
			if l == nil || excludes.match(e.path) || c.tooLarge(e.blob) || c.get(countKey(l, e.path, e.blob)) != nil {
				continue
			}
			if len(order) == maxEarly {
				break
			}
			ea.jobs[i] = &earlyJob{lang: l, done: make(chan struct{})}
			order = append(order, i)
		}
		close(ea.scanned)
		if len(order) == 0 {
			return
		}
		p := languages.NewParser()
		if o.ParseTimeout > 0 {
			p.Timeout = o.ParseTimeout
		}
		defer p.Close()
		for _, i := range order {
			ej := ea.jobs[i]
			if err := ctx.Err(); err != nil {
				ej.err = err
			} else {
				ej.r, ej.sk, _, ej.err = countOne(ctx, s, c, p, job{e: &s.entries[i], lang: ej.lang, idx: i})
			}
			close(ej.done)
		}
	}()
	return ea
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

// wait blocks until every early parse is done, so that none outlives the
// count.
func (ea *early) wait() {
	if ea == nil {
		return
	}
	<-ea.scanned
	for _, ej := range ea.jobs {
		<-ej.done
	}
}
