package trailers

import (
	"context"
	"fmt"

	"github.com/gitsentinel/sentinel/gitrepo"
)

// CheckMessage applies the policy to one message and reports on it under
// the name source.
func (s *Settings) CheckMessage(source string, msg []byte, p Policy) (*Report, Outcome, error) {
	out, err := s.Syntax.Apply(msg, p)
	if err != nil {
		return nil, out, fmt.Errorf("%s:%w", source, err)
	}
	r := &Report{Checked: 1}
	if len(out.Violations) > 0 {
		r.Findings = append(r.Findings, Finding{Source: source, Violations: out.Violations})
	}
	return r, out, nil
}

// CheckRange applies the history policy to every commit of a range ("A..B"
// or a revision) of the repository at dir.
func (s *Settings) CheckRange(ctx context.Context, dir, spec string) (*Report, error) {
	commits, err := gitrepo.Range(ctx, dir, spec)
	if err != nil {
		return nil, err
	}
	return s.CheckCommits(commits)
}

// CheckCommits applies the history policy to commits that already exist.
func (s *Settings) CheckCommits(commits []gitrepo.Commit) (*Report, error) {
	p := s.HistoryPolicy()
	r := &Report{Checked: len(commits), Commits: true}
	for _, c := range commits {
		if c.Truncated() {
			// Only the title was read: what the policy looks for may be
			// in the rest.
			r.Findings = append(r.Findings, Finding{Source: c.Short(), Title: firstLine(c.Message), Violations: []Violation{commitTooLarge(c)}})
			continue
		}
		out, err := s.Syntax.Apply(c.Message, p)
		if err != nil {
			return nil, fmt.Errorf("commit %s: %w", c.Short(), err)
		}
		if len(out.Violations) > 0 {
			r.Findings = append(r.Findings, Finding{Source: c.Short(), Title: firstLine(c.Message), Violations: out.Violations})
		}
	}
	return r, nil
}
