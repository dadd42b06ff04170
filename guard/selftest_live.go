package guard

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"

	"github.com/gitsentinel/sentinel/guard/hostrun"
)

// LiveTestOptions say which hosts a live test runs, and with what.
type LiveTestOptions struct {
	// Agents are the hosts to run, by sentinel's name.
	Agents []string
	// Sentinel is the path of the sentinel binary the throwaway
	// repositories install.
	Sentinel string
	// LookPath finds a host's CLI as the user's shell would; Path is the
	// user's PATH, which the host runs with after sentinel's directory.
	LookPath func(string) (string, error)
	Path     []string
}

// LiveTest runs each host of o.Agents whose CLI is on PATH for a live turn
// against a fake model on loopback, in a throwaway repository and home
// with the guard installed: one call it must refuse and an everyday one.
// Hosts sentinel cannot drive, or whose CLI is not on PATH, are left out
// and named in skipped, with why.
func LiveTest(ctx context.Context, o LiveTestOptions) (results []*hostrun.CheckResult, skipped map[string]string, err error) {
	skipped = map[string]string{}
	agents := append([]string(nil), o.Agents...)
	sort.Strings(agents)
	for _, a := range agents {
		h := hostrun.Hosts[a]
		if h == nil {
			skipped[a] = "sentinel cannot drive its CLI against a fake model yet"
			continue
		}
		program, err := h.Find(o.LookPath)
		if errors.Is(err, hostrun.ErrNoHost) {
			skipped[a] = h.Bin + " is not on PATH"
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		scratch, err := os.MkdirTemp("", "sentinel-live-check-")
		if err != nil {
			return nil, nil, err
		}
		r := h.Check(ctx, program, o.Sentinel, filepath.Join(scratch, a), o.Path)
		_ = os.RemoveAll(scratch)
		results = append(results, r)
	}
	return results, skipped, nil
}
