package chaos

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Config says what the probes run.
type Config struct {
	// Bin is the sentinel binary under test.
	Bin string
	// Dir is the scratch directory; empty means a new temporary one,
	// removed at the end unless Keep is set.
	Dir string
	// Log is the file the probes write every problem they find to, run
	// by run; empty means chaos.log in the scratch directory when that is
	// kept, else sentinel-chaos.log in the system's temporary directory.
	Log string
	// N is how many times each operation is interrupted by each signal.
	N int
	// Races is how many trials each race gets.
	Races int
	// Seed seeds the kill delays and the worktree race's mixes; 0 picks
	// one from the clock. The timing of a run is the machine's, so a seed
	// repeats the delays, not the outcomes.
	Seed uint64
	// Jobs is how many kill runs go at once, each in its own repository.
	Jobs int
	// Ops and Signals narrow the kill probe (Operations; SIGKILL, SIGINT,
	// SIGTERM); empty means all.
	Ops, Signals []string
	// Block is how long a command may run before the probe kills it and
	// counts it as blocked.
	Block time.Duration
	// Keep keeps the scratch directory, and in it the repositories of the
	// first runs that broke a promise.
	Keep bool
	// Progress receives a line now and then; nil means none.
	Progress io.Writer
}

// Report holds the figures of one run of the probes.
type Report struct {
	// Version is the version the binary under test reports.
	Version string
	Seed    uint64
	N       int
	Jobs    int
	// Median is each operation's median uninterrupted run, the scale of
	// its kill delays.
	Median map[string]time.Duration
	Kill   []KillFigures
	Race   []RaceFigures
	// Control lists what uninterrupted runs (and races run one after
	// another) put through the same checks found, and signals that never
	// landed; anything here means the probe, not sentinel, is at fault.
	Control []string
	Elapsed time.Duration
	// Log is the file with every problem, run by run.
	Log string
}

// signals are the signals the kill probe sends, by name.
var signals = map[string]syscall.Signal{"SIGKILL": syscall.SIGKILL, "SIGINT": syscall.SIGINT, "SIGTERM": syscall.SIGTERM}

// Run runs the kill probe and then the race probe, and returns their
// figures.
func Run(c Config) (*Report, error) {
	if !supported {
		return nil, errors.New("the chaos probes need process groups and POSIX signals: run them on Linux or macOS")
	}
	began := time.Now()
	bin, err := filepath.Abs(c.Bin)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("the binary under test: %w (make build writes bin/sentinel)", err)
	}
	var sigs []syscall.Signal
	if len(c.Signals) == 0 {
		c.Signals = []string{"SIGKILL", "SIGINT", "SIGTERM"}
	}
	for _, s := range c.Signals {
		sig, ok := signals[strings.ToUpper(s)]
		if !ok {
			return nil, fmt.Errorf("unknown signal %q: the probe sends SIGKILL, SIGINT and SIGTERM", s)
		}
		sigs = append(sigs, sig)
	}
	for _, o := range c.Ops {
		if !slices.Contains(Operations, o) {
			return nil, fmt.Errorf("unknown operation %q: the probe interrupts %s", o, strings.Join(Operations, ", "))
		}
	}
	if c.Seed == 0 {
		c.Seed = uint64(time.Now().UnixNano())
	}
	if c.Jobs < 1 {
		c.Jobs = 1
	}
	if c.Block <= 0 {
		c.Block = 10 * time.Second
	}

	dir := c.Dir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "sentinel-chaos-"); err != nil {
			return nil, err
		}
		if !c.Keep {
			defer os.RemoveAll(dir)
			if c.Log == "" {
				// The log outlives the scratch directory.
				c.Log = filepath.Join(os.TempDir(), "sentinel-chaos.log")
			}
		}
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	// git reports resolved paths (macOS's /tmp is /private/tmp), and the
	// probe compares paths with the ones sentinel names.
	if dir, err = filepath.EvalSymlinks(dir); err != nil {
		return nil, err
	}
	if c.Log == "" {
		c.Log = filepath.Join(dir, "chaos.log")
	}
	logFile, err := os.Create(c.Log)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	progress := func(format string, args ...any) {
		if c.Progress != nil {
			fmt.Fprintf(c.Progress, format+"\n", args...)
		}
	}

	if c.Keep {
		progress("chaos: working in %s, which is kept", dir)
	}
	becomeSubreaper()
	l, err := newLab(bin, dir, c.Block, logFile)
	if err != nil {
		return nil, err
	}
	// A probe started with SIGINT ignored (under nohup, or as a background
	// job of a script) would hand that on to every sentinel it starts, and
	// its SIGINT runs would measure nothing. Catching the signals here
	// makes them default again in every child, and lets an interrupted
	// probe stop between runs and remove its scratch directory.
	sigc := make(chan os.Signal, 1)
	signal.Notify(sigc, os.Interrupt, syscall.SIGTERM)
	finished := make(chan struct{})
	defer func() {
		signal.Stop(sigc)
		close(finished)
	}()
	go func() {
		select {
		case <-sigc:
			l.stopped.Store(true)
			progress("chaos: stopping after the runs under way")
		case <-finished:
		}
	}()
	rep := &Report{Seed: c.Seed, N: c.N, Jobs: c.Jobs, Median: map[string]time.Duration{}, Log: c.Log}
	if v, err := l.sentinel(dir, "--version"); err == nil {
		rep.Version = strings.TrimSpace(v)
	}
	l.logf("sentinel under test: %s (%s); seed %d", bin, rep.Version, c.Seed)

	progress("chaos: preparing the repositories")
	t, err := l.buildTemplates()
	if err != nil {
		return nil, fmt.Errorf("prepare the repositories: %w", err)
	}
	ops, err := l.operations(t)
	if err != nil {
		return nil, fmt.Errorf("prepare the repositories: %w", err)
	}
	if len(c.Ops) > 0 {
		ops = slices.DeleteFunc(ops, func(o *operation) bool { return !slices.Contains(c.Ops, o.name) })
	}
	if c.N <= 0 {
		ops = nil
	}
	scratch := filepath.Join(dir, "calibrate")
	for _, o := range ops {
		if l.stopped.Load() {
			return nil, errStopped
		}
		if err := l.calibrate(o, scratch); err != nil {
			return nil, err
		}
		rep.Median[o.name] = o.median
		// The same checks on runs nobody interrupts must find nothing,
		// or the figures would measure the probe.
		for i := 0; i < 2; i++ {
			out, err := l.killRun(o, nil, scratch)
			if err != nil {
				return nil, err
			}
			if out.failed() {
				l.logOutcome(o.name+" uninterrupted (control)", out)
				rep.Control = append(rep.Control, fmt.Sprintf("%s: %v %v %v %v %q", o.name, out.torn, out.blocked, out.tempWT, out.diverged, out.stuck))
			}
		}
		progress("chaos: %s takes %v uninterrupted", o.name, o.median.Round(100*time.Microsecond))
	}

	if len(ops) > 0 {
		total := len(ops) * len(sigs) * c.N
		progress("chaos: kill probe, %d runs", total)
		step := max(total/20, 1)
		rep.Kill, err = l.killProbe(ops, sigs, c.N, c.Jobs, c.Seed, c.Keep, func(done, total int) {
			if done%step == 0 || done == total {
				progress("chaos: kill probe %d/%d (%v)", done, total, time.Since(began).Round(time.Second))
			}
		})
		if err != nil {
			return nil, err
		}
		// A signal that never ends a run is ignored or blocked where the
		// probe runs, and its row measures nothing.
		for _, f := range rep.Kill {
			if f.Runs >= 20 && f.Landed == 0 {
				rep.Control = append(rep.Control, fmt.Sprintf("%s never ended a run of %s: is it ignored or blocked here?", f.Signal, f.Operation))
			}
		}
	}
	if c.Races > 0 {
		progress("chaos: race probe, %d trials of each of %d races", c.Races, len(Races))
		rl, err := l.newRaceLab(t)
		if err != nil {
			return nil, fmt.Errorf("prepare the race repository: %w", err)
		}
		step := max(len(Races)*c.Races/10, 1)
		var control []string
		rep.Race, control, err = rl.raceProbe(c.Races, c.Seed, func(done, total int) {
			if done%step == 0 || done == total {
				progress("chaos: race probe %d/%d (%v)", done, total, time.Since(began).Round(time.Second))
			}
		})
		if err != nil {
			return nil, err
		}
		rep.Control = append(rep.Control, control...)
	}
	rep.Elapsed = time.Since(began)
	return rep, nil
}

// OK reports whether every promise held: no torn file, no blocking lock,
// no temporary file left in a work tree, no divergence, no stuck commit, no
// lost update and no error. A lock file left behind that blocks nothing,
// and temporary files in the git directory, are reported but break no
// promise.
func (r *Report) OK() bool {
	for _, f := range r.Kill {
		if f.Torn+f.Blocked+f.TempWorkTree+f.Diverged+f.Stuck > 0 {
			return false
		}
	}
	for _, f := range r.Race {
		if f.Lost+f.Torn+f.Temp+f.Errors > 0 {
			return false
		}
	}
	return len(r.Control) == 0
}

// WriteMarkdown writes the figures as the tables of docs/reliability.md.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s; seed %d; %d jobs; %v in all.\n", r.Version, r.Seed, r.Jobs, r.Elapsed.Round(time.Second))
	if len(r.Kill) > 0 {
		b.WriteString("\n| operation | signal | median run | runs | landed | torn | lock left | blocked | temp left (work tree) | temp left (.git) | diverged | stuck |\n")
		b.WriteString("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
		var sum KillFigures
		for _, f := range r.Kill {
			fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n", f.Operation, f.Signal,
				millis(r.Median[f.Operation]), f.Runs, f.Landed, f.Torn, f.LockLeft, f.Blocked, f.TempWorkTree, f.TempGitDir, f.Diverged, f.Stuck)
			sum.Runs += f.Runs
			sum.Landed += f.Landed
			sum.Torn += f.Torn
			sum.LockLeft += f.LockLeft
			sum.Blocked += f.Blocked
			sum.TempWorkTree += f.TempWorkTree
			sum.TempGitDir += f.TempGitDir
			sum.Diverged += f.Diverged
			sum.Stuck += f.Stuck
		}
		fmt.Fprintf(&b, "| **all** | | | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n",
			sum.Runs, sum.Landed, sum.Torn, sum.LockLeft, sum.Blocked, sum.TempWorkTree, sum.TempGitDir, sum.Diverged, sum.Stuck)
	}
	if len(r.Race) > 0 {
		b.WriteString("\n| race | trials | commands | lost updates | trials with a loss | torn | temp left | errors |\n")
		b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
		for _, f := range r.Race {
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %d |\n", f.Race, f.Trials, f.Commands, f.Lost, f.LossTrials, f.Torn, f.Temp, f.Errors)
		}
	}
	if len(r.Control) > 0 {
		b.WriteString("\nUninterrupted control runs failed the checks; the figures above are not to be trusted:\n")
		for _, c := range r.Control {
			b.WriteString("- " + c + "\n")
		}
	}
	fmt.Fprintf(&b, "\nEvery problem, run by run: %s\n", r.Log)
	_, err := io.WriteString(w, b.String())
	return err
}

func millis(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}
