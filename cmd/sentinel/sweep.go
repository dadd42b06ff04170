//go:build !sentinel_front

package main

import (
	"context"
	"strings"

	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/guard/install"
	"github.com/gitsentinel/sentinel/internal/atomicfile"
)

// sweepTemps removes the temporary files that a killed sentinel left in the
// directories it writes in the work tree, before git add can pick them
// up: the root (.gitattributes), .sentinel, and each agent's project
// settings directory. A file a live sentinel is still writing stays.
func sweepTemps(ctx context.Context, dir string) {
	root, err := gitrepo.FindRoot(ctx, dir)
	if err != nil {
		return
	}
	seen := map[string]bool{}
	for _, d := range append([]string{".", ".sentinel"}, install.ProjectDirs()...) {
		if !seen[d] {
			seen[d] = true
			atomicfile.Sweep(root, d)
		}
	}
}

// shellQuoteAll quotes paths for a command a person pastes into a shell.
func shellQuoteAll(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
	}
	return out
}
