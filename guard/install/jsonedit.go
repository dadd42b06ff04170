package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// A settings file is the person's: its indentation, its key order, its
// spacing and every entry that is not sentinel's are theirs. So an install
// or an uninstall does not decode and re-encode the file: it finds where
// each value lies in the text and adds or removes only the bytes of
// sentinel's entries, written in the file's own style. Whatever it writes
// is decoded again and must be exactly the settings the change means
// (see writeSettings); a shape the text edit cannot handle is rewritten
// whole instead, and the install says so.

// errShape is a settings file whose text a minimal edit cannot change
// safely.
var errShape = errors.New("the file's text cannot be edited in place")

// jval is a JSON value and where its text lies: data[start:end].
type jval struct {
	start, end int
	// kind is '{', '[', or 0 for a string, a number or a literal.
	kind    byte
	members []jmember
	elems   []*jval
}

// jmember is an object's member: its key, decoded, and where the key's
// text lies.
type jmember struct {
	key        string
	start, end int // the key's text, quotes included
	val        *jval
}

// maxJSONDepth bounds the nesting the parser follows, as encoding/json
// bounds its own.
const maxJSONDepth = 10000

// parseJSONText finds every value of a JSON document in its text.
func parseJSONText(data []byte) (*jval, error) {
	p := &jparser{data: data}
	p.space()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if p.space(); p.pos != len(data) {
		return nil, fmt.Errorf("%w: data after the value", errShape)
	}
	return v, nil
}

type jparser struct {
	data []byte
	pos  int
}

func (p *jparser) space() {
	for p.pos < len(p.data) && strings.IndexByte(" \t\n\r", p.data[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *jparser) fail(what string) error {
	return fmt.Errorf("%w: %s at byte %d", errShape, what, p.pos)
}

func (p *jparser) value(depth int) (*jval, error) {
	if depth > maxJSONDepth {
		return nil, p.fail("nested too deep")
	}
	if p.pos >= len(p.data) {
		return nil, p.fail("unexpected end")
	}
	v := &jval{start: p.pos}
	switch c := p.data[p.pos]; c {
	case '{', '[':
		v.kind = c
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		p.pos++
		p.space()
		if p.pos < len(p.data) && p.data[p.pos] == closing {
			p.pos++
			v.end = p.pos
			return v, nil
		}
		for {
			if c == '{' {
				m, err := p.member(depth)
				if err != nil {
					return nil, err
				}
				v.members = append(v.members, m)
			} else {
				e, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				v.elems = append(v.elems, e)
			}
			p.space()
			if p.pos >= len(p.data) {
				return nil, p.fail("unexpected end")
			}
			switch p.data[p.pos] {
			case ',':
				p.pos++
				p.space()
				continue
			case closing:
				p.pos++
				v.end = p.pos
				return v, nil
			}
			return nil, p.fail("unexpected character")
		}
	case '"':
		if err := p.str(); err != nil {
			return nil, err
		}
	default:
		for p.pos < len(p.data) && strings.IndexByte(",]} \t\n\r", p.data[p.pos]) < 0 {
			p.pos++
		}
		if p.pos == v.start {
			return nil, p.fail("no value")
		}
	}
	v.end = p.pos
	return v, nil
}

func (p *jparser) member(depth int) (jmember, error) {
	m := jmember{start: p.pos}
	if p.pos >= len(p.data) || p.data[p.pos] != '"' {
		return m, p.fail("no key")
	}
	if err := p.str(); err != nil {
		return m, err
	}
	m.end = p.pos
	if err := json.Unmarshal(p.data[m.start:m.end], &m.key); err != nil {
		return m, fmt.Errorf("%w: %v", errShape, err)
	}
	p.space()
	if p.pos >= len(p.data) || p.data[p.pos] != ':' {
		return m, p.fail("no colon")
	}
	p.pos++
	p.space()
	val, err := p.value(depth + 1)
	m.val = val
	return m, err
}

// str skips a string, escapes and all.
func (p *jparser) str() error {
	for p.pos++; p.pos < len(p.data); p.pos++ {
		switch p.data[p.pos] {
		case '\\':
			p.pos++
		case '"':
			p.pos++
			return nil
		}
	}
	return p.fail("unterminated string")
}

// member returns the value of an object's key, nil when it has none. A
// key the object holds twice is a shape the edit leaves alone: which one
// a host reads is the host's to say.
func (v *jval) member(key string) (*jval, int, error) {
	var found *jval
	at := -1
	for i, m := range v.members {
		if m.key == key {
			if found != nil {
				return nil, -1, fmt.Errorf("%w: the key %q is there twice", errShape, key)
			}
			found, at = m.val, i
		}
	}
	return found, at, nil
}

// at follows keys from v through objects; nil where one is missing.
func (v *jval) at(keys ...string) (*jval, error) {
	for _, k := range keys {
		if v == nil || v.kind != '{' {
			return nil, nil
		}
		next, _, err := v.member(k)
		if err != nil {
			return nil, err
		}
		v = next
	}
	return v, nil
}

// children is the number of members or elements.
func (v *jval) children() int { return len(v.members) + len(v.elems) }

// childSpan is where child i starts (a member's key, an element's value)
// and where it ends.
func (v *jval) childSpan(i int) (start, end int) {
	if v.kind == '{' {
		return v.members[i].start, v.members[i].val.end
	}
	return v.elems[i].start, v.elems[i].end
}

// decode reads a value's text as encoding/json would, numbers kept as
// written.
func decodeText(data []byte, v *jval) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data[v.start:v.end]))
	dec.UseNumber()
	var out any
	err := dec.Decode(&out)
	return out, err
}

// jstyle is how a file lays out its text: what new text is written like.
type jstyle struct {
	// multiline is a file whose containers hold one child a line.
	multiline bool
	// unit is one level of indentation.
	unit string
	// colon is what stands between a key and its value.
	colon string
	// nl ends a line: "\r\n" in a file written with them.
	nl string
}

// styleOf reads a file's layout from its top-level object: a file that
// has no member yet gets encoding/json's two-space layout.
func styleOf(data []byte, root *jval) jstyle {
	s := jstyle{multiline: true, unit: "  ", colon: ": ", nl: "\n"}
	if bytes.Contains(data, []byte("\r\n")) {
		s.nl = "\r\n"
	}
	if root.kind != '{' || len(root.members) == 0 {
		return s
	}
	first := root.members[0]
	if gap := data[first.end:first.val.start]; !bytes.ContainsAny(gap, "\n\r") {
		s.colon = string(gap)
	}
	if !bytes.ContainsAny(data[root.start:first.start], "\n") {
		s.multiline = false
		return s
	}
	s.unit = strings.TrimPrefix(lineIndent(data, first.start), lineIndent(data, root.start))
	return s
}

// lineIndent is the whitespace that starts the line holding pos.
func lineIndent(data []byte, pos int) string {
	start := bytes.LastIndexByte(data[:pos], '\n') + 1
	end := start
	for end < len(data) && (data[end] == ' ' || data[end] == '\t') {
		end++
	}
	return string(data[start:end])
}

// restOfLineEmpty reports a line that holds nothing after pos but
// whitespace and a comma.
func restOfLineEmpty(data []byte, pos int) bool {
	rest := data[pos:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	return len(bytes.Trim(rest, " \t\r,")) == 0
}

// layout says how children go into container c: on lines of their own,
// at indent, or on its one line; and the separator between two of them.
func (s jstyle) layout(data []byte, c *jval) (multi bool, indent, sep string) {
	n := c.children()
	if n == 0 {
		// An empty container opens onto lines of its own in a file laid
		// out a line per child, unless more follows it on its line.
		multi = s.multiline && restOfLineEmpty(data, c.end)
		indent = lineIndent(data, c.start) + s.unit
	} else {
		first, _ := c.childSpan(0)
		multi = bytes.ContainsAny(data[c.start:first], "\n")
		indent = lineIndent(data, first)
	}
	switch {
	case n >= 2:
		_, prevEnd := c.childSpan(n - 2)
		last, _ := c.childSpan(n - 1)
		sep = string(data[prevEnd:last])
	case multi:
		sep = "," + s.nl + indent
	case strings.HasSuffix(s.colon, " "):
		sep = ", "
	default:
		sep = ","
	}
	return multi, indent, sep
}

// render writes v as a child of c would be written in this file.
func (s jstyle) render(data []byte, c *jval, v any) (string, error) {
	multi, indent, _ := s.layout(data, c)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if multi {
		enc.SetIndent(indent, s.unit)
	}
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	out := strings.TrimSuffix(buf.String(), "\n")
	switch {
	case !multi && strings.HasSuffix(s.colon, " "):
		out = spaceCompact(out)
	case multi && s.nl != "\n":
		out = strings.ReplaceAll(out, "\n", s.nl)
	}
	return out, nil
}

// renderMember writes key and v as a member of object c.
func (s jstyle) renderMember(data []byte, c *jval, key string, v any) (string, error) {
	val, err := s.render(data, c, v)
	if err != nil {
		return "", err
	}
	k, err := json.Marshal(key)
	if err != nil {
		return "", err
	}
	return string(k) + s.colon + val, nil
}

// spaceCompact puts a space after each colon and comma of compact JSON
// that are not inside a string: the one-line style of `{"a": 1, "b": 2}`.
func spaceCompact(s string) string {
	var b strings.Builder
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		b.WriteByte(c)
		switch {
		case in && c == '\\':
			i++
			b.WriteByte(s[i])
		case c == '"':
			in = !in
		case !in && (c == ':' || c == ','):
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// splice replaces data[start:end] with text.
func splice(data []byte, start, end int, text string) []byte {
	out := make([]byte, 0, len(data)-(end-start)+len(text))
	out = append(out, data[:start]...)
	out = append(out, text...)
	return append(out, data[end:]...)
}

// insertChildren adds items (rendered members or elements) to container
// c, at its end or, with front, at its start, separated as its children
// are.
func (s jstyle) insertChildren(data []byte, c *jval, items []string, front bool) []byte {
	multi, indent, sep := s.layout(data, c)
	n := c.children()
	if n == 0 {
		inner := strings.Join(items, sep)
		if multi {
			inner = s.nl + indent + inner + s.nl + lineIndent(data, c.start)
		}
		return splice(data, c.start+1, c.end-1, inner)
	}
	if front {
		first, _ := c.childSpan(0)
		return splice(data, first, first, strings.Join(items, sep)+sep)
	}
	_, last := c.childSpan(n - 1)
	return splice(data, last, last, sep+strings.Join(items, sep))
}

// removeChild takes child i out of container c with the separator that
// joined it to its neighbour: the one after it, or for the last child the
// one before it, so that an insertion is undone byte for byte.
func removeChild(data []byte, c *jval, i int) []byte {
	n := c.children()
	switch start, end := c.childSpan(i); {
	case n == 1:
		return splice(data, c.start+1, c.end-1, "")
	case i < n-1:
		next, _ := c.childSpan(i + 1)
		return splice(data, start, next, "")
	default:
		_, prevEnd := c.childSpan(i - 1)
		return splice(data, prevEnd, end, "")
	}
}

// textDoc is a settings file's text being edited: each change parses it
// again, so that every edit works on the positions of the text as it is.
type textDoc struct {
	data  []byte
	style jstyle
}

func newTextDoc(data []byte) (*textDoc, error) {
	root, err := parseJSONText(data)
	if err != nil {
		return nil, err
	}
	if root.kind != '{' {
		return nil, fmt.Errorf("%w: not an object", errShape)
	}
	return &textDoc{data: data, style: styleOf(data, root)}, nil
}

// node returns the value at keys, nil when one is missing.
func (d *textDoc) node(keys ...string) (*jval, error) {
	root, err := parseJSONText(d.data)
	if err != nil {
		return nil, err
	}
	return root.at(keys...)
}

// setMissing adds key with value v to the object at keys, at its end,
// unless the key is there.
func (d *textDoc) setMissing(keys []string, key string, v any) error {
	obj, err := d.node(keys...)
	if err != nil {
		return err
	}
	if obj == nil || obj.kind != '{' {
		return fmt.Errorf("%w: no object at %v", errShape, keys)
	}
	if there, _, err := obj.member(key); there != nil || err != nil {
		return err
	}
	item, err := d.style.renderMember(d.data, obj, key, v)
	if err != nil {
		return err
	}
	d.data = d.style.insertChildren(d.data, obj, []string{item}, false)
	return nil
}

// addToList adds values to the list at keys, at its end or at its front;
// a missing list is added to its object, with them.
func (d *textDoc) addToList(keys []string, values []any, front bool) error {
	list, err := d.node(keys...)
	if err != nil {
		return err
	}
	if list == nil {
		return d.setMissing(keys[:len(keys)-1], keys[len(keys)-1], values)
	}
	if list.kind != '[' {
		return fmt.Errorf("%w: %v is not a list", errShape, keys)
	}
	items := make([]string, len(values))
	for i, v := range values {
		if items[i], err = d.style.render(d.data, list, v); err != nil {
			return err
		}
	}
	d.data = d.style.insertChildren(d.data, list, items, front)
	return nil
}

// removeKey takes the member key out of the object at keys.
func (d *textDoc) removeKey(keys []string, key string) error {
	obj, err := d.node(keys...)
	if err != nil || obj == nil || obj.kind != '{' {
		return err
	}
	_, i, err := obj.member(key)
	if err != nil || i < 0 {
		return err
	}
	d.data = removeChild(d.data, obj, i)
	return nil
}

// dropFromList removes, one at a time, the elements of the list at keys
// that pick chooses: pick returns the element to remove, or the index of
// a hook to remove from the element's own "hooks" list (a group behind a
// matcher), or -1, -1 for neither. It reports whether it removed any.
func (d *textDoc) dropFromList(keys []string, pick func(v any) (drop bool, inner int)) (bool, error) {
	removed := false
	for {
		list, err := d.node(keys...)
		if err != nil {
			return removed, err
		}
		if list == nil || list.kind != '[' {
			return removed, nil
		}
		changed := false
		for i, el := range list.elems {
			v, err := decodeText(d.data, el)
			if err != nil {
				return removed, fmt.Errorf("%w: %v", errShape, err)
			}
			drop, inner := pick(v)
			if drop {
				d.data = removeChild(d.data, list, i)
			} else if inner >= 0 {
				hooks, _, err := el.member("hooks")
				if err != nil {
					return removed, err
				}
				if hooks == nil || hooks.kind != '[' || inner >= len(hooks.elems) {
					return removed, fmt.Errorf("%w: a group's hooks moved", errShape)
				}
				d.data = removeChild(d.data, hooks, inner)
			} else {
				continue
			}
			changed, removed = true, true
			break
		}
		if !changed {
			return removed, nil
		}
	}
}

// listLen is the length of the list at keys; -1 when there is none.
func (d *textDoc) listLen(keys ...string) (int, error) {
	list, err := d.node(keys...)
	if err != nil || list == nil || list.kind != '[' {
		return -1, err
	}
	return len(list.elems), nil
}

// objLen is the number of members of the object at keys; -1 when there
// is none.
func (d *textDoc) objLen(keys ...string) (int, error) {
	obj, err := d.node(keys...)
	if err != nil || obj == nil || obj.kind != '{' {
		return -1, err
	}
	return len(obj.members), nil
}
