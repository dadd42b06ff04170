package hostrun

import (
	"fmt"
	"time"
)

func init() { register(factoryDroid) }

// factoryDroid runs `droid exec` against the fake Anthropic API, as a
// custom model of the user's settings (Droid's "bring your own key"): a
// custom model needs no Factory account, and exec mode runs a project's
// hooks without the folder trust the interactive TUI asks for first (the
// TUI itself will not start without a Factory login).
var factoryDroid = &Host{
	Package: "@factory/cli-linux-x64", Exe: "@factory/cli-linux-x64/bin/droid", Bin: "droid", Agent: "factory",
	Kinds: []Kind{Shell, Write, Read},
	// Verified live: Droid runs the call when its hook outlives the
	// timeout (it reads the kill as exit status 1, a warning).
	HangRuns: true,
	// Droid masks what looks like a secret in what Read returns (the
	// .env's value comes back as asterisks), so a read that ran shows as
	// the file's text around it.
	ReadShows: "API_TOKEN=",
	// A run takes 7 to 9 s on an idle machine.
	Timeout: 150 * time.Second,
	// Droid offers ApplyPatch in place of Create and Edit to an OpenAI
	// model; Execute refuses a call without its risk parameters, before
	// any hook.
	Call: tools{shell: "Execute", write: "Create", read: "Read", path: "file_path", content: "content", patch: "ApplyPatch",
		shellArgs: map[string]any{"summary": "Run the scripted command", "riskLevelReason": "The test asks for it.", "riskLevel": "low"}}.call,
	Start: func(s *Session) ([]string, []string, error) {
		return DroidStart(s, "anthropic", "claude-sonnet-4-5", s.URL)
	},
}

// DroidStart writes Droid's user settings with one custom model, of a
// provider ("anthropic", "openai", "generic-chat-completion-api") at
// baseURL, and returns the command line that runs it in exec mode with
// every permission granted.
func DroidStart(s *Session, provider, model, baseURL string) ([]string, []string, error) {
	err := s.WriteHome(".factory/settings.json", fmt.Sprintf(`{
  "customModels": [{"model": %q, "displayName": "Fake", "provider": %q,
    "baseUrl": %q, "apiKey": "sk-live-test"}]
}`, model, provider, baseURL))
	return []string{"droid", "exec", "--skip-permissions-unsafe", "-m", "custom:" + model, "Run the tool."},
		[]string{"FACTORY_DROID_AUTO_UPDATE_ENABLED=false"}, err
}
