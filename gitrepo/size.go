package gitrepo

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ArgvCatFileBatchCheck prints the type and size of objects named on
// stdin, without their content.
var ArgvCatFileBatchCheck = []string{"cat-file", "--batch-check"}

// BlobSize returns a blob's size without reading its content: from the
// object's header through go-git's storage where it can, through one
// long-running `git cat-file --batch-check` otherwise.
func (o *Objects) BlobSize(ctx context.Context, id string) (int64, error) {
	if o.st != nil {
		o.mu.Lock()
		size, found := o.st.blobSize(id)
		o.mu.Unlock()
		if found {
			return size, nil
		}
		// Fall through, as ReadBlob does.
	}
	o.checkMu.Lock()
	defer o.checkMu.Unlock()
	if o.check == nil {
		b, err := startBatchArgv(ctx, o.git, ArgvCatFileBatchCheck)
		if err != nil {
			return 0, err
		}
		o.check = b
	}
	return o.check.size(id)
}

// size asks a running `git cat-file --batch-check` for an object's size.
func (b *batchReader) size(id string) (int64, error) {
	if _, err := io.WriteString(b.stdin, id+"\n"); err != nil {
		return 0, fmt.Errorf("size of blob %s: %w", id, err)
	}
	line, err := b.stdout.ReadString('\n')
	if err != nil {
		return 0, fmt.Errorf("size of blob %s: %w", id, err)
	}
	f := strings.Fields(line)
	if len(f) == 2 && f[1] == "missing" {
		return 0, fmt.Errorf("size of blob %s: %w", id, ErrObjectNotFound)
	}
	if len(f) != 3 {
		return 0, fmt.Errorf("size of blob %s: unexpected %q", id, strings.TrimSpace(line))
	}
	n, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("size of blob %s: %w", id, err)
	}
	return n, nil
}
