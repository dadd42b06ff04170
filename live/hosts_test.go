package live_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gitsentinel/sentinel/internal/fakemodel"
)

// claudeCode runs `claude -p` against the fake Anthropic API.
var claudeCode = &host{
	pkg: "@anthropic-ai/claude-code", bin: "claude", agent: "claude",
	kinds: []kind{shell, write, read},
	call: func(k kind, a callArgs) []fakemodel.Call {
		switch k {
		case write:
			return one("Write", map[string]any{"file_path": a.Path, "content": a.Content})
		case read:
			return one("Read", map[string]any{"file_path": a.Path})
		}
		return one("Bash", map[string]any{"command": a.Command, "description": "run it"})
	},
	start: func(p *phase) ([]string, []string) {
		return []string{"claude", "-p", "Run the tool.", "--model", "claude-sonnet-4-5", "--permission-mode", "bypassPermissions"},
			[]string{
				"ANTHROPIC_BASE_URL=" + p.url,
				"ANTHROPIC_API_KEY=sk-ant-live-test",
				// bypassPermissions as root needs it; the test runs in its own directories.
				"IS_SANDBOX=1",
				"DISABLE_AUTOUPDATER=1",
				"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
				"DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
			}
	},
}

func TestLiveClaudeCode(t *testing.T) { liveHost(t, claudeCode) }

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

// codex runs `codex exec` against the fake Responses API, as a provider
// of its own in a fresh CODEX_HOME. A project's .codex is read only in a
// trusted project, and a hook runs only once trusted: the config trusts
// the repository, and --dangerously-bypass-hook-trust stands for the
// person who trusts the hook in /hooks.
var codex = &host{
	pkg: "@openai/codex", bin: "codex", agent: "codex",
	// Verified live: a hook past its timeout is a non-blocking error.
	hangRuns: true,
	kinds:    []kind{shell, write},
	call: func(k kind, a callArgs) []fakemodel.Call {
		if k == write {
			patch := addPatch(a.Path, a.Content)
			return []fakemodel.Call{{Name: "apply_patch", Input: patch}}
		}
		return []fakemodel.Call{
			{Name: "exec_command", Args: map[string]any{"cmd": a.Command}},
			{Name: "shell_command", Args: map[string]any{"command": a.Command}},
			{Name: "shell", Args: map[string]any{"command": []string{"bash", "-lc", a.Command}}},
		}
	},
	start: func(p *phase) ([]string, []string) {
		codexHome := filepath.Join(p.home, ".codex")
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
`, p.url+"/v1", p.repo)
		if err := os.MkdirAll(codexHome, 0o755); err != nil {
			p.t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(config), 0o644); err != nil {
			p.t.Fatal(err)
		}
		argv := []string{"codex", "exec", "--skip-git-repo-check", "--color", "never"}
		if p.guard {
			argv = append(argv, "--dangerously-bypass-hook-trust")
		}
		return append(argv, "Run the tool."), []string{"CODEX_HOME=" + codexHome, "FAKE_MODEL_KEY=sk-live-test"}
	},
}

func TestLiveCodex(t *testing.T) { liveHost(t, codex) }

// geminiCLI runs `gemini -p` against the fake Gemini API, through its
// gateway setting (GOOGLE_GEMINI_BASE_URL).
var geminiCLI = &host{
	pkg: "@google/gemini-cli", bin: "gemini", agent: "gemini",
	// Verified live: a hook past its timeout is a non-blocking error.
	hangRuns: true,
	// Gemini CLI's file tools refuse a path in .git, and a read of .env,
	// themselves, before any hook ("Path not in workspace"): the write
	// goes to a credentials file the tools accept, and the read is the
	// host's own refusal.
	kinds:   []kind{shell, write},
	writeTo: envWrite,
	call: func(k kind, a callArgs) []fakemodel.Call {
		switch k {
		case write:
			return one("write_file", map[string]any{"file_path": a.Path, "content": a.Content})
		case read:
			return one("read_file", map[string]any{"file_path": a.Path})
		}
		return one("run_shell_command", map[string]any{"command": a.Command, "description": "run it"})
	},
	start: func(p *phase) ([]string, []string) {
		// With GOOGLE_GEMINI_BASE_URL alone, 0.61.0 picks its "gateway"
		// auth, which its own check then calls invalid: the API key's
		// auth, chosen in the user's settings, takes the base URL too.
		p.writeHome(".gemini/settings.json", `{"security":{"auth":{"selectedType":"gemini-api-key"}},"privacy":{"usageStatisticsEnabled":false}}`)
		return []string{"gemini", "-p", "Run the tool.", "-m", "gemini-2.5-pro", "--yolo"}, []string{
			"GOOGLE_GEMINI_BASE_URL=" + p.url,
			"GEMINI_API_KEY=live-test-key",
			"GEMINI_CLI_TRUST_WORKSPACE=true",
		}
	},
}

func TestLiveGeminiCLI(t *testing.T) { liveHost(t, geminiCLI) }

// qwenCode runs `qwen -p` against the fake Chat Completions API, with
// its OpenAI-compatible auth.
var qwenCode = &host{
	pkg: "@qwen-code/qwen-code", bin: "qwen", agent: "qwen",
	// Verified live: a hook past its timeout is a non-blocking error.
	hangRuns: true,
	kinds:    []kind{shell, write, read},
	call: func(k kind, a callArgs) []fakemodel.Call {
		switch k {
		case write:
			return one("write_file", map[string]any{"file_path": a.Path, "content": a.Content})
		case read:
			return one("read_file", map[string]any{"file_path": a.Path})
		}
		return one("run_shell_command", map[string]any{"command": a.Command, "description": "run it", "is_background": false})
	},
	start: func(p *phase) ([]string, []string) {
		return []string{"qwen", "-p", "Run the tool.", "--auth-type", "openai", "-m", "qwen3-coder-plus", "--yolo"}, []string{
			"OPENAI_BASE_URL=" + p.url + "/v1",
			"OPENAI_API_KEY=sk-live-test",
			"OPENAI_MODEL=qwen3-coder-plus",
		}
	},
}

func TestLiveQwenCode(t *testing.T) { liveHost(t, qwenCode) }

// openCode runs `opencode run` against the fake Chat Completions API, as
// an OpenAI-compatible provider of the user's configuration; the guard is
// sentinel's plugin in .opencode/plugins.
var openCode = &host{
	pkg: "opencode-ai", bin: "opencode", agent: "opencode",
	kinds: []kind{shell, write, read},
	// OpenCode installs a project's plugin dependencies at start-up,
	// from the registry: 15 to 30 s a run on an idle machine, past 90 s
	// on a busy one.
	timeout: 150 * time.Second,
	call: func(k kind, a callArgs) []fakemodel.Call {
		switch k {
		case write:
			return one("write", map[string]any{"filePath": a.Path, "content": a.Content})
		case read:
			return one("read", map[string]any{"filePath": a.Path})
		}
		return one("bash", map[string]any{"command": a.Command, "description": "run it"})
	},
	start: func(p *phase) ([]string, []string) {
		p.writeHome(".config/opencode/opencode.json", fmt.Sprintf(`{
  "provider": {"fake": {"npm": "@ai-sdk/openai-compatible", "name": "fake",
    "options": {"baseURL": %q, "apiKey": "sk-live-test"},
    "models": {"fake-model": {"name": "fake-model", "tool_call": true}}}},
  "model": "fake/fake-model",
  "permission": {"bash": "allow", "edit": "allow", "read": "allow", "external_directory": "allow"},
  "autoupdate": false, "share": "disabled"
}`, p.url+"/v1"))
		return []string{"opencode", "run", "-m", "fake/fake-model", "Run the tool."}, []string{
			"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1",
		}
	},
}

func TestLiveOpenCode(t *testing.T) { liveHost(t, openCode) }
