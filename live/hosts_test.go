package live_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gitsentinel/sentinel/internal/fakemodel"
)

// claudeCode runs `claude -p` against the fake Anthropic API.
var claudeCode = &host{
	pkg: "@anthropic-ai/claude-code", bin: "claude", agent: "claude",
	kinds: []kind{shell, write, read},
	call: func(k kind, a callArgs) (fakemodel.Call, bool) {
		switch k {
		case write:
			return fakemodel.Call{Name: "Write", Args: map[string]any{"file_path": a.Path, "content": a.Content}}, true
		case read:
			return fakemodel.Call{Name: "Read", Args: map[string]any{"file_path": a.Path}}, true
		}
		return fakemodel.Call{Name: "Bash", Args: map[string]any{"command": a.Command, "description": "run it"}}, true
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

var _ = os.Getenv
var _ = filepath.Join
var _ = time.Second
