package gitrepo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/internal/gittest"
)

// sshKey makes an ed25519 key without a passphrase and returns the path of
// its public half.
func sshKey(t *testing.T, dir, name string) string {
	t.Helper()
	key := filepath.Join(dir, name)
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v: %s", err, out)
	}
	return key + ".pub"
}

// TestVerifyCommit signs commits with real ssh keys and checks what git
// verify-commit says of each against one allowed signers file, and that
// the signature's kind is read from the commit.
func TestVerifyCommit(t *testing.T) {
	gittest.Isolate(t)
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("ssh-keygen is not installed (openssh-client)")
	}
	ctx := context.Background()
	keys := t.TempDir()
	jane, eve := sshKey(t, keys, "jane"), sshKey(t, keys, "eve")
	pub, err := os.ReadFile(jane)
	if err != nil {
		t.Fatal(err)
	}
	allowed := filepath.Join(keys, "allowed_signers")
	if err := os.WriteFile(allowed, []byte(`jane@example.com namespaces="git" `+string(pub)), 0o644); err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	gitT(t, dir, "init", "-q", "-b", "main")
	gitT(t, dir, "config", "gpg.format", "ssh")
	gitT(t, dir, "commit", "-q", "--allow-empty", "-m", "unsigned")
	gitT(t, dir, "-c", "user.signingkey="+jane, "commit", "-q", "-S", "--allow-empty", "-m", "by Jane")
	gitT(t, dir, "-c", "user.signingkey="+eve, "commit", "-q", "-S", "--allow-empty", "-m", "by Eve")
	// A program that says every signature is good must not be asked.
	fake := filepath.Join(keys, "fake-ssh-keygen")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho 'Good \"git\" signature for jane@example.com with ED25519 key SHA256:x'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	gitT(t, dir, "config", "gpg.ssh.program", fake)
	gitT(t, dir, "config", "gpg.minTrustLevel", "undefined")

	commits, err := Range(ctx, dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		sig string
		ok  bool
		out string
	}{
		{"", false, ""},
		{"ssh", true, `Good "git" signature for jane@example.com with ED25519 key`},
		{"ssh", false, "No principal matched"},
	}
	if len(commits) != len(want) {
		t.Fatalf("%d commits, want %d", len(commits), len(want))
	}
	for i, c := range commits {
		if c.Signature != want[i].sig {
			t.Errorf("%s: signature %q, want %q", c.Message, c.Signature, want[i].sig)
		}
		v, err := VerifyCommit(ctx, dir, c.Hash, allowed)
		if err != nil {
			t.Fatalf("%s: %v", c.Message, err)
		}
		if v.OK != want[i].ok || !strings.Contains(v.Output, want[i].out) {
			t.Errorf("%s: OK %v, output %q; want %v and %q", c.Message, v.OK, v.Output, want[i].ok, want[i].out)
		}
	}
}

func TestSignatureKind(t *testing.T) {
	for first, want := range map[string]string{
		"-----BEGIN SSH SIGNATURE-----":  "ssh",
		"-----BEGIN PGP SIGNATURE-----":  "openpgp",
		"-----BEGIN SIGNED MESSAGE-----": "x509",
		"something else":                 "unknown",
	} {
		if got := signatureKind(first); got != want {
			t.Errorf("signatureKind(%q) = %q, want %q", first, got, want)
		}
	}
	raw := "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor A <a@x> 1 +0000\ncommitter A <a@x> 1 +0000\n" +
		"gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQ\n -----END PGP SIGNATURE-----\n\nmsg\n"
	if got := parseRawCommit("c", []byte(raw)).Signature; got != "openpgp" {
		t.Errorf("parsed signature %q, want openpgp", got)
	}
}
