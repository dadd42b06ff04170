//go:build !sentinel_front

package main

import (
	"fmt"

	"github.com/gitsentinel/sentinel/guard/hosts"
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
func delegateEvent(*env) func(input []byte) (hosts.Answer, error) {
	return nil
}
