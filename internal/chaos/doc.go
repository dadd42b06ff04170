// Package chaos measures sentinel's reliability promises under interruption
// and concurrency, with the real binary and the real git.
//
// The kill probe interrupts init, install, uninstall, guard install, accept,
// the pre-commit hook and count at random points with SIGKILL, SIGINT and
// SIGTERM. After each kill, and again after the next uninterrupted run of
// the same command, it checks that every file sentinel writes holds its old
// bytes or its new ones; that no lock the dead process left makes the next
// run wait or fail; that the next run leaves no temporary file behind; and
// that the commit the interrupted work was for still goes through when a
// person re-runs the command and follows what sentinel's messages tell them.
//
// The race probe runs accept, the pre-commit hook, count and git commit at
// once: two to eight of them in linked worktrees of one repository, two
// accepts of different languages in one work tree, and an accept beside a
// pre-commit hook that raises another language's peak. Every update a
// command reports ("recorded", "raised", a commit) must be in the final
// baseline, in the work tree and in the index.
//
// The probes take minutes and need git, so they are not part of
// `go test ./...`: `make chaos` runs them (docs/reliability.md), and Run is
// their entry point.
package chaos
