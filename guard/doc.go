// Package guard decides, before a coding agent's tool call runs, whether it
// may. It is the engine and its one front door: an event in, a decision
// out, failing closed.
//
// The path of an event, all of it in Handle:
//
//  1. Run reads the event and the configuration within Deadline (250 ms):
//     the dialect (hosts) turns the host's bytes into a Call, the policy
//     (policy) raises the level and adds secrets, and the call is
//     evaluated. Anything unreadable, a panic, or the deadline is a denial.
//  2. A shell command is decomposed (shell, with script for interpreter
//     code) into simple commands; each meets the catalogue (rules), the
//     configured rules (policy) and, for what it writes and reads, the path
//     guard (pathguard). A file tool's paths meet the path guard alone.
//  3. Code whose grammar the front binary lacks goes, whole, to the engine
//     binary, which answers in its place; where it cannot, the front's
//     denial stands.
//  4. The user's external checker, if any, reviews what the rules let
//     through, under its own timeout (checker_timeout, 10 s by default),
//     after the deadline: it is a program the user chose to wait for, and
//     anything but its explicit allow is a denial.
//  5. The dialect renders the verdict in the host's terms, and the
//     decision goes to the audit trail (audit); a trail that cannot be
//     written is a line on stderr, never a change of verdict.
//
// The packages below never import one above them: verdict,
// internal/argspec, script and install at the bottom; shell; pathguard;
// rules, policy and hosts; audit; then guard.
package guard
