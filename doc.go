// Package sentinel holds no code: it documents how the module is laid out,
// and its test holds the packages to that layout.
//
// Packages are layered, one concern each, and a package imports only from
// the layers below its own:
//
//   - internal/... are leaves: formats, files, locks, quoting, test
//     scaffolding. None imports a package of this module outside
//     internal/, so a leaf is usable by any layer and knows no report,
//     configuration or repository. A leaf that writes a format (a SARIF
//     log, JSON) offers the types and a builder; the package whose
//     findings they are converts them.
//   - languages finds tests and assertions with tree-sitter grammars; it
//     imports nothing of the module.
//   - gitrepo (git) and config (.sentinel/config.toml) are the repository
//     and the project's configuration.
//   - coverage/runners decides which files are test files the way each
//     project's runner does; it reads a snapshot through a small Tree
//     interface and imports only languages and the leaves.
//   - trailers (the attribution policy) and coverage (the counts and the
//     ratchet) build on them.
//   - guard, ci, timeline and githooks put those together for one job
//     each: the agents' pre-tool hook, the checks over commits, the
//     ratchet's history, the git hooks.
//   - contain is `sentinel run`: the sandbox built from the repository's
//     layout and guard install's paths, its engines (bubblewrap, a
//     sandbox-exec profile), the agent mark and the broker.
//   - doctor checks what the layers below set up (the hooks, the
//     baseline, the configuration, the guard in each agent's settings)
//     and reports it as findings.
//   - cmd/sentinel is the binary: the commands, their flags and output.
//
// The rules the test enforces are a table in layers_test.go, one row per
// rule: the packages it holds, and the imports they may not have.
package sentinel
