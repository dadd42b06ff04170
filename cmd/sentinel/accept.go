//go:build !sentinel_front

package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/quote"
	"github.com/gitsentinel/sentinel/trailers"
	"github.com/urfave/cli/v2"
)

// acceptOptions are the flags of `sentinel accept`.
type acceptOptions struct {
	reason    string
	languages []string
	rev       string
	harness   bool
}

func acceptCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "accept",
		Usage: "record a removal of tests a person intended: lower the peaks to the counts, with a reason",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "reason", Usage: "why the tests went (required)"},
			&cli.StringSliceFlag{Name: "language", Usage: "only this row (repeatable); default: every row below its peak"},
			&cli.StringFlag{Name: "rev", Usage: "accept, after the fact, what a commit already made lost without an acceptance (one that skipped the hooks), in a new commit instead of a rewrite of history"},
			&cli.BoolFlag{Name: "harness", Usage: "with --rev: accept that commit's change to the runner's harness too, which [ratchet] harness = \"person\" holds until a person does"},
		},
		Action: func(c *cli.Context) error {
			return runAccept(c, e, acceptOptions{reason: c.String("reason"), languages: c.StringSlice("language"), rev: c.String("rev"), harness: c.Bool("harness")})
		},
	}
}

// personOnly is why accept refuses an agent and a missing reason.
const personOnly = "accepting a loss of tests is a person's decision"

func runAccept(c *cli.Context, e *env, o acceptOptions) error {
	sweepTemps(c.Context, e.dir)
	opts, cfg, err := coverage.ProjectOptions(c.Context, e.dir, coverage.WorkTree, "")
	if err != nil {
		return err
	}
	if d := trailers.Detect(e.agentEnv(), cfg.Trailers.Models); d != nil {
		fmt.Fprintf(e.stderr, "sentinel: %s, and an AI agent is running (%s, from %s): a person runs `sentinel accept` themselves\n", personOnly, d.Name, d.Source)
		return &policyError{"agent"}
	}
	if strings.TrimSpace(o.reason) == "" {
		fmt.Fprintf(e.stderr, "sentinel: %s, and it needs a reason: run `sentinel accept --reason \"why the tests went\"`\n", personOnly)
		return &policyError{"no reason"}
	}
	by, err := gitrepo.AuthorIdent(c.Context, opts.Dir)
	if err != nil {
		return err
	}
	res, err := coverage.Accept(c.Context, coverage.AcceptOptions{
		Dir: opts.Dir, Reason: o.reason, Languages: o.languages, By: by, Now: time.Now(), Excludes: opts.Excludes, Scopes: opts.Scopes,
		CacheDir: opts.CacheDir, Rev: o.rev, Harness: o.harness,
	})
	if errors.Is(err, coverage.ErrNothingToAccept) {
		fmt.Fprintf(e.stderr, "sentinel: %v; `sentinel status` shows the margins\n", err)
		return &policyError{"nothing to accept"}
	}
	if err != nil {
		return err
	}
	if len(res.Restaged) > 0 {
		for _, a := range res.Restaged {
			fmt.Fprintf(e.stdout, "staged the acceptance an interrupted accept wrote but did not stage: %s, by %s: %s\n", quote.Name(a.At), quote.Name(a.By), quote.Name(a.Reason))
		}
		fmt.Fprintf(e.stdout, "staged %s: commit it with the change\n", coverage.BaselinePath)
		signHint(e, cfg.Ratchet.Signers)
		return nil
	}
	rec := res.Recorded
	for k, figs := range rec.Lowered {
		for f, v := range figs {
			fmt.Fprintf(e.stdout, "lowered %s %s %d → %d\n", quote.Name(k), f, v[0], v[1])
		}
	}
	for _, t := range rec.Tests {
		fmt.Fprintf(e.stdout, "lets go %s %s (%s)\n", t.Language, quote.Name(t.Name), quote.Path(t.Path))
	}
	if rec.Harness {
		fmt.Fprintf(e.stdout, "accepts the change commit %s made to the runner's harness\n", gitrepo.ShortID(rec.Commit))
	}
	if rec.Commit != "" {
		fmt.Fprintf(e.stdout, "for commit %s, after the fact\n", gitrepo.ShortID(rec.Commit))
		fmt.Fprintf(e.stdout, "recorded by %s: %s\nstaged %s: commit it (`git commit -m \"Accept the tests %s lost\"`)\n", quote.Name(rec.By), quote.Name(rec.Reason), coverage.BaselinePath, gitrepo.ShortID(rec.Commit))
		signHint(e, cfg.Ratchet.Signers)
		return nil
	}
	fmt.Fprintf(e.stdout, "recorded by %s: %s\nstaged %s: commit it with the change\n", quote.Name(rec.By), quote.Name(rec.Reason), coverage.BaselinePath)
	signHint(e, cfg.Ratchet.Signers)
	return nil
}

// signHint reminds the person that, with [ratchet] signers, the commit
// must be signed: no hook can tell whether git will sign it, and the push
// would be refused.
func signHint(e *env, signers string) {
	if signers != "" {
		fmt.Fprintf(e.stdout, "sign the commit with a key that %s lists: `git commit -S` (with gpg.format=ssh and user.signingkey set)\n", quote.Path(signers))
	}
}
