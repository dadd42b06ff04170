package hostrun

import "fmt"

func init() { register(piAgent) }

// piAgent runs `pi -p` against the fake Chat Completions API, as a
// provider of the user's models.json; the guard is sentinel's extension in
// .pi/extensions, which pi loads from the directory it starts in.
var piAgent = &Host{
	Package: "@mariozechner/pi-coding-agent", Bin: "pi", Agent: "pi",
	Kinds: []Kind{Shell, Write, Read},
	Call:  tools{shell: "bash", write: "write", read: "read", path: "path", content: "content"}.call,
	Start: func(s *Session) ([]string, []string, error) {
		err := s.WriteHome(".pi/agent/models.json", fmt.Sprintf(`{
  "providers": {"fake": {"baseUrl": %q, "api": "openai-completions", "apiKey": "sk-live-test",
    "compat": {"supportsDeveloperRole": false, "supportsReasoningEffort": false},
    "models": [{"id": "fake-model"}]}}
}`, s.URL+"/v1"))
		if err != nil {
			return nil, nil, err
		}
		return []string{"pi", "-p", "--no-session", "--provider", "fake", "--model", "fake-model", "Run the tool."},
			[]string{"PI_OFFLINE=1", "PI_SKIP_VERSION_CHECK=1", "PI_TELEMETRY=0"}, nil
	},
}
