package ci

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/trailers"
)

func TestAgentIdentity(t *testing.T) {
	for ident, want := range map[string]string{
		"Jane Doe <jane@example.com>":                                         "",
		"Claude <noreply@anthropic.com>":                                      "Claude Code (an AI agent)",
		"Someone <NoReply@Anthropic.com>":                                     "Claude Code (an AI agent)",
		"Copilot <198982749+Copilot@users.noreply.github.com>":                "GitHub Copilot (an AI agent)",
		"Jane (aider) <jane@example.com>":                                     "Aider (an AI agent)",
		"dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>": "a bot",
		"Renovate <29139614+renovate[bot]@users.noreply.github.com>":          "a bot",
		"release-bot[bot] <release@example.com>":                              "a bot",
		// A person whose address merely mentions a bot is a person.
		"Jane <jane+bot@example.com>": "",
	} {
		if got := agentIdentity(ident); got != want {
			t.Errorf("agentIdentity(%q) = %q, want %q", ident, got, want)
		}
	}
}

func TestAgentCauses(t *testing.T) {
	syntax := trailers.DefaultSyntax()
	aliased, err := trailers.SyntaxFromConfig([]gitrepo.ConfigEntry{{Key: "trailer.ab.key", Value: "Assisted-by"}})
	if err != nil {
		t.Fatal(err)
	}
	person := "Jane Doe <jane@example.com>"
	for _, tc := range []struct {
		name        string
		syntax      *trailers.Syntax
		msg, author string
		committer   string
		want        []string
	}{
		{"a person", &syntax, "Drop a test\n\nSigned-off-by: Jane Doe <jane@example.com>\n", person, person, nil},
		{"assisted-by", &syntax, "Drop a test\n\nAssisted-by: Claude:claude-opus-4\n", person, person, []string{RuleAssistedBy}},
		{"assisted-by in lower case", &syntax, "Drop a test\n\nassisted-by: Codex:gpt-5\n", person, person, []string{RuleAssistedBy}},
		// Outside the trailer block it still says an agent had a hand.
		{"assisted-by in the body", &syntax, "Drop a test\n\nAssisted-by: Claude:x\n\nMore words here that end the message.\n", person, person, []string{RuleAssistedBy}},
		{"an alias of assisted-by", &aliased, "Drop a test\n\nab: Claude:claude-opus-4\n", person, person, []string{RuleAssistedBy}},
		{"agent co-author", &syntax, "Drop a test\n\nCo-authored-by: Claude <noreply@anthropic.com>\n", person, person, []string{RuleAgentTrailer}},
		{"agent footer", &syntax, "Drop a test\n\n🤖 Generated with [Claude Code](https://claude.com/claude-code)\n", person, person, []string{RuleAgentFooter}},
		{"agent author", &syntax, "Drop a test\n", "Claude <noreply@anthropic.com>", person, []string{RuleAgentAuthor}},
		{"bot committer", &syntax, "Drop a test\n", person, "renovate[bot] <29139614+renovate[bot]@users.noreply.github.com>", []string{RuleAgentCommitter}},
		{"everything at once", &syntax, "Drop a test\n\nAssisted-by: Claude:x\nCo-authored-by: Claude <noreply@anthropic.com>\n", "Claude <noreply@anthropic.com>", "Claude <noreply@anthropic.com>",
			[]string{RuleAssistedBy, RuleAgentTrailer, RuleAgentAuthor, RuleAgentCommitter}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := gitrepo.Commit{Hash: "0123456789abcdef", Message: []byte(tc.msg), Author: tc.author, Committer: tc.committer}
			var got []string
			for _, cause := range agentCauses(tc.syntax, c) {
				got = append(got, cause.Rule)
				if cause.Reason == "" || cause.Fix == "" {
					t.Errorf("%s has no reason or fix: %+v", cause.Rule, cause)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("rules %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSignersChanged(t *testing.T) {
	off := trust{}
	on := trust{path: ".sentinel/allowed_signers", file: []byte("jane@example.com ssh-ed25519 AAAA\n")}
	more := trust{path: ".sentinel/allowed_signers", file: []byte("jane@example.com ssh-ed25519 AAAA\neve@example.com ssh-ed25519 BBBB\n")}
	gone := trust{path: ".sentinel/allowed_signers"}
	moved := trust{path: "keys/allowed_signers", file: on.file}
	broken := trust{err: errors.New("not TOML")}
	for _, tc := range []struct {
		name    string
		cur     trust
		parents []trust
		want    bool
	}{
		{"nothing asked, nothing changed", off, []trust{off}, false},
		{"the same list", on, []trust{on}, false},
		{"switched on", on, []trust{off}, true},
		{"switched off", off, []trust{on}, true},
		{"a key added", more, []trust{on}, true},
		{"the file removed", gone, []trust{on}, true},
		{"the setting moved", moved, []trust{on}, true},
		{"a root commit that sets it", on, nil, true},
		{"a root commit without it", off, nil, false},
		// A configuration that does not read, where none asked before,
		// changes whom nobody trusts; where one asked, it hides the list.
		{"broken, nothing asked before", broken, []trust{off}, false},
		{"broken where one asked", broken, []trust{on}, true},
		{"a merge that takes one side's list", more, []trust{on, more}, false},
		{"a merge with a list of its own", more, []trust{on, off}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			trusts := map[string]trust{"c": tc.cur}
			c := gitrepo.Commit{Hash: "c"}
			for i, p := range tc.parents {
				id := string(rune('p' + i))
				trusts[id] = p
				c.Parents = append(c.Parents, id)
			}
			if got := signersChanged(trusts, c); got != tc.want {
				t.Errorf("signersChanged = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestAgentCausesRefuseTruncated checks that a commit whose message was
// too large to read cannot show a person made it: the part read may be
// clean and the rest carry an Assisted-by. Its identities still count.
func TestAgentCausesRefuseTruncated(t *testing.T) {
	syntax := trailers.DefaultSyntax()
	c := gitrepo.Commit{Hash: "0123456789abcdef", Message: []byte("Drop a test\n\nSigned-off-by: Jane Doe <jane@example.com>\n"), MessageSize: 300 << 20,
		Author: "Claude <noreply@anthropic.com>", Committer: "Jane Doe <jane@example.com>", Parents: []string{"p"}}
	var got []string
	for _, cause := range agentCauses(&syntax, c) {
		got = append(got, cause.Rule)
		if cause.Rule == RuleMessageTooLarge && !strings.Contains(cause.Reason, "the message is 314572800 bytes") {
			t.Errorf("reason %q", cause.Reason)
		}
	}
	if want := []string{RuleMessageTooLarge, RuleAgentAuthor}; !reflect.DeepEqual(got, want) {
		t.Errorf("rules %v, want %v", got, want)
	}
}
