package config

import (
	"fmt"
	"strings"
)

// CheckSince checks a [ci] since value: empty, or a full commit id (40
// hex digits, or 64 in a SHA-256 repository). A branch or a tag would move
// with the repository, and an abbreviation could come to name another
// commit.
func CheckSince(s string) error {
	if s == "" {
		return nil
	}
	if len(s) != 40 && len(s) != 64 {
		return fmt.Errorf("%q is not a full commit id; run `git rev-parse COMMIT` and write the id it prints", s)
	}
	for _, r := range s {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return fmt.Errorf("%q is not a full commit id in lowercase hex; run `git rev-parse COMMIT` and write the id it prints", s)
		}
	}
	return nil
}

// ReadSince reads [ci] since from a configuration as some commit holds it,
// leniently, as ReadSigners reads its key.
func ReadSince(name string, data []byte) (string, error) {
	var c struct {
		CI struct {
			Since string `toml:"since"`
		} `toml:"ci"`
	}
	if err := decodeLenient(name, data, &c); err != nil {
		return "", err
	}
	if err := CheckSince(c.CI.Since); err != nil {
		return "", fmt.Errorf("%s: ci.since: %w", name, err)
	}
	return c.CI.Since, nil
}

// sinceLine is the line of Template that init fills in.
const sinceLine = "# since = \"\"\n"

// WithSince returns Template with [ci] since set to commit.
func WithSince(commit string) string {
	return strings.Replace(Template, sinceLine, fmt.Sprintf("since = %q\n", commit), 1)
}
