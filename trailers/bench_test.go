package trailers

import (
	"strings"
	"testing"
)

const typicalMessage = "Add retry to the uploader\n\nRetries three times with backoff, so that a flaky network\ndoes not fail the whole upload.\n\nFixes: #123\n"

func BenchmarkParseTypical(b *testing.B) {
	syn := DefaultSyntax()
	msg := []byte(typicalMessage)
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		syn.Parse(msg)
	}
}

func BenchmarkApplyAgentTypical(b *testing.B) {
	syn := DefaultSyntax()
	msg := []byte(typicalMessage)
	p := Policy{Detected: &Detection{Agent: Lookup("claude"), Name: "Claude", Model: "claude-opus-4-5"}, Footer: FooterKeep, Coauthor: CoauthorRefuse}
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		if _, err := syn.Apply(msg, p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseLarge is a 1 MiB message: a squash of many commits.
func BenchmarkParseLarge(b *testing.B) {
	syn := DefaultSyntax()
	var sb strings.Builder
	sb.WriteString("Squash\n\n")
	for sb.Len() < 1<<20 {
		sb.WriteString("* a commit that was squashed: with some words in it\n\n")
	}
	sb.WriteString("Signed-off-by: Jane Doe <jane@example.com>\n")
	msg := []byte(sb.String())
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		syn.Parse(msg)
	}
}
