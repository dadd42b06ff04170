//go:build sentinel_front

package script

// scriptParsers is empty in the front binary, which links no grammar: the
// few events whose code needs one are handed to the engine binary.
type scriptParsers struct{}

func (ps *scriptParsers) close() {}

func (ps *scriptParsers) parse(string, []byte) (*tnode, bool, error) {
	return nil, true, ErrNeedsEngine
}
