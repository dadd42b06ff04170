// Package verdict holds the guard's vocabulary, below every other part of it:
// a Verdict, the Severity of a rule, the Level of the guard, a Finding, and
// the one formatter of a reason that the agent and the person read.
package verdict

import (
	"strings"
)

// Verdict is the guard's answer.
type Verdict int

// The verdicts, in increasing order of refusal.
const (
	Allow Verdict = iota
	Warn
	Ask
	Deny
)

// String is the verdict as configuration and the audit trail spell it.
func (v Verdict) String() string {
	return [...]string{"allow", "warn", "ask", "deny"}[v]
}

// Finding is one rule that fired on one command.
type Finding struct {
	RuleID   string   `json:"rule"`
	Severity Severity `json:"-"`
	Verdict  Verdict  `json:"-"`
	Reason   string   `json:"reason"`
	Command  string   `json:"command"`
}

// OneLine folds a reason onto one line of at most 300 bytes, as hosts show it.
func OneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:297] + "..."
	}
	return s
}

// ParseVerdict reads a verdict as String spells it.
func ParseVerdict(s string) (Verdict, bool) {
	for v := Allow; v <= Deny; v++ {
		if v.String() == s {
			return v, true
		}
	}
	return Allow, false
}

// Severity orders the rules: a CRITICAL rule is always denied, a HIGH one
// is denied unless the user's own configuration allows the pattern, a
// MEDIUM one is allowed with a warning (asked, where the host can ask).
type Severity int

// The severities.
const (
	Medium Severity = iota
	High
	Critical
)

// String is the severity as a reason spells it: MEDIUM, HIGH, CRITICAL.
func (s Severity) String() string {
	return [...]string{"MEDIUM", "HIGH", "CRITICAL"}[s]
}

// Level is how hard the guard is.
type Level int

// The levels, each stricter than the last.
const (
	// Standard denies what is destructive and asks about what it cannot
	// read.
	Standard Level = iota
	// Strict denies what standard asks about.
	Strict
	// Paranoid is strict, and also asks about interpreter one-liners and
	// recursive removal inside the project.
	Paranoid
)

// ParseLevel reads a configured level; "" is standard.
func ParseLevel(s string) Level {
	return map[string]Level{"strict": Strict, "paranoid": Paranoid}[s]
}

// Reason is the one form of a reason: "sentinel guard [ID]: what; instead:
// how", without the "; instead" part when how is empty. Every refusal the
// guard writes goes through it, so that a host, a person and a test read one
// shape.
func Reason(id, what, how string) string {
	return format(id, what, how)
}

// Reason is Reason with the rule's severity in the tag: "sentinel guard
// [ID, SEV]: what; instead: how".
func (s Severity) Reason(id, what, how string) string {
	return format(id+", "+s.String(), what, how)
}

// Inside adds where a finding was found to a reason Reason made:
// "sentinel guard [ID]: what, in WHERE; instead: how".
func Inside(reason, where string) string {
	if i := strings.Index(reason, "; instead: "); i >= 0 {
		return reason[:i] + ", in " + where + reason[i:]
	}
	return reason + ", in " + where
}

func format(tag, what, how string) string {
	r := "sentinel guard [" + tag + "]: " + what
	if how != "" {
		r += "; instead: " + how
	}
	return r
}

// Outcome is a verdict with the findings behind it: what a host is told,
// and what an external checker answers.
type Outcome struct {
	Verdict  Verdict
	Findings []Finding
}

// Add records a finding; the verdict is the strictest of them.
func (o *Outcome) Add(f Finding) {
	o.Findings = append(o.Findings, f)
	if f.Verdict > o.Verdict {
		o.Verdict = f.Verdict
	}
}

// Reason is the one-line reason a host shows: the first finding of the
// verdict's weight, its rule id and the safer way, at most 300 characters.
func (o *Outcome) Reason() string {
	var best *Finding
	for i, f := range o.Findings {
		if f.Verdict == o.Verdict && (best == nil || f.Severity > best.Severity) {
			best = &o.Findings[i]
		}
	}
	if best == nil {
		return ""
	}
	return OneLine(best.Reason)
}
