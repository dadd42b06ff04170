// Package textpos turns byte offsets into the line and column that error
// messages print as file:line:col.
package textpos

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Position returns the 1-based line and byte column of offset off in data;
// an offset out of range is clamped.
func Position(data []byte, off int64) (line, col int) {
	off = max(0, min(off, int64(len(data))))
	before := data[:off]
	return 1 + bytes.Count(before, []byte{'\n'}), int(off) - bytes.LastIndexByte(before, '\n')
}

// JSON locates a JSON decoding error in data: a syntax error at the byte
// that broke it, a type error at its value; 1:1 when the error says
// nothing of where.
func JSON(data []byte, err error) (line, col int) {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		// Offset is just past the byte that broke the syntax.
		return Position(data, se.Offset-1)
	case errors.As(err, &te):
		return Position(data, te.Offset)
	}
	return 1, 1
}
