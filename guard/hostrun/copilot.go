package hostrun

import (
	"encoding/json"
)

func init() { register(copilotCLI) }

// copilotCLI runs `copilot -p` against the fake Chat Completions API, as
// a custom model provider (COPILOT_PROVIDER_BASE_URL), which needs no
// GitHub sign-in; COPILOT_OFFLINE keeps it off the network otherwise. In
// prompt mode Copilot CLI loads a project's hooks (.github/hooks) only in
// a folder it trusts, and skips them silently elsewhere, --allow-all or
// not: once the guard is installed, the repository is trusted as a person
// trusts it, in ~/.copilot/config.json.
var copilotCLI = &Host{
	Package: "@github/copilot", Bin: "copilot", Agent: "copilot",
	Kinds: []Kind{Shell, Write, Read},
	// Verified live: a hook past its timeoutSec lets the call run; an
	// ask, headless, is a denial ("unable to ask user for confirmation").
	HangRuns: true,
	// GPT-5 models get apply_patch in place of create.
	Call: tools{shell: "bash", write: "create", read: "view", path: "path", content: "file_text", patch: "apply_patch",
		shellArgs: map[string]any{"description": "run it", "mode": "sync"}}.call,
	AfterInstall: func(s *Session) error {
		b, err := json.Marshal(map[string]any{"trustedFolders": []string{s.Repo}})
		if err != nil {
			return err
		}
		return s.WriteHome(".copilot/config.json", string(b)+"\n")
	},
	Start: func(s *Session) ([]string, []string, error) {
		return []string{"copilot", "-p", "Run the tool.", "--allow-all", "--no-auto-update", "--no-color", "--no-ask-user",
				"--no-custom-instructions", "--disable-builtin-mcps"},
			[]string{
				"COPILOT_PROVIDER_BASE_URL=" + s.URL + "/v1",
				"COPILOT_PROVIDER_TYPE=openai",
				"COPILOT_PROVIDER_API_KEY=sk-live-test",
				"COPILOT_MODEL=gpt-4.1",
				"COPILOT_OFFLINE=true",
				"COPILOT_AUTO_UPDATE=false",
			}, nil
	},
}
