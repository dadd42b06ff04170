package live_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gitsentinel/sentinel/guard/hostrun"
	"github.com/gitsentinel/sentinel/internal/fakemodel"
)

func TestLiveKiloCode(t *testing.T) { liveHost(t, hostrun.Hosts["kilo"]) }

// TestLiveKiloBackgroundProcess: Kilo Code's background_process, which
// starts a command of its own, runs it without the guard and is refused
// with it.
func TestLiveKiloBackgroundProcess(t *testing.T) {
	h := hostrun.Hosts["kilo"]
	modules, bins := need(t)
	call := []fakemodel.Call{{Name: "background_process", Args: map[string]any{"action": "start", "command": dangerCommand, "description": "run it"}}}
	for _, guard := range []bool{false, true} {
		p := newPhase(t, h, modules, bins, guard, false)
		if guard {
			p.install()
		}
		p.run(call)
		switch {
		case !guard && !p.committed():
			p.fail("without the guard, background_process did not run %q: the test proves nothing", dangerCommand)
		case guard && p.committed():
			p.fail("with the guard, background_process ran %q", dangerCommand)
		case guard && !strings.Contains(p.result(), ruleOf[shell]):
			p.fail("the result the model got does not name sentinel's rule %s: %q", ruleOf[shell], p.result())
		}
		t.Logf("guard %v: (%s) the model got %q", guard, p.elapsed.Round(time.Millisecond), abbreviate(p.outcome.Result, 300))
		for _, e := range p.recorded() {
			if e != "" {
				keepEvent(t, h, "background", e)
			}
		}
	}
}
