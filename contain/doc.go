// Package contain is `sentinel run`: it runs a command, normally an agent
// host, in a sandbox built from the repository it starts in, so that the
// approval machinery (the hooks, the git configuration, .sentinel/, the
// hosts' settings, sentinel's binaries, configuration and audit trail) is
// out of the agent's reach by the operating system, however a call is
// spelt, including code the agent writes now and runs later.
//
// The policy (policy.go) is data: what is writable, what is read-only on
// top of it, what is hidden. An engine turns it into its own terms:
// bubblewrap's arguments on Linux (bwrap.go), a sandbox-exec profile on
// macOS (seatbelt.go). Nothing here is a home-made sandbox: the kernel's
// namespaces are bubblewrap's to set up. Without an engine that applies,
// or when one of the policy's rules cannot be applied, Run refuses and
// names the fix; nothing runs unconfined under the name `sentinel run`.
//
// The sandbox carries the agent mark (internal/agentmark), and its parent,
// outside, is the broker (broker.go): it does sentinel's own writes that
// the sandbox forbids, recomputed from the repository.
package contain
