//go:build sentinel_front

package guard

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/guard/hosts"
	"github.com/gitsentinel/sentinel/guard/internal/guardtest"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/policy"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

// TestHandleFrontHandsCodeToEngine runs, in the front build that links no
// grammar, the branch where code in a command goes to the engine: the
// engine's answer is the answer, and an engine that cannot answer leaves
// the front's own denial, with a line saying why.
func TestHandleFrontHandsCodeToEngine(t *testing.T) {
	event := handleEvent(`python3 -c "import shutil; shutil.rmtree('/etc')"`)
	for _, tc := range []struct {
		name   string
		engine func([]byte) (EngineReply, error)
		want   string // the stdout
		denied bool
		stderr string
	}{
		{"engine answers", func(raw []byte) (EngineReply, error) {
			if string(raw) != event {
				return EngineReply{}, errors.New("the engine got another event")
			}
			return EngineReply{Answer: hosts.Answer{Stdout: []byte("the engine's answer\n"), Exit: 2}, Verdict: "deny"}, nil
		}, "the engine's answer\n", false, ""},
		{"engine answers without a verdict", func([]byte) (EngineReply, error) {
			return EngineReply{Answer: hosts.Answer{Stdout: []byte("the engine's answer\n"), Exit: 2}}, nil
		}, "", true, "without a verdict"},
		{"engine's empty answer under a refusal", func([]byte) (EngineReply, error) {
			return EngineReply{Verdict: "deny"}, nil
		}, "", true, "lets the call run"},
		{"engine's empty answer with no verdict", func([]byte) (EngineReply, error) {
			return EngineReply{}, nil
		}, "", true, "without a verdict"},
		{"engine missing", func([]byte) (EngineReply, error) {
			return EngineReply{}, errors.New("sentinel-engine is not installed")
		}, "", true, "sentinel-engine is not installed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Handle(context.Background(), Event{
				Request: Request{
					Input:  eventOf(event),
					NewEnv: func(cwd string) *pathguard.Env { e := guardtest.CorpusEnv(); e.Cwd = cwd; return e },
					Policy: func() (*policy.Policy, error) { return &policy.Policy{}, nil },
				},
				Engine:    tc.engine,
				AuditPath: filepath.Join(t.TempDir(), "guard.jsonl"),
			})
			if tc.denied {
				if r.Decision == nil || r.Decision.Verdict != verdict.Deny || !strings.Contains(r.Decision.Reason(), "[engine]") {
					t.Fatalf("decision %+v, want the front's denial", r.Decision)
				}
			} else if string(r.Stdout) != tc.want || r.Exit != 2 || r.Decision != nil {
				t.Fatalf("reply %+v, want the engine's", r)
			}
			if !strings.Contains(r.Stderr, tc.stderr) {
				t.Errorf("stderr %q, want %q", r.Stderr, tc.stderr)
			}
		})
	}
}
