//go:build !sentinel_front

package main

import (
	"fmt"
	"os"

	"github.com/gitsentinel/sentinel/guard"
)

// checkFront refuses to run for a front binary of another build: the two
// are installed together, and a mismatch means one of them was replaced.
func checkFront(getenv func(string) string) error {
	if v := getenv(frontVersionEnv); v != "" && v != version {
		return fmt.Errorf("this sentinel-engine is version %s, and the sentinel that started it %s; install both from one build: run `make install` in sentinel's source", version, v)
	}
	return nil
}

// delegateEvent is nil in the engine, which reads every language the guard
// reads: no event needs handing on.
func delegateEvent(*env) func(input []byte) (guard.EngineReply, error) {
	return nil
}

// reportVerdict writes the decision's verdict on descriptor 3 when the
// front started this engine for the event and asked for it there.
func reportVerdict(e *env, r guard.Reply) {
	if r.Decision == nil || e.getenv(frontVersionEnv) == "" || e.getenv(engineVerdictEnv) != "3" {
		return
	}
	f := os.NewFile(3, "verdict")
	if f == nil {
		return
	}
	fmt.Fprintln(f, r.Decision.Verdict)
	f.Close()
}
