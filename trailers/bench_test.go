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

// BenchmarkDetectWalk is what the commit-msg hook pays for the walk up
// the process tree when no agent is above it: the hook's shell, git, a
// terminal's shells and the session up to pid 1, each process's stat, exe
// link, command line and environment read from a /proc of files.
func BenchmarkDetectWalk(b *testing.B) {
	procs := under(70,
		proc{pid: 70, ppid: 60, comm: "bash", exe: "/usr/bin/bash", args: []string{"-bash"}, env: []string{"PATH=/usr/bin", "TERM=xterm"}},
		proc{pid: 60, ppid: 50, comm: "tmux: server", exe: "/usr/bin/tmux", args: []string{"tmux"}, env: []string{"PATH=/usr/bin"}},
		proc{pid: 50, ppid: 40, comm: "sshd", exe: "/usr/sbin/sshd", args: []string{"sshd: jane@pts/0"}},
		proc{pid: 40, ppid: 1, comm: "systemd", exe: "/usr/lib/systemd/systemd", args: []string{"/usr/lib/systemd/systemd", "--user"}},
		init1())
	root := fakeProcIn(b.TempDir(), b, procs...)
	anc := &Ancestry{Table: ProcFS{Root: root}, Start: 100}
	getenv := func(string) string { return "" }
	for b.Loop() {
		if Detect(Env{Getenv: getenv, Processes: anc}, nil) != nil {
			b.Fatal("detected an agent")
		}
	}
	b.ReportMetric(float64(len(procs)), "processes")
}
