package style

import (
	"bytes"
	"os"
	"testing"
)

func TestFor(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	for _, tc := range []struct {
		name string
		w    any
		env  func(string) string
		mode string
		on   bool
	}{
		{"a buffer, auto", &bytes.Buffer{}, env(), "auto", false},
		{"a file that is no terminal", devnull, env(), "", false},
		{"always", &bytes.Buffer{}, env("NO_COLOR", "1"), "always", true},
		{"never", devnull, env(), "never", false},
		{"NO_COLOR wins over auto", devnull, env("NO_COLOR", "1"), "auto", false},
	} {
		s, err := For(tc.w.(interface{ Write([]byte) (int, error) }), tc.env, tc.mode)
		if err != nil || s.On() != tc.on {
			t.Errorf("%s: on %v, %v; want %v", tc.name, s.On(), err, tc.on)
		}
	}
	if _, err := For(&bytes.Buffer{}, env(), "sometimes"); err == nil {
		t.Error("an unknown mode was taken")
	}
	if got := (Style{}).Fail("refused"); got != "refused" {
		t.Errorf("plain Fail = %q", got)
	}
	if got := (Style{on: true}).Fail("refused"); got != "\x1b[1;31mrefused\x1b[0m" {
		t.Errorf("Fail = %q", got)
	}
}
