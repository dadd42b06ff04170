package hosts

import (
	"slices"

	"github.com/gitsentinel/sentinel/guard/verdict"
)

// hostSpec is a host whose events follow the common pattern, as a row of
// data: check the event's name, read the tool, the cwd and the input, then
// map the tool's name to a kind of call and the keys that hold its command,
// path or patch. Adding such a host is adding a row (and its recorded
// events); only the hosts that are really different keep code of their own
// (Codex's patch, Amp's environment, Cursor's marks, Windsurf's actions).
type hostSpec struct {
	name string
	// eventKey names the event, which must be one of events; "" when the
	// host sends no event name.
	eventKey string
	events   []string
	// toolKey holds the tool's name, and cwdKey the optional working
	// directory ("cwd" when empty).
	toolKey, cwdKey string
	// strings are more top-level keys that must be strings when present.
	strings []string
	// envelope reads a host whose tool sits deeper than the top level: it
	// returns the call so far and the object that holds inputKey. Nil is
	// the top-level envelope above.
	envelope func(o object) (*Call, object, error)
	// inputKey holds the tool's input, an object.
	inputKey string
	// tools are the tools the guard reads; every other tool passes as a
	// call of no kind (an MCP tool, a todo list).
	tools map[string]toolSpec
	// answer renders a verdict in the host's terms.
	answer func(d verdict.Outcome) Answer
}

// toolSpec is how one tool's input reads.
type toolSpec struct {
	// kind is the call's kind: "bash", "cmd" (a command for cmd.exe),
	// "write", "edit", "read", "search" or "patch".
	kind string
	// keys hold the command, path or patch: the first of them the input
	// has, which must then be a non-empty string.
	keys []string
	// cwd is a key of the input that, when set, moves the call's cwd.
	cwd string
	// glob is a search's file pattern, which widens the path it reads.
	glob string
	// read, when set, reads the input in place of the above.
	read func(c *Call, in object) (*Call, error)
}

// Name is the host's name, as --agent takes it.
func (h *hostSpec) Name() string { return h.name }

// Answer renders a verdict in the host's terms.
func (h *hostSpec) Answer(d verdict.Outcome, _ *Call) Answer { return h.answer(d) }

// Parse reads one of the host's pre-tool events, exactly: a key of the
// wrong type, a missing tool or input, or another host's shape is
// unreadable.
func (h *hostSpec) Parse(input []byte) (*Call, error) {
	o, err := readEvent(input, h.name)
	if err != nil {
		return nil, err
	}
	if h.eventKey != "" {
		event, err := o.need(h.eventKey)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(h.events, event) {
			return nil, unreadable("%s %q is not a pre-tool event", h.eventKey, event)
		}
	}
	var c *Call
	holder := o
	if h.envelope != nil {
		c, holder, err = h.envelope(o)
	} else {
		c, err = h.call(o)
	}
	if err != nil {
		return nil, err
	}
	t, ok := h.tools[c.Tool]
	if !ok {
		return c, nil
	}
	in, err := holder.obj(h.inputKey)
	if err != nil {
		return nil, err
	}
	return t.call(c, in)
}

// call reads the top-level envelope: the tool, the cwd, the other strings.
func (h *hostSpec) call(o object) (*Call, error) {
	tool, err := o.need(h.toolKey)
	if err != nil {
		return nil, err
	}
	cwdKey := h.cwdKey
	if cwdKey == "" {
		cwdKey = "cwd"
	}
	cwd, err := o.optional(cwdKey)
	if err != nil {
		return nil, err
	}
	for _, k := range h.strings {
		if _, err := o.optional(k); err != nil {
			return nil, err
		}
	}
	return &Call{Tool: tool, Cwd: cwd}, nil
}

// call reads a tool's input into c.
func (t toolSpec) call(c *Call, in object) (*Call, error) {
	if t.read != nil {
		return t.read(c, in)
	}
	switch t.kind {
	case "bash", "cmd":
		if t.cwd != "" {
			cwd, err := in.optional(t.cwd)
			if err != nil {
				return nil, err
			}
			if cwd != "" {
				c.Cwd = cwd
			}
		}
		c.Kind = "bash"
		if t.kind == "cmd" {
			// Windows runs it with cmd.exe, whose syntax is not POSIX.
			c.Kind, c.Shell = "nonposix", "cmd"
		}
		var err error
		c.Command, err = pathOf(in, t.keys...)
		return c, err
	case "search":
		return searchCall(c, in, t.keys[0], t.glob)
	}
	p, err := pathOf(in, t.keys...)
	if err != nil {
		return nil, err
	}
	switch t.kind {
	case "patch":
		return patchCall(c, p)
	case "read":
		c.Kind, c.Reads = "read", []string{p}
	default:
		c.Kind, c.Writes = t.kind, []string{p}
	}
	return c, nil
}

// tools builds a tool table: each of names reads as spec.
func tools(rows ...toolRow) map[string]toolSpec {
	m := map[string]toolSpec{}
	for _, r := range rows {
		for _, n := range r.names {
			m[n] = r.spec
		}
	}
	return m
}

// toolRow is one line of a tool table: several tool names that read alike.
type toolRow struct {
	names []string
	spec  toolSpec
}

func row(spec toolSpec, names ...string) toolRow { return toolRow{names, spec} }

func bash(key string) toolSpec                  { return toolSpec{kind: "bash", keys: []string{key}} }
func bashIn(key, cwd string) toolSpec           { return toolSpec{kind: "bash", keys: []string{key}, cwd: cwd} }
func file(kind string, keys ...string) toolSpec { return toolSpec{kind: kind, keys: keys} }
func search(path, glob string) toolSpec {
	return toolSpec{kind: "search", keys: []string{path}, glob: glob}
}
