//go:build !linux && !darwin

package trailers

// systemTable is nil where sentinel cannot read the process tree: agent
// detection reads the environment alone.
func systemTable() ProcessTable { return nil }
