package contain

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
)

// sandboxExec is macOS's sandbox, by absolute path.
const sandboxExec = "/usr/bin/sandbox-exec"

// seatbeltProfile is the sandbox-exec profile for the policy, in Apple's
// sandbox profile language. A later rule wins over an earlier one, so the
// order is bubblewrap's: writes denied everywhere, allowed in the writable
// paths, denied again on the approval machinery; reads of the secrets
// denied. macOS has no mount namespace, so the agent mark is not there:
// on macOS the agent is known by its process ancestry and environment as
// outside sentinel run.
func seatbeltProfile(p *Policy) string {
	var b strings.Builder
	b.WriteString("(version 1)\n(allow default)\n(deny file-write*)\n")
	b.WriteString("(allow file-write*\n")
	for _, f := range p.Fresh {
		fmt.Fprintf(&b, "  (subpath %s)\n", sbplString("/private"+f))
		fmt.Fprintf(&b, "  (subpath %s)\n", sbplString(f))
	}
	for _, w := range p.Writable {
		fmt.Fprintf(&b, "  (subpath %s)\n", sbplString(w))
	}
	b.WriteString("  (literal \"/dev/null\") (literal \"/dev/zero\") (literal \"/dev/dtracehelper\")\n")
	b.WriteString("  (regex #\"^/dev/tty\") (regex #\"^/dev/fd/\") (regex #\"^/private/var/folders/\"))\n")
	if len(p.ReadOnly) > 0 {
		b.WriteString("(deny file-write*\n")
		for _, r := range p.ReadOnly {
			fmt.Fprintf(&b, "  (subpath %s)\n", sbplString(r))
		}
		b.WriteString(")\n")
	}
	if len(p.Hidden) > 0 {
		b.WriteString("(deny file-read* file-write*\n")
		for _, h := range p.Hidden {
			fmt.Fprintf(&b, "  (subpath %s)\n", sbplString(h))
		}
		b.WriteString(")\n")
	}
	return b.String()
}

// sbplString quotes a path as a profile string literal.
func sbplString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}

// runSeatbelt runs the command under sandbox-exec with the policy's
// profile. It has never run in sentinel's own tests, which run on Linux:
// the profile is tested as text.
func runSeatbelt(ctx context.Context, p *Policy, stdio Stdio) (int, error) {
	if _, err := os.Stat(sandboxExec); err != nil {
		return 0, unavailable("%s is missing: sentinel run needs macOS's sandbox", sandboxExec)
	}
	args := append([]string{"-p", seatbeltProfile(p), "--"}, p.Command...)
	cmd := exec.CommandContext(ctx, sandboxExec, args...)
	cmd.Dir = p.Dir
	cmd.Env = append(os.Environ(), p.Env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdio.Stdin, stdio.Stdout, stdio.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal()), nil
		}
		return ee.ExitCode(), nil
	}
	return 0, err
}
