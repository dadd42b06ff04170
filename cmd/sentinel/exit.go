package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/gitsentinel/sentinel/internal/quote"
)

// Exit codes: the only place they are defined.
const (
	// exitOK: everything passed.
	exitOK = 0
	// exitPolicy: a policy said no (an agent sign-off, a drop below a
	// peak, a denied command).
	exitPolicy = 1
	// exitError: sentinel could not do its job (a bad flag, not a git
	// repository, an unreadable configuration).
	exitError = 2
	// exitUnconfined: sentinel run could not contain the command (no
	// sandbox applies here, or one of its rules could not be applied), so
	// the command never ran. Apart from 0 to 2, which the command's own
	// status passes through as, and from the shell's 126 and 127.
	exitUnconfined = 125
)

// hostExit is an exit status an agent's hook protocol prescribes (Codex
// reads a deny from exit status 2 and stderr), already reported.
type hostExit struct{ code int }

// Error names the status.
func (e *hostExit) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// policyError is a refusal that has already been reported.
type policyError struct{ what string }

// Error says what was refused; the details were reported already.
func (e *policyError) Error() string { return e.what }

// usageError is a mistake on the command line.
type usageError struct{ err error }

// Error is the mistake.
func (e *usageError) Error() string { return e.err.Error() }

// Unwrap returns the mistake.
func (e *usageError) Unwrap() error { return e.err }

// exitCode maps the error run returns to the process's exit status, and
// prints what went wrong.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var pe *policyError
	if errors.As(err, &pe) {
		return exitPolicy
	}
	var he *hostExit
	if errors.As(err, &he) {
		return he.code
	}
	// An error may carry a path or a name from the repository that no one
	// quoted on the way: the last chance to keep it off the terminal.
	fmt.Fprintf(stderr, "sentinel: %s\n", quote.Text(err.Error()))
	return exitError
}
