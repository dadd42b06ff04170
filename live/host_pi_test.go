package live_test

import (
	"testing"

	"github.com/gitsentinel/sentinel/guard/hostrun"
)

func TestLivePi(t *testing.T) { liveHost(t, hostrun.Hosts["pi"]) }
