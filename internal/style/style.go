// Package style colours the verdicts of sentinel's text reports: green for
// a pass, red for a refusal, yellow for advice. Colour is for people at a
// terminal: never in a pipe or a file, never with NO_COLOR set
// (no-color.org), and as --color says when it says.
package style

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/term"
)

// Style paints text, or leaves it as it is; the zero Style is plain.
type Style struct{ on bool }

// Modes are the values of --color.
var Modes = []string{"auto", "always", "never"}

// For returns the style of output to w: mode is --color ("auto" or "" for
// a terminal without NO_COLOR, "always", "never").
func For(w io.Writer, getenv func(string) string, mode string) (Style, error) {
	switch mode {
	case "always":
		return Style{on: true}, nil
	case "never":
		return Style{}, nil
	case "", "auto":
	default:
		return Style{}, fmt.Errorf("--color %q is not one of auto, always, never", mode)
	}
	if getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
		return Style{}, nil
	}
	f, ok := w.(*os.File)
	return Style{on: ok && term.IsTerminal(int(f.Fd()))}, nil
}

// On reports whether the style paints.
func (s Style) On() bool { return s.on }

func (s Style) paint(code, t string) string {
	if !s.on || t == "" {
		return t
	}
	return "\x1b[" + code + "m" + t + "\x1b[0m"
}

// Pass paints a verdict that lets the change through.
func (s Style) Pass(t string) string { return s.paint("32", t) }

// Fail paints a verdict that refuses it.
func (s Style) Fail(t string) string { return s.paint("1;31", t) }

// Warn paints advice, and what needs a look without refusing.
func (s Style) Warn(t string) string { return s.paint("33", t) }
