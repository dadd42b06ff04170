// Package config reads sentinel's project configuration,
// .sentinel/config.toml, strictly: an unknown key or a bad value is an error
// that names the file, line and column.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gitsentinel/sentinel/internal/atomicfile"
	"github.com/gitsentinel/sentinel/internal/suggest"
	"github.com/pelletier/go-toml/v2"
)

// Dir is the directory, relative to the work tree's root, that holds the
// files sentinel owns.
const Dir = ".sentinel"

// File is the project configuration's path relative to the work tree's root.
const File = Dir + "/config.toml"

// Config is the project configuration.
type Config struct {
	// Trailers configures attribution.
	Trailers Trailers `toml:"trailers"`
	// Coverage configures counting.
	Coverage Coverage `toml:"coverage"`
	// Hooks configures the git hook scripts.
	Hooks Hooks `toml:"hooks"`
	// Ratchet configures the baseline of peaks.
	Ratchet Ratchet `toml:"ratchet"`
	// Guard configures the pre-tool guard for coding agents.
	Guard Guard `toml:"guard"`
	// CI configures what sentinel ci and the pre-push hook judge.
	CI CI `toml:"ci"`
	// Run configures the sandbox of sentinel run.
	Run Run `toml:"run"`
}

// Run is the [run] table: what the sandbox of `sentinel run` makes
// writable, hides or reveals beyond its own lists. A repository is
// untrusted input, so only the user's own configuration may widen the
// sandbox (writable, reveal); a project's may only hide more.
type Run struct {
	// Writable are more paths the contained agent may write (a ~ at the
	// start is the home directory), beside the work tree, /tmp, the host's
	// own state and the caches.
	Writable []string `toml:"writable"`
	// Hide are more paths the agent must not read: files read as empty,
	// directories as empty. A relative path is the work tree's.
	Hide []string `toml:"hide"`
	// Reveal are secrets of the built-in list the agent may read after all
	// (".env" for an app whose tests read it). Never a protected path.
	Reveal []string `toml:"reveal"`
	// SearchEnv, when false, stops the search of the work tree for .env
	// files at each start (on by default), for a tree too large to search;
	// its secrets are then listed under hide. Honoured in the user's own
	// configuration only.
	SearchEnv *bool `toml:"search_env"`
}

// CI is the [ci] table.
type CI struct {
	// Since is the commit enforcement starts from, as sentinel init
	// records it: sentinel ci and the pre-push hook judge only the commits
	// after it, and a repository's history before its adoption is never
	// held to rules it did not have. Empty judges every commit.
	Since string `toml:"since"`
}

// Guard is the [guard] table.
type Guard struct {
	// Strict is the older spelling of level = "strict".
	Strict bool `toml:"strict"`
	// Level is "standard" (the default), "strict" (deny what standard asks
	// about) or "paranoid" (strict, and ask about interpreter one-liners
	// and recursive removal inside the project). A project may only raise
	// the user's level.
	Level string `toml:"level"`
	// Log is what the audit trail records: "refusals" (the default: denials
	// and asks), "all", or "off" (honoured in the user's own configuration
	// only).
	Log string `toml:"log"`
	// Secrets are more path globs whose contents the guard keeps from the
	// agent, beside the built-in ones (.env, keys, credential files).
	Secrets []string `toml:"secrets"`
	// Rules are checked in order after the CRITICAL hardstops; the first
	// that matches decides.
	Rules []GuardRule `toml:"rules"`
	// Checker is a program (argv) that reviews each tool call the rules
	// did not deny; honoured in the user's own configuration only.
	Checker []string `toml:"checker"`
	// CheckerTimeout bounds the checker ("10s" by default).
	CheckerTimeout string `toml:"checker_timeout"`
	// Expect names the agents whose guard sentinel doctor expects to find
	// installed: each one it does not find is a gap (exit status 1), where
	// otherwise an agent's settings directory without the guard is only
	// advice. Each name is one of GuardAgents.
	Expect []string `toml:"expect"`
	// Contain has the guard answer an allowed shell call, on a host that
	// can rewrite one, by running it under `sentinel run --call`. A
	// project may turn it on, never off: it only tightens.
	Contain bool `toml:"contain"`
}

// GuardAgents are the agents `sentinel guard install --agent NAME` knows,
// the names [guard] expect takes. guard/install's targets are the source;
// its test keeps this list equal to them (config sits below the guard and
// does not import it).
var GuardAgents = []string{"amp", "augment", "claude", "cline", "codex", "copilot", "cursor", "factory", "gemini", "goose", "kilo", "kiro", "opencode", "pi", "qwen", "windsurf"}

// GuardRule is one [[guard.rules]] entry.
type GuardRule struct {
	// Tool is bash, write, edit or *.
	Tool string `toml:"tool"`
	// Pattern is a glob over the normalised command or the path.
	Pattern string `toml:"pattern"`
	// Verdict is allow, ask or deny.
	Verdict string `toml:"verdict"`
}

// Ratchet is the [ratchet] table.
type Ratchet struct {
	// AutoRaise makes the pre-commit hook raise the peaks a commit earns
	// and stage the baseline with it.
	AutoRaise bool `toml:"auto_raise"`
	// Signers is the path, relative to the work tree's root, of a file in
	// git's ssh allowed_signers format: when set, a commit that adds an
	// acceptance or lowers a peak counts only when one of its keys signed
	// it. Empty (the default) asks for no signature.
	Signers string `toml:"signers"`
	// Harness is what a change to the runner's harness (conftest.py, a
	// Jest config, a TestMain, the CI workflow) made by an agent needs:
	// "report" (the default) names it in sentinel ci's summary; "person"
	// also refuses it until a person accepts it (accept --rev C
	// --harness). The commit's parent's setting, or the range's base's
	// when stricter, decides, so a change cannot relax its own rule.
	Harness string `toml:"harness"`
}

// The values of [ratchet] harness.
const (
	HarnessReport = "report"
	HarnessPerson = "person"
)

// Hooks is the [hooks] table.
type Hooks struct {
	// FailOpen lets a hook script pass when it cannot find the sentinel
	// binary; by default it fails, because a guard that silently
	// disappears is worse than none.
	FailOpen bool `toml:"fail_open"`
}

// Coverage is the [coverage] table.
type Coverage struct {
	// Exclude lists path patterns never counted, beside the defaults
	// (vendor/**, node_modules/**, third_party/**, **/testdata/**).
	Exclude []string `toml:"exclude"`
	// Scope splits the peaks of a monorepo by part, so that growth in one
	// part cannot hide a loss in another.
	Scope []Scope `toml:"scope"`
	// CacheDir is read, so that configurations that set it still load,
	// and ignored: where the cache lives comes from the user
	// (SENTINEL_CACHE_DIR), never from the repository, whose committed
	// path could point a write anywhere or CI at forged counts. The guard
	// still protects a directory named here.
	CacheDir string `toml:"cache_dir"`
}

// Scope is one [[coverage.scope]]: a name and the paths it covers.
type Scope struct {
	// Name prefixes the scope's rows ("api" makes "api/go").
	Name string `toml:"name"`
	// Paths are globs over slash paths ("services/api/**"); a file belongs
	// to the first scope that matches it.
	Paths []string `toml:"paths"`
}

// Trailers is the [trailers] table.
type Trailers struct {
	// Format renders the Assisted-by value from {agent}, {model} and {tools}.
	Format string `toml:"format"`
	// Tools are appended to the Assisted-by value, as the kernel's
	// "[TOOL1] [TOOL2]".
	Tools []string `toml:"tools"`
	// Models maps an agent ID to the model to record when the agent does
	// not expose one in its environment.
	Models map[string]string `toml:"models"`
	// AgentCoauthor is "rewrite" (the default) or "refuse": what happens to
	// a Co-authored-by that names an agent, written while that agent
	// commits. A person's own such line is refused either way, with the
	// fix named.
	AgentCoauthor string `toml:"agent_coauthor"`
	// Footer is "keep", "strip" or "refuse": what happens to agent footer
	// lines.
	Footer string `toml:"footer"`
}

// Default returns the configuration used when the file is absent; every
// field holds its default.
func Default() *Config {
	return &Config{Ratchet: Ratchet{AutoRaise: true}, Trailers: Trailers{
		Format:        "{agent}:{model}",
		Models:        map[string]string{},
		AgentCoauthor: "rewrite",
		Footer:        "keep",
	}}
}

// MaxSize bounds a read of the configuration; no real one comes near it.
const MaxSize = 1 << 20

// Load reads the project configuration of the work tree at root. A missing
// file yields the defaults.
func Load(root string) (*Config, error) {
	path := filepath.Join(root, filepath.FromSlash(File))
	data, err := atomicfile.ReadIn(root, File, MaxSize)
	if errors.Is(err, fs.ErrNotExist) {
		return Default(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	return Parse(path, data)
}

// Parse decodes configuration data; name is used in error messages.
func Parse(name string, data []byte) (*Config, error) {
	c := Default()
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(c); err != nil {
		var sm *toml.StrictMissingError
		if errors.As(err, &sm) && len(sm.Errors) > 0 {
			e := sm.Errors[0]
			row, col := e.Position()
			return nil, &KeyError{File: name, Line: row, Col: col, Key: e.Key()}
		}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			if want := expected(de.Key()); want != "" && strings.Contains(de.Error(), "cannot decode") {
				return nil, fmt.Errorf("%s:%d:%d: %s must be %s", name, row, col, strings.Join(de.Key(), "."), want)
			}
			return nil, fmt.Errorf("%s:%d:%d: %s", name, row, col, de.Error())
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := c.validate(name, data); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Config) validate(name string, data []byte) error {
	t := &c.Trailers
	bad := func(key, msg string) error {
		line, col := keyPosition(data, "trailers", key)
		return fmt.Errorf("%s:%d:%d: trailers.%s: %s", name, line, col, key, msg)
	}
	switch t.Footer {
	case "keep", "strip", "refuse":
	default:
		return bad("footer", fmt.Sprintf("%q is not one of keep, strip, refuse", t.Footer))
	}
	switch t.AgentCoauthor {
	case "refuse", "rewrite":
	default:
		return bad("agent_coauthor", fmt.Sprintf("%q is not one of refuse, rewrite", t.AgentCoauthor))
	}
	// A trailer value is written into every commit and printed on the
	// terminal: a control character there (an escape sequence, OSC 52 that
	// writes the clipboard) is refused, not carried.
	if strings.TrimSpace(t.Format) == "" || strings.ContainsAny(t.Format, "\r\n") {
		return bad("format", "must be one non-empty line")
	}
	if hasControl(t.Format) {
		return bad("format", "holds a control character; write it in plain text")
	}
	for _, tool := range t.Tools {
		if strings.ContainsAny(tool, "\r\n") {
			return bad("tools", "a tool name must be one line")
		}
		if hasControl(tool) {
			return bad("tools", "a tool name holds a control character; write it in plain text")
		}
	}
	for agent, model := range t.Models {
		if hasControl(agent) || hasControl(model) {
			return bad("models", "a model holds a control character; write it in plain text")
		}
	}
	if err := CheckSince(c.CI.Since); err != nil {
		line, col := keyPosition(data, "ci", "since")
		return fmt.Errorf("%s:%d:%d: ci.since: %w", name, line, col, err)
	}
	for _, e := range c.Coverage.Exclude {
		if strings.TrimSpace(e) == "" || strings.ContainsAny(e, "\r\n") {
			line, col := keyPosition(data, "coverage", "exclude")
			return fmt.Errorf("%s:%d:%d: coverage.exclude: a pattern must be one non-empty line", name, line, col)
		}
	}
	if c.Guard.CheckerTimeout != "" {
		if d, err := time.ParseDuration(c.Guard.CheckerTimeout); err != nil || d <= 0 {
			line, col := keyPosition(data, "guard", "checker_timeout")
			return fmt.Errorf("%s:%d:%d: guard.checker_timeout: %q is not a duration like \"10s\"", name, line, col, c.Guard.CheckerTimeout)
		}
	}
	switch c.Guard.Level {
	case "", "standard", "strict", "paranoid":
	default:
		line, col := keyPosition(data, "guard", "level")
		return fmt.Errorf("%s:%d:%d: guard.level: %q is not one of standard, strict, paranoid", name, line, col, c.Guard.Level)
	}
	switch c.Guard.Log {
	case "", "refusals", "all", "off":
	default:
		line, col := keyPosition(data, "guard", "log")
		return fmt.Errorf("%s:%d:%d: guard.log: %q is not one of refusals, all, off", name, line, col, c.Guard.Log)
	}
	for _, g := range c.Guard.Secrets {
		if strings.TrimSpace(g) == "" || strings.ContainsAny(g, "\r\n") {
			line, col := keyPosition(data, "guard", "secrets")
			return fmt.Errorf("%s:%d:%d: guard.secrets: a pattern must be one non-empty line", name, line, col)
		}
	}
	if err := checkExpect(c.Guard.Expect); err != nil {
		line, col := keyPosition(data, "guard", "expect")
		return fmt.Errorf("%s:%d:%d: guard.expect: %w", name, line, col, err)
	}
	// The position is looked up only for the rule that is wrong: looking it
	// up for every rule made a long list quadratic.
	for i, r := range c.Guard.Rules {
		var msg string
		switch {
		case r.Tool != "bash" && r.Tool != "write" && r.Tool != "edit" && r.Tool != "read" && r.Tool != "*":
			msg = fmt.Sprintf("tool %q is not one of bash, write, edit, read, *", r.Tool)
		case r.Verdict != "allow" && r.Verdict != "ask" && r.Verdict != "deny":
			msg = fmt.Sprintf("verdict %q is not one of allow, ask, deny", r.Verdict)
		case strings.TrimSpace(r.Pattern) == "":
			msg = "the pattern is empty"
		default:
			continue
		}
		line, col := keyPosition(data, "guard.rules", "pattern")
		return fmt.Errorf("%s:%d:%d: guard.rules[%d]: %s", name, line, col, i, msg)
	}
	seen := map[string]bool{}
	for _, sc := range c.Coverage.Scope {
		line, col := keyPosition(data, "coverage.scope", "name")
		switch {
		case sc.Name == "" || strings.ContainsAny(sc.Name, "/ \t\r\n"):
			return fmt.Errorf("%s:%d:%d: coverage.scope: name %q must be one word without a slash", name, line, col, sc.Name)
		case seen[sc.Name]:
			return fmt.Errorf("%s:%d:%d: coverage.scope: name %q is used twice", name, line, col, sc.Name)
		case len(sc.Paths) == 0:
			return fmt.Errorf("%s:%d:%d: coverage.scope %q: paths is empty", name, line, col, sc.Name)
		}
		seen[sc.Name] = true
	}
	if h := c.Ratchet.Harness; h != "" && h != HarnessReport && h != HarnessPerson {
		return fmt.Errorf("%s: ratchet.harness is %q; it is \"report\" or \"person\"", name, h)
	}
	if err := CheckSignersPath(c.Ratchet.Signers); err != nil {
		line, col := keyPosition(data, "ratchet", "signers")
		return fmt.Errorf("%s:%d:%d: ratchet.signers: %w", name, line, col, err)
	}
	for id, m := range t.Models {
		if strings.ContainsAny(m, "\r\n") {
			return bad("models", fmt.Sprintf("the model for %s must be one line", id))
		}
	}
	return nil
}

// tableHeader is compiled on first use: it only serves error messages, and
// every hook run would pay for compiling it at start-up.
var tableHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*\[\s*([A-Za-z0-9_.\-]+)\s*\]`)
})

// keyPosition finds the line and column of key in table, for messages about
// values that decode fine but mean nothing; 1:1 when it cannot tell.
func keyPosition(data []byte, table, key string) (int, int) {
	current := ""
	keyRe := regexp.MustCompile(`^(\s*)` + regexp.QuoteMeta(key) + `\s*=`)
	for i, line := range strings.Split(string(data), "\n") {
		if m := tableHeader().FindStringSubmatch(line); m != nil {
			current = m[1]
			continue
		}
		if m := keyRe.FindStringSubmatch(line); m != nil && (current == table || strings.HasPrefix(current, table+".")) {
			return i + 1, len(m[1]) + 1
		}
	}
	return 1, 1
}

// checkExpect refuses a [guard] expect entry that names no agent guard
// install knows, or one named twice: a typo would leave doctor expecting
// an agent that cannot be installed, and never the one meant.
func checkExpect(names []string) error {
	seen := map[string]bool{}
	for _, n := range names {
		switch {
		case !slices.Contains(GuardAgents, n):
			return fmt.Errorf("%q is not an agent sentinel guard install knows%s; it knows %s", n, suggest.DidYouMean(n, GuardAgents, nil), strings.Join(GuardAgents, ", "))
		case seen[n]:
			return fmt.Errorf("%q is named twice", n)
		}
		seen[n] = true
	}
	return nil
}

// hasControl reports a control character (C0, DEL or C1) in s.
func hasControl(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 }) >= 0
}
