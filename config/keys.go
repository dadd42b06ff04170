package config

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/gitsentinel/sentinel/internal/suggest"
)

// siblingKeys returns the keys the configuration knows beside the last
// part of key (the keys of the table that holds it), read from the toml
// tags, so that the list cannot drift from the fields. It returns nil
// where the table is free-form (a map) or unknown itself.
func siblingKeys(key []string) []string {
	t := reflect.TypeOf(Config{})
	for _, part := range key[:max(0, len(key)-1)] {
		f, ok := fieldByKey(t, part)
		if !ok {
			return nil
		}
		t = f.Type
		// An array of tables ([[guard.rules]]) holds the keys of its
		// element.
		for t.Kind() == reflect.Slice || t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		if name := tomlName(t.Field(i)); name != "" {
			keys = append(keys, name)
		}
	}
	return keys
}

func fieldByKey(t reflect.Type, key string) (reflect.StructField, bool) {
	if t.Kind() != reflect.Struct {
		return reflect.StructField{}, false
	}
	for i := 0; i < t.NumField(); i++ {
		if tomlName(t.Field(i)) == key {
			return t.Field(i), true
		}
	}
	return reflect.StructField{}, false
}

func tomlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	if name == "-" {
		return ""
	}
	return name
}

// unknownKeyHint returns " (did you mean auto_raise?)" for a misspelt key,
// or "".
func unknownKeyHint(key []string) string {
	if len(key) == 0 {
		return ""
	}
	return suggest.DidYouMean(key[len(key)-1], siblingKeys(key), nil)
}

// KeyError is a key the configuration does not know, at its place in the
// file: a typo that strict decoding refuses.
type KeyError struct {
	// File is the file's name as given to Parse.
	File string
	// Line and Col are the key's position, from 1.
	Line, Col int
	// Key is the key's path, table by table (ratchet, auto_rasie).
	Key []string
}

// Error names the file, the position and the key, and the known key it is
// likely a typo of.
func (e *KeyError) Error() string {
	return fmt.Sprintf("%s:%d:%d: unknown key %s%s", e.File, e.Line, e.Col, strings.Join(e.Key, "."), unknownKeyHint(e.Key))
}

// Suggestion returns the known key nearest to the unknown one, or "" when
// none is near enough to be what was meant.
func (e *KeyError) Suggestion() string {
	if len(e.Key) == 0 {
		return ""
	}
	return suggest.Closest(e.Key[len(e.Key)-1], siblingKeys(e.Key))
}

// Fix says what edit makes the file read: the key renamed to the one it
// is likely a typo of, or removed, with the keys its table does know.
func (e *KeyError) Fix() string {
	at := fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Col)
	last := ""
	if len(e.Key) > 0 {
		last = e.Key[len(e.Key)-1]
	}
	if s := e.Suggestion(); s != "" {
		return fmt.Sprintf("rename %s to %s at %s", last, s, at)
	}
	fix := fmt.Sprintf("remove %s at %s", strings.Join(e.Key, "."), at)
	if keys := siblingKeys(e.Key); len(keys) > 0 {
		table := "the top level"
		if len(e.Key) > 1 {
			table = "[" + strings.Join(e.Key[:len(e.Key)-1], ".") + "]"
		}
		fix += "; " + table + " knows " + strings.Join(keys, ", ")
	}
	return fix
}

// expected says, for people, what a key's value must be, read from the
// type of its field: "true or false" for ratchet.auto_raise. It is "" for
// a key the configuration does not know.
func expected(key []string) string {
	t := reflect.TypeOf(Config{})
	for _, part := range key {
		for t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct {
			t = t.Elem() // an array of tables: the element's keys
		}
		switch t.Kind() {
		case reflect.Struct:
			f, ok := fieldByKey(t, part)
			if !ok {
				return ""
			}
			t = f.Type
		case reflect.Map:
			t = t.Elem()
		default:
			return ""
		}
	}
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string, in quotes"
	case reflect.Int, reflect.Int64:
		return "a whole number"
	case reflect.Map:
		return "a table of " + kindName(t.Elem())
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Struct {
			return "a list of tables: [[" + strings.Join(key, ".") + "]] entries, each with its own keys"
		}
		return "a list of " + kindName(t.Elem()) + `, such as ["a", "b"]`
	case reflect.Struct:
		return "a table: [" + strings.Join(key, ".") + "]"
	}
	return ""
}

// kindName names a value type in the plural, as a list or table holds it.
func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false values"
	case reflect.Int, reflect.Int64:
		return "whole numbers"
	}
	return "strings"
}
