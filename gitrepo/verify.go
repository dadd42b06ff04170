package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// ArgvVerifyCommit checks a commit's ssh signature against one allowed
// signers file: VerifyCommit puts "-c gpg.ssh.allowedSignersFile=FILE" in
// front of it and appends the commit. The format, the program and the
// trust level are pinned here, so that no git configuration on the machine
// (a gpg.ssh.program that always says yes, a lower gpg.minTrustLevel)
// changes the answer.
var ArgvVerifyCommit = []string{
	"-c", "gpg.format=ssh",
	"-c", "gpg.ssh.program=ssh-keygen",
	"-c", "gpg.minTrustLevel=fully",
	"verify-commit", "--raw",
}

// ErrNoSSHKeygen is returned when ssh-keygen, which git runs to check an
// ssh signature, is not installed.
var ErrNoSSHKeygen = errors.New("checking an ssh signature needs ssh-keygen, which is not on PATH: install OpenSSH's client (apt-get install openssh-client, apk add openssh-keygen, or brew install openssh)")

// Verification is what git verify-commit said of a commit.
type Verification struct {
	// OK reports a good signature by a key the allowed signers file lists.
	OK bool
	// Output is what ssh-keygen reported through git, trimmed: `Good "git"
	// signature for jane@example.com with ED25519 key SHA256:…`, or why
	// the signature does not count ("No principal matched.").
	Output string
}

// VerifyCommit asks git whether commit carries a good ssh signature by a
// key that the allowed signers file at allowedSigners lists. A signature
// that does not count is a Verification with OK false; an error means the
// check could not be made.
func VerifyCommit(ctx context.Context, root, commit, allowedSigners string) (*Verification, error) {
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		return nil, ErrNoSSHKeygen
	}
	argv := append([]string{"-c", "gpg.ssh.allowedSignersFile=" + allowedSigners}, ArgvVerifyCommit...)
	cmd := (&Git{Dir: root}).command(ctx, argv, commit)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	v := &Verification{Output: strings.TrimSpace(out.String())}
	var ee *exec.ExitError
	switch {
	case err == nil:
		v.OK = true
	case errors.As(err, &ee) && ee.ExitCode() == 1:
		// git's answer for a missing, bad or untrusted signature.
	case err != nil:
		return nil, fmt.Errorf("git verify-commit %s: %w: %s", commit, err, v.Output)
	}
	return v, nil
}
