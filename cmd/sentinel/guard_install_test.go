//go:build !sentinel_front

package main

import "testing"

func TestGoRunBuild(t *testing.T) {
	for bin, want := range map[string]bool{
		"/tmp/go-build3141592/b001/exe/sentinel":             true,
		"/var/folders/x/T/go-build27/b001/exe/sentinel":      true,
		"/home/jane/go/bin/sentinel":                         false,
		"/opt/homebrew/Cellar/sentinel/1.0/bin/sentinel":     false,
		"/home/jane/src/go-builder/sentinel/../bin/sentinel": false,
		"/tmp/testscript-main1/bin/sentinel":                 false,
		"/home/jane/go-build-tools/bin/sentinel":             false,
	} {
		if got := goRunBuild(bin); got != want {
			t.Errorf("%s: %v, want %v", bin, got, want)
		}
	}
}
