package config

import (
	"errors"
	"testing"
)

func TestUnknownKeyHint(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{"[ratchet]\nauto_rasie = false\n", "c.toml:2:1: unknown key ratchet.auto_rasie (did you mean auto_raise?)"},
		{"[trailers]\nfoter = \"x\"\n", "c.toml:2:1: unknown key trailers.foter (did you mean footer?)"},
		{"[trailer]\nformat = \"x\"\n", "c.toml:1:2: unknown key trailer (did you mean trailers?)"},
		{"[[guard.rules]]\ntol = \"bash\"\n", "c.toml:2:1: unknown key guard.rules.tol (did you mean tool?)"},
		{"[[coverage.scope]]\nname = \"api\"\npath = [\"a/**\"]\n", "c.toml:3:1: unknown key coverage.scope.path (did you mean paths?)"},
		{"[ratchet]\nfrobnicate = 1\n", "c.toml:2:1: unknown key ratchet.frobnicate"},
	} {
		_, err := Parse("c.toml", []byte(tc.data))
		if err == nil || err.Error() != tc.want {
			t.Errorf("Parse(%q) = %v, want %q", tc.data, err, tc.want)
		}
	}
}

// TestKeyErrorFix: the fix names the edit, the key it is a typo of, or the
// keys the table knows when there is no near one.
func TestKeyErrorFix(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{"[ratchet]\nauto_rasie = false\n", "rename auto_rasie to auto_raise at c.toml:2:1"},
		{"[trailer]\nformat = \"x\"\n", "rename trailer to trailers at c.toml:1:2"},
		{"[ratchet]\nfrobnicate = 1\n", "remove ratchet.frobnicate at c.toml:2:1; [ratchet] knows auto_raise, signers, harness"},
	} {
		_, err := Parse("c.toml", []byte(tc.data))
		var ke *KeyError
		if !errors.As(err, &ke) {
			t.Fatalf("Parse(%q) = %v, want a KeyError", tc.data, err)
		}
		if got := ke.Fix(); got != tc.want {
			t.Errorf("Parse(%q).Fix() = %q, want %q", tc.data, got, tc.want)
		}
	}
}
