// Package guard decides, before a coding agent's tool call runs, whether it
// may. It is the engine and its one front door: an event in, a decision out,
// failing closed within the deadline. The layers below it say what a call
// does (shell, script), what is protected (pathguard), what the rules and
// the configuration say (rules, policy) and how each host speaks (hosts).
package guard
