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
//     A command that applies a patch or extracts an archive writes what
//     the patch or archive names, read from the file (patch.go,
//     archive.go); one the guard cannot read is a question where it
//     could reach git's hooks or sentinel's files. A script file a
//     command runs is read and its commands decided on in turn
//     (scriptrun.go), by the rule below.
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
// Scripts. sh x.sh, ./x.sh, source x.sh, python3 x.py, node x.js and the
// like run a file's commands; the guard reads the file (a regular file of
// at most 512 KiB, nested at most 4 deep) and decides on its commands as
// if they were written out, so every denial a command line meets, the
// script meets too. What it cannot compute in a script (a command named
// by a variable, an rm of a computed path, eval) is a question only where
// the script may be the agent's: one git tracks, unchanged from the index
// (read in-process), is the project's own code and is judged by what it
// states outright. A script the line itself writes is read as the text
// written, or is a question where that text cannot be computed. A script
// that cannot be read is what any program is (a missing file runs
// nothing, a binary or a file in a system directory is not read), except
// where it is text kept from the guard: larger than the bound, a link out
// of the project, not a regular file, nested past the bound. That is a
// question unless git tracks it unchanged, since padding a script or
// linking it from elsewhere is how one would hide its commands.
//
// The guard never runs git or any other program to decide: a
// repository's configuration names programs (core.fsmonitor, filters)
// that would run before anything was decided.
//
// The packages below never import one above them: verdict,
// internal/argspec, script and install at the bottom; shell; pathguard;
// rules, policy and hosts; audit; then guard.
package guard
