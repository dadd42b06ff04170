package trailers

import (
	"reflect"
	"testing"
)

func TestApply(t *testing.T) {
	claude := &Detection{Agent: Lookup("claude"), Name: "Claude", Model: "claude-opus-4-5", Source: "CLAUDECODE=1"}
	keep := Policy{Footer: FooterKeep, Coauthor: CoauthorRefuse}
	withAgent := keep
	withAgent.Detected = claude
	rewrite := keep
	rewrite.Coauthor = CoauthorRewrite
	rewriteAgent := rewrite
	rewriteAgent.Detected = claude
	strip := withAgent
	strip.Footer = FooterStrip
	refuseFooter := keep
	refuseFooter.Footer = FooterRefuse
	history := keep
	history.RequireAssisted = true

	const footer = "🤖 Generated with [Claude Code](https://claude.com/claude-code)"
	for _, tc := range []struct {
		name   string
		policy Policy
		in     string
		rules  []string // violated rules, in order
		lines  []int
		want   string // the message after edits, when there are no violations
	}{
		{"person passes", keep, "T\n\nSigned-off-by: Jane <j@x>\n", nil, nil, "T\n\nSigned-off-by: Jane <j@x>\n"},
		{"agent sign-off", keep, "T\n\nSigned-off-by: Claude <noreply@anthropic.com>\n", []string{RuleAgentIdentity}, []int{3}, ""},
		{"agent co-author", keep, "T\n\nB\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n", []string{RuleAgentIdentity}, []int{5}, ""},
		{"agent in every attribution key", keep,
			"T\n\nCo-developed-by: Codex <noreply@openai.com>\nReviewed-by: Copilot <copilot@github.com>\nTested-by: Amp <amp@ampcode.com>\nAcked-by: aider <aider@aider.chat>\n",
			[]string{RuleAgentIdentity, RuleAgentIdentity, RuleAgentIdentity, RuleAgentIdentity}, []int{3, 4, 5, 6}, ""},
		{"agent in a non-attribution key is fine", keep, "T\n\nCc: Claude <noreply@anthropic.com>\n", nil, nil, "T\n\nCc: Claude <noreply@anthropic.com>\n"},
		{"agent in prose is not a trailer", keep, "T\n\nSigned-off-by: Claude <noreply@anthropic.com> is what\nthe bot wrote\nand more prose here\nand here\nand there\n", nil, nil,
			"T\n\nSigned-off-by: Claude <noreply@anthropic.com> is what\nthe bot wrote\nand more prose here\nand here\nand there\n"},
		{"detected agent signs off as a person", withAgent, "T\n\nSigned-off-by: Jane <j@x>\n", []string{RuleAgentSignoff}, []int{3}, ""},
		{"detected agent gets assisted-by", withAgent, "T\n\nBody\n", nil, nil, "T\n\nBody\n\nAssisted-by: Claude:claude-opus-4-5\n"},
		{"detected agent, empty message left alone", withAgent, "# only a comment\n", nil, nil, "# only a comment\n"},
		{"rewrite co-author in place", rewrite, "T\n\nCo-authored-by: Claude <noreply@anthropic.com>\nCc: x\n", nil, nil,
			"T\n\nAssisted-by: Claude:unknown\nCc: x\n"},
		{"rewrite keeps the detected model", rewriteAgent, "T\n\nCo-authored-by: Claude <noreply@anthropic.com>\n", nil, nil,
			"T\n\nAssisted-by: Claude:claude-opus-4-5\n"},
		{"rewrite does not duplicate", rewrite, "T\n\nAssisted-by: Claude:unknown\nCo-authored-by: Claude <noreply@anthropic.com>\n", nil, nil,
			"T\n\nAssisted-by: Claude:unknown\n"},
		{"rewrite never excuses a sign-off", rewrite, "T\n\nSigned-off-by: Claude <noreply@anthropic.com>\n", []string{RuleAgentIdentity}, []int{3}, ""},
		{"footer kept", withAgent, "T\n\n" + footer + "\n", nil, nil, "T\n\n" + footer + "\n\nAssisted-by: Claude:claude-opus-4-5\n"},
		{"footer stripped", strip, "T\n\nBody.\n\n" + footer + "\n\nCc: x\n", nil, nil, "T\n\nBody.\n\nCc: x\nAssisted-by: Claude:claude-opus-4-5\n"},
		{"footer refused", refuseFooter, "T\n\nBody\n\nMade with Cursor\n", []string{RuleAgentFooter}, []int{5}, ""},
		{"footer below scissors ignored", refuseFooter, "T\n\n# ------------------------ >8 ------------------------\nMade with Cursor\n", nil, nil,
			"T\n\n# ------------------------ >8 ------------------------\nMade with Cursor\n"},
		{"history: footer without assisted-by", history, "T\n\n" + footer + "\n", []string{RuleMissingAssisted}, []int{1}, ""},
		{"history: footer with assisted-by", history, "T\n\n" + footer + "\n\nAssisted-by: Claude:x\n", nil, nil, "T\n\n" + footer + "\n\nAssisted-by: Claude:x\n"},
		{"history: co-author and no assisted-by", history, "T\n\nCo-authored-by: Claude <noreply@anthropic.com>\n", []string{RuleMissingAssisted, RuleAgentIdentity}, []int{1, 3}, ""},
		{"not utf-8 can be checked", keep, "T\xff\n\nSigned-off-by: J\xe9r\xf4me <j@x>\n", nil, nil, "T\xff\n\nSigned-off-by: J\xe9r\xf4me <j@x>\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			syn := DefaultSyntax()
			out, err := syn.Apply([]byte(tc.in), tc.policy)
			if err != nil {
				t.Fatal(err)
			}
			var rules []string
			var lines []int
			for _, v := range out.Violations {
				rules = append(rules, v.Rule)
				lines = append(lines, v.Line)
				if v.Reason == "" || v.Fix == "" {
					t.Errorf("violation without reason or fix: %+v", v)
				}
			}
			if !reflect.DeepEqual(rules, tc.rules) || !reflect.DeepEqual(lines, tc.lines) {
				t.Fatalf("violations %v at %v, want %v at %v", rules, lines, tc.rules, tc.lines)
			}
			if len(tc.rules) > 0 {
				if string(out.Message) != tc.in || out.Changed {
					t.Errorf("a refused message was edited: %q", out.Message)
				}
				return
			}
			if string(out.Message) != tc.want {
				t.Errorf("message %q\nwant    %q", out.Message, tc.want)
			}
			if out.Changed != (tc.in != tc.want) {
				t.Errorf("changed = %v", out.Changed)
			}
			// The policy's edits are idempotent.
			again, err := syn.Apply(out.Message, tc.policy)
			if err != nil || again.Changed || len(again.Violations) > 0 {
				t.Errorf("a second pass changed or refused the message: %+v %v", again, err)
			}
		})
	}
}

func TestApplyRefusesToEditBadText(t *testing.T) {
	syn := DefaultSyntax()
	p := Policy{Detected: &Detection{Name: "Claude"}, Footer: FooterKeep, Coauthor: CoauthorRefuse}
	if _, err := syn.Apply([]byte("T\xff\n"), p); err == nil {
		t.Fatal("edited a message that is not UTF-8")
	}
}
