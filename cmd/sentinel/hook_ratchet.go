//go:build !sentinel_front

package main

import (
	"fmt"
	"strings"

	"github.com/gitsentinel/sentinel/contain"
	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/githooks"
	"github.com/gitsentinel/sentinel/internal/agentmark"
	"github.com/gitsentinel/sentinel/internal/quote"
	"github.com/urfave/cli/v2"
)

// ratchetHook runs the hooks that count tests: pre-commit and pre-push.
func ratchetHook(c *cli.Context, e *env, o hookOptions) error {
	switch o.name {
	case "pre-commit":
		if e.mark != nil {
			// Inside sentinel run the baseline is read-only: the hook
			// asks the broker outside, which runs this same hook there.
			return brokeredPreCommit(c, e)
		}
		sweepTemps(c.Context, e.dir)
		res, err := githooks.PreCommit(c.Context, e.dir)
		if err != nil {
			return fmt.Errorf("pre-commit: %w", err)
		}
		warnUncountable(e, res)
		if len(res.Temps) > 0 {
			fmt.Fprintf(e.stderr, "sentinel: this commit adds temporary files that an interrupted sentinel left (they are gone from the work tree now):\n")
			for _, t := range res.Temps {
				fmt.Fprintf(e.stderr, "  %s\n", quote.Path(t))
			}
			fmt.Fprintf(e.stderr, "unstage them: run `git rm --cached --quiet -- %s`\n", strings.Join(shellQuoteAll(res.Temps), " "))
			return &policyError{"temporary files staged"}
		}
		if res.Deleted {
			fmt.Fprintf(e.stderr, "sentinel: this commit deletes %[1]s, which HEAD has; to stop using sentinel, run `sentinel uninstall` first; otherwise restore it: run `git checkout HEAD -- %[1]s`\n", coverage.BaselinePath)
			return &policyError{"baseline deleted"}
		}
		if len(res.Lowered) > 0 {
			fmt.Fprintf(e.stderr, "sentinel: the staged %s lowers peaks that HEAD holds, without `sentinel accept`:\n", coverage.BaselinePath)
			for _, l := range res.Lowered {
				fmt.Fprintf(e.stderr, "  %s %s %d → %d\n", quote.Name(l.Key), l.Figure, l.Before, l.After)
			}
			fmt.Fprintf(e.stderr, "restore HEAD's peaks: run `git checkout HEAD -- %s`; a removal you mean is then accepted with `sentinel accept --reason TEXT`\n", coverage.BaselinePath)
			return &policyError{"peak lowered by hand"}
		}
		if res.Check != nil && !res.Check.OK() {
			res.Check.Style, _ = e.styleFor(nil, e.stderr)
			if err := res.Check.WriteText(e.stderr); err != nil {
				return err
			}
			if len(res.Unstaged) > 0 {
				fmt.Fprintf(e.stderr, "the work tree's %[1]s holds %[2]d acceptance(s) that are not staged (an interrupted `sentinel accept`); stage them: run `git add %[1]s`\n", coverage.BaselinePath, len(res.Unstaged))
			}
			return &policyError{"below a peak"}
		}
		if res.Check == nil {
			return nil
		}
		if res.Raised {
			fmt.Fprintf(e.stderr, "sentinel: raised the peaks in %s and staged it with this commit\n", coverage.BaselinePath)
		}
		return nil
	case "pre-push":
		remote := "origin"
		if len(o.args) > 0 {
			remote = o.args[0]
		}
		failures, err := githooks.PrePush(c.Context, e.dir, remote, e.stdin)
		if err != nil {
			return fmt.Errorf("pre-push: %w", err)
		}
		for _, f := range failures {
			fmt.Fprintf(e.stderr, "sentinel: the push of %s to %s %s is refused:\n", quote.Name(f.LocalRef), quote.Name(remote), quote.Name(f.RemoteRef))
			f.Report.Style, _ = e.styleFor(nil, e.stderr)
			if err := f.Report.WriteText(e.stderr); err != nil {
				return err
			}
		}
		if len(failures) > 0 {
			return &policyError{"push refused"}
		}
		return nil
	}
	return &usageError{fmt.Errorf("unknown hook %q: sentinel handles %s", o.name, strings.Join(githooks.Names, ", "))}
}

// warnUncountable names the staged test files that cannot be counted, on
// stderr, whether or not the commit passes: their tests are not in the
// counts, and without a word the commit would pass in silence. A file a
// drop already puts down to its cause is not named twice.
func warnUncountable(e *env, res *githooks.PreCommitResult) {
	named := map[string]bool{}
	if res.Check != nil {
		for _, d := range res.Check.Drops {
			for _, u := range d.Uncounted {
				named[u.Path] = true
			}
		}
	}
	for _, sf := range res.Uncountable {
		if !named[sf.Path] {
			fmt.Fprintf(e.stderr, "sentinel: warning: %s is not counted (%s): the tests in it are not in the counts\n", quote.Path(sf.Path), sf.Reason)
		}
	}
}

// brokeredPreCommit has sentinel run's broker run the pre-commit hook
// outside the sandbox, and reports what it said. Without a broker the
// commit stops: the hook cannot raise a peak from inside.
func brokeredPreCommit(c *cli.Context, e *env) error {
	resp, err := contain.Ask(c.Context, agentmark.Socket, contain.Request{Op: contain.OpPreCommit, Index: e.getenv("GIT_INDEX_FILE")})
	if err != nil {
		return fmt.Errorf("pre-commit inside sentinel run: %w; the sandbox's parent is gone: restart the agent with `sentinel run -- COMMAND`", err)
	}
	fmt.Fprint(e.stdout, resp.Stdout)
	fmt.Fprint(e.stderr, resp.Stderr)
	if resp.Code != 0 {
		return &hostExit{code: resp.Code}
	}
	return nil
}
