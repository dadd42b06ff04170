package live_test

import (
	"testing"

	"github.com/gitsentinel/sentinel/guard/hostrun"
	"github.com/gitsentinel/sentinel/internal/fakemodel"
)

// TestLiveAugment runs Auggie's phases against the fake Augment API; its
// settings and tools are hostrun's.
func TestLiveAugment(t *testing.T) { liveHost(t, hostrun.Hosts["augment"]) }

// TestLiveAugmentApplyPatch runs Auggie's other tool that writes files,
// apply_patch, into git's hooks: an older install's matcher did not reach
// it, and the patch landed.
func TestLiveAugmentApplyPatch(t *testing.T) {
	h := *hostrun.Hosts["augment"]
	h.Kinds = []kind{write}
	h.Call = func(k kind, a hostrun.Args) []fakemodel.Call {
		if k == write {
			return []fakemodel.Call{hostrun.AugmentPatch(a.Path, a.Content)}
		}
		return hostrun.Hosts["augment"].Call(k, a)
	}
	liveHost(t, &h)
}
