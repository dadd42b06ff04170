package chaos

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// The probes themselves run under `make chaos`; these tests cover the
// judgements they make, which need neither git nor the binary.

func TestNamedCommands(t *testing.T) {
	msg := `go tests 9 → 8 (below the peak by 1)
  missing: TestSub (calc/calc_test.go:9)
the ratchet refuses: a count went below its peak in .sentinel/baseline.json.
If the tests were removed or switched off on purpose, a person records it:
  sentinel accept --reason "WHY THESE TESTS WENT" --language go
sentinel: pre-commit: another sentinel holds /r/.git/sentinel/baseline.lock; if none is running, remove it: rm /r/.git/sentinel/baseline.lock
restore HEAD's peaks: run ` + "`git checkout HEAD -- .sentinel/baseline.json`" + `
sentinel: nothing is below its peak; ` + "`sentinel status`" + ` shows the margins
commit the set-up: git add .sentinel/config.toml && git commit -m "Set up sentinel"
`
	got := namedCommands(msg)
	want := [][]string{
		{"sentinel", "accept", "--reason", "as the message said", "--language", "go"},
		{"rm", "/r/.git/sentinel/baseline.lock"},
		{"git", "checkout", "HEAD", "--", ".sentinel/baseline.json"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("namedCommands:\n got %q\nwant %q", got, want)
	}
}

func TestShellFields(t *testing.T) {
	got := shellFields(`sentinel accept --reason "two words" --language 'py thon'  x`)
	want := []string{"sentinel", "accept", "--reason", "two words", "--language", "py thon", "x"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestIsTemp(t *testing.T) {
	for name, want := range map[string]bool{
		".baseline.json.sentinel-123":                true,
		".settings.json.sentinel-backup.sentinel-42": true,
		".counts-v5.gob.sentinel-7":                  true,
		"x.tmp":                                      true,
		"pre-commit.sentinel-prev":                   false,
		"settings.json.sentinel-backup":              false,
		"baseline.json":                              false,
		".sentinel":                                  false,
	} {
		if got := isTemp(name); got != want {
			t.Errorf("isTemp(%q) = %v, want %v", name, got, want)
		}
	}
}

// hooksInPlace is a snapshot's hooks with the foreign ones behind
// sentinel's.
func hooksInPlace() snapshot {
	s := snapshot{}
	for name, script := range foreignHooks {
		s[".git/hooks/"+name] = fileState{exists: true, mode: 0o755, data: "#!/bin/sh\n# " + fingerprint + " v1\n"}
		s[".git/hooks/"+name+".sentinel-prev"] = fileState{exists: true, mode: 0o755, data: script}
	}
	return s
}

func TestTorn(t *testing.T) {
	old := hooksInPlace()
	old[baselineFile] = fileState{exists: true, mode: 0o644, data: `{"version": 1, "peaks": {"go": {"tests": 9}}}`}
	old["notes.txt"] = fileState{exists: true, mode: 0o644, data: "a\n"}
	new := hooksInPlace()
	new[baselineFile] = fileState{exists: true, mode: 0o644, data: `{"version": 1, "peaks": {"go": {"tests": 8}}}`}
	new["notes.txt"] = fileState{exists: true, mode: 0o644, data: "a\nb\n"}

	if got := torn(old, new, new, nil, ""); len(got) != 0 {
		t.Errorf("the new state is torn: %q", got)
	}
	now := hooksInPlace()
	// Another valid baseline is whole; a text file cut short is not.
	now[baselineFile] = fileState{exists: true, mode: 0o644, data: `{"version": 1, "peaks": {"go": {"tests": 7}}}`}
	now["notes.txt"] = fileState{exists: true, mode: 0o644, data: "a\nb"}
	got := torn(old, new, now, nil, "")
	if len(got) != 1 || !strings.HasPrefix(got[0], "notes.txt:") {
		t.Errorf("got %q, want notes.txt alone", got)
	}
	now["notes.txt"] = new["notes.txt"]
	now[baselineFile] = fileState{exists: true, mode: 0o644, data: `{"version": 1, "peaks": {"go"`}
	if got := torn(old, new, now, nil, ""); len(got) != 1 || !strings.Contains(got[0], "unreadable") {
		t.Errorf("a cut baseline: got %q", got)
	}
}

func TestLostHooks(t *testing.T) {
	s := hooksInPlace()
	if got := lostHooks(s); len(got) != 0 {
		t.Errorf("chained hooks reported lost: %q", got)
	}
	// sentinel's hook in place, and the one it replaced gone.
	delete(s, ".git/hooks/pre-commit.sentinel-prev")
	if got := lostHooks(s); len(got) != 1 || !strings.Contains(got[0], "pre-commit") {
		t.Errorf("got %q, want the pre-commit hook lost", got)
	}
	// The foreign hook back in place, not executable.
	s[".git/hooks/pre-commit"] = fileState{exists: true, mode: 0o644, data: foreignHooks["pre-commit"]}
	if got := lostHooks(s); len(got) != 1 {
		t.Errorf("a hook git cannot run: got %q", got)
	}
}

func TestBlocked(t *testing.T) {
	for _, tc := range []struct {
		r    result
		want bool
	}{
		{result{exit: 0, dur: 20 * time.Millisecond}, false},
		{result{exit: 1, stderr: "go tests 9 → 8", dur: 20 * time.Millisecond}, false},
		{result{exit: 2, stderr: "sentinel: another sentinel holds /r/.git/sentinel/baseline.lock", dur: 5 * time.Second}, true},
		{result{exit: 128, stderr: "fatal: Unable to create '/r/.git/index.lock': File exists.", dur: 10 * time.Millisecond}, true},
		{result{exit: 0, dur: 4 * time.Second}, true},
		{result{timedOut: true, dur: 10 * time.Second}, true},
	} {
		tc.r.argv = []string{"sentinel"}
		if got := blocked(tc.r) != ""; got != tc.want {
			t.Errorf("blocked(%+v) = %v, want %v", tc.r, got, tc.want)
		}
	}
}
