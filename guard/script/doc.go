// Package script reads interpreter one-liners (python -c, node -e, ruby -e,
// php -r, perl -e, awk programs) for what they would do: the files they
// write, read and remove, and the programs they run, as Effects.
//
// Python, JavaScript, TypeScript, Ruby and PHP are read from a tree-sitter
// tree; Perl and awk from hand lexers. This package is the only part of the
// guard that knows about the front and engine split: the engine build links
// the grammars (treesitter.go), while the front build (tag sentinel_front)
// links none and answers ErrNeedsEngine, so that the front hands such an
// event to the engine. `go list -deps -tags sentinel_front ./cmd/sentinel`
// lists no tree-sitter package.
package script
