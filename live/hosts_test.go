package live_test

import (
	"testing"

	"github.com/gitsentinel/sentinel/guard/hostrun"
)

// Each host's four phases, and the ask and hang phases, as a test of its
// own; the hosts' settings and tools are hostrun's.

func TestLiveClaudeCode(t *testing.T) { liveHost(t, hostrun.Hosts["claude"]) }

func TestLiveCodex(t *testing.T) { liveHost(t, hostrun.Hosts["codex"]) }

func TestLiveGeminiCLI(t *testing.T) { liveHost(t, hostrun.Hosts["gemini"]) }

func TestLiveQwenCode(t *testing.T) { liveHost(t, hostrun.Hosts["qwen"]) }

func TestLiveOpenCode(t *testing.T) { liveHost(t, hostrun.Hosts["opencode"]) }
func TestLiveClineCLI(t *testing.T) { liveHost(t, hostrun.Hosts["cline"]) }
