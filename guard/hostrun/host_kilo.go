package hostrun

import (
	"time"
)

func init() { register(kiloCode) }

// kiloCode runs `kilo run` against the fake Chat Completions API, as an
// OpenAI-compatible provider of the user's configuration; the guard is
// sentinel's plugin in .kilo/plugins. Kilo Code's CLI is a fork of
// OpenCode: the same tools, the same plugin hook, its own directories
// (.kilo, .kilocode, ~/.config/kilo; .opencode is not read).
var kiloCode = &Host{
	Package: "@kilocode/cli-linux-x64", Bin: "kilo", Exe: "@kilocode/cli-linux-x64/bin/kilo", Agent: "kilo",
	Kinds: []Kind{Shell, Write, Read},
	// Like OpenCode, it installs a project's plugin dependencies at
	// start-up, from the registry.
	Timeout: 150 * time.Second,
	Call:    openCode.Call,
	Start: func(s *Session) ([]string, []string, error) {
		if err := s.WriteHome(".config/kilo/kilo.json", openCodeConfig(s.URL)); err != nil {
			return nil, nil, err
		}
		// --auto approves what Kilo would ask about: a read of .env is
		// asked even under "read": "allow", and run refuses what it
		// would ask.
		return []string{"kilo", "run", "--auto", "-m", "fake/fake-model", "Run the tool."}, []string{
			"KILO_DISABLE_MODELS_FETCH=1", "KILO_DISABLE_AUTOUPDATE=1", "KILO_DISABLE_LSP_DOWNLOAD=1",
			"KILO_DISABLE_SHARE=1", "KILO_DISABLE_SESSION_INGEST=1",
		}, nil
	},
}
