package coverage

import (
	"context"
	"errors"
	"path"
	"sort"
	"strings"

	"github.com/gitsentinel/sentinel/config"
	"github.com/gitsentinel/sentinel/coverage/runners"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/languages"
)

// Loss causes: what became of a test the reference snapshot runs.
const (
	// LostMissing is a test that is gone, under its name and its body.
	LostMissing = "missing"
	// LostSkipped is a test still there but switched off.
	LostSkipped = "skipped"
	// LostEmptied is a test that kept its name but lost every assertion
	// it made: a real test swapped for a trivial one.
	LostEmptied = "emptied"
	// LostNarrowed is a test still there but built for fewer platforms
	// (a file renamed x_plan9_test.go, or given //go:build plan9): it no
	// longer runs on the CI of the platforms it ran on.
	LostNarrowed = "narrowed"
)

// Loss is a test the reference snapshot (HEAD, or the parent of the
// checked commit) runs, and the checked snapshot does not run as it was,
// whatever the totals say.
type Loss struct {
	// Language is the test's language.
	Language string `json:"language"`
	// Name, Path and Line say which test, where the reference had it.
	Name string `json:"name"`
	Path string `json:"path"`
	Line int    `json:"line"`
	// Cause is LostMissing, LostSkipped, LostEmptied or LostNarrowed.
	Cause string `json:"cause"`
	// Assertions is how many assertions the test made before.
	Assertions int `json:"assertions,omitempty"`
}

// Key identifies the test for an acceptance: language, file and name.
func (l Loss) Key() string { return l.Language + "\x00" + l.Path + "\x00" + l.Name }

// identityOf is a test with where it lives.
type identityOf struct {
	lang, dir, path string
	t               languages.Test
	used            bool
}

// losses compares the tests of the files the checked snapshot changes with
// the same files in the reference, and returns each test the reference
// runs that the snapshot lost. The rules, the same for every language:
//   - a test with the same name in the same directory (a Go package, a
//     Python package, a JS folder) is the same test, moved or not; it is
//     lost if it is switched off, or if it made assertions and makes none
//     (a helper of its file that it calls makes them for it);
//   - otherwise an active test with the same body, its name aside, is the
//     same test renamed, wherever it went;
//   - otherwise it is missing.
//
// Files the snapshot does not change hold the same tests on both sides.
func losses(ctx context.Context, o Options, c *Counts, pending *changesRun) ([]Loss, string, error) {
	if c.CommonDir == "" || o.Mode == Plain {
		return nil, "", nil
	}
	if pending == nil {
		pending = startChanges(ctx, o, c.Root)
	}
	changes, ref, err := pending.wait()
	if err != nil || changes == nil {
		return nil, "", err
	}
	if o.Mode != Rev {
		if changes, err = pyDependents(ctx, c, ref, changes); err != nil {
			return nil, "", err
		}
	}
	var after func(wide bool) ([]File, error)
	if o.Mode != Rev {
		changed := map[string]bool{}
		for _, ch := range changes {
			changed[ch.Path] = true
		}
		after = func(wide bool) ([]File, error) {
			var fs []File
			for _, f := range c.Files {
				if wide || changed[f.Path] {
					fs = append(fs, f)
				}
			}
			return fs, nil
		}
	}
	o.cache = c.cache
	o.Excludes, o.Scopes = c.counting.Exclude, c.counting.Scope
	ls, err := lossesIn(ctx, c.info, o, ref, changes, after)
	return ls, ref, err
}

// lossesIn matches the tests of the changed files on both sides. The
// reference side is counted from its blobs, through the cache; the other
// from its blobs too, unless after supplies its files (all of them when
// wide, else those the change touches). Each side counts with its own
// configuration: o's for the checked snapshot, and the reference's own,
// read from its tree, when the change touches the configuration. When the
// two exclude other paths, or the change touches a file that decides what
// other files count (a runner's config, a manifest), a test in a file the
// change does not touch can stop counting, so both whole trees are
// compared.
func lossesIn(ctx context.Context, info *gitrepo.Info, o Options, ref string, changes []gitrepo.Change, after func(wide bool) ([]File, error)) ([]Loss, error) {
	beforeCfg, wide := o.counting(), false
	for _, ch := range changes {
		wide = wide || runners.Input(ch.Path)
		if ch.Path != config.File {
			continue
		}
		if info == nil {
			var err error
			if info, err = gitrepo.RepoInfo(ctx, o.Dir); err != nil {
				return nil, err
			}
		}
		var err error
		if beforeCfg, err = countingAt(ctx, info.Root, ref); err != nil {
			// A reference whose configuration does not read is judged
			// with the defaults, which count the most.
			beforeCfg = config.Counting{}
		}
		wide = wide || !beforeCfg.SameExcludes(o.counting())
	}
	candidate := func(p, mode, blob string, excludes []string) bool {
		// Only test files can hold tests: most changes cost nothing more.
		return (mode == "100644" || mode == "100755") && strings.Trim(blob, "0") != "" &&
			(languages.ForPath(p) != nil || runners.JSCandidate(p) || path.Ext(p) == ".py") && !excluded(p, excludes)
	}
	withDefaults := func(c config.Counting) []string {
		return append(append([]string(nil), DefaultExcludes...), c.Exclude...)
	}
	blobs := func(old bool) []entry {
		excludes := withDefaults(o.counting())
		if old {
			excludes = withDefaults(beforeCfg)
		}
		var es []entry
		for _, ch := range changes {
			mode, blob := ch.NewMode, ch.NewBlob
			if old {
				mode, blob = ch.OldMode, ch.OldBlob
			}
			if candidate(ch.Path, mode, blob, excludes) {
				es = append(es, entry{path: ch.Path, blob: blob, mode: mode})
			}
		}
		return es
	}
	if info == nil && (wide || len(blobs(true)) > 0) {
		var err error
		if info, err = gitrepo.RepoInfo(ctx, o.Dir); err != nil {
			return nil, err
		}
	}
	whole := func(rev string, c config.Counting) ([]entry, error) {
		es, err := treeEntries(ctx, info.Root, rev)
		if err != nil {
			return nil, err
		}
		excludes := withDefaults(c)
		var out []entry
		for _, e := range es {
			if candidate(e.path, e.mode, e.blob, excludes) {
				out = append(out, e)
			}
		}
		return out, nil
	}
	count := func(es []entry, rev string, c config.Counting) ([]File, error) {
		s := &snapshot{root: info.Root, info: info, objects: gitrepo.OpenObjects(info), entries: es, partialRev: rev}
		// What pytest collects from a changed file depends on the
		// project's configuration and on the other files its classes
		// come from, as they are in the same commit.
		s.context = func(ctx context.Context) ([]entry, error) {
			return treeEntries(ctx, info.Root, rev)
		}
		defer s.close()
		s.sel = selectionAt(ctx, s, rev)
		ro := o
		ro.Mode, ro.Rev = Rev, rev
		ro.Excludes, ro.Scopes = c.Exclude, c.Scope
		rc, err := countSnapshot(ctx, s, ro)
		if err != nil {
			return nil, err
		}
		return rc.Files, nil
	}
	var beforeFiles, afterFiles []File
	for {
		old := blobs(true)
		if wide {
			var err error
			if old, err = whole(ref, beforeCfg); err != nil {
				return nil, err
			}
		}
		var err error
		if len(old) == 0 {
			// Nothing to lose in the changed files themselves, unless a
			// new one switches its package off.
			if wide || !goTestChanged(changes) {
				return nil, nil
			}
			if info == nil {
				if info, err = gitrepo.RepoInfo(ctx, o.Dir); err != nil {
					return nil, err
				}
			}
		} else if beforeFiles, err = count(old, ref, beforeCfg); err != nil {
			return nil, err
		}
		switch {
		case after != nil:
			afterFiles, err = after(wide)
		case wide:
			var es []entry
			if es, err = whole(o.Rev, o.counting()); err == nil {
				afterFiles, err = count(es, o.Rev, o.counting())
			}
		default:
			afterFiles, err = count(blobs(false), o.Rev, o.counting())
		}
		if err != nil {
			return nil, err
		}
		// A changed file that switches off its whole package (a TestMain
		// that never runs m.Run) takes tests from files the change does
		// not touch: compare the whole trees.
		if wide || !packageOff(afterFiles) {
			break
		}
		wide = true
	}
	var before, now []*identityOf
	for _, f := range afterFiles {
		for _, t := range f.Tests {
			now = append(now, &identityOf{lang: f.Language, dir: path.Dir(f.Path), path: f.Path, t: t})
		}
	}
	for _, f := range beforeFiles {
		for _, t := range f.Tests {
			if t.Status == languages.Active {
				before = append(before, &identityOf{lang: f.Language, dir: path.Dir(f.Path), path: f.Path, t: t})
			}
		}
	}
	return match(before, now), nil
}

// narrowed reports whether a test built for the platforms before (nil for
// all of them) is now built for fewer: some platform it ran on is none of
// now's, nor of an operating system or architecture now names.
func narrowed(before, now []string) bool {
	if now == nil {
		return false
	}
	if before == nil {
		return true
	}
	has := map[string]bool{}
	for _, p := range now {
		has[p] = true
	}
	for _, p := range before {
		if has[p] {
			continue
		}
		if os, arch, ok := strings.Cut(p, "/"); ok && (has[os] || has[arch]) {
			continue
		}
		return true
	}
	return false
}

// goTestChanged reports a change to a Go test file, which may hold a
// TestMain.
func goTestChanged(changes []gitrepo.Change) bool {
	for _, ch := range changes {
		if strings.HasSuffix(ch.Path, "_test.go") {
			return true
		}
	}
	return false
}

// packageOff reports a file that switches off its package's other files.
func packageOff(fs []File) bool {
	for _, f := range fs {
		if f.Result != nil && f.PackageOff != "" {
			return true
		}
	}
	return false
}

// CommitLosses returns the tests a commit loses against its first parent
// that no acceptance the commit adds lets go: cur and ref are the
// baselines of the commit and of its reference.
func CommitLosses(ctx context.Context, o Options, commit, parent string, cur, ref *Baseline) ([]Loss, error) {
	changes, err := gitrepo.Changes(ctx, o.Dir, gitrepo.ArgvChangesCommit, parent, commit)
	if err != nil {
		return nil, err
	}
	ro := o
	ro.Mode, ro.Rev = Rev, commit
	ls, err := lossesIn(ctx, nil, ro, parent, changes, nil)
	if err != nil || len(ls) == 0 {
		return ls, err
	}
	return letGo(cur, ref, ls), nil
}

// letGo drops the losses that an acceptance of cur, which ref does not
// hold, names.
func letGo(cur, ref *Baseline, ls []Loss) []Loss {
	had := map[string]bool{}
	if ref != nil {
		for _, a := range ref.Accepted {
			had[a.key()] = true
		}
	}
	let := map[string]bool{}
	for _, a := range cur.Accepted {
		if !had[a.key()] {
			for _, t := range a.Tests {
				let[t.Key()] = true
			}
		}
	}
	var out []Loss
	for _, l := range ls {
		if !let[l.Key()] {
			out = append(out, l)
		}
	}
	return out
}

// changesRun is a comparison with the reference that runs while the
// snapshot is counted: it costs one git process, which need not add to
// the hook's time.
type changesRun struct {
	done    chan struct{}
	changes []gitrepo.Change
	ref     string
	err     error
	// noRef says the reference does not exist.
	noRef bool
}

// startChanges starts listing the files the snapshot o names changes from
// its reference, in the repository at dir.
func startChanges(ctx context.Context, o Options, dir string) *changesRun {
	r := &changesRun{done: make(chan struct{})}
	if o.Mode == Plain {
		close(r.done)
		return r
	}
	var argv, revs []string
	r.ref = "HEAD"
	switch o.Mode {
	case Index:
		argv = gitrepo.ArgvChangesStaged
	case WorkTree:
		argv = gitrepo.ArgvChangesWorkTree
	case Rev:
		r.ref = o.Rev + "^"
		argv, revs = gitrepo.ArgvChangesCommit, []string{r.ref, o.Rev}
	}
	go func() {
		defer close(r.done)
		r.changes, r.err = gitrepo.Changes(ctx, dir, argv, revs...)
		var ee *gitrepo.ExitError
		if errors.As(r.err, &ee) {
			// No reference (a first commit, an unborn branch, a root
			// commit): nothing can have been lost.
			r.changes, r.err, r.noRef = nil, nil, true
		}
	}()
	return r
}

// wait returns the changes and the reference they were taken against; nil
// changes when there is no reference.
func (r *changesRun) wait() ([]gitrepo.Change, string, error) {
	<-r.done
	return r.changes, r.ref, r.err
}

// identityQueue is the tests of one name, or of one body, in order, each
// taken once: next is where the first not taken may be, since a test
// taken through the other queue it is in stays taken. A scan from the
// start for each made a file of many tests of one name, or of one body
// (a file of empty tests renamed), quadratic.
type identityQueue struct {
	list []*identityOf
	next int
}

// take returns the first test of the queue not taken yet, taking it, or
// nil; a nil queue has none.
func (q *identityQueue) take() *identityOf {
	if q == nil {
		return nil
	}
	for ; q.next < len(q.list); q.next++ {
		if a := q.list[q.next]; !a.used {
			a.used = true
			q.next++
			return a
		}
	}
	return nil
}

// match pairs each test of before with one of after by the rules losses
// documents, and returns the tests that found no pair that still runs.
func match(before, after []*identityOf) []Loss {
	byName := map[string]*identityQueue{}
	byBody := map[string]*identityQueue{}
	add := func(m map[string]*identityQueue, k string, a *identityOf) {
		q := m[k]
		if q == nil {
			q = &identityQueue{}
			m[k] = q
		}
		q.list = append(q.list, a)
	}
	for _, a := range after {
		add(byName, a.lang+"\x00"+a.dir+"\x00"+a.t.Name, a)
		if a.t.Status == languages.Active && a.t.Body != "" {
			add(byBody, a.lang+"\x00"+a.t.Body, a)
		}
	}
	var out []Loss
	var pending []*identityOf
	// Names first, everywhere, so that a rename elsewhere never takes a
	// test that kept its name.
	for _, b := range before {
		a := byName[b.lang+"\x00"+b.dir+"\x00"+b.t.Name].take()
		if a == nil {
			pending = append(pending, b)
			continue
		}
		loss := Loss{Language: b.lang, Name: b.t.Name, Path: b.path, Line: b.t.Line, Assertions: b.t.Assertions}
		switch {
		case a.t.Status != languages.Active:
			loss.Cause, loss.Path, loss.Line = LostSkipped, a.path, a.t.Line
			out = append(out, loss)
		case b.t.Assertions > 0 && a.t.Assertions == 0:
			loss.Cause, loss.Path, loss.Line = LostEmptied, a.path, a.t.Line
			out = append(out, loss)
		case narrowed(b.t.Platforms, a.t.Platforms):
			loss.Cause, loss.Path, loss.Line = LostNarrowed, a.path, a.t.Line
			out = append(out, loss)
		}
	}
	for _, b := range pending {
		if b.t.Body != "" {
			if a := byBody[b.lang+"\x00"+b.t.Body].take(); a != nil {
				if narrowed(b.t.Platforms, a.t.Platforms) {
					out = append(out, Loss{Language: b.lang, Name: b.t.Name, Path: a.path, Line: a.t.Line, Cause: LostNarrowed, Assertions: b.t.Assertions})
				}
				continue
			}
		}
		out = append(out, Loss{Language: b.lang, Name: b.t.Name, Path: b.path, Line: b.t.Line, Cause: LostMissing, Assertions: b.t.Assertions})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Line < out[j].Line
	})
	return out
}
