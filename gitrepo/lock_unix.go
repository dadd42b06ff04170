//go:build unix

package gitrepo

import (
	"context"
	"fmt"

	"github.com/gitsentinel/sentinel/internal/filelock"
)

// LockRepository takes the repository's lock (filelock.Repository) for
// the repository containing dir, whose common git dir is commonDir, with
// the lock's directory and file made as core.sharedRepository asks.
func LockRepository(ctx context.Context, dir, commonDir string) (func(), error) {
	if dir == "" {
		dir = commonDir
	}
	shared, err := SharedRepository(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("lock the repository: %w", err)
	}
	return filelock.Repository(ctx, commonDir, shared)
}
