package trailers

import (
	"context"
	"errors"
	"fmt"

	"github.com/gitsentinel/sentinel/config"
	"github.com/gitsentinel/sentinel/gitrepo"
)

// Settings is everything the attribution layer reads from a repository: the
// work tree's root, the project configuration and git's trailer syntax.
type Settings struct {
	// Root is the work tree's root, or empty outside a repository.
	Root string
	// Config is the project configuration (defaults outside a repository).
	Config *config.Config
	// Syntax is how git finds trailers here.
	Syntax Syntax
}

// LoadSettings reads the settings for the repository containing dir.
// Outside a repository it returns the defaults and git's global syntax, as
// `git interpret-trailers` does.
func LoadSettings(ctx context.Context, dir string) (*Settings, error) {
	// git config is a process of its own and the slowest step of the
	// commit-msg hook; the project configuration is read meanwhile.
	type answer struct {
		entries []gitrepo.ConfigEntry
		err     error
	}
	ch := make(chan answer, 1)
	go func() {
		e, err := (&gitrepo.Git{Dir: dir}).SyntaxConfig(ctx)
		ch <- answer{e, err}
	}()
	s, err := LoadConfig(ctx, dir)
	a := <-ch
	if err != nil {
		return nil, err
	}
	if a.err != nil {
		return nil, fmt.Errorf("read git configuration: %w", a.err)
	}
	if s.Syntax, err = SyntaxFromConfig(a.entries); err != nil {
		return nil, fmt.Errorf("git configuration: %w", err)
	}
	return s, nil
}

// LoadConfig reads the root and the project configuration, without asking
// git for its trailer syntax.
func LoadConfig(ctx context.Context, dir string) (*Settings, error) {
	s := &Settings{Syntax: DefaultSyntax()}
	root, err := gitrepo.FindRoot(ctx, dir)
	switch {
	case errors.Is(err, gitrepo.ErrNotRepository), errors.Is(err, gitrepo.ErrNoWorkTree):
		// No work tree, no project configuration: the defaults.
		s.Config = config.Default()
		return s, nil
	case err != nil:
		return nil, err
	}
	s.Root = root
	if s.Config, err = config.Load(root); err != nil {
		return nil, err
	}
	return s, nil
}

// Policy returns the attribution policy for a new message written while the
// detected agent (nil for none) is running. fix turns an agent's
// Co-authored-by into Assisted-by whatever the configuration says.
//
// agent_coauthor = "rewrite" rewrites the line an agent writes out of
// habit (Claude Code ends its messages with one) while it commits. With no
// agent running, a person wrote the line: their message is not rewritten
// behind their back, it is refused with `sentinel trailers check --fix`
// named, which makes the same change when they ask for it.
func (s *Settings) Policy(detected *Detection, fix bool) Policy {
	t := s.Config.Trailers
	p := Policy{
		Detected: detected,
		Footer:   FooterMode(t.Footer),
		Coauthor: CoauthorMode(t.AgentCoauthor),
		Format:   t.Format,
		Tools:    t.Tools,
	}
	switch {
	case fix:
		p.Coauthor = CoauthorRewrite
	case detected == nil:
		p.Coauthor = CoauthorRefuse
	}
	return p
}

// HistoryPolicy returns the policy for commits that already exist: nothing
// can be rewritten, and an agent's hand without Assisted-by is refused.
func (s *Settings) HistoryPolicy() Policy {
	p := s.Policy(nil, false)
	p.Coauthor = CoauthorRefuse
	if p.Footer == FooterStrip {
		p.Footer = FooterKeep
	}
	p.RequireAssisted = true
	return p
}

// Detect finds the running agent with the configured models.
func (s *Settings) Detect(env Env) *Detection {
	return Detect(env, s.Config.Trailers.Models)
}
