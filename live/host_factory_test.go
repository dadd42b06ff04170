package live_test

import (
	"testing"

	"github.com/gitsentinel/sentinel/guard/hostrun"
)

// TestLiveFactoryDroid runs Factory Droid on the fake Anthropic API:
// Execute, Create and Read.
func TestLiveFactoryDroid(t *testing.T) { liveHost(t, hostrun.Hosts["factory"]) }

// TestLiveFactoryDroidApplyPatch runs Droid on the fake Responses API as
// an OpenAI model, whose writes are ApplyPatch's.
func TestLiveFactoryDroidApplyPatch(t *testing.T) {
	h := *hostrun.Hosts["factory"]
	h.Kinds = []kind{write}
	h.Start = func(s *hostrun.Session) ([]string, []string, error) {
		return hostrun.DroidStart(s, "openai", "gpt-5.5", s.URL+"/v1")
	}
	liveHost(t, &h)
}
