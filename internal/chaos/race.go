package chaos

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Races are the names of the race probe's trials.
var Races = []string{"worktrees", "accept ×2", "accept + pre-commit"}

// RaceFigures are the race probe's figures for one kind of trial.
type RaceFigures struct {
	Race string
	// Trials is how many times the commands ran at once; Commands how
	// many commands that made in all.
	Trials, Commands int
	// Lost counts the updates a command reported ("recorded", "raised",
	// a commit) that the final baseline, in the work tree or the index,
	// lacks; LossTrials the trials with at least one.
	Lost, LossTrials int
	// Torn counts the trials that left a baseline that does not read.
	Torn int
	// Temp counts the trials that left a temporary file in a work tree.
	Temp int
	// Errors counts the commands that failed where running alone they
	// succeed.
	Errors int
}

// maxWorktrees is the most commands the worktree race runs at once, one
// per linked worktree.
const maxWorktrees = 8

// raceLab holds what the race trials share: the repository with its linked
// worktrees, copied for each trial to one fixed place (worktrees record
// their absolute paths), and the expected figures.
type raceLab struct {
	*lab
	tmpl, dir string
	head      string
	// goRaised and pyRaised are the tests with addGo or addPy staged:
	// the peaks a pre-commit hook raises to.
	goRaised, pyRaised int
	// counted is count's output in an unchanged work tree.
	counted string
	// serial runs a trial's commands one after another: the control.
	serial bool
}

// newRaceLab builds the race repository from the set-up template: the
// main work tree and maxWorktrees linked ones, each on its own branch.
func (l *lab) newRaceLab(t *templates) (*raceLab, error) {
	rl := &raceLab{lab: l, tmpl: filepath.Join(l.dir, "templates", "race"), dir: filepath.Join(l.dir, "race")}
	main := filepath.Join(rl.dir, "main")
	if err := copyTree(t.setup, main); err != nil {
		return nil, err
	}
	for i := 1; i <= maxWorktrees; i++ {
		if _, err := l.git(main, "worktree", "add", "-q", "-b", "w"+strconv.Itoa(i), "../w"+strconv.Itoa(i)); err != nil {
			return nil, err
		}
	}
	head, err := l.git(main, "rev-parse", "HEAD")
	if err != nil {
		return nil, err
	}
	rl.head = strings.TrimSpace(head)
	if rl.counted, err = l.sentinel(main, "count"); err != nil {
		return nil, err
	}
	if err := os.Rename(rl.dir, rl.tmpl); err != nil {
		return nil, err
	}
	// The peaks the hook raises to, from a scratch copy.
	scratch := filepath.Join(l.dir, "scratch")
	if err := replaceTree(t.setup, scratch); err != nil {
		return nil, err
	}
	defer os.RemoveAll(scratch)
	if err := addGo.apply(scratch); err != nil {
		return nil, err
	}
	if err := addPy.apply(scratch); err != nil {
		return nil, err
	}
	if _, err := l.git(scratch, "add", "-A"); err != nil {
		return nil, err
	}
	c, err := l.stagedCounts(scratch)
	if err != nil {
		return nil, err
	}
	rl.goRaised, rl.pyRaised = c["go"], c["python"]
	return rl, nil
}

// fresh puts a new copy of the race repository in place.
func (rl *raceLab) fresh() error { return replaceTree(rl.tmpl, rl.dir) }

func (rl *raceLab) tree(name string) string { return filepath.Join(rl.dir, name) }

// proc is one command of a trial.
type proc struct {
	kind string // accept, pre-commit, count, commit
	dir  string
	argv []string
	res  result
}

// maxStagger is the most a command of a trial starts after the first.
// The commands take tens of milliseconds, so they still overlap; the
// stagger makes the trials meet each other at different points rather
// than always at the start.
const maxStagger = 10 * time.Millisecond

// runAtOnce starts the commands together, each after a random stagger, and
// waits for all of them. In a control (rl.serial) it runs them one after
// another instead, where every update must survive.
func (rl *raceLab) runAtOnce(ps []*proc, rng *rand.Rand) {
	if rl.serial {
		for _, p := range ps {
			p.res = rl.run(p.dir, rl.block, nil, p.argv...)
		}
		return
	}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, p := range ps {
		wg.Add(1)
		stagger := time.Duration(rng.Int64N(int64(maxStagger)))
		go func(p *proc) {
			defer wg.Done()
			<-start
			time.Sleep(stagger)
			p.res = rl.run(p.dir, rl.block, nil, p.argv...)
		}(p)
	}
	close(start)
	wg.Wait()
}

// trial is what one trial found.
type trial struct {
	lost, errs []string
	torn, temp []string
}

// loweredLine is accept's report of one lowered peak.
var loweredLine = regexp.MustCompile(`(?m)^lowered (\S+) (\S+) (\d+) → (\d+)$`)

// checkAccept checks an accept's reported acceptance in the final
// baselines: the record, and with exact, the peaks it reported lowering.
// (Beside a pre-commit hook, a peak may rise again legitimately: the hook
// counts the index, where the removed test still is.)
func checkAccept(p *proc, reason string, wt, staged *baseline, exact bool, t *trial) {
	if p.res.exit != 0 || !strings.Contains(p.res.stdout, "recorded by") {
		t.errs = append(t.errs, p.res.brief())
		return
	}
	for _, b := range []struct {
		where string
		b     *baseline
	}{{"work tree", wt}, {"index", staged}} {
		if b.b == nil {
			continue // torn, counted there
		}
		if !b.b.accepted(reason) {
			t.lost = append(t.lost, fmt.Sprintf("%s: the acceptance %q it recorded is not in the %s's baseline", p.dir, reason, b.where))
			return
		}
		if !exact {
			continue
		}
		for _, m := range loweredLine.FindAllStringSubmatch(p.res.stdout, -1) {
			want, _ := strconv.Atoi(m[4])
			if got := b.b.peak(m[1], m[2]); got != want {
				t.lost = append(t.lost, fmt.Sprintf("%s: it lowered %s %s to %d, the %s's baseline has %d", p.dir, m[1], m[2], want, b.where, got))
				return
			}
		}
	}
}

// checkRaise checks a pre-commit hook's reported raise of row's tests to
// at least want in the final baselines.
func checkRaise(p *proc, row string, want int, wt, staged *baseline, t *trial) {
	if p.res.exit != 0 {
		t.errs = append(t.errs, p.res.brief())
		return
	}
	if !strings.Contains(p.res.stderr, "raised the peaks") {
		t.errs = append(t.errs, "did not raise: "+p.res.brief())
		return
	}
	for _, b := range []struct {
		where string
		b     *baseline
	}{{"work tree", wt}, {"index", staged}} {
		if b.b != nil && b.b.peak(row, "tests") < want {
			t.lost = append(t.lost, fmt.Sprintf("%s: it raised %s tests to %d, the %s's baseline has %d", p.dir, row, want, b.where, b.b.peak(row, "tests")))
			return
		}
	}
}

// worktreeTrial runs two to eight of accept, the pre-commit hook, count and
// git commit at once, each in its own linked worktree, each with the work
// it needs staged.
func (rl *raceLab) worktreeTrial(n int, rng *rand.Rand) (*trial, []*proc, error) {
	kinds := []string{"accept", "pre-commit", "count", "commit"}
	k := 2 + rng.IntN(maxWorktrees-1)
	var ps []*proc
	for i := 1; i <= k; i++ {
		p := &proc{kind: kinds[rng.IntN(len(kinds))], dir: rl.tree("w" + strconv.Itoa(i))}
		var e edit
		switch p.kind {
		case "accept":
			e = removeGo
			p.argv = []string{"sentinel", "accept", "--reason", fmt.Sprintf("trial %d, w%d", n, i)}
		case "pre-commit":
			e = addGo
			p.argv = []string{"sentinel", "hook", "pre-commit"}
		case "commit":
			e = addGo
			p.argv = []string{"git", "commit", "-q", "-m", fmt.Sprintf("Trial %d in w%d", n, i)}
		case "count":
			p.argv = []string{"sentinel", "count"}
		}
		if e != nil {
			if err := e.apply(p.dir); err != nil {
				return nil, nil, err
			}
			if _, err := rl.git(p.dir, "add", "-A"); err != nil {
				return nil, nil, err
			}
		}
		ps = append(ps, p)
	}
	rl.runAtOnce(ps, rng)
	t := &trial{}
	for _, p := range ps {
		wt, staged, problems := rl.readBaselines(p.dir)
		t.torn = append(t.torn, prefixed(p.dir+": ", problems)...)
		switch p.kind {
		case "accept":
			checkAccept(p, p.argv[3], wt, staged, true, t)
		case "pre-commit":
			checkRaise(p, "go", rl.goRaised, wt, staged, t)
		case "count":
			if p.res.exit != 0 || p.res.stdout != rl.counted {
				t.errs = append(t.errs, "wrong figures: "+p.res.brief()+"\n"+p.res.stdout)
			}
		case "commit":
			if p.res.exit != 0 {
				t.errs = append(t.errs, p.res.brief())
				continue
			}
			head, _ := rl.git(p.dir, "rev-parse", "HEAD")
			committed := rl.run(p.dir, time.Minute, nil, "git", "cat-file", "blob", "HEAD:"+baselineFile)
			b, err := parseBaseline([]byte(committed.stdout))
			switch {
			case strings.TrimSpace(head) == rl.head:
				t.lost = append(t.lost, p.dir+": git commit succeeded but made no commit")
			case err != nil:
				t.torn = append(t.torn, p.dir+": committed baseline: "+err.Error())
			case b.peak("go", "tests") < rl.goRaised:
				t.lost = append(t.lost, fmt.Sprintf("%s: the commit's baseline has go tests %d, its hook raised them to %d", p.dir, b.peak("go", "tests"), rl.goRaised))
			}
		}
		wtTemps, _ := rl.temps(p.dir)
		t.temp = append(t.temp, wtTemps...)
	}
	return t, ps, nil
}

// doubleAcceptTrial runs `accept --language go` and `accept --language
// python` at once in one work tree where both languages lost a test: both
// acceptances must end in the baseline.
func (rl *raceLab) doubleAcceptTrial(n int, rng *rand.Rand) (*trial, []*proc, error) {
	dir := rl.tree("main")
	for _, e := range []edit{removeGo, removePy} {
		if err := e.apply(dir); err != nil {
			return nil, nil, err
		}
	}
	if _, err := rl.git(dir, "add", "-A"); err != nil {
		return nil, nil, err
	}
	goReason, pyReason := fmt.Sprintf("trial %d: go", n), fmt.Sprintf("trial %d: python", n)
	ps := []*proc{
		{kind: "accept", dir: dir, argv: []string{"sentinel", "accept", "--language", "go", "--reason", goReason}},
		{kind: "accept", dir: dir, argv: []string{"sentinel", "accept", "--language", "python", "--reason", pyReason}},
	}
	rl.runAtOnce(ps, rng)
	t := &trial{}
	wt, staged, problems := rl.readBaselines(dir)
	t.torn = problems
	checkAccept(ps[0], goReason, wt, staged, true, t)
	checkAccept(ps[1], pyReason, wt, staged, true, t)
	t.temp, _ = rl.temps(dir)
	return t, ps, nil
}

// acceptBesideHookTrial runs `accept --language go`, after a Go test was
// removed from the work tree, beside the pre-commit hook of a commit that
// adds Python tests: the acceptance and the raise of Python's peak must
// both end in the baseline.
func (rl *raceLab) acceptBesideHookTrial(n int, rng *rand.Rand) (*trial, []*proc, error) {
	dir := rl.tree("main")
	if err := removeGo.apply(dir); err != nil {
		return nil, nil, err
	}
	if err := addPy.apply(dir); err != nil {
		return nil, nil, err
	}
	if _, err := rl.git(dir, append([]string{"add", "--"}, keys(addPy)...)...); err != nil {
		return nil, nil, err
	}
	reason := fmt.Sprintf("trial %d: go", n)
	ps := []*proc{
		{kind: "accept", dir: dir, argv: []string{"sentinel", "accept", "--language", "go", "--reason", reason}},
		{kind: "pre-commit", dir: dir, argv: []string{"sentinel", "hook", "pre-commit"}},
	}
	rl.runAtOnce(ps, rng)
	t := &trial{}
	wt, staged, problems := rl.readBaselines(dir)
	t.torn = problems
	checkAccept(ps[0], reason, wt, staged, false, t)
	checkRaise(ps[1], "python", rl.pyRaised, wt, staged, t)
	t.temp, _ = rl.temps(dir)
	return t, ps, nil
}

// trial runs one trial of the named race in a fresh copy of the repository.
func (rl *raceLab) trial(name string, n int, rng *rand.Rand) (*trial, []*proc, error) {
	if err := rl.fresh(); err != nil {
		return nil, nil, err
	}
	switch name {
	case "worktrees":
		return rl.worktreeTrial(n, rng)
	case "accept ×2":
		return rl.doubleAcceptTrial(n, rng)
	}
	return rl.acceptBesideHookTrial(n, rng)
}

// raceProbe runs n trials of each race and returns their figures, and what
// controls (each race's commands run one after another, which must lose
// nothing) found.
func (rl *raceLab) raceProbe(n int, seed uint64, progress func(done, total int)) ([]RaceFigures, []string, error) {
	rng := rand.New(rand.NewPCG(seed, 1<<32))
	var control []string
	rl.serial = true
	for _, name := range Races {
		t, ps, err := rl.trial(name, -1, rng)
		if err != nil {
			return nil, nil, err
		}
		if len(t.lost)+len(t.errs)+len(t.torn)+len(t.temp) > 0 {
			rl.logTrial(name+" one after another (control)", ps, t)
			control = append(control, fmt.Sprintf("%s one after another: %q %q %q %q", name, t.lost, t.errs, t.torn, t.temp))
		}
	}
	rl.serial = false
	var figs []RaceFigures
	for ri, name := range Races {
		f := RaceFigures{Race: name}
		for i := 0; i < n; i++ {
			if rl.stopped.Load() {
				return nil, nil, errStopped
			}
			t, ps, err := rl.trial(name, i, rng)
			if err != nil {
				return nil, nil, err
			}
			f.Trials++
			f.Commands += len(ps)
			f.Lost += len(t.lost)
			f.LossTrials += b2i(len(t.lost) > 0)
			f.Torn += b2i(len(t.torn) > 0)
			f.Temp += b2i(len(t.temp) > 0)
			f.Errors += len(t.errs)
			rl.logTrial(fmt.Sprintf("%s #%d", name, i), ps, t)
			progress(ri*n+i+1, len(Races)*n)
		}
		figs = append(figs, f)
	}
	return figs, control, nil
}

// logTrial writes what a trial found, when it found anything.
func (rl *raceLab) logTrial(name string, ps []*proc, t *trial) {
	if len(t.lost)+len(t.errs)+len(t.torn)+len(t.temp) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString(name + ":")
	for _, p := range ps {
		fmt.Fprintf(&b, "\n  ran %s in %s: exit %d in %v", strings.Join(p.argv, " "), filepath.Base(p.dir), p.res.exit, p.res.dur.Round(time.Millisecond))
	}
	for _, kind := range []struct {
		what  string
		items []string
	}{{"lost", t.lost}, {"error", t.errs}, {"torn", t.torn}, {"temp", t.temp}} {
		for _, it := range kind.items {
			fmt.Fprintf(&b, "\n  %s: %s", kind.what, it)
		}
	}
	rl.logf("%s", b.String())
}
