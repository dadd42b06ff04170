package fakemodel

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

// --- Augment's own API (Auggie CLI) ---
//
// Auggie talks to its tenant's API, not to a model vendor's: POST
// <tenant>/chat-stream with the conversation's nodes and the tools as
// tool_definitions, answered with one JSON object a line (text, nodes,
// stop_reason); the tool's result comes back as a request node of type 1
// (tool_result_node). Its start-up asks get-models, whose feature_flags
// decide, among much else, whether Auggie runs hooks at all
// (enable_hooks): the fake turns them on.

// Augment's node types and stop reasons, as its chat-stream reads them.
const (
	augmentText       = 0
	augmentToolResult = 1
	augmentToolUse    = 5
	augmentEndTurn    = 1
	augmentToolUseReq = 3
)

type augment struct{}

func (augment) tools(req map[string]any) []Tool {
	var out []Tool
	for _, t := range list(req["tool_definitions"]) {
		o := obj(t)
		n := str(o["name"])
		if n == "" {
			continue
		}
		var schema json.RawMessage
		if s := str(o["input_schema_json"]); s != "" && json.Valid([]byte(s)) {
			schema = json.RawMessage(s)
		}
		out = append(out, Tool{Name: n, Schema: schema})
	}
	return out
}

// result finds the tool_result_node of the call among the request's
// nodes, or those of an earlier exchange of its history.
func (augment) result(req map[string]any, id string) (string, bool) {
	nodes := list(req["nodes"])
	for _, ex := range list(req["chat_history"]) {
		nodes = append(nodes, list(obj(ex)["request_nodes"])...)
	}
	for _, n := range nodes {
		r := obj(obj(n)["tool_result_node"])
		if r != nil && str(r["tool_use_id"]) == id {
			return flatten(r["content"]), true
		}
	}
	return "", false
}

func (augment) streams(_ *http.Request, _ map[string]any) bool { return true }

func (augment) answer(w http.ResponseWriter, _ map[string]any, _ bool, call *Call, text string) {
	var lines []map[string]any
	if call != nil {
		lines = []map[string]any{
			{"text": "", "nodes": []any{map[string]any{"id": 1, "type": augmentToolUse, "content": "",
				"tool_use": map[string]any{"tool_use_id": callID, "tool_name": call.Name, "input_json": argsJSON(call)}}}},
			{"text": "", "stop_reason": augmentToolUseReq},
		}
	} else {
		lines = []map[string]any{
			{"text": text, "nodes": []any{map[string]any{"id": 1, "type": augmentText, "content": text}}},
			{"text": "", "stop_reason": augmentEndTurn},
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	for _, l := range lines {
		b, _ := json.Marshal(l)
		_, _ = w.Write(append(b, '\n'))
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
}

// augmentModels is get-models' answer: one model, and the feature flags
// that switch Auggie's hooks on.
const augmentModels = `{"default_model":"fake-model","models":[{"name":"fake-model","suggested_prefix_char_count":0,"suggested_suffix_char_count":0}],"feature_flags":{"enable_hooks":true}}`

// augmentSide answers Augment's side requests that an empty object does
// not satisfy; false for every other path.
func augmentSide(w http.ResponseWriter, p string) bool {
	switch {
	case strings.HasSuffix(p, "/get-models"):
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, augmentModels)
	case strings.HasSuffix(p, "/agents/list-remote-tools"):
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"tools":[]}`)
	default:
		return false
	}
	return true
}
