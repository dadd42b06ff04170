// Package jsonout writes sentinel's JSON reports, all in one shape: one
// object, indented by two spaces, whose first field is "version" (Version),
// in which no value is null. A nil slice or map anywhere in the value
// written goes out as [] or {}, so that `jq '.drops[]'` works on a report
// with nothing to say; a field a report documents as absent when empty
// carries `omitempty` and is left out instead. docs/json.md documents every
// report.
//
// Nulls finds the nulls of an emitted document, for the tests that hold
// every command to this.
package jsonout

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Version is the version of sentinel's JSON reports, the first field of
// each. A later version only adds fields; a reader ignores those it does
// not know. It changes when a field changes meaning or type, or goes.
const Version = 1

// Write writes doc, which must encode as a JSON object without a field of
// its own named "version", as a report: see the package documentation.
func Write(w io.Writer, doc any) error {
	b, err := Marshal(doc)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Marshal is Write's output: the report, ending in a newline.
func Marshal(doc any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	// Names and reasons carry < > & often enough (`Name <email>`); a
	// report is not HTML.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(filled(reflect.ValueOf(doc)).Interface()); err != nil {
		return nil, fmt.Errorf("write a JSON report: %w", err)
	}
	body := bytes.TrimSpace(buf.Bytes())
	if len(body) < 2 || body[0] != '{' {
		return nil, fmt.Errorf("write a JSON report: a %T is not a JSON object", doc)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		return nil, fmt.Errorf("write a JSON report: %w", err)
	}
	if _, ok := top["version"]; ok {
		return nil, fmt.Errorf("write a JSON report: a %T has a version of its own; jsonout writes it", doc)
	}
	flat := []byte(`{"version":` + strconv.Itoa(Version))
	if len(top) > 0 {
		flat = append(append(flat, ','), body[1:]...)
	} else {
		flat = append(flat, '}')
	}
	var out bytes.Buffer
	if err := json.Indent(&out, flat, "", "  "); err != nil {
		return nil, fmt.Errorf("write a JSON report: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// ErrorReport is what a command asked for JSON writes when it cannot do its
// job: {"version": 1, "error": "..."}.
type ErrorReport struct {
	// Error is the message sentinel prints on stderr.
	Error string `json:"error"`
}

// WriteError writes err as an ErrorReport.
func WriteError(w io.Writer, err error) error {
	return Write(w, ErrorReport{Error: err.Error()})
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// filled is a copy of v in which every nil slice and map that
// encoding/json would write as null is empty instead. The parts of v that
// are not encoded (unexported fields, fields tagged "-") are shared, not
// copied; v itself is left as it is. A type that encodes itself, and a
// byte slice, which encodes as a string, are taken as they are.
func filled(v reflect.Value) reflect.Value {
	if !v.IsValid() {
		return v
	}
	t := v.Type()
	if t.Implements(jsonMarshaler) || t.Implements(textMarshaler) {
		return v
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		p := reflect.New(t.Elem())
		p.Elem().Set(filled(v.Elem()))
		return p
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		out := reflect.New(t).Elem()
		out.Set(filled(v.Elem()))
		return out
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return v
		}
		out := reflect.MakeSlice(t, v.Len(), v.Len())
		for i := range v.Len() {
			out.Index(i).Set(filled(v.Index(i)))
		}
		return out
	case reflect.Array:
		out := reflect.New(t).Elem()
		for i := range v.Len() {
			out.Index(i).Set(filled(v.Index(i)))
		}
		return out
	case reflect.Map:
		out := reflect.MakeMapWithSize(t, v.Len())
		for it := v.MapRange(); it.Next(); {
			out.SetMapIndex(it.Key(), filled(it.Value()))
		}
		return out
	case reflect.Struct:
		out := reflect.New(t).Elem()
		out.Set(v)
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Tag.Get("json") == "-" {
				continue
			}
			if fv := out.Field(i); fv.CanSet() {
				fv.Set(filled(v.Field(i)))
			}
		}
		return out
	}
	return v
}

// Nulls returns where the JSON document data holds null, as JSON pointers
// ("/drops", "/commits/0/accepted"), an object's keys in sorted order;
// none for a report as Write writes it.
func Nulls(data []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	var out []string
	var walk func(v any, at string)
	walk = func(v any, at string) {
		switch v := v.(type) {
		case nil:
			out = append(out, at)
		case []any:
			for i, e := range v {
				walk(e, at+"/"+strconv.Itoa(i))
			}
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				walk(v[k], at+"/"+pointerEscape.Replace(k))
			}
		}
	}
	walk(doc, "")
	return out, nil
}

// pointerEscape escapes a key for a JSON pointer (RFC 6901).
var pointerEscape = strings.NewReplacer("~", "~0", "/", "~1")
