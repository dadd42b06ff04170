// Package msghook holds the hooks that read and edit only the commit
// message: commit-msg, which enforces the attribution policy, and
// prepare-commit-msg. They link no counting engine, so that the binary that
// runs them on every commit starts as fast as a small C tool.
package msghook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/gitsentinel/sentinel/internal/atomicfile"
	"github.com/gitsentinel/sentinel/internal/quote"
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
	given := file
	if !filepath.IsAbs(file) {
		file = filepath.Join(dir, file)
	}
	msg, err := trailers.ReadMessageFile(file)
	var big *trailers.MessageTooLargeError
	if errors.As(err, &big) {
		// Refused unread: ci would refuse the commit for the same reason.
		fix := fmt.Sprintf("write a shorter message, and keep logs and data in files of the commit: git keeps the refused one in %[1]s; shorten it, then `git commit -F %[1]s`", quote.Path(given))
		return &CommitMsgResult{Report: trailers.TooLargeReport(file, big, fix)}, nil
	}
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
	if err := atomicfile.WriteTransient(file, out.Message, 0o666); err != nil {
		return nil, err
	}
	res.Edits = out.Edits
	return res, nil
}

// PrepareCommitMsg pre-fills the Assisted-by line when an agent is running,
// so that a person sees it in the editor. A message that is still empty
// gets a comment saying what the commit-msg hook will add instead: a real
// trailer would turn an aborted, empty commit into one titled by it. It
// returns what it did, or "" when it did nothing.
func PrepareCommitMsg(ctx context.Context, dir, file string, env trailers.Env) (string, error) {
	if !filepath.IsAbs(file) {
		file = filepath.Join(dir, file)
	}
	s, err := trailers.LoadSettings(ctx, dir)
	if err != nil {
		return "", err
	}
	d := s.Detect(env)
	if d == nil {
		return "", nil
	}
	msg, err := trailers.ReadMessageFile(file)
	var big *trailers.MessageTooLargeError
	if errors.As(err, &big) {
		// The commit-msg hook refuses it.
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read the commit message: %w", err)
	}
	value := d.Value(s.Config.Trailers.Format, s.Config.Trailers.Tools)
	did := "pre-filled Assisted-by: " + value
	out, changed, err := s.Syntax.AddDetected(msg, d, s.Config.Trailers.Format, s.Config.Trailers.Tools)
	switch {
	case errors.Is(err, trailers.ErrEmptyMessage):
		out, changed = announce(msg, s.Syntax.Comment, value)
		did = "announced Assisted-by: " + value + " in a comment; the commit-msg hook adds it"
	case err != nil:
		// The commit-msg hook reports what is wrong with the message.
		return "", nil
	}
	if !changed {
		return "", nil
	}
	if err := atomicfile.WriteTransient(file, out, 0o666); err != nil {
		return "", err
	}
	return did, nil
}

// announce puts a comment line saying what will be added above the first
// comment of an empty message.
func announce(msg []byte, comment, value string) ([]byte, bool) {
	line := []byte(comment + " sentinel: the commit-msg hook will add \"" + trailers.AssistedBy + ": " + value + "\"\n")
	if bytes.Contains(msg, line) {
		return msg, false
	}
	for i := 0; i < len(msg); {
		if bytes.HasPrefix(msg[i:], []byte(comment)) {
			out := append(append(append([]byte(nil), msg[:i]...), line...), msg[i:]...)
			return out, true
		}
		j := bytes.IndexByte(msg[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return msg, false
}
