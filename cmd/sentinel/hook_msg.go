package main

import (
	"context"
	"fmt"

	"github.com/gitsentinel/sentinel/githooks/msghook"
	"github.com/gitsentinel/sentinel/internal/quote"
)

// hookOptions are the arguments git passes to a hook.
type hookOptions struct {
	name string
	args []string
}

// messageHook runs the hooks that read and edit only the message; handled
// is false for any other hook.
func messageHook(ctx context.Context, e *env, o hookOptions) (handled bool, err error) {
	switch o.name {
	case "commit-msg":
		if len(o.args) != 1 {
			return true, &usageError{fmt.Errorf("commit-msg takes the message file, as git passes it")}
		}
		res, err := msghook.CommitMsg(ctx, e.dir, o.args[0], e.agentEnv())
		if err != nil {
			return true, fmt.Errorf("commit-msg: %w", err)
		}
		if !res.Report.OK() {
			if err := res.Report.WriteText(e.stderr); err != nil {
				return true, err
			}
			return true, &policyError{"commit message refused"}
		}
		for _, ed := range res.Edits {
			fmt.Fprintf(e.stderr, "sentinel: %s\n", quote.Text(ed))
		}
		return true, nil
	case "prepare-commit-msg":
		if len(o.args) < 1 || len(o.args) > 3 {
			return true, &usageError{fmt.Errorf("prepare-commit-msg takes the message file, and the source and commit git may pass")}
		}
		did, err := msghook.PrepareCommitMsg(ctx, e.dir, o.args[0], e.agentEnv())
		if err != nil {
			return true, fmt.Errorf("prepare-commit-msg: %w", err)
		}
		if did != "" {
			fmt.Fprintf(e.stderr, "sentinel: %s\n", did)
		}
		return true, nil
	}
	return false, nil
}
