//go:build !sentinel_front

package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestAfterFirstGC: the switch to the long-run collector's settings
// happens once a collection has run, and not before.
func TestAfterFirstGC(t *testing.T) {
	// No collection of the test's own may run in the first wait.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	done := make(chan struct{})
	afterFirstGC(func() { close(done) })
	select {
	case <-done:
		t.Fatal("called before any collection")
	case <-time.After(10 * time.Millisecond):
	}
	deadline := time.After(10 * time.Second)
	for {
		runtime.GC()
		select {
		case <-done:
			return
		case <-deadline:
			t.Fatal("not called after collections")
		case <-time.After(10 * time.Millisecond):
		}
	}
}
