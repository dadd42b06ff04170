// Package trailers finds and parses the trailer block of a commit message
// with the rules of git's own trailer.c, inserts the Assisted-by trailer,
// knows the coding agents and the identities they commit under, and applies
// sentinel's attribution policy: agents never sign off and never co-author.
package trailers
