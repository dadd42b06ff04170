//go:build !sentinel_front

package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/guard/audit"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/urfave/cli/v2"
)

// guardLogOptions are the flags of `sentinel guard log`.
type guardLogOptions struct {
	all         bool
	allProjects bool
	since       time.Time
	last        int
	format      string
}

func guardLogCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "log",
		Usage: "print the guard's audit trail, newest last: its refusals, or with --all every recorded decision",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "all", Usage: "also allowed calls (recorded with [guard] log = \"all\"), and the rotated files"},
			&cli.StringFlag{Name: "since", Usage: "only decisions since a time (2026-11-29T12:00:00Z) or within a duration (30m, 24h, 7d)"},
			&cli.BoolFlag{Name: "all-projects", Usage: "every project's calls; by default, those made in this repository only"},
			&cli.IntFlag{Name: "n", Usage: "only the newest `N` records"},
			formatFlag("text", "json"),
			&cli.BoolFlag{Name: "json", Usage: "the same as --format json: the records as JSON lines, as written (docs/json.md)"},
		},
		Action: func(c *cli.Context) error {
			f, err := checkFormat(c, "text", "json")
			if err != nil {
				return err
			}
			if c.Bool("json") {
				f = "json"
			}
			if c.Int("n") < 0 {
				return &usageError{fmt.Errorf("-n %d: give a number of records, 1 or more", c.Int("n"))}
			}
			o := guardLogOptions{all: c.Bool("all"), allProjects: c.Bool("all-projects"), last: c.Int("n"), format: f}
			if s := c.String("since"); s != "" {
				t, err := parseSince(s, time.Now())
				if err != nil {
					return &usageError{err}
				}
				o.since = t
			}
			return runGuardLog(e, o)
		},
	}
}

func runGuardLog(e *env, o guardLogOptions) error {
	path := pathguard.LogPath(e.getenv)
	if path == "" {
		return fmt.Errorf("no audit trail: neither XDG_STATE_HOME nor HOME is an absolute directory; run `export XDG_STATE_HOME=$HOME/.local/state`")
	}
	q := audit.LogQuery{All: o.all, Since: o.since, Last: o.last}
	if !o.allProjects {
		// The trail is the machine's; a person in a repository asks
		// about that repository.
		if root, err := gitrepo.FindRoot(context.Background(), e.dir); err == nil {
			q.Within = root
		} else {
			fmt.Fprintf(e.stderr, "sentinel guard log: not in a repository: every project's calls\n")
		}
	}
	entries, notes := audit.ReadLog(path, q)
	for _, n := range notes {
		fmt.Fprintf(e.stderr, "sentinel guard log: %s\n", n)
	}
	if o.format == "json" {
		var b strings.Builder
		for _, en := range entries {
			b.Write(en.Raw)
			b.WriteByte('\n')
		}
		_, err := fmt.Fprint(e.stdout, b.String())
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	return audit.WriteLogText(e.stdout, entries)
}

// parseSince reads --since: an RFC 3339 time, a Go duration before now, or
// a number of days ("7d", which Go's durations lack).
func parseSince(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n >= 0 {
			return now.AddDate(0, 0, -n), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("--since %q is neither a duration (30m, 24h, 7d) nor an RFC 3339 time; run `sentinel guard log --since 24h`", s)
}
