package contain

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gitsentinel/sentinel/internal/agentmark"
	"github.com/gitsentinel/sentinel/trailers"
)

// hostState is what one agent host keeps in the home directory, as paths
// relative to it: State it must write to work (sessions, history, its own
// caches), Credentials its login (readable to it, hidden from every other
// host run under sentinel run).
type hostState struct {
	State       []string
	Credentials []string
	// Make are the state directories made before the sandbox starts when
	// missing: a directory that does not exist cannot be bound writable,
	// and the read-only home would keep the host from making it.
	Make []string
	// Prepare, when set, returns the environment the host runs with
	// inside and the state paths it adds, for a host whose own writes
	// the read-only home would break.
	Prepare func(home string, getenv func(string) string) (env, state []string, err error)
}

// hostStates are the hosts' own state, by the agent's ID in trailers'
// table. A host's settings files that guard install writes stay read-only
// on top of its state (install.InstallPaths).
var hostStates = map[string]hostState{
	"claude":   {State: []string{".claude", ".claude.json", ".claude.json.backup"}, Credentials: []string{".claude/.credentials.json"}, Make: []string{".claude"}, Prepare: prepareClaude},
	"codex":    {State: []string{".codex"}, Credentials: []string{".codex/auth.json"}},
	"gemini":   {State: []string{".gemini"}, Credentials: []string{".gemini/oauth_creds.json", ".gemini/google_accounts.json"}},
	"qwen":     {State: []string{".qwen"}, Credentials: []string{".qwen/oauth_creds.json"}},
	"cursor":   {State: []string{".cursor"}, Credentials: []string{".config/cursor/auth.json"}},
	"copilot":  {State: []string{".copilot"}, Credentials: []string{".copilot/config.json"}},
	"opencode": {State: []string{".local/share/opencode", ".local/state/opencode"}, Credentials: []string{".local/share/opencode/auth.json"}},
	"amp":      {State: []string{".config/amp", ".local/share/amp"}, Credentials: []string{".local/share/amp/secrets.json"}},
	"goose":    {State: []string{".config/goose", ".local/share/goose", ".local/state/goose"}},
	"factory":  {State: []string{".factory"}, Credentials: []string{".factory/auth.json"}},
	"kiro":     {State: []string{".kiro"}},
	"cline":    {State: []string{".cline"}},
	"augment":  {State: []string{".augment"}, Credentials: []string{".augment/session.json"}},
	// Kilo keeps OpenCode's layout under its own name (not verified live).
	"kilo": {State: []string{".local/share/kilo", ".local/state/kilo"}, Credentials: []string{".local/share/kilo/auth.json"}},
	"pi":   {State: []string{".pi/agent"}, Credentials: []string{".pi/agent/auth.json"}},
}

// prepareClaude keeps Claude Code's global state file in its state
// directory. Claude Code writes ~/.claude.json by making a temporary file
// and a lock beside it, in the home directory, and renaming the one over
// it; the home is read-only inside, so every write of it fails.
// CLAUDE_CONFIG_DIR moves that file into the directory (it reads
// $CLAUDE_CONFIG_DIR/.claude.json, and its settings, credentials and
// sessions from the directory as before): inside, it is ~/.claude, and
// the file is seeded from ~/.claude.json the first time. A
// CLAUDE_CONFIG_DIR of the user's own is kept, and is the state.
func prepareClaude(home string, getenv func(string) string) (env, state []string, err error) {
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		if !filepath.IsAbs(d) {
			return nil, nil, fmt.Errorf("CLAUDE_CONFIG_DIR is %q, not an absolute directory, so the sandbox cannot tell what Claude Code may write: set it to one, or unset it", d)
		}
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, nil, fmt.Errorf("make Claude Code's state directory: %w", err)
		}
		return nil, []string{d}, nil
	}
	dir := filepath.Join(home, ".claude")
	inside := filepath.Join(dir, ".claude.json")
	if _, err := os.Lstat(inside); errors.Is(err, fs.ErrNotExist) {
		if data, rerr := os.ReadFile(filepath.Join(home, ".claude.json")); rerr == nil {
			if werr := os.WriteFile(inside, data, 0o600); werr != nil {
				return nil, nil, fmt.Errorf("seed Claude Code's state inside the sandbox: %w", werr)
			}
		}
	}
	return []string{"CLAUDE_CONFIG_DIR=" + dir}, nil, nil
}

// markFor is the agent mark for a command line: the known agent its
// program runs and the model its options choose; "agent" for any other
// program, since whatever runs under sentinel run is taken for an agent.
// name, when set (`sentinel run --agent NAME[:MODEL]`), overrides it.
func markFor(argv []string, name string) (agentmark.Mark, *trailers.Agent) {
	a, model := trailers.CommandAgent(argv)
	if name != "" {
		n, m, _ := cutModel(name)
		if m != "" {
			model = m
		}
		if b := trailers.Lookup(n); b != nil {
			return agentmark.Mark{Agent: b.ID, Model: model}, b
		}
		return agentmark.Mark{Agent: n, Model: model}, nil
	}
	if a == nil {
		return agentmark.Mark{Agent: "agent"}, nil
	}
	return agentmark.Mark{Agent: a.ID, Model: model}, a
}

// cutModel splits NAME[:MODEL].
func cutModel(s string) (name, model string, ok bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == ':' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// otherCredentials are the credentials of every host but the one run.
func otherCredentials(home, id string) []string {
	var out []string
	for other, st := range hostStates {
		if other == id {
			continue
		}
		for _, c := range st.Credentials {
			out = append(out, filepath.Join(home, c))
		}
	}
	return out
}
