package githooks

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gitsentinel/sentinel/internal/atomicfile"
	"github.com/gitsentinel/sentinel/trailers"
)

// CommitMsgResult is what the commit-msg hook decided.
type CommitMsgResult struct {
	// Report holds the refusals, if any.
	Report *trailers.Report
	// Detected is the agent found in the environment or among the parent
	// processes, or nil.
	Detected *trailers.Detection
	// Edits describe the changes written to the message file.
	Edits []string
}

// CommitMsg is the commit-msg hook: it applies the attribution policy to
// the message file git passes, and when the policy passes writes the edits
// (Assisted-by for a detected agent, footer stripping, co-author rewriting)
// back atomically. A refused message is left exactly as it was.
func CommitMsg(ctx context.Context, dir, file string, env trailers.Env) (*CommitMsgResult, error) {
	if !filepath.IsAbs(file) {
		file = filepath.Join(dir, file)
	}
	msg, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read the commit message: %w", err)
	}
	s, err := trailers.LoadSettings(ctx, dir)
	if err != nil {
		return nil, err
	}
	d := s.Detect(env)
	report, out, err := s.CheckMessage(file, msg, s.Policy(d, false))
	if err != nil {
		return nil, err
	}
	res := &CommitMsgResult{Report: report, Detected: d}
	if !report.OK() || !out.Changed {
		return res, nil
	}
	if err := atomicfile.WriteTransient(file, out.Message, 0o644); err != nil {
		return nil, err
	}
	res.Edits = out.Edits
	return res, nil
}
