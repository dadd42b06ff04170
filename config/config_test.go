package config

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

var uncomment = regexp.MustCompile(`^# ([a-z_]+ = |\[)`)

func TestTemplateDecodesToDefaults(t *testing.T) {
	c, err := Parse("config.toml", []byte(Template))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, Default()) {
		t.Fatalf("template decodes to %+v, want the defaults %+v", c, Default())
	}
	// Uncommenting every key must give a valid file with the same values.
	var b strings.Builder
	for _, line := range strings.Split(Template, "\n") {
		if uncomment.MatchString(line) {
			line = strings.TrimPrefix(line, "# ")
		}
		b.WriteString(line + "\n")
	}
	c, err = Parse("config.toml", []byte(b.String()))
	if err != nil {
		t.Fatalf("uncommented template: %v\n%s", err, b.String())
	}
	if c.Trailers.Footer != "keep" || c.Trailers.Models["claude"] != "claude-opus-4-5" {
		t.Fatalf("uncommented template decoded to %+v", c.Trailers)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"unknown key", "[trailers]\nfooter = \"keep\"\nfoter = \"x\"\n", "c.toml:3:1: unknown key trailers.foter"},
		{"unknown table", "[trailer]\nformat = \"x\"\n", "c.toml:1:2: unknown key trailer"},
		{"bad footer", "[trailers]\n  footer = \"drop\"\n", `c.toml:2:3: trailers.footer: "drop" is not one of keep, strip, refuse`},
		{"bad coauthor", "[trailers]\nagent_coauthor = \"allow\"\n", `c.toml:2:1: trailers.agent_coauthor: "allow" is not one of refuse, rewrite`},
		{"empty format", "[trailers]\nformat = \"\"\n", "c.toml:2:1: trailers.format: must be one non-empty line"},
		{"syntax", "[trailers\n", "c.toml:1:"},
		{"wrong type", "[trailers]\ntools = \"x\"\n", "c.toml:2:"},
		{"signers absolute", "[ratchet]\nsigners = \"/etc/allowed_signers\"\n", `c.toml:2:1: ratchet.signers: "/etc/allowed_signers" is absolute`},
		{"signers outside", "[ratchet]\nsigners = \"../keys\"\n", `c.toml:2:1: ratchet.signers: "../keys" is not a clean path inside the repository`},
		{"signers unclean", "[ratchet]\nsigners = \".sentinel//allowed_signers\"\n", `c.toml:2:1: ratchet.signers: ".sentinel//allowed_signers" is not a clean path`},
		{"signers in .git", "[ratchet]\nsigners = \".git/allowed_signers\"\n", `c.toml:2:1: ratchet.signers: ".git/allowed_signers" is inside .git`},
		{"signers backslash", "[ratchet]\nsigners = \"keys\\\\signers\"\n", `c.toml:2:1: ratchet.signers: "keys\\signers": write the path with forward slashes`},
		{"empty exclude", "[coverage]\nexclude = [\"vendor/**\", \"\"]\n", "c.toml:2:1: coverage.exclude: a pattern must be one non-empty line"},
		{"escape in format", "[trailers]\nformat = \"{agent}\\u001b]52;c;ZXZpbA==\\u0007\"\n", "c.toml:2:1: trailers.format: holds a control character"},
		{"escape in a tool", "[trailers]\ntools = [\"sparse\\u001b[2J\"]\n", "c.toml:2:1: trailers.tools: a tool name holds a control character"},
		{"unknown agent in expect", "[guard]\nlevel = \"strict\"\n  expect = [\"claude\", \"clade\"]\n", `c.toml:3:3: guard.expect: "clade" is not an agent sentinel guard install knows (did you mean claude?); it knows amp, augment, claude,`},
		{"agent expected twice", "[guard]\nexpect = [\"codex\", \"codex\"]\n", `c.toml:2:1: guard.expect: "codex" is named twice`},
		{"expect not a list", "[guard]\nexpect = \"claude\"\n", "c.toml:2:"},
		{"C1 in a model", "[trailers.models]\nclaude = \"opus\\u009b2J\"\n", "c.toml:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("c.toml", []byte(tc.data))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want prefix %q", err, tc.want)
			}
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	c, err := Load(dir)
	if err != nil || !reflect.DeepEqual(c, Default()) {
		t.Fatalf("missing file: %+v, %v; want defaults", c, err)
	}
	if err := os.MkdirAll(filepath.Join(dir, Dir), 0o755); err != nil {
		t.Fatal(err)
	}
	data := "[trailers]\nformat = \"LLM\"\nfooter = \"strip\"\n[trailers.models]\ncodex = \"gpt-5\"\n"
	if err := os.WriteFile(filepath.Join(dir, File), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err = Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c.Trailers.Format != "LLM" || c.Trailers.Footer != "strip" || c.Trailers.Models["codex"] != "gpt-5" || c.Trailers.AgentCoauthor != "rewrite" {
		t.Fatalf("decoded %+v", c.Trailers)
	}
}

func TestReadSigners(t *testing.T) {
	for _, tc := range []struct{ name, data, want, err string }{
		{"unset", "[trailers]\nfooter = \"keep\"\n", "", ""},
		{"set", "[ratchet]\nsigners = \".sentinel/allowed_signers\"\n", ".sentinel/allowed_signers", ""},
		// A key this sentinel does not know does not hide the setting.
		{"unknown keys", "[ratchet]\nsigners = \"keys/signers\"\nfuture = 1\n[elsewhere]\nx = 2\n", "keys/signers", ""},
		{"not TOML", "[ratchet\n", "", "c.toml:1:"},
		{"bad path", "[ratchet]\nsigners = \"../x\"\n", "", "c.toml: ratchet.signers: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadSigners("c.toml", []byte(tc.data))
			switch {
			case tc.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.err)):
				t.Fatalf("error %v, want prefix %q", err, tc.err)
			case tc.err == "" && err != nil:
				t.Fatal(err)
			case got != tc.want:
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestTypeErrors: a value of the wrong type is named by its key and what
// it must be, at its place, never by Go's field names.
func TestTypeErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"[ratchet]\nauto_raise = \"yes\"\n", "c.toml:2:14: ratchet.auto_raise must be true or false"},
		{"[coverage]\nexclude = \"x\"\n", `c.toml:2:11: coverage.exclude must be a list of strings, such as ["a", "b"]`},
		{"[guard]\nrules = 3\n", "c.toml:2:9: guard.rules must be a list of tables: [[guard.rules]] entries, each with its own keys"},
		{"[[guard.rules]]\ntool = 3\n", "c.toml:2:8: guard.rules.tool must be a string, in quotes"},
		{"[trailers.models]\nclaude = 1\n", "c.toml:2:10: trailers.models.claude must be a string, in quotes"},
		{"trailers = 1\n", "c.toml:1:12: trailers must be a table: [trailers]"},
	} {
		_, err := Parse("c.toml", []byte(tc.in))
		if err == nil || err.Error() != tc.want {
			t.Errorf("Parse(%q) = %v, want %s", tc.in, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "config.") {
			t.Errorf("Parse(%q) names Go internals: %v", tc.in, err)
		}
	}
}

// TestGuardExpect: [guard] expect reads the agents named, in order.
func TestGuardExpect(t *testing.T) {
	c, err := Parse("c.toml", []byte("[guard]\nexpect = [\"claude\", \"cursor\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Guard.Expect, []string{"claude", "cursor"}) {
		t.Fatalf("expect = %q", c.Guard.Expect)
	}
}
