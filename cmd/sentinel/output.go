//go:build !sentinel_front

package main

import (
	"errors"
	"io"

	"github.com/gitsentinel/sentinel/internal/jsonout"
)

// reportIn runs a command that reports in format. Asked for JSON, a
// command that cannot do its job (exit status 2: not a repository, no
// baseline, a bad revision) still writes a JSON document to stdout, when
// it had written nothing there yet: {"version": 1, "error": "..."}, beside
// the message on stderr. A program that reads the report gets a document
// either way, and the exit status says which. A refusal (exit status 1)
// is a report already.
func reportIn(e *env, format string, work func(e *env) error) error {
	if format != "json" {
		return work(e)
	}
	w := &trackedWriter{w: e.stdout}
	we := *e
	we.stdout = w
	err := work(&we)
	var pe *policyError
	var he *hostExit
	if err == nil || w.wrote || errors.As(err, &pe) || errors.As(err, &he) {
		return err
	}
	if werr := jsonout.WriteError(e.stdout, err); werr != nil {
		return errors.Join(err, werr)
	}
	return err
}

// trackedWriter records whether anything was written through it.
type trackedWriter struct {
	w     io.Writer
	wrote bool
}

// Write writes p on, and records that it did.
func (t *trackedWriter) Write(p []byte) (int, error) {
	if len(p) > 0 {
		t.wrote = true
	}
	return t.w.Write(p)
}
