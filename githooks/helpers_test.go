package githooks

import (
	"github.com/gitsentinel/sentinel/internal/gittest"
	"github.com/gitsentinel/sentinel/trailers"
)

var repo = gittest.Repo

// env is an environment of the given variables and no parent processes,
// so that an agent running the tests is not taken for one under test.
func env(kv ...string) trailers.Env {
	return trailers.Env{Getenv: func(k string) string {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1]
			}
		}
		return ""
	}}
}
