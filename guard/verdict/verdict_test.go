package verdict

import (
	"strings"
	"testing"
)

// TestReasonShapes pins the one shape a reason has: hosts show it, the
// recorded events hold it, and people grep for the rule id in it.
func TestReasonShapes(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Reason("parse", "unterminated quote", "write it out"), "sentinel guard [parse]: unterminated quote; instead: write it out"},
		{Reason("config", "the configured rule says deny", ""), "sentinel guard [config]: the configured rule says deny"},
		{High.Reason("git.force-push", "rewrites the remote's history", "push without --force"), "sentinel guard [git.force-push, HIGH]: rewrites the remote's history; instead: push without --force"},
		{Critical.Reason("path.system", "writes a system file (/etc/passwd)", "write inside the project"), "sentinel guard [path.system, CRITICAL]: writes a system file (/etc/passwd); instead: write inside the project"},
	} {
		if c.got != c.want {
			t.Errorf("got  %q\nwant %q", c.got, c.want)
		}
	}
}

// TestOneLine checks that a reason reaches a host on one line, cut at 300
// bytes.
func TestOneLine(t *testing.T) {
	if got := OneLine("a\n  b\tc"); got != "a b c" {
		t.Errorf("OneLine folded to %q", got)
	}
	long := OneLine(strings.Repeat("x ", 400))
	if len(long) != 300 || !strings.HasSuffix(long, "...") {
		t.Errorf("a long reason is %d bytes, ending %q", len(long), long[len(long)-5:])
	}
	if ParseLevel("paranoid") != Paranoid || ParseLevel("") != Standard || ParseLevel("bogus") != Standard {
		t.Error("ParseLevel misreads a level")
	}
}

// TestInside: where a finding was found goes before the safer way.
func TestInside(t *testing.T) {
	r := High.Reason("rm.repository", "deleting the repository", "delete the files you mean")
	if got, want := Inside(r, "x.sh"), "sentinel guard [rm.repository, HIGH]: deleting the repository, in x.sh; instead: delete the files you mean"; got != want {
		t.Errorf("Inside = %q, want %q", got, want)
	}
	if got, want := Inside(Reason("parse", "it does not parse", ""), "x.sh"), "sentinel guard [parse]: it does not parse, in x.sh"; got != want {
		t.Errorf("Inside = %q, want %q", got, want)
	}
}
