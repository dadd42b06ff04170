package contain

import (
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
}

// hostStates are the hosts' own state, by the agent's ID in trailers'
// table. A host's settings files that guard install writes stay read-only
// on top of its state (install.InstallPaths).
var hostStates = map[string]hostState{
	"claude":   {State: []string{".claude", ".claude.json", ".claude.json.backup"}, Credentials: []string{".claude/.credentials.json"}},
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
