package ci

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/trailers"
)

// A commit in the middle of a range cannot be amended in place: the fix for
// a missing Assisted-by is a rebase that stops after each offending commit
// only, and amends it with the trailer. `git rebase --exec` alone would
// amend every commit, so the recipe writes the exec lines into the todo
// list itself, through a sequence editor that needs only sh, awk and mv,
// given in GIT_SEQUENCE_EDITOR, which wins over any the user configured.
// The todo list names commits by full id (core.abbrev=40), so that a line
// matches its commit exactly; rewording only, the rebase keeps every tree.
// --allow-empty keeps a commit that changed no file (git commit
// --allow-empty) amendable.

// trailerAdd is one commit that needs an Assisted-by, and its value.
type trailerAdd struct {
	hash, value string
}

// safeValue keeps what an Assisted-by value may hold inside the awk string
// inside the shell quotes of the recipe; anything else is dropped rather
// than left to break the command.
var safeValue = regexp.MustCompile(`[^A-Za-z0-9 ._:/+@()\[\]-]`)

// safeWord matches an argument the shell takes as it is.
var safeWord = regexp.MustCompile(`^[A-Za-z0-9._/~^@{}:+-]+$`)

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if safeWord.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// rebaseRecipe is the command that adds each value as an Assisted-by
// trailer to its commit, rebasing onto base (the whole history when base
// is empty) and keeping merges.
func rebaseRecipe(base string, adds []trailerAdd) string {
	var awk strings.Builder
	awk.WriteString("{ print }")
	for _, a := range adds {
		v := strings.TrimSpace(safeValue.ReplaceAllString(a.value, ""))
		fmt.Fprintf(&awk, ` ($1 == "pick" || $1 == "p") && $2 == "%s" { print "exec git commit --amend --allow-empty --no-edit --trailer \"%s: %s\"" }`, a.hash, trailers.AssistedBy, v)
	}
	editor := `f() { awk ` + shellQuote(awk.String()) + ` "$1" > "$1.sentinel" && mv "$1.sentinel" "$1"; }; f`
	onto := "--root"
	if base != "" {
		onto = shellQuote(base)
	}
	return "GIT_SEQUENCE_EDITOR=" + shellQuote(editor) + " git -c core.abbrev=40 rebase -i --rebase-merges " + onto
}

// fixMissingAssisted gives every missing-Assisted-by finding one fix that
// works wherever the commit is in base..HEAD: the rebase that adds the
// trailer to all of them at once.
func (r *Report) fixMissingAssisted(base string, commits []gitrepo.Commit) {
	byShort := map[string]string{}
	for _, c := range commits {
		byShort[c.Short()] = c.Hash
	}
	var adds []trailerAdd
	var fixes []*trailers.Violation
	// Findings come newest first, as git log lists them; the todo list
	// is oldest first, and the order of the awk rules does not matter.
	for i := range r.Attribution {
		f := &r.Attribution[i]
		for j := range f.Violations {
			v := &f.Violations[j]
			if v.Rule != trailers.RuleMissingAssisted || v.Assisted == "" || byShort[f.Source] == "" {
				continue
			}
			adds = append(adds, trailerAdd{hash: byShort[f.Source], value: v.Assisted})
			fixes = append(fixes, v)
		}
	}
	if len(adds) == 0 {
		return
	}
	recipe := rebaseRecipe(base, adds)
	what := "this commit"
	if len(adds) > 1 {
		what = fmt.Sprintf("the %d commits that lack it", len(adds))
	}
	for i, v := range fixes {
		v.Fix = fmt.Sprintf("mend it forward, with no rewrite: a person runs `sentinel trailers attest --assisted-by %s %s` and commits the baseline; or add the missing Assisted-by (%s here) to %s, rewriting the commits after it (a signed one must be signed again), then push with --force-with-lease: %s",
			shellQuote(adds[i].value), gitrepo.ShortID(adds[i].hash), v.Assisted, what, recipe)
	}
}

// onceEach is findings with each fix written out once: a later violation
// whose fix is the same rebase refers to the one above, so that the text
// report does not repeat a long command for every commit.
func onceEach(findings []trailers.Finding) []trailers.Finding {
	seen := map[string]bool{}
	out := make([]trailers.Finding, len(findings))
	for i, f := range findings {
		f.Violations = append([]trailers.Violation(nil), f.Violations...)
		for j := range f.Violations {
			v := &f.Violations[j]
			if v.Rule != trailers.RuleMissingAssisted || !strings.Contains(v.Fix, "GIT_SEQUENCE_EDITOR=") {
				continue
			}
			attest, rebase, _ := strings.Cut(v.Fix, "; or add the missing Assisted-by")
			if seen[rebase] {
				v.Fix = attest + "; or the rebase above, which adds it to this commit too"
			}
			seen[rebase] = true
		}
		out[i] = f
	}
	return out
}
