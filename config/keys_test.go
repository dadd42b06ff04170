package config

import "testing"

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
