package trailers

import (
	"fmt"
	"strings"

	"github.com/gitsentinel/sentinel/gitrepo"
)

// Alias is a configured trailer.<name>.key: a token that git recognises as
// a trailer prefix, and the key it is printed as.
type Alias struct {
	// Name is the <name> part of trailer.<name>.*.
	Name string
	// Key is the value of trailer.<name>.key, empty when only other
	// trailer.<name>.* variables are set.
	Key string
}

// Syntax is the part of git's configuration that changes where a trailer
// block is and how its lines split: the comment prefix, the separators and
// the configured trailer aliases.
type Syntax struct {
	// Comment is the comment prefix (core.commentChar or
	// core.commentString); "#" by default.
	Comment string
	// Separators is trailer.separators; ":" by default.
	Separators string
	// Aliases are the trailer.<name>.* entries, in configuration order.
	Aliases []Alias
}

// DefaultSyntax returns the syntax git uses with no configuration.
func DefaultSyntax() Syntax {
	return Syntax{Comment: "#", Separators: ":"}
}

// aliasVariables are the trailer.<name>.<variable> names that make git
// create a configured trailer item (trailer.c, trailer_config_items).
var aliasVariables = map[string]bool{
	"key": true, "command": true, "cmd": true, "where": true, "ifexists": true, "ifmissing": true,
}

// SyntaxFromConfig builds the syntax from configuration entries in the
// order git reads them, so that the last value of a key wins as in git.
func SyntaxFromConfig(entries []gitrepo.ConfigEntry) (Syntax, error) {
	s := DefaultSyntax()
	for _, e := range entries {
		switch {
		case e.Key == "core.commentchar" || e.Key == "core.commentstring":
			v := e.Value
			if v == "auto" {
				// "auto" only matters to `git commit`, which picks a
				// character per message; everything else uses '#'.
				v = "#"
			}
			if v == "" || strings.ContainsAny(v, "\n") {
				return s, fmt.Errorf("%s: invalid comment prefix %q", e.Key, e.Value)
			}
			s.Comment = v
		case e.Key == "trailer.separators":
			if e.Value == "" {
				return s, fmt.Errorf("trailer.separators: empty value")
			}
			s.Separators = e.Value
		case strings.HasPrefix(e.Key, "trailer."):
			rest := e.Key[len("trailer."):]
			dot := strings.LastIndexByte(rest, '.')
			if dot < 0 || !aliasVariables[rest[dot+1:]] {
				continue
			}
			name, variable := rest[:dot], rest[dot+1:]
			i := s.aliasIndex(name)
			if i < 0 {
				s.Aliases = append(s.Aliases, Alias{Name: name})
				i = len(s.Aliases) - 1
			}
			if variable == "key" {
				s.Aliases[i].Key = e.Value
			}
		}
	}
	return s, nil
}

func (s *Syntax) aliasIndex(name string) int {
	for i, a := range s.Aliases {
		if strings.EqualFold(a.Name, name) {
			return i
		}
	}
	return -1
}
