package hosts

import (
	"encoding/json"
	"testing"
)

// TestTableHostsFailClosed builds, for every tool of every host in the
// table, the host's event with an input that lacks what the tool needs:
// each is unreadable, so the guard denies it, and a tool the table does not
// know passes as a call of no kind.
func TestTableHostsFailClosed(t *testing.T) {
	for _, h := range []*hostSpec{kiro, cline, goose, factory, augment, opencode} {
		event := func(tool string, input map[string]any) []byte {
			o := map[string]any{}
			if h.eventKey != "" {
				o[h.eventKey] = h.events[0]
			}
			if h == cline {
				o["workspaceRoots"] = []string{"/w"}
				o["preToolUse"] = map[string]any{"toolName": tool, h.inputKey: input}
			} else {
				o[h.toolKey] = tool
				o[h.inputKey] = input
			}
			b, _ := json.Marshal(o)
			return b
		}
		if len(h.tools) == 0 {
			t.Errorf("%s reads no tool", h.name)
		}
		for tool, spec := range h.tools {
			if spec.kind == "search" {
				continue // a search without a path searches the cwd
			}
			if c, err := h.Parse(event(tool, map[string]any{})); err == nil {
				t.Errorf("%s %s with an empty input read as %+v", h.name, tool, c)
			}
			if c, err := h.Parse(event(tool, map[string]any{"command": 7, "path": 7, "file_path": 7, "filePath": 7})); err == nil {
				t.Errorf("%s %s with numbers for strings read as %+v", h.name, tool, c)
			}
		}
		c, err := h.Parse(event("some_mcp_tool", map[string]any{"x": 1}))
		if err != nil || c.Kind != "" || c.Tool != "some_mcp_tool" {
			t.Errorf("%s: an unknown tool read as %+v, %v", h.name, c, err)
		}
		if h.eventKey != "" {
			o := map[string]any{h.eventKey: "PostToolUse", h.toolKey: "x"}
			b, _ := json.Marshal(o)
			if _, err := h.Parse(b); err == nil {
				t.Errorf("%s read a PostToolUse event", h.name)
			}
		}
	}
}
