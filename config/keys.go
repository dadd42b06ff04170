package config

import (
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
