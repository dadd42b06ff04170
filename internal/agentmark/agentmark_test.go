package agentmark

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFormatParse(t *testing.T) {
	m := Mark{Agent: "Claude", Model: "claude opus\nmodel=x"}
	got, err := Parse(m.Format())
	if err != nil {
		t.Fatal(err)
	}
	if got.Agent != "Claude" || got.Model != "claude-opus-model=x" {
		t.Errorf("Parse(Format()) = %+v: a value must stay on its line", got)
	}
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	if _, ok := Read(filepath.Join(dir, "none")); ok {
		t.Error("a missing mark reads as a mark")
	}
	p := filepath.Join(dir, "agent")
	if err := os.WriteFile(p, []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	// An unreadable mark still marks: it can only add.
	if m, ok := Read(p); !ok || m.Agent != "agent" {
		t.Errorf("Read(garbage) = %+v, %v; want an agent", m, ok)
	}
	if err := os.WriteFile(p, Mark{Agent: "Codex"}.Format(), 0o644); err != nil {
		t.Fatal(err)
	}
	if m, ok := Read(p); !ok || m.Agent != "Codex" || m.Model != "" {
		t.Errorf("Read = %+v, %v", m, ok)
	}
}
