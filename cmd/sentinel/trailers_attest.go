//go:build !sentinel_front

package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/gitsentinel/sentinel/config"
	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/quote"
	"github.com/gitsentinel/sentinel/trailers"
	"github.com/urfave/cli/v2"
)

// trailersAttestOptions are the flags and argument of `sentinel trailers attest`.
type trailersAttestOptions struct {
	rev, assistedBy, reason string
}

func trailersAttestCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "attest",
		Usage:     "record, after the fact, that a commit was made with an agent (the Assisted-by it lacks), in the baseline instead of a rewrite of history",
		ArgsUsage: "COMMIT",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "assisted-by", Usage: "the Assisted-by value the commit lacks: AGENT:MODEL (required)"},
			&cli.StringFlag{Name: "reason", Usage: "a note for the record"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 && strings.HasPrefix(c.Args().Get(1), "-") {
				return &usageError{fmt.Errorf("trailers attest: the flags come before COMMIT: sentinel trailers attest --assisted-by AGENT:MODEL COMMIT")}
			}
			if c.NArg() != 1 {
				return &usageError{fmt.Errorf("trailers attest takes one COMMIT, got %d arguments", c.NArg())}
			}
			if c.String("assisted-by") == "" {
				return &usageError{fmt.Errorf("trailers attest needs --assisted-by AGENT:MODEL")}
			}
			return runTrailersAttest(c, e, trailersAttestOptions{rev: c.Args().First(), assistedBy: c.String("assisted-by"), reason: c.String("reason")})
		},
	}
}

func runTrailersAttest(c *cli.Context, e *env, o trailersAttestOptions) error {
	root, err := gitrepo.FindRoot(c.Context, e.dir)
	if err != nil {
		return err
	}
	cfg, err := config.Load(root)
	if err != nil {
		return err
	}
	if d := trailers.Detect(e.agentEnv(), cfg.Trailers.Models); d != nil {
		fmt.Fprintf(e.stderr, "sentinel: attesting a commit's attribution is a person's word, and an AI agent is running (%s, from %s): a person runs `sentinel trailers attest` themselves\n", d.Name, d.Source)
		return &policyError{"agent"}
	}
	by, err := gitrepo.AuthorIdent(c.Context, root)
	if err != nil {
		return err
	}
	rec, err := coverage.Attest(c.Context, coverage.AttestOptions{Dir: root, Rev: o.rev, AssistedBy: o.assistedBy, Reason: o.reason, By: by, Now: time.Now()})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "attested commit %s as made with %s, by %s\nstaged %s: commit it (`git commit -m \"Attest the attribution of %s\"`)\n",
		gitrepo.ShortID(rec.Commit), quote.Name(rec.AssistedBy), quote.Name(rec.By), coverage.BaselinePath, gitrepo.ShortID(rec.Commit))
	signHint(e, cfg.Ratchet.Signers)
	return nil
}
