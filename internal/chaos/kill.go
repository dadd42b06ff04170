package chaos

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// operation is a command the kill probe interrupts, the repository it
// starts from, and what an uninterrupted run of it does there.
type operation struct {
	name string
	argv []string
	tmpl string
	// stage are the paths a person stages before committing the work
	// (init's set-up); the other templates have their change staged.
	stage []string
	// rerunOK reports whether the next run of the command ended as it
	// may after a run that did the work.
	rerunOK func(result) bool

	// Measured on uninterrupted runs by calibrate.
	old, new snapshot
	variable map[string]bool
	median   time.Duration
	stdout   string
	head     string
}

// Operations are the names of the commands the kill probe interrupts.
var Operations = []string{"init", "install", "uninstall", "guard install", "accept", "pre-commit", "count"}

// operations prepares the kill probe's commands and the repositories they
// start from: each in the state where the command has work to do.
func (l *lab) operations(t *templates) ([]*operation, error) {
	var errs []error
	derive := func(from, name string, e edit) string {
		dir, err := l.derive(from, name, e)
		errs = append(errs, err)
		return dir
	}
	ok := func(r result) bool { return r.exit == 0 }
	ops := []*operation{
		{name: "init", argv: []string{"sentinel", "init"}, tmpl: t.base,
			stage: []string{".sentinel/config.toml", baselineFile, ".gitattributes"}, rerunOK: ok},
		{name: "install", argv: []string{"sentinel", "install"}, tmpl: derive(t.bare, "install", addGo), rerunOK: ok},
		{name: "uninstall", argv: []string{"sentinel", "uninstall"}, tmpl: derive(t.setup, "uninstall", addGo), rerunOK: ok},
		{name: "guard install", argv: []string{"sentinel", "guard", "install", "--agent", "claude"},
			tmpl: derive(t.guard, "guard-install", addGo), rerunOK: ok},
		{name: "accept", argv: []string{"sentinel", "accept", "--reason", "calc's TestSub went with the old API"},
			tmpl: derive(t.setup, "accept", removeGo), rerunOK: func(r result) bool {
				// After an accept that finished, there is nothing left to
				// accept.
				return r.exit == 0 || r.exit == 1 && strings.Contains(r.stderr, "nothing is below its peak")
			}},
		{name: "pre-commit", argv: []string{"sentinel", "hook", "pre-commit"}, tmpl: derive(t.setup, "pre-commit", addGo), rerunOK: ok},
		// count writes only its cache: start without one.
		{name: "count", argv: []string{"sentinel", "count"}, tmpl: derive(t.setup, "count", addGo), rerunOK: ok},
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if err := os.RemoveAll(filepath.Join(ops[len(ops)-1].tmpl, ".git", "sentinel")); err != nil {
		return nil, err
	}
	return ops, nil
}

// calibrationRuns is how many uninterrupted runs measure an operation.
const calibrationRuns = 7

// calibrate runs the operation uninterrupted in fresh copies of its
// template: the state before and after it, the files that differ between
// runs, and how long it takes, from which the kill delays are drawn.
func (l *lab) calibrate(o *operation, dir string) error {
	if err := replaceTree(o.tmpl, dir); err != nil {
		return err
	}
	o.old = l.snapshot(dir)
	head, err := l.git(dir, "rev-parse", "HEAD")
	if err != nil {
		return err
	}
	o.head = strings.TrimSpace(head)
	var durs []time.Duration
	o.variable = map[string]bool{}
	for i := 0; i < calibrationRuns; i++ {
		if err := replaceTree(o.tmpl, dir); err != nil {
			return err
		}
		r := l.run(dir, time.Minute, nil, o.argv...)
		if r.exit != 0 {
			return fmt.Errorf("%s fails uninterrupted: %s\n%s", o.name, r.brief(), r.output())
		}
		durs = append(durs, r.dur)
		s := l.snapshot(dir)
		if i == 0 {
			o.new, o.stdout = s, r.stdout
			continue
		}
		for _, p := range unionKeys(o.new, s) {
			if o.new[p] != s[p] {
				o.variable[p] = true
			}
		}
	}
	sort.Slice(durs, func(i, j int) bool { return durs[i] < durs[j] })
	o.median = durs[len(durs)/2]
	l.logf("%s: uninterrupted runs took %v", o.name, durs)
	if len(o.variable) > 0 {
		l.logf("%s: files that differ between uninterrupted runs, checked for existence only: %s", o.name, strings.Join(sortedKeys(o.variable), ", "))
	}
	return nil
}

// outcome is what one kill run found. Each list holds the problems of one
// kind, for the log; the figures count the runs where it is not empty.
type outcome struct {
	landed   bool
	torn     []string
	lockLeft []string
	blocked  []string
	tempWT   []string
	tempGit  []string
	diverged []string
	stuck    string
	notes    []string
}

func (o *outcome) failed() bool {
	return len(o.torn)+len(o.blocked)+len(o.tempWT)+len(o.diverged) > 0 || o.stuck != ""
}

// killRun copies the operation's template to dir, runs the command there,
// interrupts it as in says (nil: not at all), and checks what is left:
// right after the kill; after the next run of the same command, which must
// neither wait for a lock nor leave a temporary file; and after the commit
// the work was for, which a person gets through by re-running the command
// and doing what sentinel's messages say.
func (l *lab) killRun(o *operation, in *interrupt, dir string) (*outcome, error) {
	out := &outcome{}
	if err := replaceTree(o.tmpl, dir); err != nil {
		return nil, err
	}
	r := l.run(dir, l.block, in, o.argv...)
	out.landed = in != nil && r.signal == in.sig
	if !out.landed && r.exit != 0 {
		out.notes = append(out.notes, "the command failed on its own: "+r.brief())
	}
	now := l.snapshot(dir)
	out.torn = prefixed("after the kill: ", torn(o.old, o.new, now, o.variable, dir))
	out.lockLeft = locks(dir)

	next := l.run(dir, l.block, nil, o.argv...)
	if why := blocked(next); why != "" {
		out.blocked = append(out.blocked, "the next run "+why)
		// A person does what the message says and runs the command again.
		if f := l.follow(dir, next.output(), map[string]bool{}); f != nil {
			out.notes = append(out.notes, "followed: "+strings.Join(f.argv, " "))
		}
		next = l.run(dir, l.block, nil, o.argv...)
		if why := blocked(next); why != "" {
			out.blocked = append(out.blocked, "the run after that "+why)
		}
	}
	if !o.rerunOK(next) {
		out.notes = append(out.notes, "the next run failed: "+next.brief())
	}
	out.tempWT, out.tempGit = l.temps(dir)
	now = l.snapshot(dir)
	out.torn = append(out.torn, prefixed("after the next run: ", torn(o.old, o.new, now, o.variable, dir))...)
	out.diverged = diverged(o.new, now, o.variable)
	if o.name == "count" && next.stdout != o.stdout {
		out.diverged = append(out.diverged, "count's figures differ from an uninterrupted run's:\n"+next.stdout)
	}

	c := l.commitThrough(dir, o, next.output())
	out.stuck = c.stuck
	out.blocked = append(out.blocked, c.blocked...)
	out.torn = append(out.torn, c.lost...)
	out.notes = append(out.notes, c.followed...)
	// A lock left behind blocks only the next writer of the baseline,
	// which neither the next run nor the commit may have been (a finished
	// accept has nothing left to accept; a raised peak needs no raise).
	// One more test, staged, gives `check --update` a peak to raise under
	// the lock, whether or not the commit went through.
	if err := addMore.apply(dir); err != nil {
		return nil, err
	}
	// sentinel counts the files git tracks. git's own lock, left by a
	// git that sentinel ran, blocks as much as sentinel's.
	add := l.run(dir, l.block, nil, append([]string{"git", "add", "--"}, keys(addMore)...)...)
	if why := blocked(add); why != "" {
		out.blocked = append(out.blocked, "staging one more test "+why)
		return out, nil
	}
	w := l.run(dir, l.block, nil, "sentinel", "check", "--update")
	if why := blocked(w); why != "" {
		out.blocked = append(out.blocked, "the next raise of a peak "+why)
	} else if w.exit != 0 || !strings.Contains(w.stdout, "raised the peaks") {
		out.notes = append(out.notes, "the next raise of a peak did not happen: "+w.brief())
	}
	return out, nil
}

// commitOutcome is how the commit after a kill went.
type commitOutcome struct {
	stuck    string   // why the commit did not go through; "" when it did
	blocked  []string // the commands that were blocked on a lock
	lost     []string // foreign hooks that did not run with the commit
	followed []string // the commands the messages named that were run
}

// maxFollow is how many commands named by messages a person runs before
// giving up on a commit.
const maxFollow = 3

// commitThrough commits the work as a person would: git commit, and when
// it refuses, the first command its message (or the next run's) names that
// was not run yet, then git commit again. The foreign hooks must run with
// the commit.
func (l *lab) commitThrough(dir string, o *operation, advice string) commitOutcome {
	var c commitOutcome
	for _, p := range o.stage {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); err == nil {
			if r := l.run(dir, l.block, nil, "git", "add", "--", p); r.exit != 0 {
				if why := blocked(r); why != "" {
					c.blocked = append(c.blocked, "staging the set-up "+why)
				}
				c.stuck = "cannot stage the set-up: " + r.brief()
				return c
			}
		}
	}
	common := filepath.Join(dir, ".git")
	for name := range foreignHooks {
		os.Remove(filepath.Join(common, "foreign-"+name+".ran"))
	}
	tried := map[string]bool{}
	for attempt := 0; ; attempt++ {
		r := l.run(dir, l.block, nil, "git", "commit", "-q", "-m", "Work the probe interrupted")
		if why := blocked(r); why != "" {
			c.blocked = append(c.blocked, "the commit "+why)
		}
		if r.exit == 0 {
			break
		}
		if attempt == maxFollow {
			c.stuck = "still refused after " + fmt.Sprint(maxFollow) + " commands its messages named: " + r.brief()
			return c
		}
		f := l.follow(dir, r.output()+"\n"+advice, tried)
		if f == nil {
			c.stuck = "refused, and its messages name no command left to run: " + r.brief()
			return c
		}
		c.followed = append(c.followed, "followed: "+f.brief())
		if why := blocked(*f); why != "" {
			c.blocked = append(c.blocked, strings.Join(f.argv, " ")+" "+why)
		}
	}
	head, err := l.git(dir, "rev-parse", "HEAD")
	if err != nil || strings.TrimSpace(head) == o.head {
		c.stuck = "git commit succeeded but HEAD did not move"
		return c
	}
	for _, name := range sortedKeys(foreignHooks) {
		if _, err := os.Stat(filepath.Join(common, "foreign-"+name+".ran")); err != nil {
			c.lost = append(c.lost, "the project's own "+name+" hook did not run with the commit")
		}
	}
	return c
}

// follow runs the first command msg names that is not in tried, and
// returns how it went, or nil when there is none. The `rm` of a lock file
// is done only inside dir.
func (l *lab) follow(dir, msg string, tried map[string]bool) *result {
	for _, argv := range namedCommands(msg) {
		key := strings.Join(argv, "\x00")
		if tried[key] {
			continue
		}
		tried[key] = true
		if argv[0] == "rm" {
			rel, err := filepath.Rel(dir, argv[len(argv)-1])
			if err != nil || strings.HasPrefix(rel, "..") {
				continue
			}
			r := result{argv: argv}
			if err := os.Remove(argv[len(argv)-1]); err != nil {
				r.exit, r.stderr = 1, err.Error()
			}
			return &r
		}
		r := l.run(dir, l.block, nil, argv...)
		return &r
	}
	return nil
}

func prefixed(p string, ss []string) []string {
	for i := range ss {
		ss[i] = p + ss[i]
	}
	return ss
}

// KillFigures are the kill probe's figures for one operation under one
// signal. Every figure but Runs and Landed counts runs that broke a
// promise.
type KillFigures struct {
	Operation string
	Signal    string
	// Runs is how many runs were interrupted; Landed how many of them
	// the signal ended (the others had finished first).
	Runs, Landed int
	// Torn: a file sentinel writes was neither its old nor its new
	// bytes, or a hook that was there before sentinel no longer ran.
	Torn int
	// LockLeft: a lock file was there right after the kill; Blocked: the
	// next run, the commit, or a command a message named waited for or
	// failed on a lock.
	LockLeft, Blocked int
	// TempWorkTree and TempGitDir: a temporary file was left in the work
	// tree or the git directory after the next run.
	TempWorkTree, TempGitDir int
	// Diverged: after the next run, a file differed from what an
	// uninterrupted run leaves.
	Diverged int
	// Stuck: the commit did not go through after re-running the command
	// and following what the messages said.
	Stuck int
}

// killJob is one interrupted run.
type killJob struct {
	op    *operation
	sig   syscall.Signal
	i     int
	delay time.Duration
}

// killProbe interrupts each operation n times with each signal, jobs runs
// at a time, and returns the figures by operation and signal.
func (l *lab) killProbe(ops []*operation, sigs []syscall.Signal, n, jobs int, seed uint64, keep bool, progress func(done, total int)) ([]KillFigures, error) {
	var list []killJob
	for _, o := range ops {
		for _, s := range sigs {
			for i := 0; i < n; i++ {
				// Each job draws from its own stream, so that a seed
				// gives the same delays whatever the order of the runs.
				rng := rand.New(rand.NewPCG(seed, uint64(len(list))))
				// Past the median run, some signals come after the end:
				// the spread covers slower runs too.
				d := time.Duration(rng.Float64() * 1.25 * float64(o.median))
				list = append(list, killJob{op: o, sig: s, i: i, delay: d})
			}
		}
	}
	outcomes := make([]*outcome, len(list))
	var next, done, kept atomic.Int64
	var firstErr error
	var errOnce sync.Once
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			dir := filepath.Join(l.dir, fmt.Sprintf("run-%d", w))
			for {
				k := int(next.Add(1) - 1)
				if k >= len(list) || l.stopped.Load() {
					return
				}
				j := list[k]
				out, err := l.killRun(j.op, &interrupt{after: j.delay, sig: j.sig, group: j.sig == syscall.SIGINT}, dir)
				if err != nil {
					errOnce.Do(func() { firstErr = err })
					return
				}
				outcomes[k] = out
				name := fmt.Sprintf("%s %s #%d (signal after %v)", j.op.name, signalName(j.sig), j.i, j.delay.Round(10*time.Microsecond))
				l.logOutcome(name, out)
				if keep && out.failed() && kept.Add(1) <= 40 {
					to := filepath.Join(l.dir, "failed", fmt.Sprintf("%s-%s-%d", strings.ReplaceAll(j.op.name, " ", "-"), signalName(j.sig), j.i))
					if os.MkdirAll(filepath.Dir(to), 0o755) == nil && os.Rename(dir, to) == nil {
						l.logf("  kept in %s", to)
					}
				}
				progress(int(done.Add(1)), len(list))
			}
		}(w)
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if l.stopped.Load() {
		return nil, errStopped
	}
	var figs []KillFigures
	index := map[string]int{}
	for k, j := range list {
		key := j.op.name + "\x00" + signalName(j.sig)
		i, ok := index[key]
		if !ok {
			i = len(figs)
			index[key] = i
			figs = append(figs, KillFigures{Operation: j.op.name, Signal: signalName(j.sig)})
		}
		f, o := &figs[i], outcomes[k]
		f.Runs++
		f.Landed += b2i(o.landed)
		f.Torn += b2i(len(o.torn) > 0)
		f.LockLeft += b2i(len(o.lockLeft) > 0)
		f.Blocked += b2i(len(o.blocked) > 0)
		f.TempWorkTree += b2i(len(o.tempWT) > 0)
		f.TempGitDir += b2i(len(o.tempGit) > 0)
		f.Diverged += b2i(len(o.diverged) > 0)
		f.Stuck += b2i(o.stuck != "")
	}
	return figs, nil
}

// logOutcome writes what a run found, when it found anything.
func (l *lab) logOutcome(name string, o *outcome) {
	if !o.failed() && len(o.lockLeft)+len(o.tempGit)+len(o.notes) == 0 {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: landed=%v", name, o.landed)
	for _, kind := range []struct {
		what  string
		items []string
	}{
		{"torn", o.torn}, {"lock left", o.lockLeft}, {"blocked", o.blocked}, {"temp in work tree", o.tempWT},
		{"temp in .git", o.tempGit}, {"diverged", o.diverged}, {"note", o.notes},
	} {
		for _, it := range kind.items {
			fmt.Fprintf(&b, "\n  %s: %s", kind.what, it)
		}
	}
	if o.stuck != "" {
		fmt.Fprintf(&b, "\n  stuck: %s", o.stuck)
	}
	l.logf("%s", b.String())
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
