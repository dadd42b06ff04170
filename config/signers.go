package config

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// DefaultSigners is where the README and the template put the allowed
// signers file.
const DefaultSigners = Dir + "/allowed_signers"

// CheckSignersPath checks a [ratchet] signers value: empty, or a clean
// slash path inside the repository that git can track (not absolute, no
// "..", nothing under .git). Whether the file exists is not checked here:
// it must be in the tree of the commit that is trusted for it, and
// `sentinel ci` checks it there.
func CheckSignersPath(p string) error {
	switch {
	case p == "":
		return nil
	case strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return errors.New("the path holds a control character")
	case strings.Contains(p, `\`):
		return fmt.Errorf("%q: write the path with forward slashes", p)
	case path.IsAbs(p) || (len(p) >= 2 && p[1] == ':'):
		return fmt.Errorf("%q is absolute: it must be a path inside the repository, relative to its root, such as %q", p, DefaultSigners)
	case path.Clean(p) != p || p == "." || p == ".." || strings.HasPrefix(p, "../"):
		return fmt.Errorf("%q is not a clean path inside the repository: write it relative to the root, without . or .., such as %q", p, DefaultSigners)
	}
	if first, _, _ := strings.Cut(p, "/"); strings.EqualFold(first, ".git") {
		return fmt.Errorf("%q is inside .git, which git does not track: commit the file, such as %q", p, DefaultSigners)
	}
	return nil
}

// ReadSigners reads [ratchet] signers from a configuration as some commit
// holds it. It reads that one key leniently, so that a configuration an
// older or newer sentinel wrote still says whom it trusts; an error means
// the file is not TOML, or the value is not a valid path.
func ReadSigners(name string, data []byte) (string, error) {
	var c struct {
		Ratchet struct {
			Signers string `toml:"signers"`
		} `toml:"ratchet"`
	}
	if err := decodeLenient(name, data, &c); err != nil {
		return "", err
	}
	if err := CheckSignersPath(c.Ratchet.Signers); err != nil {
		return "", fmt.Errorf("%s: ratchet.signers: %w", name, err)
	}
	return c.Ratchet.Signers, nil
}

// ReadHarness reads [ratchet] harness from a configuration as some commit
// holds it: "person" or "report" ("" reads as "report"). A value sentinel
// does not know reads as "person", the stricter: a commit cannot relax
// the rule by misspelling it.
func ReadHarness(name string, data []byte) (string, error) {
	var c struct {
		Ratchet struct {
			Harness string `toml:"harness"`
		} `toml:"ratchet"`
	}
	if err := decodeLenient(name, data, &c); err != nil {
		return HarnessPerson, err
	}
	switch c.Ratchet.Harness {
	case "", HarnessReport:
		return HarnessReport, nil
	}
	return HarnessPerson, nil
}

// decodeLenient decodes the keys v names from a configuration as some
// commit holds it, leaving the others aside, so that a file an older or
// newer sentinel wrote still says what it needs; an error names the file,
// line and column.
func decodeLenient(name string, data []byte, v any) error {
	if len(data) > MaxSize {
		return fmt.Errorf("%s: larger than %d bytes", name, MaxSize)
	}
	if err := toml.NewDecoder(bytes.NewReader(data)).Decode(v); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			return fmt.Errorf("%s:%d:%d: %s", name, row, col, de.Error())
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
