package hostrun

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/gitsentinel/sentinel/internal/fakemodel"
)

func init() { register(clineCLI) }

// clineEnv keeps the session in the CLI's own process (the local backend
// starts no hub daemon, which would outlive the run) and off the updater.
var clineEnv = []string{"CLINE_SESSION_BACKEND_MODE=local", "CLINE_NO_AUTO_UPDATE=1"}

// clineCLI runs the Cline CLI 3 (`cline "task"`, act mode, every tool
// approved) against the fake Chat Completions API, as its
// OpenAI-compatible provider, which `cline auth` configures in the
// session's home.
//
// Cline reads the project's hook from .clinerules/hooks/PreToolUse. A
// hook's cancel does not refuse the one call: it ends the task, and no
// result goes back to the model. Its reason is only in Cline's log, where
// Refusal reads it.
//
// A hook file has no timeout of its own: Cline waits 120 s for any hook,
// then kills it and runs the call, as it does when the hook exits with
// nothing on stdout, whatever its status.
var clineCLI = &Host{
	Package: "cline", Bin: "cline", Agent: "cline",
	HangRuns: true,
	HangSkip: "Cline waits 120 s for a hook, then kills it and runs the call (measured by hand with 3.0.65: the call ran after 131 s)",
	Kinds:    []Kind{Shell, Write, Read},
	Timeout:  150 * time.Second,
	Call: func(k Kind, a Args) []fakemodel.Call {
		switch k {
		case Write:
			return one("editor", map[string]any{"path": a.Path, "new_text": a.Content})
		case Read:
			return one("read_files", map[string]any{"files": []any{map[string]any{"path": a.Path}}})
		}
		return one("run_commands", map[string]any{"commands": []string{a.Command}})
	},
	Start: func(s *Session) ([]string, []string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, s.Program, "auth", "--provider", "openai-compatible", "--apikey", "sk-live-test",
			"--modelid", "fake-model", "--baseurl", s.URL+"/v1")
		cmd.Dir, cmd.Env = s.Repo, s.Env(s.Path, clineEnv)
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, nil, fmt.Errorf("cline auth: %w: %s", err, out)
		}
		return []string{"cline", "--provider", "openai-compatible", "--model", "fake-model", "Run the tool."}, clineEnv, nil
	},
	Refusal: clineStopReason,
}

// clineStopReason returns the reason of the hook's cancel that ended the
// task, from Cline's log: the error of the agent loop's controlled stop.
func clineStopReason(s *Session) (string, bool) {
	f, err := os.Open(filepath.Join(s.Home, ".cline", "data", "logs", "cline.log"))
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	for sc.Scan() {
		var e struct{ ErrorName, ErrorMessage string }
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.ErrorName == "ControlledStopError" {
			return e.ErrorMessage, true
		}
	}
	return "", false
}
