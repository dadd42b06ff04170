package guard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gitsentinel/sentinel/config"
	"github.com/gobwas/glob"
)

// Policy is the configured rules: the project's deny and ask rules first
// (a project may only tighten the guard), then the user's own.
type Policy struct {
	rules []policyRule
	// Strict denies computed command names.
	Strict bool
	// Checker reviews what the rules let through; from the user's own
	// configuration only, since a repository must not make you run a
	// program.
	Checker *Checker
}

type policyRule struct {
	tool    string
	pattern *glob.Pattern
	verdict Verdict
	source  string
}

// UserConfigPath is the user's own configuration, the only place an allow
// rule can come from.
func UserConfigPath(getenv func(string) string) string {
	dir := getenv("XDG_CONFIG_HOME")
	if dir == "" {
		if home := getenv("HOME"); home != "" {
			dir = filepath.Join(home, ".config")
		}
	}
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "sentinel", "config.toml")
}

// LoadPolicy reads the user's configuration and the project's. A file that
// exists and does not parse is an error: the guard then denies everything,
// naming the file and line.
func LoadPolicy(userPath, projectRoot string) (*Policy, error) {
	p := &Policy{}
	if projectRoot != "" {
		cfg, err := readConfig(filepath.Join(projectRoot, filepath.FromSlash(config.File)))
		if err != nil {
			return nil, err
		}
		if cfg != nil {
			p.Strict = p.Strict || cfg.Guard.Strict
			if err := p.addRules(cfg.Guard.Rules, "project", false); err != nil {
				return nil, err
			}
		}
	}
	if userPath != "" {
		cfg, err := readConfig(userPath)
		if err != nil {
			return nil, err
		}
		if cfg != nil {
			p.Strict = p.Strict || cfg.Guard.Strict
			if err := p.addRules(cfg.Guard.Rules, "user", true); err != nil {
				return nil, err
			}
			if len(cfg.Guard.Checker) > 0 {
				timeout := 10 * time.Second
				if cfg.Guard.CheckerTimeout != "" {
					timeout, _ = time.ParseDuration(cfg.Guard.CheckerTimeout) // validated by config
				}
				p.Checker = &Checker{Argv: cfg.Guard.Checker, Timeout: timeout}
			}
		}
	}
	return p, nil
}

func readConfig(path string) (*config.Config, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return config.Parse(path, data)
}

func (p *Policy) addRules(rules []config.GuardRule, source string, mayAllow bool) error {
	for i, r := range rules {
		v := map[string]Verdict{"allow": Allow, "ask": Ask, "deny": Deny}[r.Verdict]
		if v == Allow && !mayAllow {
			continue // a repository cannot relax the guard
		}
		g, err := glob.Compile(r.Pattern)
		if err != nil {
			return fmt.Errorf("%s guard rule %d: pattern %q: %w", source, i+1, r.Pattern, err)
		}
		p.rules = append(p.rules, policyRule{tool: r.Tool, pattern: g, verdict: v, source: fmt.Sprintf("%s #%d %q", source, i+1, r.Pattern)})
	}
	return nil
}

// match returns the verdict of the first rule that matches, if any.
func (p *Policy) match(tool, subject string) (Verdict, string, bool) {
	if p == nil {
		return Allow, "", false
	}
	for _, r := range p.rules {
		if r.tool != "*" && r.tool != tool {
			continue
		}
		if r.pattern.Match(subject) {
			return r.verdict, r.source, true
		}
	}
	return Allow, "", false
}
