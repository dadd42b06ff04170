package trailers

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// FooterMode says what happens to agent footer lines such as
// "🤖 Generated with [Claude Code](…)".
type FooterMode string

// The footer modes.
const (
	FooterKeep   FooterMode = "keep"
	FooterStrip  FooterMode = "strip"
	FooterRefuse FooterMode = "refuse"
)

// CoauthorMode says what happens to a Co-authored-by that names an agent.
type CoauthorMode string

// The co-author modes.
const (
	CoauthorRefuse  CoauthorMode = "refuse"
	CoauthorRewrite CoauthorMode = "rewrite"
)

// AttributionKeys are the trailers that credit or certify a person: an
// agent must never appear in them.
var AttributionKeys = []string{
	"Signed-off-by", "Co-developed-by", "Co-authored-by", "Reviewed-by", "Tested-by", "Acked-by",
}

// Rule names, as reports print them.
const (
	RuleAgentIdentity   = "agent-identity"
	RuleAgentSignoff    = "agent-signoff"
	RuleAgentFooter     = "agent-footer"
	RuleMissingAssisted = "missing-assisted-by"
)

// Policy is the attribution policy applied to one message.
type Policy struct {
	// Detected is the agent running now, or nil (always nil when checking
	// commits that already exist).
	Detected *Detection
	// Footer is what to do with agent footer lines.
	Footer FooterMode
	// Coauthor is what to do with an agent's Co-authored-by.
	Coauthor CoauthorMode
	// Format and Tools render the Assisted-by value (see Detection.Value).
	Format string
	Tools  []string
	// RequireAssisted refuses a message that shows an agent's hand (an
	// agent footer or co-author) but carries no Assisted-by. It is for
	// commits that were made without the hook.
	RequireAssisted bool
}

// Violation is one line of a message that the policy refuses.
type Violation struct {
	// Rule is the rule's name.
	Rule string `json:"rule"`
	// Line is the 1-based line number in the message.
	Line int `json:"line"`
	// Text is the offending line.
	Text string `json:"text"`
	// Reason says why the line is refused.
	Reason string `json:"reason"`
	// Fix says how to put it right.
	Fix string `json:"fix"`
	// Assisted is, for RuleMissingAssisted, the Assisted-by value the
	// commit lacks (the agent its evidence names, the model unknown), so
	// that a caller who knows the commit can print a command that adds it.
	Assisted string `json:"-"`
}

// Outcome is the result of applying the policy to a message.
type Outcome struct {
	// Violations are the refusals; when there are any, Message is the
	// input unchanged.
	Violations []Violation
	// Message is the message after the policy's edits.
	Message []byte
	// Changed reports whether Message differs from the input.
	Changed bool
	// Edits describe each change made, for people.
	Edits []string
}

// span is a part of the message to replace (with nothing, to remove it).
type span struct {
	start, end int
	with       string
}

// Apply checks msg against the policy and, when it passes, makes the
// policy's edits: it strips footers, rewrites an agent's Co-authored-by and
// adds Assisted-by when an agent is detected.
func (s *Syntax) Apply(msg []byte, p Policy) (Outcome, error) {
	out := Outcome{Message: msg}
	b := s.Find(msg)
	var cut []span
	credited := false
	rewritten := map[string]bool{}
	evidence := false
	// seen is the agent the evidence names, for the value a missing
	// Assisted-by should carry.
	var seen *Agent
	hasAssisted := false

	for _, ln := range b.Lines {
		if !ln.IsTrailer {
			continue
		}
		key := s.canonicalToken(ln.Token)
		text := lineText(msg, ln)
		lineNo, _ := position(msg, ln.Start)
		if strings.EqualFold(key, AssistedBy) {
			hasAssisted = true
			continue
		}
		if !isAttributionKey(key) {
			continue
		}
		if a := MatchIdentity(ln.Value); a != nil {
			evidence, seen = true, a
			if strings.EqualFold(key, "Co-authored-by") && p.Coauthor == CoauthorRewrite {
				// The Assisted-by takes the co-author's place in the block;
				// a second line for the same value is only removed.
				d := &Detection{Agent: a, Name: a.Name}
				if p.Detected != nil && p.Detected.Agent == a {
					d.Model = p.Detected.Model
				}
				v := d.Value(p.Format, p.Tools)
				sp := span{start: ln.Start, end: ln.End}
				if !b.HasTrailer(AssistedBy, v) && !rewritten[strings.ToLower(v)] {
					rewritten[strings.ToLower(v)] = true
					sp.with = AssistedBy + ": " + v + lineEnding(msg[ln.Start:ln.End])
					if msg[ln.End-1] != '\n' {
						sp.with = strings.TrimRight(sp.with, "\r\n")
					}
				}
				cut = append(cut, sp)
				credited = true
				out.Edits = append(out.Edits, fmt.Sprintf("line %d: %s became Assisted-by: %s", lineNo, text, v))
				continue
			}
			fix := "remove the line: an agent is credited with Assisted-by, which the commit-msg hook adds"
			switch {
			case !strings.EqualFold(key, "Co-authored-by"):
			case p.RequireAssisted:
				fix = fmt.Sprintf("reword the commit with Assisted-by: %s:MODEL in the line's place (git rebase -i, reword)", a.Name)
			default:
				fix = fmt.Sprintf("run `sentinel trailers check --fix FILE` on the message, which puts Assisted-by: %s:MODEL in the line's place (a refused commit's message stays in .git/COMMIT_EDITMSG: fix it, then `git commit -F .git/COMMIT_EDITMSG`), or remove the line", a.Name)
			}
			out.Violations = append(out.Violations, Violation{
				Rule: RuleAgentIdentity, Line: lineNo, Text: text,
				Reason: fmt.Sprintf("%s names %s, an AI agent: only a person can be credited or certify a commit", key, a.Product),
				Fix:    fix,
			})
			continue
		}
		if p.Detected != nil && strings.EqualFold(key, SignedOffBy) {
			out.Violations = append(out.Violations, Violation{
				Rule: RuleAgentSignoff, Line: lineNo, Text: text,
				Reason: fmt.Sprintf("an AI agent (%s, from %s) is committing, and a Signed-off-by certifies the DCO, which only a person can do", p.Detected.Name, p.Detected.Source),
				Fix:    "commit without -s/--signoff and remove the line; the person signs off afterwards with `git commit --amend -s`",
			})
		}
	}

	for i := 0; i < b.End; i = nextLine(msg, i) {
		if s.isComment(msg, i) {
			continue
		}
		end := nextLine(msg[:b.End], i)
		text := strings.TrimRight(string(msg[i:end]), "\r\n")
		a := MatchFooter(text)
		if a == nil {
			continue
		}
		evidence, seen = true, a
		lineNo, _ := position(msg, i)
		switch p.Footer {
		case FooterStrip:
			cut = append(cut, footerSpan(msg, i, end, b.End))
			out.Edits = append(out.Edits, fmt.Sprintf("line %d: removed the footer %q", lineNo, text))
		case FooterRefuse:
			out.Violations = append(out.Violations, Violation{
				Rule: RuleAgentFooter, Line: lineNo, Text: text,
				Reason: fmt.Sprintf("the project refuses %s's footer lines ([trailers] footer = \"refuse\")", a.Product),
				Fix:    "remove the line; Assisted-by records the agent",
			})
		}
	}

	if p.RequireAssisted && evidence && !hasAssisted && !credited && p.Detected == nil {
		out.Violations = append(out.Violations, Violation{
			Rule: RuleMissingAssisted, Line: 1, Text: firstLine(msg),
			Reason:   "the message shows an AI agent's hand (an agent footer or co-author) but carries no Assisted-by",
			Fix:      "amend the commit with `sentinel trailers add --assisted-by AGENT:MODEL FILE`, or install the hook with `sentinel install` so new commits get it",
			Assisted: (&Detection{Agent: seen, Name: seen.Name}).Value(p.Format, p.Tools),
		})
	}
	if len(out.Violations) > 0 {
		sort.SliceStable(out.Violations, func(i, j int) bool { return out.Violations[i].Line < out.Violations[j].Line })
		return out, nil
	}

	if len(cut) == 0 && p.Detected == nil {
		return out, nil
	}
	// Only an edit needs the message to be text sentinel can write; a
	// check reads any bytes, as git does.
	if err := CheckText(msg); err != nil {
		return out, err
	}
	edited := cutSpans(msg, cut)
	if p.Detected != nil {
		v := p.Detected.Value(p.Format, p.Tools)
		next, changed, err := s.AddDetected(edited, p.Detected, p.Format, p.Tools)
		switch {
		case err == ErrEmptyMessage:
			// git aborts an empty message; a trailer would make it a commit.
		case err != nil:
			return out, err
		case changed:
			out.Edits = append(out.Edits, "added Assisted-by: "+v)
			edited = next
		}
	}
	out.Message = edited
	out.Changed = !bytes.Equal(edited, msg)
	return out, nil
}

func isAttributionKey(key string) bool {
	for _, k := range AttributionKeys {
		if strings.EqualFold(k, key) {
			return true
		}
	}
	return false
}

func lineText(msg []byte, ln Line) string {
	return strings.TrimRight(string(msg[ln.Start:ln.End]), "\r\n")
}

func firstLine(msg []byte) string {
	line, _, _ := bytes.Cut(msg, []byte{'\n'})
	return strings.TrimRight(string(line), "\r")
}

// footerSpan widens a footer line to take one blank line with it when the
// footer is a paragraph of its own, so that stripping it leaves no double
// blank line behind.
func footerSpan(msg []byte, start, end, limit int) span {
	prevBlank := start == 0 || isBlankLine(msg, lastLine(msg, start))
	if prevBlank && end < limit && isBlankLine(msg, end) {
		return span{start: start, end: nextLine(msg[:limit], end)}
	}
	return span{start: start, end: end}
}

// cutSpans replaces the spans of msg; spans do not overlap.
func cutSpans(msg []byte, spans []span) []byte {
	if len(spans) == 0 {
		return msg
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	out := make([]byte, 0, len(msg))
	at := 0
	for _, sp := range spans {
		if sp.start < at {
			sp.start = at
		}
		out = append(out, msg[at:sp.start]...)
		out = append(out, sp.with...)
		at = sp.end
	}
	return append(out, msg[at:]...)
}
