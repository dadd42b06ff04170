package live_test

import (
	"testing"

	"github.com/gitsentinel/sentinel/guard/hostrun"
)

// TestLiveCopilotCLI runs Copilot CLI's phases; its settings and tools are
// hostrun's.
func TestLiveCopilotCLI(t *testing.T) { liveHost(t, hostrun.Hosts["copilot"]) }
