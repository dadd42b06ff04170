// Package cirun holds the tests of .ci/run, the repository's CI script: it
// has no Go of its own, only the checks that the script still runs, and
// says why, where its optional installs fail.
package cirun
