package rules

import (
	"testing"

	"github.com/gitsentinel/sentinel/guard/internal/guardtest"
	"github.com/gitsentinel/sentinel/guard/pathguard"
)

// For this commit only, the catalogue's test keeps the helper's name it was
// written with in package guard, so that the ratchet knows it by its body;
// the next commit calls guardtest in place.
func testEnv(t testing.TB) *pathguard.Env { return guardtest.Env(t) }
