package hostrun

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gitsentinel/sentinel/internal/fakemodel"
)

func init() { register(claudeCode, codex, geminiCLI, qwenCode, openCode) }

func one(name string, args map[string]any) []fakemodel.Call {
	return []fakemodel.Call{{Name: name, Args: args}}
}

// addPatch is an apply_patch patch that adds a file.
func addPatch(path, text string) string {
	var b strings.Builder
	b.WriteString("*** Begin Patch\n*** Add File: " + path + "\n")
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		b.WriteString("+" + line + "\n")
	}
	b.WriteString("*** End Patch\n")
	return b.String()
}

// claudeCode runs `claude -p` against the fake Anthropic API.
var claudeCode = &Host{
	Package: "@anthropic-ai/claude-code", Bin: "claude", Agent: "claude",
	Kinds: []Kind{Shell, Write, Read},
	Call: tools{shell: "Bash", write: "Write", read: "Read", path: "file_path", content: "content",
		shellArgs: map[string]any{"description": "run it"}}.call,
	Start: func(s *Session) ([]string, []string, error) {
		return []string{"claude", "-p", "Run the tool.", "--model", "claude-sonnet-4-5", "--permission-mode", "bypassPermissions"},
			[]string{
				"ANTHROPIC_BASE_URL=" + s.URL,
				"ANTHROPIC_API_KEY=sk-ant-live-test",
				// bypassPermissions as root needs it; the run has its own
				// directories.
				"IS_SANDBOX=1",
				"DISABLE_AUTOUPDATER=1",
				"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
				"DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
			}, nil
	},
}

// codex runs `codex exec` against the fake Responses API, as a provider
// of its own in a fresh CODEX_HOME. A project's .codex is read only in a
// trusted project, and a hook runs only once trusted: the config trusts
// the repository, and --dangerously-bypass-hook-trust stands for the
// person who trusts the hook in /hooks.
var codex = &Host{
	Package: "@openai/codex", Bin: "codex", Agent: "codex",
	// Verified live: a hook past its timeout is a non-blocking error.
	HangRuns: true,
	Kinds:    []Kind{Shell, Write},
	Call: func(k Kind, a Args) []fakemodel.Call {
		if k == Write {
			return []fakemodel.Call{{Name: "apply_patch", Input: addPatch(a.Path, a.Content)}}
		}
		return []fakemodel.Call{
			{Name: "exec_command", Args: map[string]any{"cmd": a.Command}},
			{Name: "shell_command", Args: map[string]any{"command": a.Command}},
			{Name: "shell", Args: map[string]any{"command": []string{"bash", "-lc", a.Command}}},
		}
	},
	Start: func(s *Session) ([]string, []string, error) {
		codexHome := filepath.Join(s.Home, ".codex")
		config := fmt.Sprintf(`model = "gpt-5.5"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = %q
env_key = "FAKE_MODEL_KEY"
wire_api = "responses"

[projects.%q]
trust_level = "trusted"
`, s.URL+"/v1", s.Repo)
		if err := os.MkdirAll(codexHome, 0o755); err != nil {
			return nil, nil, err
		}
		if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(config), 0o644); err != nil {
			return nil, nil, err
		}
		argv := []string{"codex", "exec", "--skip-git-repo-check", "--color", "never"}
		if s.Guarded {
			argv = append(argv, "--dangerously-bypass-hook-trust")
		}
		return append(argv, "Run the tool."), []string{"CODEX_HOME=" + codexHome, "FAKE_MODEL_KEY=sk-live-test"}, nil
	},
}

// EnvWrite is the write call's file for hosts that refuse writes into
// .git themselves.
const EnvWrite = ".env.local"

// geminiCLI runs `gemini -p` against the fake Gemini API, through its
// gateway setting (GOOGLE_GEMINI_BASE_URL).
var geminiCLI = &Host{
	Package: "@google/gemini-cli", Bin: "gemini", Agent: "gemini",
	HangRuns: true,
	// Gemini CLI's file tools refuse a path in .git, and a read of .env,
	// themselves, before any hook ("Path not in workspace"): the write
	// goes to a credentials file the tools accept, and the read is the
	// host's own refusal.
	Kinds:   []Kind{Shell, Write},
	WriteTo: EnvWrite,
	Call: tools{shell: "run_shell_command", write: "write_file", read: "read_file", path: "file_path", content: "content",
		shellArgs: map[string]any{"description": "run it"}}.call,
	Start: func(s *Session) ([]string, []string, error) {
		// With GOOGLE_GEMINI_BASE_URL alone, 0.61.0 picks its "gateway"
		// auth, which its own check then calls invalid: the API key's
		// auth, chosen in the user's settings, takes the base URL too.
		if err := s.WriteHome(".gemini/settings.json", `{"security":{"auth":{"selectedType":"gemini-api-key"}},"privacy":{"usageStatisticsEnabled":false}}`); err != nil {
			return nil, nil, err
		}
		return []string{"gemini", "-p", "Run the tool.", "-m", "gemini-2.5-pro", "--yolo"}, []string{
			"GOOGLE_GEMINI_BASE_URL=" + s.URL,
			"GEMINI_API_KEY=live-test-key",
			"GEMINI_CLI_TRUST_WORKSPACE=true",
		}, nil
	},
}

// qwenCode runs `qwen -p` against the fake Chat Completions API, with
// its OpenAI-compatible auth.
var qwenCode = &Host{
	Package: "@qwen-code/qwen-code", Bin: "qwen", Agent: "qwen",
	HangRuns: true,
	Kinds:    []Kind{Shell, Write, Read},
	Call: tools{shell: "run_shell_command", write: "write_file", read: "read_file", path: "file_path", content: "content",
		shellArgs: map[string]any{"description": "run it", "is_background": false}}.call,
	Start: func(s *Session) ([]string, []string, error) {
		return []string{"qwen", "-p", "Run the tool.", "--auth-type", "openai", "-m", "qwen3-coder-plus", "--yolo"}, []string{
			"OPENAI_BASE_URL=" + s.URL + "/v1",
			"OPENAI_API_KEY=sk-live-test",
			"OPENAI_MODEL=qwen3-coder-plus",
		}, nil
	},
}

// openCode runs `opencode run` against the fake Chat Completions API, as
// an OpenAI-compatible provider of the user's configuration; the guard is
// sentinel's plugin in .opencode/plugins.
var openCode = &Host{
	Package: "opencode-ai", Bin: "opencode", Agent: "opencode",
	Kinds: []Kind{Shell, Write, Read},
	// OpenCode installs a project's plugin dependencies at start-up,
	// from the registry: 15 to 30 s a run on an idle machine, past 90 s
	// on a busy one.
	Timeout: 150 * time.Second,
	Call: tools{shell: "bash", write: "write", read: "read", path: "filePath", content: "content",
		shellArgs: map[string]any{"description": "run it"}}.call,
	Start: func(s *Session) ([]string, []string, error) {
		if err := s.WriteHome(".config/opencode/opencode.json", openCodeConfig(s.URL)); err != nil {
			return nil, nil, err
		}
		return []string{"opencode", "run", "-m", "fake/fake-model", "Run the tool."}, []string{
			"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1",
		}, nil
	},
}

// openCodeConfig is the user configuration of OpenCode, and of Kilo Code
// which keeps its format, that makes the fake model at url a provider of
// its own, allows every tool, and turns updates and sharing off.
func openCodeConfig(url string) string {
	return fmt.Sprintf(`{
  "provider": {"fake": {"npm": "@ai-sdk/openai-compatible", "name": "fake",
    "options": {"baseURL": %q, "apiKey": "sk-live-test"},
    "models": {"fake-model": {"name": "fake-model", "tool_call": true}}}},
  "model": "fake/fake-model",
  "permission": {"bash": "allow", "edit": "allow", "read": "allow", "external_directory": "allow"},
  "autoupdate": false, "share": "disabled"
}`, url+"/v1")
}
