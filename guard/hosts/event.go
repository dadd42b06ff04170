package hosts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// object is a JSON object read with exact keys. Go's encoding/json matches
// struct fields case-insensitively, so {"command":"rm -rf ~","Command":"ls"}
// decoded into a struct is checked as "ls" while the host runs the first:
// events are read into maps, whose keys are exact, after a pass that
// refuses duplicate keys and keys differing only in case anywhere in the
// document.
type object map[string]json.RawMessage

// ErrUnreadable is an event the guard cannot read.
var ErrUnreadable = errors.New("the hook event is not one the guard can read")

// unreadable wraps errUnreadable with what was wrong.
func unreadable(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnreadable, fmt.Sprintf(format, args...))
}

// parseObject reads one JSON object and nothing after it, refusing
// duplicate or case-colliding keys at any depth.
func parseObject(data []byte) (object, error) {
	if err := checkKeys(data); err != nil {
		return nil, err
	}
	var m object
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&m); err != nil {
		return nil, unreadable("%v", err)
	}
	if m == nil {
		return nil, unreadable("the event is not a JSON object")
	}
	return m, nil
}

// checkKeys walks the whole document's tokens: one JSON value, no trailing
// data, and no object holding two keys equal under case folding.
func checkKeys(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		object  bool
		wantKey bool
		keys    map[string]bool
	}
	var stack []*frame
	values := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return unreadable("%v", err)
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].object {
				stack[len(stack)-1].wantKey = true
			}
			continue
		}
		if top != nil && top.object && top.wantKey {
			key := strings.ToLower(tok.(string))
			if top.keys[key] {
				return unreadable("the key %q appears twice (keys are compared ignoring case)", tok)
			}
			top.keys[key] = true
			top.wantKey = false
			continue
		}
		if top == nil {
			values++
			if values > 1 {
				return unreadable("data after the event")
			}
		}
		if d, ok := tok.(json.Delim); ok {
			stack = append(stack, &frame{object: d == '{', wantKey: d == '{', keys: map[string]bool{}})
			continue
		}
		if top != nil && top.object {
			top.wantKey = true
		}
	}
	if values != 1 {
		return unreadable("no event")
	}
	return nil
}

// has reports a key that is present, even with a null value.
func (o object) has(key string) bool {
	_, ok := o[key]
	return ok
}

// str returns a string member; a member that is present and not a string
// (null, a number, an object) is an error.
func (o object) str(key string) (string, bool, error) {
	raw, ok := o[key]
	if !ok {
		return "", false, nil
	}
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", true, unreadable("%s is not a string", key)
	}
	return s, true, nil
}

// need returns a string member that must be present and non-empty.
func (o object) need(key string) (string, error) {
	s, ok, err := o.str(key)
	switch {
	case err != nil:
		return "", err
	case !ok:
		return "", unreadable("%s is missing", key)
	case strings.TrimSpace(s) == "":
		return "", unreadable("%s is empty", key)
	}
	return s, nil
}

// optional returns a string member that may be absent, but is a string
// when present.
func (o object) optional(key string) (string, error) {
	s, _, err := o.str(key)
	return s, err
}

// obj returns an object member, which must be present.
func (o object) obj(key string) (object, error) {
	raw, ok := o[key]
	if !ok {
		return nil, unreadable("%s is missing", key)
	}
	var m object
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &m) != nil || m == nil {
		return nil, unreadable("%s is not an object", key)
	}
	return m, nil
}

// strings returns a member that is a list of strings.
func (o object) strings(key string) ([]string, error) {
	raw, ok := o[key]
	if !ok {
		return nil, nil
	}
	var list []string
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &list) != nil {
		return nil, unreadable("%s is not a list of strings", key)
	}
	return list, nil
}

// first returns the first byte of a member's JSON text, which names its
// type ('"', '{', '[', 'n', a digit...), or 0 when the member is absent.
func (o object) first(key string) byte {
	raw := o[key]
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}

// objects returns a member that is a list of objects, each read with
// exact keys; absent, it is an empty list.
func (o object) objects(key string) ([]object, error) {
	raw, ok := o[key]
	if !ok {
		return nil, nil
	}
	var list []json.RawMessage
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &list) != nil {
		return nil, unreadable("%s is not a list of objects", key)
	}
	out := make([]object, 0, len(list))
	for _, item := range list {
		var m object
		if len(item) == 0 || item[0] != '{' || json.Unmarshal(item, &m) != nil || m == nil {
			return nil, unreadable("%s is not a list of objects", key)
		}
		out = append(out, m)
	}
	return out, nil
}

// objOrText reads a member that hosts send either as an object or as a
// JSON object encoded in a string (Copilot CLI's toolArgs, Cursor's MCP
// tool_input). The encoded object is read with the same exact keys; a
// string that holds anything else is returned as text, for the caller to
// refuse or read (a raw patch). Any other type is unreadable.
func (o object) objOrText(key string) (object, string, error) {
	switch o.first(key) {
	case '{':
		m, err := o.obj(key)
		return m, "", err
	case '"':
		s, _, err := o.str(key)
		if err != nil {
			return nil, "", err
		}
		if strings.HasPrefix(strings.TrimSpace(s), "{") {
			m, err := parseObject([]byte(s))
			if err != nil {
				return nil, "", unreadable("%s is a string that is not one JSON object", key)
			}
			return m, "", nil
		}
		return nil, s, nil
	case 0:
		return nil, "", unreadable("%s is missing", key)
	}
	return nil, "", unreadable("%s is neither an object nor a string", key)
}

// call reads the envelope most hosts share: the tool's name under toolKey,
// required, and an optional string cwd.
func (o object) call(toolKey string) (*Call, error) {
	tool, err := o.need(toolKey)
	if err != nil {
		return nil, err
	}
	cwd, err := o.optional("cwd")
	if err != nil {
		return nil, err
	}
	return &Call{Tool: tool, Cwd: cwd}, nil
}
