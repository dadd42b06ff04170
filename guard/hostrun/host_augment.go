package hostrun

import (
	"time"

	"github.com/gitsentinel/sentinel/internal/fakemodel"
)

func init() { register(augmentCLI) }

// augmentCLI runs `auggie --print` against the fake's Augment API. Auggie
// talks to its tenant, not to a model vendor: it takes the tenant's URL
// and a token from AUGMENT_SESSION_AUTH (the session JSON `auggie login`
// writes), asks get-models for its feature flags at each start, and runs
// hooks only while their enable_hooks flag is on, which the fake's is.
//
// Auggie blocks a call only on a hook's exit status 2 (or a JSON deny):
// any other status, garbage on stdout, a hook that cannot start, and a
// hook past its timeout all let the call run (0.36.0, verified by hand).
var augmentCLI = &Host{
	Package: "@augmentcode/auggie", Bin: "auggie", Agent: "augment",
	Kinds:   []Kind{Shell, Write, Read},
	Timeout: 150 * time.Second,
	// Verified live: past the hook's timeout the call runs.
	HangRuns: true,
	Call: tools{shell: "launch-process", write: "save-file", read: "view", path: "path", content: "file_content",
		shellArgs: map[string]any{"wait": true, "max_wait_seconds": 60, "cwd": "."}, readArgs: map[string]any{"type": "file"}}.call,
	Start: func(s *Session) ([]string, []string, error) {
		return []string{"auggie", "--print", "Run the tool.", "--dont-save-session"}, []string{
			`AUGMENT_SESSION_AUTH={"accessToken":"live-test-token","tenantURL":"` + s.URL + `/","scopes":["email"]}`,
			"AUGMENT_DISABLE_AUTO_UPDATE=1",
		}, nil
	},
}

// AugmentPatch is Auggie's apply_patch call that adds the file at path
// with text: its other tool that writes files.
func AugmentPatch(path, text string) fakemodel.Call {
	return fakemodel.Call{Name: "apply_patch", Args: map[string]any{"input": addPatch(path, text)}}
}
