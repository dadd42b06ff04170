// Package policy reads the user's and the project's [guard] configuration
// into one Policy: the level (the higher wins), more secrets, the configured
// rules, the audit trail's mode, and the external checker, which only the
// user's own configuration can name. A repository is untrusted input: it
// can only tighten what the user configured.
package policy

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/gitsentinel/sentinel/config"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/shell"
	"github.com/gitsentinel/sentinel/guard/verdict"
	"github.com/gobwas/glob"
)

// Policy is the configured rules: the user's own, which decide in place of
// the built-in HIGH and MEDIUM rules, and the project's deny and ask rules,
// which can only make a verdict stricter (a repository is untrusted input).
type Policy struct {
	// user are the user's rules, first match wins; project are the
	// project's, the strictest match wins.
	user, project []policyRule
	// Level is the higher of the user's and the project's.
	Level verdict.Level
	// Secrets are the configured globs of more secret paths, the user's
	// and the project's.
	Secrets []string
	// CacheDirs are where the project's configuration puts the count
	// cache ([coverage] cache_dir), resolved: a forged entry there would
	// pass a commit whose tests are gone.
	CacheDirs []string
	// Log is what the audit trail records: "refusals", "all" or "off".
	Log string
	// Checker reviews what the rules let through; from the user's own
	// configuration only, since a repository must not make you run a
	// program.
	Checker *Checker
	// Expect are the agents whose guard sentinel doctor expects installed,
	// the user's and the project's together, sorted: each configuration
	// can only add to them.
	Expect []string
	// Contain runs each shell call the guard lets run, on a host that can
	// rewrite it, under `sentinel run --call`: on when either
	// configuration turns it on, since it only tightens.
	Contain bool
}

type policyRule struct {
	tool    string
	pattern *glob.Pattern
	verdict verdict.Verdict
	source  string
}

// maxConfig bounds a configuration file the guard reads.
const maxConfig = 1 << 20

// LoadPolicy reads the user's configuration and the project's. A file that
// exists and does not parse is an error: the guard then denies everything,
// naming the file and line. The project's file is content from someone
// else: it is read with a size bound, only as a regular file, and not
// through a symlink that leaves the project.
func LoadPolicy(userPath, projectRoot string) (*Policy, error) {
	p := &Policy{Log: "refusals"}
	if projectRoot != "" {
		cfg, err := readConfig(filepath.Join(projectRoot, filepath.FromSlash(config.File)), projectRoot)
		if err != nil {
			return nil, err
		}
		if cfg != nil {
			p.raise(cfg.Guard)
			if d := cfg.Coverage.CacheDir; d != "" {
				if !filepath.IsAbs(d) {
					d = filepath.Join(projectRoot, filepath.FromSlash(d))
				}
				p.CacheDirs = append(p.CacheDirs, filepath.Clean(d))
			}
			if err := p.addRules(cfg.Guard.Rules, "project", false); err != nil {
				return nil, err
			}
			if cfg.Guard.Log == "all" {
				p.Log = "all" // a project may ask for more, never for none
			}
		}
	}
	if userPath != "" {
		cfg, err := readConfig(userPath, "")
		if err != nil {
			return nil, err
		}
		if cfg != nil {
			p.raise(cfg.Guard)
			if err := p.addRules(cfg.Guard.Rules, "user", true); err != nil {
				return nil, err
			}
			if cfg.Guard.Log != "" && p.Log != "all" {
				p.Log = cfg.Guard.Log
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

// raise takes the higher level, and adds the secrets: each configuration
// can only tighten the guard.
func (p *Policy) raise(g config.Guard) {
	l := verdict.ParseLevel(g.Level)
	if g.Strict && l < verdict.Strict {
		l = verdict.Strict
	}
	if l > p.Level {
		p.Level = l
	}
	p.Secrets = append(p.Secrets, g.Secrets...)
	p.Contain = p.Contain || g.Contain
	for _, a := range g.Expect {
		if !slices.Contains(p.Expect, a) {
			p.Expect = append(p.Expect, a)
		}
	}
	slices.Sort(p.Expect)
}

// readConfig reads a configuration file, or nil when there is none. Within
// a project (root set) the file and the directory holding it must resolve
// inside the root: a committed symlink to /dev/zero or to a file elsewhere
// is refused, and so is anything but a regular file. The read is bounded.
func readConfig(path, root string) (*config.Config, error) {
	_, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var fi os.FileInfo
	if root != "" {
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		realRoot, _ := filepath.EvalSymlinks(root)
		if realRoot == "" {
			realRoot = root
		}
		if !shell.Within(real, realRoot) {
			return nil, fmt.Errorf("%s: a symlink out of the project (to %s); sentinel reads only the project's own file: replace it with a regular file", path, real)
		}
		if fi, err = os.Stat(real); err != nil {
			return nil, err
		}
	} else if fi, err = os.Stat(path); err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file; replace it with one", path)
	}
	if fi.Size() > maxConfig {
		return nil, fmt.Errorf("%s: larger than %d bytes; a configuration is smaller than that", path, maxConfig)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfig+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxConfig {
		return nil, fmt.Errorf("%s: larger than %d bytes; a configuration is smaller than that", path, maxConfig)
	}
	return config.Parse(path, data)
}

func (p *Policy) addRules(rules []config.GuardRule, source string, mayAllow bool) error {
	into := &p.project
	if mayAllow {
		into = &p.user
	}
	for i, r := range rules {
		v := map[string]verdict.Verdict{"allow": verdict.Allow, "ask": verdict.Ask, "deny": verdict.Deny}[r.Verdict]
		if v == verdict.Allow && !mayAllow {
			continue // a repository cannot relax the guard
		}
		g, err := glob.Compile(r.Pattern)
		if err != nil {
			return fmt.Errorf("%s guard rule %d: pattern %q: %w", source, i+1, r.Pattern, err)
		}
		*into = append(*into, policyRule{tool: r.Tool, pattern: g, verdict: v, source: fmt.Sprintf("%s #%d %q", source, i+1, r.Pattern)})
	}
	return nil
}

// Match returns the verdict of the user's first rule that matches, if any:
// the user's configuration is authoritative, and decides in place of the
// built-in HIGH and MEDIUM rules.
func (p *Policy) Match(tool, subject string) (verdict.Verdict, string, bool) {
	if p == nil {
		return verdict.Allow, "", false
	}
	for _, r := range p.user {
		if r.matches(tool, subject) {
			return r.verdict, r.source, true
		}
	}
	return verdict.Allow, "", false
}

// Tighten returns the strictest of the project's rules that match, if any.
// It is applied after everything else has decided, and only ever adds a
// refusal: a project's ask where the built-in rules deny stays a deny.
func (p *Policy) Tighten(tool, subject string) (verdict.Verdict, string, bool) {
	if p == nil {
		return verdict.Allow, "", false
	}
	best, source, ok := verdict.Allow, "", false
	for _, r := range p.project {
		if r.matches(tool, subject) && (!ok || r.verdict > best) {
			best, source, ok = r.verdict, r.source, true
		}
	}
	return best, source, ok
}

func (r policyRule) matches(tool, subject string) bool {
	return (r.tool == "*" || r.tool == tool) && r.pattern.Match(subject)
}

// LogMode is what the trail records under p: LogRefusals when p is nil (a
// configuration that does not parse is itself a denial worth recording).
// LoadPolicy lets a project raise it to "all" but never switch it off.
func (p *Policy) LogMode() string {
	if p == nil || p.Log == "" {
		return LogRefusals
	}
	return p.Log
}

// Configure adds what the configuration says to the environment of a call:
// the guard's level, more secret paths, the count cache's directory. A nil
// policy adds nothing.
func (p *Policy) Configure(e *pathguard.Env) {
	if p == nil {
		return
	}
	e.Level = max(e.Level, p.Level)
	e.Secrets = append(e.Secrets, p.Secrets...)
	e.CacheDirs = append(e.CacheDirs, p.CacheDirs...)
}

// What the audit trail records, the values of [guard] log.
const (
	// LogRefusals records denials, asks and warnings: the default.
	LogRefusals = "refusals"
	// LogAll records every decision, allows too.
	LogAll = "all"
	// LogOff records nothing; honoured in the user's own configuration only.
	LogOff = "off"
)
