package config

import (
	"regexp"
	"strings"
	"testing"
)

// FuzzParse holds Parse to its contract for any input: a configuration, or
// an error that says where (file:line:col) and never a panic.
func FuzzParse(f *testing.F) {
	f.Add([]byte(Template))
	f.Add([]byte("[trailers]\nfooter = \"strip\"\n"))
	f.Add([]byte("[trailers]\nfooter = \"maybe\"\n"))
	f.Add([]byte("[[coverage.scope]]\nname = \"api\"\npaths = [\"api/**\"]\n"))
	f.Add([]byte("[[guard.rules]]\ntool = \"bash\"\npattern = \"\"\nverdict = \"deny\"\n"))
	f.Add([]byte("[guard]\nchecker_timeout = \"-1s\"\n"))
	f.Add([]byte("[ratchet\nauto_raise = true\n"))
	f.Add([]byte("x = \"\xff\"\n"))
	where := regexp.MustCompile(`^config\.toml:(\d+):(\d+): `)
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("config.toml", data)
		if err != nil {
			m := where.FindStringSubmatch(err.Error())
			if m == nil {
				t.Fatalf("error without file:line:col: %q", err)
			}
			if m[1] == "0" || m[2] == "0" {
				t.Fatalf("position is 1-based: %q", err)
			}
			if lines := strings.Count(string(data), "\n") + 1; len(m[1]) > 9 || atoi(m[1]) > lines {
				t.Fatalf("line %s past the input's %d lines: %q", m[1], lines, err)
			}
			return
		}
		if c == nil {
			t.Fatal("nil config without an error")
		}
	})
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}
