package guard

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/gitsentinel/sentinel/guard/audit"
	"github.com/gitsentinel/sentinel/guard/hosts"
	"github.com/gitsentinel/sentinel/guard/policy"
	"github.com/gitsentinel/sentinel/guard/verdict"
	"github.com/gitsentinel/sentinel/internal/quote"
)

// Event is one hook event to answer, with what answering it needs from
// outside the engine.
type Event struct {
	Request
	// Engine decides an event whose code this binary cannot read, for want
	// of a grammar (the front): it hands the raw event to the engine binary,
	// within EngineTimeout, and returns its answer, which the engine has
	// audited, with the verdict the engine reports apart from the answer.
	// An error, or an answer without an explicit verdict that fits it,
	// leaves the front's own denial. Nil in the engine itself.
	Engine func(raw []byte) (EngineReply, error)
	// AuditPath is the audit trail; "" when neither XDG_STATE_HOME nor HOME
	// names a directory.
	AuditPath string
	// Audit, when set, writes the audit trail in place of AuditPath: inside
	// sentinel run, where the trail is read-only, it has the broker outside
	// decide the same event again and record its own decision. dialect is
	// the host's dialect as decided.
	Audit func(dialect string) error
	// Cwd stands in, in the audit trail, for an event that names none.
	Cwd string
	// Now is the time of the record; nil is time.Now.
	Now func() time.Time
	// Contain is asked when [guard] contain is on and a shell call may be
	// contained: it returns the absolute path of the sentinel that runs
	// it (this one, as the hook found it), or why no sandbox applies
	// here, which refuses the call. Nil refuses every such call.
	Contain func() (string, error)
}

// EngineTimeout bounds the engine binary's whole run for an event the
// front hands it: its own decision is bound by Deadline, and this leaves
// room for its start, well inside the hosts' hook timeout (5 s).
const EngineTimeout = 2 * time.Second

// EngineReply is the engine's answer to a handed-on event: the host's bytes,
// and the verdict the engine reports on a channel of its own ("deny").
type EngineReply struct {
	hosts.Answer
	Verdict string
}

// trusted reports an engine reply the front may pass on: an explicit
// verdict, and an answer that refuses when the verdict does. An empty,
// exit-0 answer is an allow on most hosts, so it passes only with the
// engine's explicit allow or warning.
func (r EngineReply) trusted() error {
	v, ok := verdict.ParseVerdict(r.Verdict)
	switch {
	case !ok:
		return errors.New("the engine answered without a verdict; run `make install` in sentinel's source to install both binaries from one build")
	case v >= verdict.Ask && len(r.Stdout) == 0 && r.Stderr == "" && r.Exit == 0:
		return errors.New("the engine's verdict was " + v.String() + " but its answer lets the call run")
	}
	return nil
}

// Reply is what the host is answered. Its Stderr holds, around the
// dialect's own, the lines for the person: why the engine could not
// answer, the checker's words, why the audit trail was not written.
type Reply struct {
	hosts.Answer
	// Decision is the final decision; nil when the engine answered.
	Decision *Decision
}

// Handle answers one event, failing closed at every step:
//  1. Run decides within Deadline (reading the event and the
//     configuration included); anything it cannot read is a denial;
//  2. code that needs a grammar this binary lacks goes to Engine, and
//     where the engine cannot answer, Run's denial stands;
//  3. the user's external checker reviews what the rules let through,
//     under its own timeout ([guard] checker_timeout, 10 s by default),
//     outside the deadline, since it is a program the user chose to wait
//     for; anything but its explicit allow is a denial;
//  4. the dialect renders the verdict in the host's terms, and under
//     [guard] contain a shell call it lets run is rewritten to run under
//     `sentinel run --call`, where the host can take that without a
//     grant (or refused, where no sandbox applies);
//  5. the decision goes to the audit trail, whose failure is a note and
//     never changes the answer.
func Handle(ctx context.Context, ev Event) Reply {
	d, dialect, pol := Run(ctx, ev.Request)
	var notes []string
	if d.NeedsEngine && ev.Engine != nil {
		a, err := ev.Engine([]byte(d.Raw))
		if err == nil {
			err = a.trusted()
		}
		if err == nil {
			return Reply{Answer: a.Answer}
		}
		notes = append(notes, "sentinel: "+quote.Text(err.Error())+"\n")
	}
	if d.Verdict != verdict.Deny && pol != nil && pol.Checker != nil && d.Call != nil && d.Call.Kind != "" {
		checked, why := pol.Checker.Review(ctx, checkerInput(dialect, d))
		if checked.Verdict == verdict.Deny {
			// The refusal is of this call, for the audit trail.
			d = &Decision{Outcome: checked, Call: d.Call}
			// The checker's words are for the person; Codex reads stderr
			// as the agent's reason, so they stay out of it there.
			if dialect.Name() != "codex" {
				notes = append(notes, why+"\n")
			}
		}
	}
	now := time.Now
	if ev.Now != nil {
		now = ev.Now
	}
	a := dialect.Answer(d.Outcome, d.Call)
	if pol != nil && pol.Contain {
		d, a = contain(ev, dialect, d, a)
	}
	a.Stderr = strings.Join(notes, "") + a.Stderr
	record := func() error {
		return audit.Audit(ev.AuditPath, pol.LogMode(), dialect.Name(), d.Outcome, d.Call, ev.Cwd, now())
	}
	if ev.Audit != nil {
		record = func() error { return ev.Audit(dialect.Name()) }
	}
	if err := record(); err != nil {
		a.Stderr += AuditUnwritten + ": " + strings.Join(strings.Fields(err.Error()), " ") + "\n"
	}
	return Reply{Answer: a, Decision: d}
}

// AuditUnwritten begins the note to the person that the decision was not
// recorded in the audit trail.
const AuditUnwritten = "sentinel guard: the audit trail was not written"

// checkerInput is what the checker reads of a decided call.
func checkerInput(dialect hosts.Dialect, d *Decision) policy.CheckerInput {
	in := policy.CheckerInput{Kind: "tool", Agent: dialect.Name(), Tool: d.Call.Tool, Paths: append(d.Call.Writes, d.Call.Reads...), Raw: d.Raw, Cwd: d.Call.Cwd}
	for _, c := range d.Commands {
		in.Commands = append(in.Commands, strings.Join(c.Argv, " "))
	}
	return in
}
