package script

// What the hand lexers (Perl, awk) share: their token, the bytes of a name,
// and how a variable assigned once to a known value is known.

// token is one token of a hand lexer: its kind (a byte the lexer defines),
// its text, and its value when it is a literal.
type token struct {
	kind byte
	text string
	val  sval
}

func isAlpha(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isWordByte(c byte) bool {
	return isAlpha(c) || c >= '0' && c <= '9'
}

// onceKnown keeps the variables assigned exactly once, to a value that is
// known: any other change makes a variable's value unknown.
func onceKnown(count map[string]int, values map[string]sval) map[string]sval {
	known := map[string]sval{}
	for name, n := range count {
		if n == 1 && values[name].known {
			known[name] = values[name]
		}
	}
	return known
}
