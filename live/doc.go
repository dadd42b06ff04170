// Package live runs the real agent hosts against sentinel's guard: each
// host's own CLI, pinned in npm/package-lock.json and installed with npm
// ci into a cache outside the repository, talks to a fake model on
// loopback (internal/fakemodel) that makes one scripted tool call, and
// the host runs the hook that `sentinel guard install` wrote. Each host's
// test (TestLiveClaudeCode, TestLiveCodex, …) runs four phases, each in a
// fresh git repository and a fresh HOME: the call without the guard (it
// runs), with the guard (it is refused, and sentinel's reason reaches the
// model), an everyday call (it runs), and the guard with sentinel's binary
// gone (still refused).
//
// The tests run when SENTINEL_LIVE=1 (make live sets it); otherwise, and
// when npm or a host cannot be had, they skip and say why. The package
// holds no code outside its tests.
package live
