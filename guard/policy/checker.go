package policy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/gitsentinel/sentinel/guard/verdict"
)

// Checker is an external program that reviews the tool calls the built-in
// rules let through: a team's policy service, a model-based reviewer.
type Checker struct {
	// Argv is the program and its arguments.
	Argv []string
	// Timeout bounds one review; past it the call is denied.
	Timeout time.Duration
}

// maxCheckerOutput is the most a checker may print; more is a denial.
const maxCheckerOutput = 64 << 10

// CheckerInput is what a checker reads on stdin.
type CheckerInput struct {
	Kind     string   `json:"kind"`
	Agent    string   `json:"agent"`
	Tool     string   `json:"tool"`
	Commands []string `json:"commands,omitempty"`
	Paths    []string `json:"paths,omitempty"`
	Raw      string   `json:"raw"`
	Cwd      string   `json:"cwd"`
}

// Review asks the checker. Only an answer of exactly {"allowed": true}, exit
// status 0, within the timeout, allows; anything else — a refusal, other
// JSON, garbage, a crash, a non-zero exit, a timeout, too much output, a
// program that cannot start — denies. The reason for the agent names the
// checker only: the checker's own words go to the person (stderr), never to
// the agent, which could read them as instructions.
func (c *Checker) Review(ctx context.Context, in CheckerInput) (verdict.Outcome, string) {
	name := filepath.Base(c.Argv[0])
	deny := func(why string) (verdict.Outcome, string) {
		var o verdict.Outcome
		o.Add(verdict.Finding{RuleID: "checker", Verdict: verdict.Deny,
			Reason: verdict.Reason("checker", fmt.Sprintf("the checker %s refused this call; a person can see why in the hook's log", name), "")})
		return o, verdict.OneLine(fmt.Sprintf("sentinel guard: checker %s: %s", name, why))
	}
	payload, err := json.Marshal(in)
	if err != nil {
		return deny(err.Error())
	}
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Argv[0], c.Argv[1:]...)
	cmd.Stdin = bytes.NewReader(payload)
	var out limitedBuffer
	cmd.Stdout = &out
	cmd.WaitDelay = 100 * time.Millisecond
	err = cmd.Run()
	switch {
	case ctx.Err() != nil:
		return deny(fmt.Sprintf("no answer within %v", c.Timeout))
	case out.over:
		return deny(fmt.Sprintf("more than %d bytes of output", maxCheckerOutput))
	case err != nil:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return deny(fmt.Sprintf("exit status %d", ee.ExitCode()))
		}
		return deny("cannot start: " + err.Error())
	}
	var ans map[string]json.RawMessage
	if json.Unmarshal(out.buf.Bytes(), &ans) != nil {
		return deny("an answer that is not JSON")
	}
	if len(ans) == 1 && string(ans["allowed"]) == "true" {
		return verdict.Outcome{}, ""
	}
	var why struct {
		Reason string `json:"reason"`
	}
	json.Unmarshal(out.buf.Bytes(), &why)
	if why.Reason == "" {
		why.Reason = "not an allow: " + strings.TrimSpace(out.buf.String())
	}
	return deny(why.Reason)
}

// limitedBuffer keeps at most maxCheckerOutput bytes and notes an overflow.
type limitedBuffer struct {
	buf  bytes.Buffer
	over bool
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if l.buf.Len()+len(p) > maxCheckerOutput {
		l.over = true
		return 0, errors.New("too much output")
	}
	return l.buf.Write(p)
}
