// Command chaos runs sentinel's kill and race probes against a built
// binary and prints their figures as Markdown tables; `make chaos` runs it.
// It exits 1 when a promise was broken, 2 when the probes could not run.
//
//	chaos -bin bin/sentinel [-n 100] [-races 100] [-seed S] [-jobs 2]
//	      [-ops init,accept] [-signals SIGKILL] [-block 10s] [-keep] [-dir D] [-log F]
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/gitsentinel/sentinel/internal/chaos"
)

func main() {
	var c chaos.Config
	var ops, sigs string
	flag.StringVar(&c.Bin, "bin", "bin/sentinel", "the sentinel binary under test")
	flag.IntVar(&c.N, "n", 100, "kill runs per operation and signal")
	flag.IntVar(&c.Races, "races", 100, "trials per race")
	flag.Uint64Var(&c.Seed, "seed", 0, "seed of the kill delays and the race mixes (0: from the clock)")
	flag.IntVar(&c.Jobs, "jobs", 2, "kill runs at once")
	flag.StringVar(&ops, "ops", "", "comma-separated operations to interrupt (default all: "+strings.Join(chaos.Operations, ", ")+")")
	flag.StringVar(&sigs, "signals", "", "comma-separated signals (default SIGKILL,SIGINT,SIGTERM)")
	flag.DurationVar(&c.Block, "block", 10*time.Second, "how long a command may run before it counts as blocked")
	flag.BoolVar(&c.Keep, "keep", false, "keep the scratch directory and the repositories of failed runs")
	flag.StringVar(&c.Dir, "dir", "", "scratch directory (default: a new temporary one)")
	flag.StringVar(&c.Log, "log", "", "file for every problem found, run by run (default: chaos.log in a kept scratch directory, else sentinel-chaos.log in the temporary directory)")
	flag.Parse()
	c.Ops, c.Signals = split(ops), split(sigs)
	c.Progress = os.Stderr
	rep, err := chaos.Run(c)
	if err != nil {
		fmt.Fprintln(os.Stderr, "chaos:", err)
		os.Exit(2)
	}
	if err := rep.WriteMarkdown(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "chaos:", err)
		os.Exit(2)
	}
	if !rep.OK() {
		os.Exit(1)
	}
}

func split(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
